#!/usr/bin/env bash
# Where a stored move's CPU goes (not part of the test suite): the release service under the
# load client's `moves` workload (each move after the acting seat's view read), measured twice.
#
#   bash perf/profile.sh      # CONCURRENCY=8 SECONDS_PER_RUN=10 WORKLOAD=moves
#
# WORKLOAD=check profiles the stateless check instead (`load check`, the body of perf/load.sh),
# and gives its CPU per request; WORKLOAD=watch, spectators reading one live match again and
# again (`load watch`), its CPU per read.
#
# 1. CPU per move: the service's and PostgreSQL's CPU time (utime + stime from /proc) over one
#    run, divided by the moves it stored. No profiler runs then, so its cost is not counted.
# 2. The split: a second run under `perf record` (the service's threads only, 1,999 samples a
#    second, no call graphs: the release build has no debug info), its samples put into rooms
#    by symbol and library (perf/profile.py): HTTP and actix, JSON, SQL and the driver, the
#    async runtime, the rules, the move cache, tracing and metrics, malloc, the kernel.
# Figures: docs/benchmarks.md, "Issue 39".
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
concurrency=${CONCURRENCY:-8}
seconds=${SECONDS_PER_RUN:-10}
workload=${WORKLOAD:-moves}
work=$(mktemp -d /tmp/referee-profile.XXXXXX)
use_release_build
load=$(built_executable load --release -p referee-tools --bin load)
start_service profile DATABASE_POOL_SIZE=8 "$@"
trap 'stop_service; rm -rf "$work"' EXIT

ticks=$(getconf CLK_TCK)
# CPU ms of the given processes so far: utime and stime, the 12th and 13th fields after the
# parenthesised command name of /proc/PID/stat.
cpu_ms() {
    local pid
    for pid in "$@"; do sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null || true; done |
        awk -v t="$ticks" '{ s += $12 + $13 } END { print s * 1000 / t }'
}
# PostgreSQL's backends, its background writers included: every process named postgres.
postgres_pids() { pgrep -x postgres | tr '\n' ' '; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

"$load" check-body "$SERVICE_URL" >"$work/check.json"
run() { "$load" "$workload" "$SERVICE_URL" "$concurrency" "$1" "$work/check.json"; }
run 3 >/dev/null # warm-up
service_before=$(cpu_ms "$SERVICE_PID")
pg_pids=$(postgres_pids)
pg_before=$(cpu_ms $pg_pids)
line=$(run "$seconds")
service_after=$(cpu_ms "$SERVICE_PID")
pg_after=$(cpu_ms $pg_pids)
moves=$(field requests "$line")
echo "$line"
awk -v s="$((${service_after%.*} - ${service_before%.*}))" \
    -v p="$((${pg_after%.*} - ${pg_before%.*}))" -v m="$moves" 'BEGIN {
    printf "per request (a move: with its view read; a check; a read): service %.3f ms CPU, PostgreSQL %.3f ms CPU\n",
        s / m, p / m }'

if ! command -v perf >/dev/null; then
    echo "perf is not installed: no split (apt-get install linux-perf)"
    exit 0
fi
perf record -q -F 1999 -p "$SERVICE_PID" -o "$work/perf.data" -- sleep "$seconds" \
    2>"$work/perf.log" &
perf_pid=$!
run "$seconds" >/dev/null
wait "$perf_pid" || { cat "$work/perf.log" >&2; exit 1; }
echo "threads:"
perf report -i "$work/perf.data" --no-children --sort comm --stdio -q 2>/dev/null | head -8
if [ -n "${PERF_KEEP:-}" ]; then cp "$work/perf.data" "$PERF_KEEP"; fi
perf report -i "$work/perf.data" --no-children --sort dso,sym --stdio -q 2>/dev/null |
    python3 perf/profile.py
