-- The ladder: live Elo per game and player, its history, the record of which matches were
-- rated (each match id at most once), and the queue of finished matches waiting to be rated.
-- How the tables are used, and why, is in ladder/store.py and docs/ratings.md.

-- Who holds a rating: a registered bot, or a built-in bot by name. A built-in is one player on
-- each ladder, whichever match and seat it plays in.
CREATE TABLE ladder_players (
    id       bigserial PRIMARY KEY,
    bot_id   bigint UNIQUE REFERENCES bots (id),
    builtin  text UNIQUE,
    CHECK ((bot_id IS NULL) <> (builtin IS NULL))
);

-- One row per game. `last_seq` numbers the rated matches of the game: it is taken as the last
-- step of rating a match, so sequence numbers follow commit order and have no gaps. `voided`
-- counts rated matches voided since (so last_seq - voided matches count), and `generation`
-- changes whenever the ladder is replayed because of such a void.
CREATE TABLE ladders (
    game        text PRIMARY KEY,
    last_seq    bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
    voided      bigint NOT NULL DEFAULT 0 CHECK (voided >= 0),
    generation  bigint NOT NULL DEFAULT 0 CHECK (generation >= 0)
);

-- Live Elo: the current rating of a player on a game's ladder and the rated matches behind it.
-- `bot_id` repeats the player's bot (NULL for a built-in) so ratings join bots directly.
CREATE TABLE ratings (
    game        text NOT NULL,
    player_id   bigint NOT NULL REFERENCES ladder_players (id),
    bot_id      bigint REFERENCES bots (id),
    rating      double precision NOT NULL,
    games       integer NOT NULL DEFAULT 0 CHECK (games >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, player_id)
);

-- A match id appears here at most once: inserting it is the exactly-once guard. `seq` is its
-- place in the ladder's order (NULL when the match had fewer than two distinct players, so
-- there was nothing to rate). A rated match voided later keeps its row, with `voided_at` set.
CREATE TABLE rated_matches (
    match_id   uuid PRIMARY KEY REFERENCES matches (id),
    game       text NOT NULL,
    seq        bigint,
    seats      integer NOT NULL CHECK (seats >= 0),
    rated_at   timestamptz NOT NULL DEFAULT now(),
    voided_at  timestamptz,
    UNIQUE (game, seq)
);

-- One row per rated seat of every rated (and not voided) match.
CREATE TABLE rating_history (
    match_id    uuid NOT NULL REFERENCES rated_matches (match_id),
    seat        integer NOT NULL CHECK (seat >= 0),
    game        text NOT NULL,
    seq         bigint NOT NULL,
    player_id   bigint NOT NULL REFERENCES ladder_players (id),
    rank        integer NOT NULL CHECK (rank >= 1),
    before      double precision NOT NULL,
    after       double precision NOT NULL,
    delta       double precision NOT NULL,
    games       integer NOT NULL CHECK (games >= 1),
    applied_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX rating_history_player ON rating_history (game, player_id, seq);
CREATE INDEX rating_history_log ON rating_history (game, seq);

-- Finished matches not yet rated, filled by a trigger on matches, so that finding the work does
-- not scan every match ever played. Rating a match (or finding it is not ratable) removes it.
CREATE TABLE rating_queue (
    match_id     uuid PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
    finished_at  timestamptz NOT NULL
);

CREATE INDEX rating_queue_order ON rating_queue (finished_at, match_id);

CREATE FUNCTION ladder_enqueue_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'finished' THEN
        INSERT INTO rating_queue (match_id, finished_at)
        VALUES (NEW.id, coalesce(NEW.finished_at, now()))
        ON CONFLICT (match_id) DO NOTHING;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER matches_enqueue_finished_insert
    AFTER INSERT ON matches
    FOR EACH ROW WHEN (NEW.status = 'finished')
    EXECUTE FUNCTION ladder_enqueue_finished();

CREATE TRIGGER matches_enqueue_finished_update
    AFTER UPDATE OF status ON matches
    FOR EACH ROW WHEN (NEW.status = 'finished' AND OLD.status <> 'finished')
    EXECUTE FUNCTION ladder_enqueue_finished();

-- Matches that finished before this migration wait in the queue like any other.
INSERT INTO rating_queue (match_id, finished_at)
SELECT id, coalesce(finished_at, created_at) FROM matches WHERE status = 'finished';
