-- The last official standings fit of each game, kept so that a restarted ladder starts from it
-- and reads only the matches rated since, instead of refitting the whole log
-- (ladder/snapshots.py). The arrays are little-endian float64 / int64, in the order of
-- `player_ids`; `hessian` is that many squared. `generation` and `last_seq` are the ladder's
-- counters the fit covers (a void bumps the generation, which makes the snapshot stale), and
-- `exact_seq` is the last_seq of the last fit over the whole log: the matches after it were
-- folded in (ladder/standings.py, "Folding in new matches").
CREATE TABLE standings_snapshots (
    game        text PRIMARY KEY REFERENCES ladders (game),
    generation  bigint NOT NULL,
    last_seq    bigint NOT NULL CHECK (last_seq >= 0),
    exact_seq   bigint NOT NULL CHECK (exact_seq >= 0 AND exact_seq <= last_seq),
    matches     bigint NOT NULL CHECK (matches >= 0),
    player_ids  bytea NOT NULL,
    theta       bytea NOT NULL,
    games       bytea NOT NULL,
    hessian     bytea NOT NULL,
    saved_at    timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE standings_snapshots IS 'owner: ladder';
