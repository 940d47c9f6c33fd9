#!/bin/sh
# First start of the compose PostgreSQL only (docker-entrypoint-initdb.d): the login role that
# Grafana's PostgreSQL data source uses. It gets no table at all: migration 0004 makes it a
# member of premiere_ladder_reader, which may read the ladder's public views only
# (public_ratings, public_rating_history, public_ended_matches): no seeds, no live matches, no
# token hashes.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v reader_password="$GRAFANA_READER_PASSWORD" <<'SQL'
CREATE ROLE grafana_reader LOGIN PASSWORD :'reader_password';
GRANT CONNECT ON DATABASE :"DBNAME" TO grafana_reader;
GRANT USAGE ON SCHEMA public TO grafana_reader;
SQL
