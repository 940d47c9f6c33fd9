-- When the official standings move because the scale moved (the established bots' average is
-- held at 1500, so a bot becoming established shifts every standing), the ladder records it
-- here, so that every visitor's page can say so, not only a browser that saw the board before.
-- anchor: the bots whose average is held at 1500 (the established ones, or every bot while
-- none is); established: the established ones.
CREATE TABLE ladder_scales (
    game        text PRIMARY KEY,
    anchor      bigint[] NOT NULL,
    established bigint[] NOT NULL
);
COMMENT ON TABLE ladder_scales IS 'owner: ladder';

CREATE TABLE ladder_scale_moves (
    id       bigserial PRIMARY KEY,
    game     text NOT NULL,
    at       timestamptz NOT NULL DEFAULT now(),
    shift    double precision NOT NULL,
    joined   text[] NOT NULL DEFAULT '{}',
    departed text[] NOT NULL DEFAULT '{}'
);
CREATE INDEX ladder_scale_moves_game_at ON ladder_scale_moves (game, at DESC);
COMMENT ON TABLE ladder_scale_moves IS 'owner: ladder';
