"""The spectator pages: the dashboard, visual replays, live matches, bot and league pages, and
the static files they draw with. The ladder process serves them beside its ratings API; they
only read (the ratings through ``ladder.queries``, matches and leagues from their owners' tables
and views), so nothing here changes a rating."""
