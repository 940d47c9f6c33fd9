-- Bulk export (docs/research.md, "Export"): what the workers' monthly files and the web
-- process's export stream may read of the arbiter's and the ladder's tables, and nothing more.

-- Every ended match (finished or void) whose deal is revealed (no duplicate table dealt from
-- its seed still plays), with what its replay shows once it has ended: options, players in
-- seat order (name, bot family, version), seed, outcome, and every logged move with the moves
-- the engine applied on its own after it and the bot's note. A running match is not in it.
CREATE VIEW ended_match_records AS
SELECT m.id, m.game, m.options, m.players, m.seed, m.status, m.void_reason, m.outcome,
       coalesce(m.finished_at, m.started_at, m.created_at) AS ended_at, m.forced_at_start,
       (SELECT jsonb_agg(jsonb_build_object(
                   'seat', s.seat,
                   'name', coalesce(b.name, 'builtin:' || s.builtin),
                   'bot', coalesce(f.name, b.name, 'builtin:' || s.builtin),
                   'version', b.version) ORDER BY s.seat)
        FROM match_seats s
        LEFT JOIN bots b ON b.id = s.bot_id
        LEFT JOIN bots f ON f.id = b.family_id
        WHERE s.match_id = m.id) AS seats,
       (SELECT jsonb_agg(jsonb_build_array(mv.ply, mv.seat, mv.move, mv.defaulted, mv.forced,
                                           mv.note) ORDER BY mv.ply)
        FROM match_moves mv WHERE mv.match_id = m.id) AS moves
FROM matches m
WHERE m.status IN ('finished', 'void') AND (m.deal_tables <= 1 OR match_revealed(m.id));
COMMENT ON VIEW ended_match_records IS 'owner: arbiter';

-- Ended matches not in ended_match_records yet: their deal is still played at a sibling table.
-- A month's export file waits for them (workers/exports.py).
CREATE VIEW sealed_ended_matches AS
SELECT id, game, coalesce(finished_at, started_at, created_at) AS ended_at
FROM matches
WHERE status IN ('finished', 'void') AND deal_tables > 1 AND NOT match_revealed(id);
COMMENT ON VIEW sealed_ended_matches IS 'owner: arbiter';

-- Each rated seat's live Elo before and after a rated (and not voided) match.
CREATE VIEW rating_changes AS
SELECT match_id, seat, game, before, after, delta FROM rating_history;
COMMENT ON VIEW rating_changes IS 'owner: ladder';

-- Finished matches the ladder has still to rate: a month's export file waits for them too.
CREATE VIEW rating_waiting AS
SELECT match_id, finished_at FROM rating_queue;
COMMENT ON VIEW rating_waiting IS 'owner: ladder';

-- A game's ended matches in order of their end: the export's streaming reads.
CREATE INDEX matches_game_ended ON matches (game, coalesce(finished_at, started_at, created_at), id)
    WHERE status IN ('finished', 'void');
