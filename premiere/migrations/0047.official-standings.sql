-- The official standings as the ladder last stored them (its published fit, with 95% intervals),
-- one row per rated player, rewritten each time the ladder stores a fit. Other services read
-- them through official_standings: an event seeds its entrants by them, not by live Elo.
CREATE TABLE published_standings (
    game        text NOT NULL,
    player_id   bigint NOT NULL,
    rating      double precision NOT NULL,
    low         double precision NOT NULL,
    high        double precision NOT NULL,
    games       integer NOT NULL,
    provisional boolean NOT NULL,
    matches     bigint NOT NULL,
    fitted_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, player_id)
);
COMMENT ON TABLE published_standings IS 'owner: ladder';

-- The official standings by player name (a bot's name, or builtin:NAME).
CREATE VIEW official_standings AS
SELECT s.game, coalesce(b.name, 'builtin:' || p.builtin) AS player, s.rating, s.low, s.high,
       s.games, s.provisional, s.matches
FROM published_standings s
JOIN ladder_players p ON p.id = s.player_id
LEFT JOIN bots b ON b.id = p.bot_id;
COMMENT ON VIEW official_standings IS 'owner: ladder';

-- The league's bots the arena no longer seated (removed, disabled) when the round was planned:
-- a knockout heat left void after its replays goes through in seed order with these last, and
-- the pages redraw that decision as it was taken.
ALTER TABLE league_rounds ADD COLUMN withdrawn text[] NOT NULL DEFAULT '{}';
