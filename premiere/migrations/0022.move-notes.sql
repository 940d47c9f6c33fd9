-- A bot's note on its answer (DecisionAnswer.note: its plan, its estimate), stored with the
-- move it came with. Shown only once the match has ended (a note can reveal a hand); at most
-- 512 bytes, the arbiter refuses a longer one.
ALTER TABLE match_moves ADD COLUMN note text CHECK (note IS NULL OR octet_length(note) <= 512);
