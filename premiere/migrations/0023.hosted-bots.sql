-- Hosted bots: an author uploads a bundle (a gzip-compressed tar with premiere-bot.toml at its
-- root, docs/hosting.md) and the runner (`premiere runner`, package hosting/) starts it in a
-- sandbox when it has matches to play. Bundles are content-addressed: the SHA-256 of the
-- archive names it, and the runner checks it again before unpacking. Each account's bundles
-- count against its storage quota (PREMIERE_BUNDLE_QUOTA_MB).
CREATE TABLE bundles (
    account_id  bigint NOT NULL REFERENCES accounts (id),
    sha256      text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    data        bytea NOT NULL,
    size        integer NOT NULL CHECK (size > 0),
    unpacked    bigint NOT NULL CHECK (unpacked >= 0),
    files       integer NOT NULL CHECK (files > 0),
    manifest    jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, sha256)
);
CREATE INDEX bundles_sha256 ON bundles (sha256);
COMMENT ON TABLE bundles IS 'owner: arbiter';

-- A version made by an upload runs its bundle; other versions dial in as before.
ALTER TABLE bots ADD COLUMN bundle_sha256 text;
CREATE INDEX bots_hosted ON bots (id) WHERE bundle_sha256 IS NOT NULL;

-- What the runner reads of each hosted version: its bundle, manifest, whether it may play,
-- whether it has work (an unfinished match seats it) and the moves it has made.
CREATE VIEW hosted_versions AS
SELECT b.id AS bot_id, b.name, b.version, l.family, b.bundle_sha256 AS sha256, u.manifest,
       l.account, l.removed OR NOT l.account_active AS retired, l.active,
       EXISTS (SELECT 1 FROM match_seats s JOIN matches m ON m.id = s.match_id
               WHERE s.bot_id = b.id AND m.status IN ('pending', 'running')) AS busy,
       (SELECT count(*) FROM match_moves mm JOIN match_seats s
          ON s.match_id = mm.match_id AND s.seat = mm.seat
        WHERE s.bot_id = b.id AND NOT mm.defaulted) AS decisions
FROM bots b
JOIN bot_lineage l ON l.name = b.name
JOIN bundles u ON u.account_id = b.account_id AND u.sha256 = b.bundle_sha256
WHERE b.bundle_sha256 IS NOT NULL;
COMMENT ON VIEW hosted_versions IS 'owner: arbiter';

-- The token a running hosted bot connects with: drawn by the runner at each start, only its
-- hash kept, handed to the sandboxed process alone. The arbiter accepts it for that version.
CREATE TABLE hosted_credentials (
    bot_id      bigint PRIMARY KEY REFERENCES bots (id),
    token_hash  text NOT NULL UNIQUE,
    issued_at   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE hosted_credentials IS 'owner: runner';

-- What a hosted bot printed, and what the runner says of it (start, exit, crash loop),
-- readable by the bot's owner only (AuthorService.GetBotLogs). The runner keeps each bot's
-- newest lines within PREMIERE_HOSTED_LOG_KB.
CREATE TABLE hosted_logs (
    id      bigserial PRIMARY KEY,
    bot_id  bigint NOT NULL REFERENCES bots (id),
    at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    source  text NOT NULL CHECK (source IN ('stdout', 'stderr', 'runner')),
    line    text NOT NULL
);
CREATE INDEX hosted_logs_bot ON hosted_logs (bot_id, id);
COMMENT ON TABLE hosted_logs IS 'owner: runner';

-- The runner's events for a hosted bot (started, stopped idle, crashed, crash loop), shown
-- beside the gate's in `premiere-bot bots events`.
CREATE TABLE hosted_events (
    id       bigserial PRIMARY KEY,
    bot_id   bigint NOT NULL REFERENCES bots (id),
    at       timestamptz NOT NULL DEFAULT now(),
    kind     text NOT NULL,
    message  text NOT NULL
);
CREATE INDEX hosted_events_bot ON hosted_events (bot_id, id);
COMMENT ON TABLE hosted_events IS 'owner: runner';

-- CPU time per decision, measured by the kernel for the sandbox's processes, per version.
CREATE TABLE hosted_usage (
    bot_id     bigint PRIMARY KEY REFERENCES bots (id),
    cpu_ms     bigint NOT NULL DEFAULT 0,
    decisions  bigint NOT NULL DEFAULT 0,
    starts     integer NOT NULL DEFAULT 0,
    pool       text NOT NULL DEFAULT '',
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE hosted_usage IS 'owner: runner';

-- A league may admit hosted bots only, so its standings compare programs, not machines.
ALTER TABLE leagues ADD COLUMN hosted_only boolean NOT NULL DEFAULT false;

-- The runner's events by player name, for AuthorService.GetBotEvents.
CREATE VIEW hosted_events_public AS
SELECT e.id, b.name AS bot, e.at, e.kind, e.message
FROM hosted_events e JOIN bots b ON b.id = e.bot_id;
COMMENT ON VIEW hosted_events_public IS 'owner: runner';

-- A hosted version's current token (the runner's), by hash, for the arbiter's log-in.
CREATE VIEW hosted_logins AS
SELECT bot_id, token_hash FROM hosted_credentials;
COMMENT ON VIEW hosted_logins IS 'owner: runner';

-- Whether each bots row runs an uploaded bundle (a hosted version), for --hosted-only leagues
-- and the pages that mark hosted bots.
CREATE VIEW bot_hosting AS
SELECT b.name, b.bundle_sha256 IS NOT NULL AS hosted FROM bots b;
COMMENT ON VIEW bot_hosting IS 'owner: arbiter';
