-- The TV channel (/tv, /tv/<game>): a match the operator pins there (`premiere tv pin`), shown
-- while it runs instead of the highest-rated table. `channel` is '' for /tv, else a game id.
CREATE TABLE tv_pins (
    channel    text PRIMARY KEY,
    match_id   uuid NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    pinned_at  timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE tv_pins IS 'owner: ladder';
