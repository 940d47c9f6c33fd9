-- Leagues and their rounds; idempotent match creation for the workers.

ALTER TABLE matches ADD COLUMN idempotency_key text UNIQUE;

CREATE TABLE leagues (
    id             bigserial PRIMARY KEY,
    name           text NOT NULL UNIQUE,
    game           text NOT NULL,
    format         text NOT NULL,
    players        integer NOT NULL CHECK (players > 0),
    options        jsonb NOT NULL DEFAULT '{}',
    bots           text[] NOT NULL,
    every_seconds  integer CHECK (every_seconds > 0),
    cron           text,
    rounds         integer CHECK (rounds > 0),
    seed           text NOT NULL,
    move_time_ms   integer NOT NULL DEFAULT 0,
    time_bank_ms   integer NOT NULL DEFAULT 0,
    status         text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);

-- One row per round; `slot` names what opened it ("every:<n>", "cron:<minute>", "after:<n>",
-- "now:<id>"), and its uniqueness is what makes a double tick harmless.
CREATE TABLE league_rounds (
    league_id   bigint NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
    number      integer NOT NULL CHECK (number >= 1),
    slot        text NOT NULL,
    status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    opened_at   timestamptz NOT NULL DEFAULT now(),
    closed_at   timestamptz,
    standings   jsonb,
    PRIMARY KEY (league_id, number),
    UNIQUE (league_id, slot)
);

CREATE TABLE league_tables (
    league_id   bigint NOT NULL,
    round       integer NOT NULL,
    table_no    integer NOT NULL CHECK (table_no >= 0),
    seats       text[] NOT NULL,
    seed        text NOT NULL,
    grp         text,
    match_id    uuid REFERENCES matches (id),
    status      text NOT NULL DEFAULT 'planned'
                CHECK (status IN ('planned', 'dispatched', 'finished', 'void')),
    PRIMARY KEY (league_id, round, table_no),
    FOREIGN KEY (league_id, round) REFERENCES league_rounds (league_id, number) ON DELETE CASCADE
);

CREATE INDEX league_tables_unfinished ON league_tables (league_id, round)
    WHERE status IN ('planned', 'dispatched');
