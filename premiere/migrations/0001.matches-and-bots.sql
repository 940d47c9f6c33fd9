-- Bots, matches and the append-only move and fault logs of the arbiter.

CREATE TABLE bots (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    token_hash  text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE matches (
    id            uuid PRIMARY KEY,
    game          text NOT NULL,
    options       jsonb NOT NULL,
    players       integer NOT NULL CHECK (players > 0),
    seed          text NOT NULL,
    move_time_ms  integer NOT NULL CHECK (move_time_ms > 0),
    time_bank_ms  integer NOT NULL CHECK (time_bank_ms >= 0),
    strike_limit  integer NOT NULL CHECK (strike_limit >= 0),
    status        text NOT NULL CHECK (status IN ('pending', 'running', 'finished', 'void')),
    outcome       jsonb,
    void_reason   text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    started_at    timestamptz,
    finished_at   timestamptz
);

CREATE INDEX matches_unfinished ON matches (created_at) WHERE status IN ('pending', 'running');
CREATE INDEX matches_game_finished ON matches (game, finished_at) WHERE status = 'finished';

CREATE TABLE match_seats (
    match_id   uuid NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat       integer NOT NULL CHECK (seat >= 0),
    bot_id     bigint REFERENCES bots (id),
    builtin    text,
    strikes    integer NOT NULL DEFAULT 0,
    forfeited  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (match_id, seat),
    CHECK ((bot_id IS NULL) <> (builtin IS NULL))
);

CREATE INDEX match_seats_bot ON match_seats (bot_id) WHERE bot_id IS NOT NULL;

CREATE TABLE match_moves (
    match_id    uuid NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    ply         integer NOT NULL CHECK (ply >= 0),
    seat        integer NOT NULL,
    move        jsonb NOT NULL,
    defaulted   boolean NOT NULL DEFAULT false,
    elapsed_ms  integer NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, ply)
);

CREATE TABLE match_faults (
    id        bigserial PRIMARY KEY,
    match_id  uuid NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    ply       integer NOT NULL,
    seat      integer NOT NULL,
    kind      text NOT NULL,
    blame     text NOT NULL CHECK (blame IN ('bot', 'infrastructure')),
    detail    text NOT NULL DEFAULT '',
    at        timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX match_faults_match ON match_faults (match_id, ply);
