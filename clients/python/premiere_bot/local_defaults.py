"""The arbiter's default clock (premiere/config.py), which `try` and `check` play by unless
told otherwise; tests/wire/test_local.py keeps the two equal."""

MOVE_TIME_MS = 2000
TIME_BANK_MS = 30000
STRIKE_LIMIT = 3
