-- Every table has one owning service, the only one that writes it (COMMENT ON TABLE says which;
-- tests/unit/test_table_owners.py checks the code keeps to it). Other services read what they
-- need through the owner's views below, or through its API.
--
-- arbiter (server/): bots, matches, match_seats, match_moves, match_faults.
-- ladder (ladder/):  ladder_players, ladders, ratings, rated_matches, rating_history,
--                    rating_queue (filled by a trigger when the arbiter finishes a match).
-- workers (workers/): leagues, league_rounds, league_tables.
COMMENT ON TABLE bots IS 'owner: arbiter';
COMMENT ON TABLE matches IS 'owner: arbiter';
COMMENT ON TABLE match_seats IS 'owner: arbiter';
COMMENT ON TABLE match_moves IS 'owner: arbiter';
COMMENT ON TABLE match_faults IS 'owner: arbiter';
COMMENT ON TABLE ladder_players IS 'owner: ladder';
COMMENT ON TABLE ladders IS 'owner: ladder';
COMMENT ON TABLE ratings IS 'owner: ladder';
COMMENT ON TABLE rated_matches IS 'owner: ladder';
COMMENT ON TABLE rating_history IS 'owner: ladder';
COMMENT ON TABLE rating_queue IS 'owner: ladder';
COMMENT ON TABLE leagues IS 'owner: workers';
COMMENT ON TABLE league_rounds IS 'owner: workers';
COMMENT ON TABLE league_tables IS 'owner: workers';

-- The arbiter's registered bots as others may see them (never the token hash).
CREATE VIEW bot_directory AS
SELECT name, games, removed_at IS NOT NULL AS removed FROM bots;
COMMENT ON VIEW bot_directory IS 'owner: arbiter';

-- How each match ended, for league standings.
CREATE VIEW match_results AS
SELECT id, game, status, outcome, finished_at FROM matches;
COMMENT ON VIEW match_results IS 'owner: arbiter';

-- Live Elo by player name (a bot's name, or builtin:NAME), for ladder matchmaking.
CREATE VIEW ladder_ratings AS
SELECT r.game, coalesce(b.name, 'builtin:' || p.builtin) AS player, r.rating, r.games
FROM ratings r
JOIN ladder_players p ON p.id = r.player_id
LEFT JOIN bots b ON b.id = p.bot_id;
COMMENT ON VIEW ladder_ratings IS 'owner: ladder';
