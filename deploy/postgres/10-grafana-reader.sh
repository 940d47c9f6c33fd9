#!/bin/sh
# First start of the compose PostgreSQL only (docker-entrypoint-initdb.d): a login role that
# Grafana's PostgreSQL data source uses to read the ladder, with SELECT and nothing more, on
# every table that POSTGRES_USER (who runs the migrations) creates from now on.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v reader_password="$GRAFANA_READER_PASSWORD" -v owner="$POSTGRES_USER" <<'SQL'
CREATE ROLE grafana_reader LOGIN PASSWORD :'reader_password';
GRANT CONNECT ON DATABASE :"DBNAME" TO grafana_reader;
GRANT USAGE ON SCHEMA public TO grafana_reader;
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public GRANT SELECT ON TABLES TO grafana_reader;
SQL
