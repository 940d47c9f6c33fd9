-- Bot versions. A registered bot (`premiere bots add NAME`) is the root of a family; every
-- other version of it is a bots row of its own, named NAME@VERSION, with family_id pointing at
-- the root and predecessor_id at the version it followed, so each version is its own player on
-- every ladder. Version rows have no token: the root's token logs in, and its Hello (or the
-- CLI) says which version is speaking. active_id, on the root, is the version seated when a
-- league or match names the family (NULL: the root itself).
ALTER TABLE bots DROP CONSTRAINT bots_name_check;
ALTER TABLE bots ADD CONSTRAINT bots_name_check
    CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}(@[A-Za-z0-9][A-Za-z0-9_.+-]{0,31})?$');
ALTER TABLE bots ADD COLUMN family_id bigint REFERENCES bots (id);
ALTER TABLE bots ADD COLUMN version text
    CHECK (version ~ '^[A-Za-z0-9][A-Za-z0-9_.+-]{0,31}$');
ALTER TABLE bots ADD COLUMN predecessor_id bigint REFERENCES bots (id);
ALTER TABLE bots ADD COLUMN active_id bigint REFERENCES bots (id);
CREATE UNIQUE INDEX bots_family_version ON bots (coalesce(family_id, id), version);

-- A version's live Elo starts from its predecessor's (provisional K until it has played its
-- own games); `start` keeps where it started, so a replay after a void starts there too.
ALTER TABLE ratings ADD COLUMN start double precision;

-- Each version with its family, predecessor and whether it is the active one, for the ladder's
-- lineage API and the workers (never a token hash).
CREATE VIEW bot_lineage AS
SELECT b.name, coalesce(f.name, b.name) AS family, b.version, p.name AS predecessor,
       coalesce(f.active_id, f.id, b.active_id, b.id) = b.id AS active,
       b.created_at, b.removed_at IS NOT NULL AS removed
FROM bots b
LEFT JOIN bots f ON f.id = b.family_id
LEFT JOIN bots p ON p.id = b.predecessor_id;
COMMENT ON VIEW bot_lineage IS 'owner: arbiter';
