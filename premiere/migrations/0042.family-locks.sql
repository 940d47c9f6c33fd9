-- The workers lock a bot family's row while they change its standing, as the arbiter does
-- while it seats the bot, so a match is seated on the standing before a change or after it.
-- They reach the arbiter's row through this simple view (FOR UPDATE locks the row beneath).
CREATE VIEW bot_families AS
SELECT b.id, b.name, coalesce(b.family_id, b.id) AS family_id FROM bots b;
COMMENT ON VIEW bot_families IS 'owner: arbiter';
