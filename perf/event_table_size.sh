#!/usr/bin/env bash
# Does a big event table slow moves down? (docs/scaling.md, "Time partitioning")
#
#   bash perf/event_table_size.sh
#   # CLIENTS=32 SECONDS_PER_RUN=10 ROUNDS=5 SINGLE_SECONDS=5 PRELOAD_MATCHES=100000
#
# Two scratch databases with the service's schema: `referee_events_fresh` (empty) and
# `referee_events_big` (PRELOAD_MATCHES finished matches of 50 events each, spread over a year,
# written plies-of-all-matches at a time the way a live service interleaves them, into the real
# table with all its indexes). The same pgbench "floor" statement as perf/load.sh (version-checked
# UPDATE of a match row with an in-progress state made by the service, plus the INSERT of one event)
# runs against each in turn, alternating which goes first, on fresh matches every run (the log is
# append-only, so nothing is reset), with CLIENTS clients, then with one client for its latencies,
# then with one client and synchronous_commit off (the commit's WAL flush, slow on a shared disk,
# would otherwise hide the cost of the statement itself).
# Prints every run, then the median (and range) of each figure per database; each run is audited (the run's matches' versions add up to the events stored for them).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
clients=${CLIENTS:-32}
seconds=${SECONDS_PER_RUN:-10}
rounds=${ROUNDS:-5}
single_seconds=${SINGLE_SECONDS:-5}
preload=${PRELOAD_MATCHES:-100000}
pg=postgres://postgres@127.0.0.1:5432
service_addr=127.0.0.1:18195
work=$(mktemp -d /tmp/referee-events.XXXXXX)

# A real in-progress state and event payload: one server-dealt match created through the service.
referee=$(built_executable referee --bin referee)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_events_svc WITH (FORCE)" 2>/dev/null
DATABASE_URL="$pg/referee_events_svc" BIND_ADDRESS="$service_addr" RUST_LOG=warn \
    "$referee" >/dev/null 2>&1 &
service_pid=$!
trap 'kill $service_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do curl -fs "http://$service_addr/readyz" >/dev/null && break; sleep 0.2; done
curl -fs -X POST "http://$service_addr/v1/matches" -H 'content-type: application/json' \
    -d '{"game":"lucky-jack","seats":[{"name":"Ann"},{"name":"Ben"},{"name":"Cleo"},{"name":"Dan"}]}' \
    >/dev/null
kill $service_pid
wait $service_pid 2>/dev/null || true
columns="game, rules_version, options, randomness, seed, seed_sha256, owner_token_hash, state, kind"
psql "$pg/referee_events_svc" -qc "\\copy (SELECT $columns FROM matches) TO '$work/row.tsv'"
psql "$pg/referee_events_svc" -Atc "SELECT state FROM matches" | sed "s/'/''/g" >"$work/state.json"
psql "$pg/referee_events_svc" -Atc "SELECT payload FROM match_events ORDER BY ply LIMIT 1" |
    sed "s/'/''/g" >"$work/payload.json"
psql "$pg/postgres" -qc "DROP DATABASE referee_events_svc WITH (FORCE)"

for db in fresh big; do
    psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_events_$db WITH (FORCE)" 2>/dev/null
    psql "$pg/postgres" -qc "CREATE DATABASE referee_events_$db"
    for up in migrations/*/up.sql; do
        psql "$pg/referee_events_$db" -q -v ON_ERROR_STOP=1 -f "$up"
    done
    psql "$pg/referee_events_$db" -q -v ON_ERROR_STOP=1 <<SQL
CREATE TABLE model (game text, rules_version text, options jsonb, randomness text, seed text,
    seed_sha256 text, owner_token_hash bytea, state jsonb, kind text);
\\copy model FROM '$work/row.tsv'
SQL
done

start=$(date +%s)
psql "$pg/referee_events_big" -q -v ON_ERROR_STOP=1 <<SQL
INSERT INTO matches (id, game, rules_version, options, randomness, seed, seed_sha256,
    owner_token_hash, status, version, state, kind, created_at, updated_at, finished_at)
SELECT md5('old-' || n)::uuid, game, rules_version, options, randomness, seed, seed_sha256,
    owner_token_hash, 'finished', 50, state, kind, at, at, at
FROM model, generate_series(1, $preload) AS n,
    LATERAL (SELECT now() - make_interval(days => n % 365)) AS t (at);
SQL
for ply in $(seq 1 50); do
    psql "$pg/referee_events_big" -q -v ON_ERROR_STOP=1 -c "
        INSERT INTO match_events (match_id, ply, seat, payload, created_at)
        SELECT md5('old-' || n)::uuid, $ply, $ply % 4, '$(cat "$work/payload.json")',
            now() - make_interval(days => n % 365)
        FROM generate_series(1, $preload) AS n"
done
for db in fresh big; do psql "$pg/referee_events_$db" -qc "VACUUM ANALYZE"; done
echo "preload: $((preload * 50)) events in $(($(date +%s) - start)) s; sizes (table + indexes):"
for db in fresh big; do
    psql "$pg/referee_events_$db" -Atc "SELECT '  $db: ' || count(*) || ' events, ' ||
        pg_size_pretty(pg_total_relation_size('match_events')) FROM match_events"
done

cat >"$work/floor.sql" <<SQL
WITH advanced AS (
    UPDATE matches SET version = version + 1, state = '$(cat "$work/state.json")',
        updated_at = now()
    WHERE id = md5(:run::text || '-' || :client_id::text)::uuid AND version = :v
      AND status = 'in_progress'
    RETURNING id, version)
INSERT INTO match_events (match_id, ply, seat, payload, created_at)
SELECT id, version, 0, '$(cat "$work/payload.json")', now() FROM advanced
RETURNING ply AS v \gset
SQL

# One run on fresh matches: "<db> tps=…", or with one client "<db>_single tps=… p50_ms=… p99_ms=…"
# (`<db>_nosync_single` without waiting for the commit's flush: the statement's own cost).
run() {
    local db=$1 run=$2 clients=$3 sync=${4:-on} out audit label=$1
    rm -f "$work"/lat*
    psql "$pg/referee_events_$db" -q -v ON_ERROR_STOP=1 -c "
        INSERT INTO matches (id, game, rules_version, options, randomness, seed, seed_sha256,
            owner_token_hash, status, version, state, kind)
        SELECT md5('$run-' || c)::uuid, game, rules_version, options, randomness, seed,
            seed_sha256, owner_token_hash, 'in_progress', 0, state, kind
        FROM model, generate_series(0, $clients - 1) AS c"
    if [ "$clients" = 1 ]; then
        label=${db}_single
        [ "$sync" = on ] || label=${db}_nosync_single
        set -- -c 1 -j 1 -T "$single_seconds" -l --log-prefix="$work/lat"
    else
        set -- -c "$clients" -j 2 -T "$seconds"
    fi
    out=$(PGOPTIONS="-c synchronous_commit=$sync" pgbench -n "$@" -D v=0 -D run="$run" -f "$work/floor.sql" "$pg/referee_events_$db" 2>&1) || {
        echo "pgbench failed: $out" >&2
        exit 1
    }
    audit=$(psql "$pg/referee_events_$db" -Atc "
        WITH mine AS (SELECT md5('$run-' || c)::uuid AS id FROM generate_series(0, $clients - 1) c)
        SELECT (SELECT sum(version) FROM matches WHERE id IN (SELECT id FROM mine)) -
               (SELECT count(*) FROM match_events WHERE match_id IN (SELECT id FROM mine))")
    [ "$audit" = 0 ] || {
        echo "AUDIT: run $run on $db stored $audit events more or less than its versions" >&2
        exit 1
    }
    local line
    line="$label tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out" | head -1)"
    if [ "$clients" = 1 ]; then
        # pgbench's per-transaction log: the third field is the latency in microseconds.
        line+=$(sort -n -k3 "$work"/lat* | awk '{ l[NR] = $3 } END {
            printf " p50_ms=%.3f p99_ms=%.3f", l[int((NR - 1) * 0.5 + 1.5)] / 1000,
                l[int((NR - 1) * 0.99 + 1.5)] / 1000 }')
    fi
    echo "$line" | tee -a "$work/results"
}

echo "floor: $clients clients, $seconds s per run, $rounds rounds; state $(wc -c <"$work/state.json")" \
    "bytes, payload $(wc -c <"$work/payload.json") bytes"
for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) = 1 ]; then order="fresh big"; else order="big fresh"; fi
    for db in $order; do run "$db" "$round" "$clients"; done
    for db in $order; do run "$db" "$((1000 + round))" 1; done
    for db in $order; do run "$db" "$((2000 + round))" 1 off; done
done
# Medians over the rounds of each figure (tps, and the single client's latencies).
for label in fresh big fresh_single big_single fresh_nosync_single big_nosync_single; do
    grep "^$label " "$work/results" | python3 -c '
import re, statistics, sys
label = sys.argv[1]
runs = [dict(re.findall(r"(\w+)=([0-9.]+)", line)) for line in sys.stdin]
print(label, " ".join("median_%s=%.4g (%.4g-%.4g)" % (k, statistics.median(v), min(v), max(v))
      for k in runs[0] for v in [[float(r[k]) for r in runs]]))' "$label"
done
for db in fresh big; do psql "$pg/postgres" -qc "DROP DATABASE referee_events_$db WITH (FORCE)"; done
