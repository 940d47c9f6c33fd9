"""The integration fixtures (a scratch database, a running arbiter) for the league test."""

from tests.integration.conftest import arbiter, database_url  # noqa: F401
