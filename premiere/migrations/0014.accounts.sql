-- Accounts: a bot author. An account has a name, a token (only its hash is kept) and a state;
-- it owns bots, and every version of a bot belongs to the bot's account. Bots registered
-- before accounts existed, and every bot an operator adds with `premiere bots add`, belong to
-- the `operator` account, whose bots are each their own owner (the operator registers them for
-- the people it hands their tokens to); the bots of any other account share one owner, the
-- account (docs/security.md, "Authors").

CREATE TABLE invites (
    id          bigserial PRIMARY KEY,
    code_hash   text NOT NULL UNIQUE,
    uses_left   integer NOT NULL CHECK (uses_left >= 0),
    expires_at  timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
    token_hash  text NOT NULL UNIQUE,
    state       text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'disabled')),
    reason      text NOT NULL DEFAULT '',
    invite_id   bigint REFERENCES invites (id),
    created_at  timestamptz NOT NULL DEFAULT now()
);

INSERT INTO accounts (name, token_hash, reason)
VALUES ('operator', 'operator:no-token', 'the operator''s bots (`premiere bots add`)');

ALTER TABLE bots ADD COLUMN account_id bigint REFERENCES accounts (id);
UPDATE bots SET account_id = (SELECT id FROM accounts WHERE name = 'operator');
ALTER TABLE bots ALTER COLUMN account_id SET NOT NULL;
CREATE INDEX bots_account ON bots (account_id);

-- A row inserted without an account takes its family's (a version) or the operator's.
CREATE FUNCTION bots_default_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.account_id IS NULL THEN
        NEW.account_id := coalesce(
            (SELECT account_id FROM bots WHERE id = NEW.family_id),
            (SELECT id FROM accounts WHERE name = 'operator'));
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER bots_default_account BEFORE INSERT ON bots
    FOR EACH ROW EXECUTE FUNCTION bots_default_account();

-- Streams open on every arbiter, so that the per-bot and per-account stream caps hold across
-- arbiters. Each arbiter renews its rows while the streams live; a row past its expiry is an
-- arbiter that died, and counts for nothing. Unlogged: nothing here must survive a crash.
CREATE UNLOGGED TABLE bot_streams (
    arbiter     text NOT NULL,
    stream      bigint NOT NULL,
    bot_id      bigint NOT NULL,
    family_id   bigint NOT NULL,
    account_id  bigint NOT NULL,
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (arbiter, stream)
);
CREATE INDEX bot_streams_account ON bot_streams (account_id, expires_at);
CREATE INDEX bot_streams_family ON bot_streams (family_id, expires_at);

-- Every challenge a bot made, for the per-account caps (open challenges, rated challenges a
-- day, challenges a minute) that hold across arbiters. match_id is NULL while the match is
-- being created.
CREATE TABLE challenges (
    id          bigserial PRIMARY KEY,
    account_id  bigint NOT NULL REFERENCES accounts (id),
    bot_id      bigint NOT NULL REFERENCES bots (id),
    match_id    uuid REFERENCES matches (id),
    rated       boolean NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX challenges_account ON challenges (account_id, created_at);

-- Why a match was created unrated (NULL: created rated): casual, validation, validating,
-- failed, probation, unvalidated (not validated in this game), same-owner.
ALTER TABLE matches ADD COLUMN unrated_reason text;

COMMENT ON TABLE accounts IS 'owner: arbiter';
COMMENT ON TABLE invites IS 'owner: arbiter';
COMMENT ON TABLE bot_streams IS 'owner: arbiter';
COMMENT ON TABLE challenges IS 'owner: arbiter';

-- Validation is per game and per bot family: a version inherits what its lineage validated.
CREATE TABLE lineage_validations (
    family  text NOT NULL,
    game    text NOT NULL,
    bot     text NOT NULL,
    at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (family, game)
);
COMMENT ON TABLE lineage_validations IS 'owner: workers';

-- A bots row with who owns it: `owner` is the key no rated table may hold twice (the account,
-- or for the operator's bots the bot family), and whether it may play at all.
CREATE OR REPLACE VIEW bot_lineage AS
SELECT b.name, coalesce(f.name, b.name) AS family, b.version, p.name AS predecessor,
       coalesce(f.active_id, f.id, b.active_id, b.id) = b.id AS active,
       b.created_at, b.removed_at IS NOT NULL OR f.removed_at IS NOT NULL AS removed,
       a.name AS account,
       CASE WHEN a.name = 'operator' THEN 'operator:' || coalesce(f.name, b.name)
            ELSE a.name END AS owner,
       a.state = 'active' AS account_active
FROM bots b
JOIN accounts a ON a.id = b.account_id
LEFT JOIN bots f ON f.id = b.family_id
LEFT JOIN bots p ON p.id = b.predecessor_id;

CREATE OR REPLACE VIEW bot_directory AS
SELECT b.name, b.games, b.removed_at IS NOT NULL OR f.removed_at IS NOT NULL AS removed,
       b.player_counts, b.accepts, b.max_matches
FROM bots b
LEFT JOIN bots f ON f.id = b.family_id;

-- Validated before this change: every game a rated bot claimed (all five when it claimed
-- every game, as these were the games then).
INSERT INTO lineage_validations (family, game, bot)
SELECT DISTINCT ON (l.family, g) l.family, g, s.bot
FROM bot_standing s
JOIN bot_lineage l ON l.name = s.bot
JOIN bots b ON b.name = s.bot
CROSS JOIN LATERAL unnest(CASE WHEN b.games IS NULL OR cardinality(b.games) = 0
    THEN ARRAY['magic-trick', 'movie-tricks', 'movie-trailer', 'motion-pictures', 'movie-fight']
    ELSE b.games END) g
WHERE s.state IN ('rated', 'probation')
ON CONFLICT DO NOTHING;

-- Matches created unrated before this change: a validation match, or casual.
UPDATE matches m SET unrated_reason = CASE WHEN EXISTS
    (SELECT 1 FROM validation_matches v WHERE v.match_id = m.id) THEN 'validation' ELSE 'casual' END
WHERE NOT m.rated;

-- What the one gate (premiere/admission.py) reads of each bots row: its owner, whether it may
-- play, its standing, and the games its lineage was validated in. A version is disabled when
-- it or its family's root is.
CREATE VIEW seat_admission AS
SELECT l.name AS bot, l.family, l.owner, l.removed, l.account_active, s.state,
       EXISTS (SELECT 1 FROM bot_standing d
               WHERE d.bot IN (l.name, l.family) AND d.state = 'disabled') AS disabled,
       coalesce((SELECT array_agg(v.game ORDER BY v.game) FROM lineage_validations v
                 WHERE v.family = l.family), '{}') AS validated
FROM bot_lineage l
LEFT JOIN bot_standing s ON s.bot = l.name;
COMMENT ON VIEW seat_admission IS 'owner: arbiter';

-- A league may seat two bots of one owner (a private league); such tables are never rated.
ALTER TABLE leagues ADD COLUMN allow_same_owner boolean NOT NULL DEFAULT false;
