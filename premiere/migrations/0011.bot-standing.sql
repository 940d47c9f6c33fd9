-- A bot's standing (workers/standing.py): the validation gate and probation, per bots row (so
-- per version), and every change as an event its owner can read. The workers own all three
-- tables; the arbiter publishes each bot's faults per finished match for them.

CREATE TABLE bot_standing (
    bot      text PRIMARY KEY,
    state    text NOT NULL
             CHECK (state IN ('validating', 'failed', 'rated', 'probation', 'disabled')),
    since    timestamptz NOT NULL DEFAULT now(),
    reason   text NOT NULL DEFAULT ''
);

CREATE TABLE bot_events (
    id       bigserial PRIMARY KEY,
    bot      text NOT NULL,
    at       timestamptz NOT NULL DEFAULT now(),
    kind     text NOT NULL,
    message  text NOT NULL
);

CREATE INDEX bot_events_bot ON bot_events (bot, id);

CREATE TABLE validation_matches (
    bot       text NOT NULL,
    game      text NOT NULL,
    number    integer NOT NULL CHECK (number >= 0),
    seats     text[] NOT NULL,
    match_id  uuid,
    status    text NOT NULL DEFAULT 'planned'
              CHECK (status IN ('planned', 'dispatched', 'finished', 'void')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bot, game, number)
);

COMMENT ON TABLE bot_standing IS 'owner: workers';
COMMENT ON TABLE bot_events IS 'owner: workers';
COMMENT ON TABLE validation_matches IS 'owner: workers';

-- Bots that had connected before the gate existed keep their rated play.
INSERT INTO bot_standing (bot, state, reason)
SELECT name, 'rated', 'rated before validation existed' FROM bots
WHERE games IS NOT NULL AND removed_at IS NULL;

-- Per bots row and ended match: the kinds of the faults blamed on the bot (never their
-- detail), for the gate and probation.
CREATE VIEW bot_match_faults AS
SELECT b.name AS bot, m.id AS match_id, m.game, m.status, m.finished_at,
       coalesce(array_agg(f.kind ORDER BY f.id) FILTER (WHERE f.id IS NOT NULL), '{}') AS faults
FROM match_seats s
JOIN bots b ON b.id = s.bot_id
JOIN matches m ON m.id = s.match_id
LEFT JOIN match_faults f ON f.match_id = m.id AND f.seat = s.seat AND f.blame = 'bot'
WHERE m.status IN ('finished', 'void')
GROUP BY b.name, m.id;
COMMENT ON VIEW bot_match_faults IS 'owner: arbiter';

-- What the ladder serves of a bot's standing and events.
CREATE VIEW bot_standing_public AS
SELECT bot, state, since, reason FROM bot_standing;
COMMENT ON VIEW bot_standing_public IS 'owner: workers';

CREATE VIEW bot_events_public AS
SELECT id, bot, at, kind, message FROM bot_events;
COMMENT ON VIEW bot_events_public IS 'owner: workers';
