-- Every round's progress of a format that ends on its own (the SPRT's LLR, pentanomial counts
-- and verdict after each round), not only the latest one in leagues.progress: the league page
-- draws the LLR over time from it. Written by the workers when a round closes.

CREATE TABLE league_progress_rounds (
    league_id  bigint NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    round      integer NOT NULL CHECK (round >= 0),
    progress   jsonb NOT NULL,
    at         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (league_id, round)
);

COMMENT ON TABLE league_progress_rounds IS 'owner: workers';

-- What was kept before this table existed: each league's latest progress, at its last closed
-- round.
INSERT INTO league_progress_rounds (league_id, round, progress, at)
SELECT l.id, r.number, l.progress, coalesce(l.progress_at, r.closed_at, now())
FROM leagues l
JOIN LATERAL (
    SELECT number, closed_at FROM league_rounds
    WHERE league_id = l.id AND status = 'closed' ORDER BY number DESC LIMIT 1
) r ON true
WHERE l.progress IS NOT NULL;

-- What the ladder serves of it.
CREATE VIEW league_progress_history AS
SELECT league_id, round, progress, at FROM league_progress_rounds;
COMMENT ON VIEW league_progress_history IS 'owner: workers';
