"""Rewrite every golden replay: `make golden`. Review the diff before committing it."""

from tests.golden.replays import regenerate

if __name__ == "__main__":
    for path in regenerate():
        print(f"wrote {path}")
