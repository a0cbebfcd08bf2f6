#!/usr/bin/env bash
# A throw-away PostgreSQL cluster with PostGIS for the push-down tests and benchmark (issue 14): Debian's
# packages (scripts/install-deps.sh installs them), listening on localhost only, trusting local
# connections, database "vbas" with PostGIS and the real MEPS rows of data/bench/meps1996_persons.csv
# (table meps); gone after `stop`. `test-data` adds the tests' tables: the Olinda tracts (PostGIS polygons,
# from data/demo/olinda.gpkg) and 1,000,000 records over them whose age, sex and education are drawn
# jointly from the MEPS rows (one whole row per record), education NULL for every 997th.
#
#   postgis-cluster.sh start WORK [PORT]   # the first free port from PORT (55433); prints the connection
#                                          # string and saves it in WORK/connection
#   postgis-cluster.sh test-data WORK
#   postgis-cluster.sh stop WORK
set -euo pipefail
action=$1
work=$2
root=$(cd "$(dirname "$0")/../.." && pwd)

# PostgreSQL refuses to run as root: as the postgres user then, in a folder that user can reach.
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ "$action" = stop ]; then
    if [ -f "$work/cluster" ]; then
        cluster=$(cat "$work/cluster")
        as_owner "$(cat "$work/bin")/pg_ctl" -D "$cluster/data" -m immediate stop || true
        rm -rf "$cluster" "$work/cluster"
    fi
    exit 0
fi

if [ "$action" = test-data ]; then
    connection=$(cat "$work/connection")
    ogr2ogr -f PostgreSQL "PG:$connection" "$root/data/demo/olinda.gpkg" tracts -nln areas \
        -lco GEOMETRY_NAME=geom -lco FID=area_fid -overwrite
    "$(cat "$work/bin")/psql" -X -q -v ON_ERROR_STOP=1 "$connection" << 'SQL'
DROP TABLE IF EXISTS records;
CREATE TABLE records AS
SELECT i AS patient_id, a.cd_geocodi AS tract, m.age, m.gender AS sex,
       CASE WHEN i % 997 = 0 THEN NULL ELSE m.education END AS education
FROM generate_series(1::bigint, 1000000) AS i
JOIN (SELECT row_number() OVER (ORDER BY cd_geocodi) - 1 AS n, cd_geocodi FROM areas) AS a
  ON a.n = (i * 7919) % (SELECT count(*) FROM areas)
JOIN meps AS m ON m.row_number - 1 = (i * 104729) % (SELECT count(*) FROM meps);
ALTER TABLE records ADD PRIMARY KEY (patient_id);
ANALYZE records;
SQL
    exit 0
fi

port=${3:-55433}
bin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "PostgreSQL's server is not installed: run scripts/install-deps.sh" >&2
    exit 1
fi
"$0" stop "$work"
mkdir -p "$work"
# Another cluster (another checkout's tests, say) may hold the port: the next free one then.
while "$bin/pg_isready" -q -h localhost -p "$port" || [ $? -ne 2 ]; do port=$((port + 1)); done
cluster=$(mktemp -d /tmp/vbas-postgis.XXXXXX)
chmod 755 "$cluster"
if [ "$(id -u)" = 0 ]; then chown postgres "$cluster"; fi
echo "$cluster" > "$work/cluster"
echo "$bin" > "$work/bin"

as_owner "$bin/initdb" -D "$cluster/data" -U vbas --auth=trust -E UTF8 --locale=C > "$cluster/initdb.log"
# Durability is not wanted for tables rebuilt on every run.
as_owner "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w \
    -o "-p $port -k $cluster -c listen_addresses=localhost -c fsync=off -c synchronous_commit=off \
-c full_page_writes=off -c max_wal_size=4GB" start > /dev/null ||
    { cat "$cluster/server.log" >&2; exit 1; }

connection="host=localhost port=$port dbname=vbas user=vbas"
"$bin/psql" -X -q -v ON_ERROR_STOP=1 "host=localhost port=$port dbname=postgres user=vbas" \
    -c "CREATE DATABASE vbas"
"$bin/psql" -X -q -v ON_ERROR_STOP=1 "$connection" << SQL
CREATE EXTENSION postgis;
CREATE TABLE meps (row_number serial, age integer, gender text, married text, ethnicity text,
                   education text);
\copy meps (age, gender, married, ethnicity, education) FROM '$root/data/bench/meps1996_persons.csv' CSV HEADER
SQL
echo "$connection" > "$work/connection"
echo "$connection"
