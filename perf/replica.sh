#!/usr/bin/env bash
# History latency on the primary vs on a streaming read replica, under move load (not part of the
# test suite; docs/scaling.md, "Read replicas").
#
#   bash perf/replica.sh   # MATCHES=20000 MOVES_PER_MATCH=10 CONCURRENCY=16 REQUESTS=300
#                           # ROUNDS=5 LOAD_SECONDS=25 (history must finish within the load)
#
# A private PostgreSQL 15 primary (initdb) and a hot standby of it (pg_basebackup -R), each on a
# private port, with the server's default durability (fsync and synchronous_commit on). The
# primary holds a synthetic history (examples/gen_history.rs). Three release services:
#   - `moves`: the move load (examples/load.rs moves) goes through it, primary only;
#   - `primary`: history reads without DATABASE_READ_URL;
#   - `replica`: history reads with DATABASE_READ_URL (the replica, after the WAL-position wait).
# Each round runs, for each of `primary` and `replica` in turn (alternating which goes first):
# start the move load, and while it runs, examples/bench_history.rs one request at a time against
# that service. The summary is the median over the rounds of each endpoint's p50 and p99, with
# the range over the rounds (and the median moves/s the load reached).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
matches=${MATCHES:-20000}
moves_per_match=${MOVES_PER_MATCH:-10}
concurrency=${CONCURRENCY:-16}
requests=${REQUESTS:-300}
rounds=${ROUNDS:-5}
load_seconds=${LOAD_SECONDS:-25}
primary_port=${PRIMARY_PORT:-25432}
replica_port=${REPLICA_PORT:-25433}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
work=$(mktemp -d /tmp/referee-replica.XXXXXX)
chmod 755 "$work"
db=referee_replica_bench
primary=postgres://postgres@127.0.0.1:$primary_port
replica=postgres://postgres@127.0.0.1:$replica_port

referee=$(built_executable referee --release --bin referee)
load=$(built_executable load --release -p referee-tools --bin load)
bench_history=$(built_executable bench_history --release -p referee-tools --bin bench_history)
gen_history=$(built_executable gen_history --release -p referee-tools --bin gen_history)

# PostgreSQL tools run as the postgres OS user when we are root (initdb refuses root).
as_pg() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres:postgres "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for dir in primary replica; do
        [ -d "$work/$dir" ] && as_pg "$pg_bin/pg_ctl" -D "$work/$dir" -m immediate -w stop \
            >/dev/null 2>&1 || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

start_cluster() { # dir port
    as_pg "$pg_bin/pg_ctl" -D "$work/$1" -l "$work/$1.log" -w -t 60 \
        -o "-p $2 -k $work -c listen_addresses=127.0.0.1" start >/dev/null
}
as_pg "$pg_bin/initdb" -D "$work/primary" -A trust -U postgres --no-locale -E UTF8 >/dev/null
start_cluster primary "$primary_port"
echo "filling the primary: $matches matches x $moves_per_match moves" >&2
DATABASE_URL="$primary/$db" "$gen_history" \
    "$matches" "$moves_per_match" 2000 >/dev/null
# The replica is cloned after the fill, so it starts with the history already in place.
as_pg "$pg_bin/pg_basebackup" -D "$work/replica" -R -X stream -c fast \
    -h 127.0.0.1 -p "$primary_port" -U postgres
start_cluster replica "$replica_port"

service() { # port [replica url]
    local port=$1 read_url=${2:-}
    DATABASE_URL="$primary/$db" DATABASE_READ_URL="$read_url" BIND_ADDRESS="127.0.0.1:$port" \
        RATE_LIMIT_PER_SECOND=0 DATABASE_POOL_SIZE=8 RUST_LOG=warn "$referee" \
        >>"$work/service-$port.log" 2>&1 &
    pids+=($!)
}
service 18191
service 18192
service 18193 "$replica/$db"
for port in 18191 18192 18193; do
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
done
declare -A base=([primary]=http://127.0.0.1:18192 [replica]=http://127.0.0.1:18193)

# Warm-up: caches on both servers and in every service.
"$load" moves http://127.0.0.1:18191 "$concurrency" 3 >/dev/null
for mode in primary replica; do
    BENCH_HISTORY_TSV=1 "$bench_history" "${base[$mode]}" 10 >/dev/null
done

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for round in $(seq 1 "$rounds"); do
    # Alternate which goes first, so that a drift within a round favours neither.
    modes="primary replica"
    [ $((round % 2)) = 0 ] && modes="replica primary"
    for mode in $modes; do
        "$load" moves http://127.0.0.1:18191 "$concurrency" \
            "$load_seconds" >"$work/load.out" &
        load_pid=$!
        sleep 2
        started=$(date +%s)
        BENCH_HISTORY_TSV=1 "$bench_history" "${base[$mode]}" \
            "$requests" | sed "s/^/$round\t$mode\t/" >>"$work/history.tsv"
        took=$(($(date +%s) - started))
        if [ "$took" -ge "$((load_seconds - 2))" ]; then
            echo "WARNING: the history run outlasted the move load: raise LOAD_SECONDS" >&2
        fi
        wait "$load_pid"
        rate=$(sed -n 's/.* rps=\([0-9.]*\).*/\1/p' "$work/load.out")
        echo "round $round $mode: history took ${took}s (load ran ${load_seconds}s), load: $(cat "$work/load.out")" >&2
        echo -e "$round\t$mode\tmoves/s\t${rate:-0}\t0\t0" >>"$work/history.tsv"
    done
done
# The replica service's counters over the loaded runs.
curl -fs http://127.0.0.1:18193/metrics |
    grep -E '^referee_history_(reads_total|replica_wait_seconds_(sum|count|bucket))' >&2 || true
echo "after: load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# The same reads with no move load, once each: the replica check's own cost.
for mode in primary replica; do
    BENCH_HISTORY_TSV=1 "$bench_history" "${base[$mode]}" "$requests" |
        sed "s/^/idle\t$mode-idle\t/" >>"$work/history.tsv"
done

python3 - "$work/history.tsv" <<'PY'
import statistics, sys
from collections import defaultdict
rows = defaultdict(lambda: defaultdict(list))
order = []
for line in open(sys.argv[1]):
    _, mode, name, p50, p99, _max = line.rstrip("\n").split("\t")
    if name not in order:
        order.append(name)
    rows[name][mode].append((float(p50), float(p99)))
for suffix, title in (("", "under move load"), ("-idle", "no load (one run)")):
    print(f"\n{title}\n")
    print("| endpoint | primary p50 | primary p99 | replica p50 | replica p99 |")
    print("|---|---|---|---|---|")
    for name in order:
        cells = []
        for mode in ("primary" + suffix, "replica" + suffix):
            got = rows[name][mode]
            if not got:
                cells += ["", ""]
                continue
            for i in (0, 1):
                values = [g[i] for g in got]
                if name == "moves/s":
                    cells.append(f"{statistics.median(values):.0f}" if i == 0 else "")
                elif len(values) == 1:
                    cells.append(f"{values[0]:.1f} ms")
                else:
                    cells.append(f"{statistics.median(values):.1f} ms ({min(values):.1f}–{max(values):.1f})")
        if any(cells):
            print(f"| {name} | " + " | ".join(cells) + " |")
PY
