-- Sealed deals: the tables of a duplicate group are dealt from one seed, so a table's seed,
-- replay and watch stream would show the hands of its sibling tables. A match knows how many
-- matches share its deal (deal_tables, from CreateMatch); it is revealed once it has ended and,
-- for a shared deal, once that many matches dealt from its seed have ended.

ALTER TABLE matches ADD COLUMN deal_tables integer NOT NULL DEFAULT 1
    CHECK (deal_tables BETWEEN 1 AND 64);

CREATE INDEX matches_shared_deal ON matches (game, seed) WHERE deal_tables > 1;

CREATE FUNCTION match_revealed(match uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT m.status IN ('finished', 'void') AND (
        m.deal_tables <= 1 OR (
            SELECT count(*) FROM matches d
            WHERE d.game = m.game AND d.seed = m.seed AND d.deal_tables > 1
              AND d.status IN ('finished', 'void')
        ) >= m.deal_tables)
    FROM matches m WHERE m.id = match;
$$;
