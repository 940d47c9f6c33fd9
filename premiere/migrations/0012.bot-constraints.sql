-- What a bot accepts, as its last Hello declared it: table sizes (NULL: any its games allow),
-- rated or casual matches ('any', 'rated', 'casual') and how many matches at once. The arbiter
-- refuses a match that breaks them; the ladder format's matchmaker never proposes one.
ALTER TABLE bots ADD COLUMN player_counts integer[];
ALTER TABLE bots ADD COLUMN accepts text NOT NULL DEFAULT 'any'
    CHECK (accepts IN ('any', 'rated', 'casual'));
ALTER TABLE bots ADD COLUMN max_matches integer NOT NULL DEFAULT 1 CHECK (max_matches >= 1);

CREATE OR REPLACE VIEW bot_directory AS
SELECT name, games, removed_at IS NOT NULL AS removed, player_counts, accepts, max_matches
FROM bots;
