-- When each player last played on the game's ladder: the end (finished_at) of its last rated
-- match there, in the ladder's order (seq), kept on its ratings row by the transaction that
-- rates a match and by a void's replay. The leaderboard read it with one probe per player into
-- rating_history and matches, a cost that grew with the number of stored matches; read from
-- here it does not. NULL: no rated match (or its end unknown); the leaderboard then shows
-- updated_at, as before.
ALTER TABLE ratings ADD COLUMN IF NOT EXISTS last_played timestamptz;

UPDATE ratings r SET last_played = (
    SELECT m.finished_at FROM rating_history h JOIN matches m ON m.id = h.match_id
    WHERE h.game = r.game AND h.player_id = r.player_id
    ORDER BY h.seq DESC LIMIT 1
);
