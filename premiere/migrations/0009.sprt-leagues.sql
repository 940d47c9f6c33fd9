-- Formats with settings of their own (the SPRT's Elo bounds and error rates), leagues whose
-- matches are unrated (an SPRT is, unless the operator says otherwise), and the progress a
-- format that ends on its own reports after each round (the SPRT's log-likelihood ratio).

ALTER TABLE leagues ADD COLUMN settings jsonb NOT NULL DEFAULT '{}';
ALTER TABLE leagues ADD COLUMN rated boolean NOT NULL DEFAULT true;
ALTER TABLE leagues ADD COLUMN progress jsonb;
ALTER TABLE leagues ADD COLUMN progress_at timestamptz;

-- What the ladder serves of a league (never its seed).
CREATE VIEW league_progress AS
SELECT id, name, game, format, players, bots, settings, rated, status, progress, progress_at,
       created_at, finished_at
FROM leagues;
COMMENT ON VIEW league_progress IS 'owner: workers';
