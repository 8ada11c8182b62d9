#!/usr/bin/env bash
# Load benchmark (not part of the test suite): the service's speed as a ratio to what the
# framework and the database do on the same machine, over loopback.
#
#   bash perf/load.sh     # CONCURRENCY=32 SECONDS_PER_RUN=10 ROUNDS=5 SINGLE_SECONDS=3
#
# The machine's speed drifts from minute to minute, so the workloads run in interleaved rounds:
# each round runs echo, check, moves, pgbench INSERT and the pgbench move floor one after the
# other (then the single-client runs), and the summary gives the median and the spread (min–max)
# of each ratio over the rounds. See docs/benchmarks.md, "Method (interleaved rounds)".
#
# The service's tables are never reset between rounds: they keep growing, and the summary
# compares the last round's moves/s with the first's (raw, and as a ratio to the floor), so a
# move whose cost grows with the tables shows up.
#
# The floor is fixed: nothing the project changes can move it. It runs on a scratch database
# whose two tables are written out below (the shape of `matches` and `match_events` with their
# primary keys only: no trigger, no foreign key, no other index; not from migrations/), seeded
# with one row per client carrying the state of a real match row of about 1.3 KB. One
# transaction is one prepared statement in autocommit (`pgbench -M prepared`): the
# version-checked UPDATE of the client's row (version, state, updated_at) and the INSERT of one
# small event whose ply is the new version. If the floor came from the project's own schema, a
# change to the schema (a trigger more or less, say) would move the reference along with the
# thing it measures.
#
# Every moves run is audited: the match_events rows it added must equal the moves acknowledged
# with 200 plus the chance plies they triggered plus the deals of the matches it created, exactly,
# or the script stops. The floor is audited too: each transaction pgbench counted added exactly
# one event.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
concurrency=${CONCURRENCY:-32}
seconds=${SECONDS_PER_RUN:-10}
rounds=${ROUNDS:-5}
single_seconds=${SINGLE_SECONDS:-3}
pg=postgres://postgres@127.0.0.1:5432
echo_addr=127.0.0.1:18181
service_addr=127.0.0.1:18182
work=$(mktemp -d /tmp/referee-load.XXXXXX)

referee=$(built_executable referee --release --bin referee)
echo_server=$(built_executable echo_server --release -p referee-tools --bin echo_server)
load=$(built_executable load --release -p referee-tools --bin load)
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
    echo "$line stored=$((after - before)) events_total=$after"
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
    echo "$name clients=$clients tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out" | head -1)" \
        "transactions=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$out")"
}

# The check body, made once by the service: echo and check get the very same request bytes.
"$load" check-body "http://$service_addr" >"$work/check.json"
# Warm-up, which also leaves real match rows for the floor to copy.
moves 8 2 >/dev/null

# pgbench baselines on a scratch database. INSERT: one row into a bare table. Floor: see the
# header; the tables are this script's own, so that the floor stays where it is whatever the
# project's migrations do.
psql "$pg/referee_pgbench" -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE TABLE t (id bigserial PRIMARY KEY, v integer, at timestamptz DEFAULT now());
CREATE TABLE matches (
    id               uuid PRIMARY KEY,
    game             text NOT NULL,
    rules_version    text NOT NULL,
    options          jsonb NOT NULL,
    randomness       text NOT NULL,
    seed             text,
    seed_sha256      text,
    owner_token_hash bytea NOT NULL,
    status           text NOT NULL,
    version          bigint NOT NULL,
    state            jsonb NOT NULL,
    result           jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz,
    kind             text NOT NULL DEFAULT 'hosted',
    access_version   bigint NOT NULL DEFAULT 0
);
CREATE TABLE match_events (
    match_id         uuid NOT NULL,
    ply              bigint NOT NULL,
    seat             integer,
    payload          jsonb NOT NULL,
    idempotency_key  text,
    request_hash     bytea,
    response         jsonb,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, ply)
);
CREATE TABLE floor_seed (state jsonb NOT NULL);
SQL
echo "INSERT INTO t (v) VALUES (1);" >"$work/insert.sql"
# The state of an in-progress Lucky Jack match whose state takes nearest 1.6 KB uncompressed (as
# jsonb). With the fixed columns below the row passes PostgreSQL's 2 KB threshold and is stored
# compressed, like the service's rows, at about 1.3 KB. Only the state is copied, chosen by its
# own size: a column added to or dropped from the service's table changes nothing.
psql "$pg/referee_load" -Atc "SELECT state FROM matches WHERE status = 'in_progress'
    AND game = 'lucky-jack' ORDER BY abs(pg_column_size(state::text::jsonb) - 1600), id LIMIT 1" \
    >"$work/state.json"
echo "INSERT INTO floor_seed VALUES (:'state');" |
    psql "$pg/referee_pgbench" -q -v ON_ERROR_STOP=1 -v state="$(cat "$work/state.json")"
# Each run starts from the same rows: one match per client at version 0, no events.
floor_reset() {
    psql "$pg/referee_pgbench" -q -v ON_ERROR_STOP=1 <<SQL
TRUNCATE match_events, matches;
INSERT INTO matches (id, game, rules_version, options, randomness, seed, seed_sha256,
    owner_token_hash, status, version, state)
SELECT md5(c::text)::uuid, 'lucky-jack', 'lucky-jack/1', '{"dealer": 0, "rounds": 3,
    "i_take_it_ends_turn": false, "max_turns_per_round": 500, "jackpot_auto_declare": true,
    "lower_discard_can_win": false, "starter_plays_after_flip": true,
    "drawn_discard_follows_symbol_rule": false}', 'server',
    repeat('0', 64), repeat('1', 64), decode(repeat('ab', 32), 'hex'), 'in_progress', 0, state
FROM floor_seed, generate_series(0, greatest($concurrency, 1) - 1) AS c;
SQL
}
floor_reset
row_bytes=$(psql "$pg/referee_pgbench" -Atc "SELECT pg_column_size(m.*) FROM matches m LIMIT 1")
# Each client owns one match (client_id) and carries its version from one move to the next
# (\gset: a lost version check returns no row, which aborts the run). The state is a bind
# parameter, sent and parsed on every execution as the service sends it.
cat >"$work/floor.sql" <<'SQL'
WITH advanced AS (
    UPDATE matches SET version = version + 1, state = :state::jsonb, updated_at = now()
    WHERE id = md5(:client_id::text)::uuid AND version = :v
    RETURNING id, version)
INSERT INTO match_events (match_id, ply, seat, payload)
SELECT id, version, 0, '{"card": "lemon", "type": "discard", "jackpot": false}' FROM advanced
RETURNING ply AS v \gset
SQL
# One floor run (after a reset), audited: the events stored equal the transactions pgbench
# counted, and every match's version equals its events.
floor_run() {
    local line counted
    floor_reset
    line=$(pgbench_run floor "$@" -M prepared -D state="$(cat "$work/state.json")")
    counted=$(sed -n 's/.* transactions=\([0-9]*\).*/\1/p' <<<"$line")
    psql "$pg/referee_pgbench" -Atc "SELECT (SELECT count(*) FROM match_events) = $counted
        AND (SELECT coalesce(sum(version), 0) FROM matches) = $counted" | grep -qx t || {
        echo "FLOOR MISMATCH: pgbench counted $counted transactions; the tables disagree" >&2
        exit 1
    }
    echo "$line"
}

echo "concurrency $concurrency, $seconds s per run, $rounds rounds, single client $single_seconds s;" \
    "check body $(wc -c <"$work/check.json") bytes; floor row $row_bytes bytes" \
    "(state $(wc -c <"$work/state.json") bytes of JSON)"
for round in $(seq 1 "$rounds"); do
    {
        # The load average as the round starts: other work on the machine shows here.
        read -r load1 load5 load15 _ </proc/loadavg
        echo "load load1=$load1 load5=$load5 load15=$load15"
        "$load" echo "http://$echo_addr" "$concurrency" "$seconds" "$work/check.json"
        "$load" check "http://$service_addr" "$concurrency" "$seconds" "$work/check.json"
        moves "$concurrency" "$seconds"
        pgbench_run insert "$concurrency" "$seconds" "$work/insert.sql"
        floor_run "$concurrency" "$seconds" "$work/floor.sql"
        "$load" check "http://$service_addr" 1 "$single_seconds" "$work/check.json"
        moves 1 "$single_seconds"
        rm -f "$work"/floorlog*
        floor_run 1 "$single_seconds" "$work/floor.sql" -l --log-prefix="$work/floorlog"
        # pgbench's per-transaction log: the third field is the latency in microseconds.
        sort -n -k3 "$work"/floorlog* | awk '{ l[NR] = $3 } END {
            printf "floor_latency p50_ms=%.3f p99_ms=%.3f\n",
                l[int((NR - 1) * 0.5 + 1.5)] / 1000, l[int((NR - 1) * 0.99 + 1.5)] / 1000 }'
    } | sed "s/^/round=$round /" | tee -a "$work/results"
done
# What the rounds left behind. The server's autovacuum setting matters here: with it off, the
# dead versions of updated match rows pile up from round to round.
psql "$pg/referee_load" -Atc "SELECT 'service tables after the rounds (autovacuum '
    || current_setting('autovacuum') || '): match_events ' || n_live_tup || ' rows, '
    || pg_size_pretty(pg_total_relation_size('match_events')) || '; matches ' FROM pg_stat_user_tables
    WHERE relname = 'match_events'" | tr -d '\n'
psql "$pg/referee_load" -Atc "SELECT n_live_tup || ' live and ' || n_dead_tup || ' dead row versions, '
    || pg_size_pretty(pg_total_relation_size('matches')) FROM pg_stat_user_tables
    WHERE relname = 'matches'"
peak_kib=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$service_pid/status")
python3 perf/summary.py "$work/results" "$peak_kib"
