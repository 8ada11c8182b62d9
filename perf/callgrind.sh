#!/usr/bin/env bash
# Instructions per request of a stateless check against the echo baseline, under callgrind:
# counts, not seconds, so the figures repeat whatever else the machine is doing.
#
#   bash perf/callgrind.sh        # SECONDS_PER_RUN=10
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
seconds=${SECONDS_PER_RUN:-10}
work=$(mktemp -d /tmp/referee-callgrind.XXXXXX)
service=127.0.0.1:18320
echo=127.0.0.1:18321

referee=$(built_executable referee --release --bin referee)
echo_server=$(built_executable echo_server --release -p referee-tools --bin echo_server)
load=$(built_executable load --release -p referee-tools --bin load)
RATE_LIMIT_PER_SECOND=0 WORKERS=1 BIND_ADDRESS=$service RUST_LOG=warn \
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/referee_callgrind \
    valgrind --tool=callgrind --callgrind-out-file="$work/check.out" "$referee" \
    >"$work/check.log" 2>&1 &
check_pid=$!
valgrind --tool=callgrind --callgrind-out-file="$work/echo.out" \
    "$echo_server" $echo >"$work/echo.log" 2>&1 &
echo_pid=$!
for _ in $(seq 1 100); do curl -fs "http://$service/healthz" >/dev/null && break; sleep 0.5; done
"$load" check-body "http://$service" >"$work/body.json"

# Only the worker threads are counted: start-up (building the OpenAPI document) is left out.
per_request() {
    local out=$1 requests=$2
    callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk -v n="$requests" \
        '/thread_start/ { gsub(",", "", $1); printf "%.0f", $1 / n; exit }'
}
check_line=$("$load" check "http://$service" 1 "$seconds" "$work/body.json")
echo_line=$("$load" echo "http://$echo" 1 "$seconds" "$work/body.json")
kill -INT $check_pid $echo_pid
wait $check_pid $echo_pid 2>/dev/null || true
check_n=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$check_line")
echo_n=$(sed 's/.*requests=\([0-9]*\).*/\1/' <<<"$echo_line")
echo "echo:  $(per_request "$work/echo.out" "$echo_n") instructions per request ($echo_n requests)"
echo "check: $(per_request "$work/check.out" "$check_n") instructions per request ($check_n requests)"
echo "profiles: $work/check.out $work/echo.out (callgrind_annotate --inclusive=yes FILE)"
