#!/usr/bin/env bash
# `make test`: every test once, then the tests of how services are reached a second time with
# the other kind of servers, so both kinds are covered wherever it runs:
#
# - PREMIERE_DATABASE_URL set: every test with those servers, then those integration tests with
#   private servers started from the wheels (what a bare machine gets);
# - not set: every test with private servers; then, in CI (CI=true) when a PostgreSQL trusting
#   user postgres and a Redis answer on 127.0.0.1, those integration tests once more with them.
set -euo pipefail
cd "$(dirname "$0")/.."
python=.venv/bin/python
# The second pass: the tests that exercise how the services are reached and configured
# (start-up, restarts, leagues through Celery, the ladder's store), not every integration test
# again, which would double the suite's time for little more coverage.
integration=(
    tests/integration/test_stack.py
    tests/integration/test_arbiter_restart.py
    tests/integration/test_leagues.py
    tests/integration/test_arbiters.py
    tests/ladder/test_api.py
    tests/ladder/test_store.py
)
# Of those files, the tests about concurrency rather than how services are reached (killed
# workers, eight rating processes) ran in the first pass and say nothing new the second time;
# nor do the two that start private servers of their own whatever is configured (a killed
# launcher's private stack, a PostgreSQL restarted under the arbiter): the same run twice.
again=(-k "not test_killed_workers_lose_and_duplicate_nothing and not test_eight_processes_rate \
and not test_nothing_outlives_a_killed_launcher and not test_database_restart_mid_match")
machine_db=postgresql://postgres@127.0.0.1:5432/postgres
machine_redis=redis://127.0.0.1:6379/0
answers='import sys, psycopg, redis
psycopg.connect(sys.argv[1], connect_timeout=2).close()
redis.Redis.from_url(sys.argv[2], socket_connect_timeout=2).ping()'

# The tests start hundreds of Python processes (arbiters, workers, bots, every CLI call), each
# reading the repository's modules from __pycache__; where PYTHONDONTWRITEBYTECODE is set (CI
# containers often set it) none is ever written, and every process compiled them all again:
# a third of an arbiter's start-up CPU. compileall writes them whatever that says.
sources=(bench clients games hosting ladder premiere research scripts server spectator tests wire workers)
"$python" -m compileall -q -j 0 "${sources[@]}" >/dev/null || true

# worksteal: a worker that runs out of tests takes some of another's queue, so the run does not
# end on one worker finishing a long tail of slow tests while the other waits.
"$python" -m pytest -n auto --dist worksteal "$@"

if [ -n "${PREMIERE_DATABASE_URL:-}" ]; then
    echo "again with private PostgreSQL and Redis: ${integration[*]}"
    env -u PREMIERE_DATABASE_URL -u PREMIERE_REDIS_URL "$python" -m pytest -n auto --dist worksteal "${again[@]}" "${integration[@]}"
elif [ -n "${CI:-}" ] && "$python" -c "$answers" "$machine_db" "$machine_redis" 2>/dev/null; then
    echo "again with the machine's PostgreSQL and Redis: ${integration[*]}"
    PREMIERE_DATABASE_URL=$machine_db PREMIERE_REDIS_URL=$machine_redis \
        "$python" -m pytest -n auto --dist worksteal "${again[@]}" "${integration[@]}"
fi
