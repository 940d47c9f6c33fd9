-- Bot health on the ladder's bot pages and its Grafana metrics (ladder/profiles.py: faults,
-- decisions and latency percentiles over the last day and week) selects a player's seats of the
-- matches begun in a window, "begun" being coalesce(started_at, created_at). Without an index on
-- that expression every such query read the whole matches table, and a built-in player's seats
-- (which have no bot_id, so match_seats_bot does not hold them) the whole match_seats table. Both
-- indexes are written once per match (created, started), never per move.

CREATE INDEX matches_begun ON matches ((coalesce(started_at, created_at)));

CREATE INDEX match_seats_builtin ON match_seats (builtin) WHERE builtin IS NOT NULL;
