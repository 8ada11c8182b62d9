#!/usr/bin/env bash
# Load benchmark (not part of the test suite): the service's speed as a ratio to what the
# framework and the database do on the same machine, over loopback.
#
#   bash bench/load.sh     # CONCURRENCY=32 SECONDS_PER_RUN=10 ROUNDS=3 SINGLE_SECONDS=3
#
# The machine's speed drifts from minute to minute, so the workloads run in interleaved rounds:
# each round runs echo, check, moves, pgbench INSERT and the pgbench move floor one after the
# other (then the single-client runs), and the summary gives the median and the spread (min–max)
# of each ratio over the rounds. See docs/benchmarks.md, "Method (interleaved rounds)".
#
# Every moves run is audited: the match_events rows it added must equal the moves acknowledged
# with 200 plus the chance plies they triggered plus the deals of the matches it created, exactly,
# or the script stops. The floor is audited the same way on its scratch database.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
concurrency=${CONCURRENCY:-32}
seconds=${SECONDS_PER_RUN:-10}
rounds=${ROUNDS:-3}
single_seconds=${SINGLE_SECONDS:-3}
pg=postgres://postgres@127.0.0.1:5432
echo_addr=127.0.0.1:18181
service_addr=127.0.0.1:18182
work=$(mktemp -d /tmp/referee-load.XXXXXX)

referee=$(built_executable referee --release --bin referee)
echo_server=$(built_executable echo_server --release --example echo_server)
load=$(built_executable load --release --example load)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_load WITH (FORCE)"
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_pgbench WITH (FORCE)"
psql "$pg/postgres" -qc "CREATE DATABASE referee_pgbench"

"$echo_server" "$echo_addr" &
echo_pid=$!
DATABASE_URL="$pg/referee_load" BIND_ADDRESS="$service_addr" RATE_LIMIT_PER_SECOND=0 \
    DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-8} RUST_LOG=warn "$referee" &
service_pid=$!
trap 'kill $echo_pid $service_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do
    curl -fs "http://$service_addr/readyz" >/dev/null && curl -fs -o /dev/null -X POST \
        -H 'content-type: application/json' -d '{}' "http://$echo_addr/echo" && break
    sleep 0.2
done

events() { psql "$pg/referee_load" -Atc "SELECT count(*) FROM match_events"; }

# One moves run, audited against the rows it stored.
moves() {
    local before after line expected
    before=$(events)
    line=$("$load" moves "http://$service_addr" "$1" "$2")
    after=$(events)
    expected=$(sed -n 's/.* stored_expected=\([0-9]*\).*/\1/p' <<<"$line")
    if [ "$((after - before))" -ne "$expected" ]; then
        echo "STORED EVENTS MISMATCH: the database gained $((after - before)) events," \
            "the answers account for $expected: $line" >&2
        exit 1
    fi
    echo "$line stored=$((after - before))"
}

# One pgbench run: "<name> tps=… clients=…"; with a log prefix, per-transaction latencies too.
pgbench_run() {
    local name=$1 clients=$2 secs=$3 script=$4 out
    shift 4
    out=$(pgbench -n -c "$clients" -j "$((clients < 2 ? clients : 2))" -T "$secs" -D v=0 \
        -f "$script" "$@" "$pg/referee_pgbench" 2>&1) || {
        echo "pgbench $name failed: $out" >&2
        exit 1
    }
    echo "$name clients=$clients tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out" | head -1)"
}

# The check body, made once by the service: echo and check get the very same request bytes.
"$load" check-body "http://$service_addr" >"$work/check.json"
# Warm-up, which also leaves real match rows for the floor to copy.
moves 8 2 >/dev/null

# pgbench baselines on a scratch database with the service's own schema (tables, indexes and the
# append-only trigger). INSERT: one row into a bare table. Floor: one statement doing what a
# stored move must do at least, the version-checked UPDATE of a real match row (the median-sized
# in-progress state from the warm-up, sent whole as the service sends it) plus the INSERT of one
# event; each client owns one match and carries its version from one move to the next (\gset).
for up in migrations/*/up.sql; do psql "$pg/referee_pgbench" -q -v ON_ERROR_STOP=1 -f "$up"; done
psql "$pg/referee_pgbench" -qc \
    "CREATE TABLE t (id bigserial PRIMARY KEY, v integer, at timestamptz DEFAULT now())"
echo "INSERT INTO t (v) VALUES (1);" >"$work/insert.sql"
median_row="FROM matches WHERE status = 'in_progress' ORDER BY octet_length(state::text)"
median_row+=" OFFSET (SELECT count(*) / 2 FROM matches WHERE status = 'in_progress') LIMIT 1"
psql "$pg/referee_load" -Atc "SELECT state $median_row" | sed "s/'/''/g" >"$work/state.json"
psql "$pg/referee_load" -Atc "SELECT pg_column_size(m.*) FROM (SELECT * $median_row) m" \
    >"$work/row_bytes"
psql "$pg/referee_load" -Atc \
    "SELECT payload FROM match_events WHERE seat IS NOT NULL ORDER BY ply DESC LIMIT 1" |
    sed "s/'/''/g" >"$work/payload.json"
# (\copy reads its query to the end of the line: keep it on one.)
columns="game, rules_version, options, randomness, seed, seed_sha256, owner_token_hash, state, kind"
psql "$pg/referee_load" -qc "\\copy (SELECT $columns $median_row) TO '$work/row.tsv'"
psql "$pg/referee_pgbench" -q -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE model (game text, rules_version text, options jsonb, randomness text, seed text,
    seed_sha256 text, owner_token_hash bytea, state jsonb, kind text);
\\copy model FROM '$work/row.tsv'
INSERT INTO matches (id, game, rules_version, options, randomness, seed, seed_sha256,
    owner_token_hash, status, version, state, kind)
SELECT md5(c::text)::uuid, game, rules_version, options, randomness, seed, seed_sha256,
    owner_token_hash, 'in_progress', 0, state, kind
FROM model, generate_series(0, greatest($concurrency, 1) - 1) AS c;
SQL
cat >"$work/floor.sql" <<SQL
WITH advanced AS (
    UPDATE matches SET version = version + 1, state = '$(cat "$work/state.json")',
        updated_at = now()
    WHERE id = md5(:client_id::text)::uuid AND version = :v AND status = 'in_progress'
    RETURNING id, version)
INSERT INTO match_events (match_id, ply, seat, payload, created_at)
SELECT id, version, 0, '$(cat "$work/payload.json")', now() FROM advanced
RETURNING ply AS v \gset
SQL
# The floor's own audit: every transaction pgbench counted advanced its match by one event.
floor_audit() {
    psql "$pg/referee_pgbench" -Atc "SELECT (SELECT coalesce(sum(version), 0) FROM matches) -
        (SELECT count(*) FROM match_events)" | grep -qx 0 || {
        echo "FLOOR MISMATCH: match versions and stored events differ" >&2
        exit 1
    }
}
# Each run starts its matches over (the log is append-only: truncate, not delete).
floor_reset() {
    psql "$pg/referee_pgbench" -qc "TRUNCATE match_events; UPDATE matches SET version = 0"
}

echo "concurrency $concurrency, $seconds s per run, $rounds rounds, single client $single_seconds s;" \
    "check body $(wc -c <"$work/check.json") bytes; floor row $(cat "$work/row_bytes") bytes"
for round in $(seq 1 "$rounds"); do
    {
        "$load" echo "http://$echo_addr" "$concurrency" "$seconds" "$work/check.json"
        "$load" check "http://$service_addr" "$concurrency" "$seconds" "$work/check.json"
        moves "$concurrency" "$seconds"
        pgbench_run insert "$concurrency" "$seconds" "$work/insert.sql"
        floor_reset
        pgbench_run floor "$concurrency" "$seconds" "$work/floor.sql"
        floor_audit
        "$load" check "http://$service_addr" 1 "$single_seconds" "$work/check.json"
        moves 1 "$single_seconds"
        floor_reset
        rm -f "$work"/floorlog*
        pgbench_run floor 1 "$single_seconds" "$work/floor.sql" -l --log-prefix="$work/floorlog"
        floor_audit
        # pgbench's per-transaction log: the third field is the latency in microseconds.
        sort -n -k3 "$work"/floorlog* | awk '{ l[NR] = $3 } END {
            printf "floor_latency p50_ms=%.3f p99_ms=%.3f\n",
                l[int((NR - 1) * 0.5 + 1.5)] / 1000, l[int((NR - 1) * 0.99 + 1.5)] / 1000 }'
    } | sed "s/^/round=$round /" | tee -a "$work/results"
done
peak_kib=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$service_pid/status")
python3 bench/summary.py "$work/results" "$peak_kib"
