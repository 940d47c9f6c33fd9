-- Only matches created by a league or an operator, on a seed the caller could not know, are
-- rated. `rated` says so per match; matches from before this migration keep being rated as they
-- were. Rows written from now on say it explicitly; the default fails closed.

ALTER TABLE matches ADD COLUMN rated boolean NOT NULL DEFAULT true;
ALTER TABLE matches ALTER COLUMN rated SET DEFAULT false;

CREATE OR REPLACE FUNCTION ladder_enqueue_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'finished' AND NEW.rated THEN
        INSERT INTO rating_queue (match_id, finished_at)
        VALUES (NEW.id, coalesce(NEW.finished_at, now()))
        ON CONFLICT (match_id) DO NOTHING;
    END IF;
    RETURN NULL;
END;
$$;

DELETE FROM rating_queue q USING matches m WHERE m.id = q.match_id AND NOT m.rated;

-- Grafana's reader sees the ladder through these views only: no seeds, no live matches, no
-- token hashes, no fault details of running matches.
CREATE VIEW public_ratings AS
    SELECT r.game, coalesce(b.name, 'builtin:' || p.builtin) AS player, r.rating, r.games,
           r.updated_at
    FROM ratings r
    JOIN ladder_players p ON p.id = r.player_id
    LEFT JOIN bots b ON b.id = p.bot_id;

CREATE VIEW public_rating_history AS
    SELECT h.game, h.seq, h.match_id, coalesce(b.name, 'builtin:' || p.builtin) AS player,
           h.rank, h.before, h.after, h.delta, h.games, h.applied_at
    FROM rating_history h
    JOIN ladder_players p ON p.id = h.player_id
    LEFT JOIN bots b ON b.id = p.bot_id;

CREATE VIEW public_ended_matches AS
    SELECT id, game, players, status, rated, created_at, started_at, finished_at
    FROM matches
    WHERE status IN ('finished', 'void');

-- The role those views are granted to (Grafana's login role is made a member of it by
-- deploy/postgres/10-grafana-reader.sh). Roles are per cluster: made once, whoever is first.
DO $$
BEGIN
    CREATE ROLE premiere_ladder_reader NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
    NULL;
END;
$$;

GRANT SELECT ON public_ratings, public_rating_history, public_ended_matches
    TO premiere_ladder_reader;

-- Stacks deployed before this migration gave grafana_reader every table: take that back.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'grafana_reader') THEN
        EXECUTE 'REVOKE ALL ON ALL TABLES IN SCHEMA public FROM grafana_reader';
        EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT ON TABLES FROM grafana_reader';
        EXECUTE 'GRANT premiere_ladder_reader TO grafana_reader';
    END IF;
END;
$$;

COMMENT ON VIEW public_ratings IS 'owner: ladder';
COMMENT ON VIEW public_rating_history IS 'owner: ladder';
COMMENT ON VIEW public_ended_matches IS 'owner: arbiter';
