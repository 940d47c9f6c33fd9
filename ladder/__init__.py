"""The ladder: ratings as pure maths (``ladder.elo`` live, ``ladder.standings`` official)."""
