-- Many arbiters on one database: each live match is hosted by one arbiter at a time.
--
-- An arbiter hosts a match while it holds the match's lease (owner, expiry). Every takeover of
-- a lease adds one to its fencing number; every move, fault and status write of the match
-- carries the fencing number its writer holds, and the database refuses a write whose number
-- is not the lease's current one (SQLSTATE PF001), so a stale owner's writes are refused, not
-- merged. The fencing numbers stay in the logs: a match's moves and faults show, in order,
-- which holder wrote them.

CREATE TABLE match_leases (
    match_id    uuid PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    owner       text NOT NULL,
    fence       bigint NOT NULL CHECK (fence > 0),
    expires_at  timestamptz NOT NULL
);
COMMENT ON TABLE match_leases IS 'owner: arbiter';

CREATE INDEX match_leases_owner ON match_leases (owner);

ALTER TABLE match_moves ADD COLUMN fence bigint;
ALTER TABLE match_faults ADD COLUMN fence bigint;

-- True when `held` is the match's current fencing number; raises PF001 otherwise. FOR SHARE
-- makes a concurrent takeover wait for the caller's transaction (and a write that waited for a
-- takeover sees the new number), so no write of a stale holder commits after a takeover.
CREATE FUNCTION arbiter_holds(match uuid, held bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM match_leases WHERE match_id = match AND fence = held FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'match % is no longer held with fencing number %', match, held
            USING ERRCODE = 'PF001';
    END IF;
    RETURN true;
END;
$$;

-- A leased match takes moves only from its current holder. A ply already logged with the same
-- content is a retried write and is skipped; with other content it is refused (PF002).
CREATE FUNCTION match_moves_fenced() RETURNS trigger LANGUAGE plpgsql AS $$
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
                AND logged.defaulted = NEW.defaulted AND logged.elapsed_ms = NEW.elapsed_ms THEN
            RETURN NULL;
        END IF;
        RAISE EXCEPTION 'match % already has another move at ply %', NEW.match_id, NEW.ply
            USING ERRCODE = 'PF002';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER match_moves_fenced BEFORE INSERT ON match_moves
    FOR EACH ROW EXECUTE FUNCTION match_moves_fenced();

CREATE FUNCTION match_faults_fenced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.fence IS NOT NULL THEN
        PERFORM arbiter_holds(NEW.match_id, NEW.fence);
    ELSIF EXISTS (SELECT 1 FROM match_leases WHERE match_id = NEW.match_id) THEN
        RAISE EXCEPTION 'match % is leased: its faults need a fencing number', NEW.match_id
            USING ERRCODE = 'PF001';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER match_faults_fenced BEFORE INSERT ON match_faults
    FOR EACH ROW EXECUTE FUNCTION match_faults_fenced();

-- A fault's natural key: a retried fault write is a no-op, not a second strike.
DELETE FROM match_faults f USING match_faults g
WHERE f.match_id = g.match_id AND f.ply = g.ply AND f.seat = g.seat AND f.kind = g.kind
  AND f.fence IS NOT DISTINCT FROM g.fence AND f.id > g.id;
CREATE UNIQUE INDEX match_faults_natural
    ON match_faults (match_id, ply, seat, kind, coalesce(fence, 0));

-- An ended match stays ended: the only change of a terminal status is an operator's void of a
-- finished match (ladder/).
CREATE FUNCTION matches_terminal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status IN ('finished', 'void') AND NEW.status <> OLD.status
            AND NOT (OLD.status = 'finished' AND NEW.status = 'void') THEN
        RAISE EXCEPTION 'match % is %; it cannot become %', OLD.id, OLD.status, NEW.status
            USING ERRCODE = 'PF003';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER matches_terminal BEFORE UPDATE OF status ON matches
    FOR EACH ROW EXECUTE FUNCTION matches_terminal();
