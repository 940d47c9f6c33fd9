-- What the CLI needs to manage bots and leagues.
--
-- bots.games: the games a bot said it plays when it last connected to the arbiter (an empty
-- array: every game; NULL: it has never connected), so a league that seats it for a game it
-- does not play is refused at creation. bots.removed_at: `premiere bots remove` keeps the row
-- (its matches and ratings refer to it) but no token logs in as it any more.
ALTER TABLE bots ADD COLUMN games text[];
ALTER TABLE bots ADD COLUMN last_connected_at timestamptz;
ALTER TABLE bots ADD COLUMN removed_at timestamptz;

-- A paused league opens no round and dispatches no table until it is resumed; a cancelled one
-- never will again (its open round closes with what was played).
ALTER TABLE leagues DROP CONSTRAINT leagues_status_check;
ALTER TABLE leagues ADD CONSTRAINT leagues_status_check
    CHECK (status IN ('active', 'paused', 'finished', 'cancelled'));
