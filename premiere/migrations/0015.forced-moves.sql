-- Forced moves in the move log. A decision whose seat has a single legal move is applied by the
-- engine without asking (State.forced_moves): it takes no ply and no decision number, but the
-- card it moves is part of the match. Each logged decision now also holds the moves the engine
-- applied on its own right after it, oldest first, as a JSON array of {"seat", "move"} (the
-- move in the engine's plain form, like `move`); the moves applied at set-up, before the first
-- decision, go with the match, written when its arbiter starts it. NULL is "not recorded": a
-- move logged before this migration (readers re-derive those from the engine); an empty array
-- is "none".
--
-- The forced moves ride in the row of their decision, so they are written by the same
-- statement, pass the same fencing trigger and are retried or refused with it: a ply logged
-- again must match in its forced moves too.

ALTER TABLE match_moves ADD COLUMN forced jsonb;
ALTER TABLE matches ADD COLUMN forced_at_start jsonb;

CREATE OR REPLACE FUNCTION match_moves_fenced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    logged match_moves%ROWTYPE;
BEGIN
    IF NEW.fence IS NOT NULL THEN
        PERFORM arbiter_holds(NEW.match_id, NEW.fence);
    ELSIF EXISTS (SELECT 1 FROM match_leases WHERE match_id = NEW.match_id) THEN
        RAISE EXCEPTION 'match % is leased: its moves need a fencing number', NEW.match_id
            USING ERRCODE = 'PF001';
    END IF;
    SELECT * INTO logged FROM match_moves WHERE match_id = NEW.match_id AND ply = NEW.ply;
    IF FOUND THEN
        IF logged.seat = NEW.seat AND logged.move = NEW.move
                AND logged.defaulted = NEW.defaulted AND logged.elapsed_ms = NEW.elapsed_ms
                AND logged.forced IS NOT DISTINCT FROM NEW.forced THEN
            RETURN NULL;
        END IF;
        RAISE EXCEPTION 'match % already has another move at ply %', NEW.match_id, NEW.ply
            USING ERRCODE = 'PF002';
    END IF;
    RETURN NEW;
END;
$$;
