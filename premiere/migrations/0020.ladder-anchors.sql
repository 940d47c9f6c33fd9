-- Pinned anchors: built-in players an operator holds at a fixed rating on one game's ladder
-- (`premiere ladder anchor set`, docs/ratings.md "Anchors"). Live Elo never moves them, the
-- other seats of their matches are rated against the pin, and the official standings report
-- on the scale the pins set. `builtin` is the built-in's name as seats store it ("search:100").
CREATE TABLE ladder_anchors (
    game     text NOT NULL,
    builtin  text NOT NULL,
    rating   double precision NOT NULL CHECK (rating > -100000 AND rating < 100000),
    set_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, builtin)
);

COMMENT ON TABLE ladder_anchors IS 'owner: ladder';

-- The rating a seat was pinned at when its match was rated (NULL: it moved), so a replay after
-- a void rates every match with the pins it was rated with, whatever the anchors are now.
ALTER TABLE rating_history ADD COLUMN pinned double precision;
