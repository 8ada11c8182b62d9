#!/usr/bin/env bash
# Load benchmark (not part of the test suite): the service's speed as a ratio to what the
# framework and the database do on the same machine, over loopback.
#
#   bash bench/load.sh            # CONCURRENCY=32 SECONDS_PER_RUN=10 by default
#
# Prints: stateless checks/s ÷ echo requests/s, stored moves/s ÷ pgbench one-row inserts/s at the
# same concurrency, p50/p99 latencies, and the service's peak memory (VmHWM).
set -euo pipefail
cd "$(dirname "$0")/.."
concurrency=${CONCURRENCY:-32}
seconds=${SECONDS_PER_RUN:-10}
pg=postgres://postgres@127.0.0.1:5432
echo_addr=127.0.0.1:18181
service_addr=127.0.0.1:18182

cargo build --release --quiet --bin referee --example echo_server --example load
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_load WITH (FORCE)"
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_pgbench WITH (FORCE)"
psql "$pg/postgres" -qc "CREATE DATABASE referee_pgbench"

./target/release/examples/echo_server "$echo_addr" &
echo_pid=$!
DATABASE_URL="$pg/referee_load" BIND_ADDRESS="$service_addr" RATE_LIMIT_PER_SECOND=0 \
    DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-8} RUST_LOG=warn ./target/release/referee &
service_pid=$!
trap 'kill $echo_pid $service_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
    curl -fs "http://$service_addr/readyz" >/dev/null && curl -fs -o /dev/null -X POST \
        -H 'content-type: application/json' -d '{}' "http://$echo_addr/echo" && break
    sleep 0.2
done

run() { ./target/release/examples/load "$1" "$2" "$concurrency" "$seconds"; }
echo_line=$(run echo "http://$echo_addr")
check_line=$(run check "http://$service_addr")
moves_line=$(run moves "http://$service_addr")

psql "$pg/referee_pgbench" -qc "CREATE TABLE t (id bigserial PRIMARY KEY, v integer, at timestamptz DEFAULT now())"
echo "INSERT INTO t (v) VALUES (1);" > /tmp/referee-pgbench-insert.sql
pgbench_tps=$(pgbench -n -c "$concurrency" -j 2 -T "$seconds" -f /tmp/referee-pgbench-insert.sql \
    "$pg/referee_pgbench" 2>/dev/null | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -1)
peak_kib=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$service_pid/status")

rps() { sed -n 's/.* rps=\([0-9.]*\).*/\1/p' <<<"$1"; }
python3 - "$echo_line" "$check_line" "$moves_line" "$pgbench_tps" "$peak_kib" "$concurrency" <<'PY'
import sys
echo, check, moves, pgbench, peak, conc = sys.argv[1:]
rps = lambda line: float(line.split(" rps=")[1].split()[0])
print(f"concurrency {conc}")
for line in (echo, check, moves):
    print("  " + line)
print(f"  pgbench one-row insert tps={float(pgbench):.0f}")
print(f"stateless checks / echo          = {rps(check) / rps(echo):.2f}  (target >= 0.8)")
print(f"stored moves / pgbench inserts   = {rps(moves) / float(pgbench):.2f}  (target >= 0.5)")
print(f"service peak memory              = {int(peak) / 1024:.1f} MiB  (target < 100)")
PY
