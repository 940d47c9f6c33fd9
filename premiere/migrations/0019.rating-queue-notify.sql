-- A match queued for rating is announced on the channel premiere_rating_queue (delivered when
-- the arbiter's transaction commits), so the ladder rates it as soon as it has settled instead
-- of at its next look (ladder/queue_watch.py). The trigger is the one of 0006, plus the notice.
CREATE OR REPLACE FUNCTION ladder_enqueue_finished() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'finished' AND NEW.rated THEN
        INSERT INTO rating_queue (match_id, finished_at)
        VALUES (NEW.id, coalesce(NEW.finished_at, now()))
        ON CONFLICT (match_id) DO NOTHING;
        PERFORM pg_notify('premiere_rating_queue', '');
    END IF;
    RETURN NULL;
END;
$$;
