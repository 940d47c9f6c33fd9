-- Promises that hold under churn (issue 41).

-- A stream remembers the token it was opened with: rotating the token, removing or disabling
-- the bot, or disabling its account ends it (server/quotas.py, `retired`).
ALTER TABLE bot_streams ADD COLUMN token_bot_id bigint, ADD COLUMN token_hash text;
