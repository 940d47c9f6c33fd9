-- Promises that hold under churn (issue 41).

-- A stream remembers the token it was opened with: rotating the token, removing or disabling
-- the bot, or disabling its account ends it (server/quotas.py, `retired`).
ALTER TABLE bot_streams ADD COLUMN token_bot_id bigint, ADD COLUMN token_hash text;

-- Probation is the lineage's: a bot is on probation while any version of it is, removed or
-- not, so neither rolling back to an older version nor removing the one on probation ends it
-- (premiere/admission.py). Only `recover` clean matches of the lineage end it (workers/gate.py).
CREATE OR REPLACE VIEW seat_admission AS
SELECT l.name AS bot, l.family, l.owner, l.removed, l.account_active, s.state,
       EXISTS (SELECT 1 FROM bot_standing d
               WHERE d.bot IN (l.name, l.family) AND d.state = 'disabled') AS disabled,
       coalesce((SELECT array_agg(v.game ORDER BY v.game) FROM lineage_validations v
                 WHERE v.family = l.family), '{}') AS validated,
       EXISTS (SELECT 1 FROM bot_standing p JOIN bot_lineage o ON o.name = p.bot
               WHERE o.family = l.family AND p.state = 'probation') AS lineage_probation
FROM bot_lineage l
LEFT JOIN bot_standing s ON s.bot = l.name;

-- What an idempotency key was used for (server/arbiter.py, `fingerprint`): the same key with a
-- different request is refused, naming the conflict.
ALTER TABLE matches ADD COLUMN idempotency_fingerprint text;

-- Names are unique ignoring case and Unicode compatibility forms (`Operator` beside
-- `operator`, a fullwidth letter beside its plain one): accounts, and bots' family roots (a
-- version's name is its root's, with '@').
CREATE UNIQUE INDEX accounts_name_folded ON accounts (lower(normalize(name, NFKC)));
CREATE UNIQUE INDEX bots_root_name_folded ON bots (lower(normalize(name, NFKC)))
    WHERE family_id IS NULL;
