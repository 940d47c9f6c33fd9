-- Events: competitions authors enter themselves. The operator declares one (game, format,
-- entry window, start, entry rules); the workers open its entry, turn it into a league of its
-- format with the entrants at the start time, and finish it when that league finishes.
-- The entries are the arbiter's: authors enter and withdraw through its AuthorService, and,
-- where the operator allows it (PREMIERE_AUTHOR_EVENTS), propose events there too
-- (event_proposals), which the workers announce as events on their next tick.
CREATE TABLE events (
    id               bigserial PRIMARY KEY,
    name             text NOT NULL UNIQUE,
    game             text NOT NULL,
    options          jsonb NOT NULL DEFAULT '{}',
    format           text NOT NULL,
    settings         jsonb NOT NULL DEFAULT '{}',
    players          integer NOT NULL CHECK (players > 0),
    rounds           integer CHECK (rounds > 0),
    move_time_ms     integer NOT NULL DEFAULT 0,
    opens_at         timestamptz NOT NULL,
    starts_at        timestamptz NOT NULL CHECK (starts_at >= opens_at),
    hosted_only      boolean NOT NULL DEFAULT false,
    min_games        integer NOT NULL DEFAULT 0 CHECK (min_games >= 0),
    min_rating       double precision,
    invited          text[],
    allow_same_owner boolean NOT NULL DEFAULT false,
    status           text NOT NULL DEFAULT 'announced'
        CHECK (status IN ('announced', 'open', 'running', 'finished', 'paused', 'cancelled')),
    paused_from      text,
    reason           text NOT NULL DEFAULT '',
    league_id        bigint REFERENCES leagues (id),
    proposed_by      text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz
);
COMMENT ON TABLE events IS 'owner: workers';
COMMENT ON COLUMN events.invited IS 'accounts that may enter; NULL: anyone (not invite only)';
COMMENT ON COLUMN events.paused_from IS 'the status a paused event resumes to';
COMMENT ON COLUMN events.proposed_by IS 'the account that proposed it; NULL: the operator';

CREATE TABLE event_proposals (
    id               bigserial PRIMARY KEY,
    name             text NOT NULL UNIQUE,
    account          text NOT NULL,
    game             text NOT NULL,
    format           text NOT NULL,
    players          integer NOT NULL CHECK (players > 0),
    rounds           integer CHECK (rounds > 0),
    opens_at         timestamptz NOT NULL,
    starts_at        timestamptz NOT NULL CHECK (starts_at >= opens_at),
    hosted_only      boolean NOT NULL DEFAULT false,
    min_games        integer NOT NULL DEFAULT 0 CHECK (min_games >= 0),
    min_rating       double precision,
    created_at       timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE event_proposals IS 'owner: arbiter';

-- What the workers read of the proposals.
CREATE VIEW proposed_events AS
    SELECT name, account, game, format, players, rounds, opens_at, starts_at, hosted_only,
           min_games, min_rating, created_at FROM event_proposals;
COMMENT ON VIEW proposed_events IS 'owner: arbiter';

CREATE TABLE event_entries (
    event_id   bigint NOT NULL REFERENCES events (id),
    bot        text NOT NULL,
    account    text NOT NULL,
    entered_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, bot)
);
COMMENT ON TABLE event_entries IS 'owner: arbiter';

-- What the workers read of the entries.
CREATE VIEW event_entrants AS
    SELECT event_id, bot, account, entered_at FROM event_entries;
COMMENT ON VIEW event_entrants IS 'owner: arbiter';
