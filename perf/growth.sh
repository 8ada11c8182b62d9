#!/usr/bin/env bash
# Whether a move costs more as its match grows (not part of the test suite).
#
#   bash perf/growth.sh     # EARLY=680 LATE=4800 MOVES=200 REPEATS=5
#
# Starts the release service and plays one long Plus & Minus match (3 seats, 60 rounds, its
# maximum; `load long`: one client, each move after the acting seat's view read). It measures the
# service's CPU time (its threads' run time, /proc/<pid>/task/*/schedstat) over MOVES moves once
# the match has reached EARLY versions, plays on to LATE versions and measures again; each is taken
# REPEATS times in a row and the median kept. The figure is CPU ms per move with its view read;
# the ratio late ÷ early is issue 39's "Plus & Minus: CPU per move at version 5,000 ÷ at 680" (the
# match ends near version 6,500).
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
early=${EARLY:-680}
late=${LATE:-4800}
moves=${MOVES:-200}
repeats=${REPEATS:-5}
addr=127.0.0.1:18185
work=$(mktemp -d /tmp/referee-growth.XXXXXX)

referee=${REFEREE:-$(built_executable referee --release --bin referee)}
load=$(built_executable load --release -p referee-tools --bin load)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_growth WITH (FORCE)"
DATABASE_URL="$pg/referee_growth" BIND_ADDRESS="$addr" RATE_LIMIT_PER_SECOND=0 RUST_LOG=warn \
    "$referee" &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do curl -fs "http://$addr/readyz" >/dev/null && break; sleep 0.2; done

# The service's CPU time so far, in ms: the sum over its threads of the nanoseconds each ran
# (/proc/<pid>/task/*/schedstat). /proc/<pid>/stat counts in ticks of 10 ms, a twentieth of a
# measure here.
cpu_ms() { cat /proc/"$pid"/task/*/schedstat | awk '{ ns += $1 } END { printf "%.3f", ns / 1e6 }'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

version=0
play_to() {
    local line
    while [ "$version" -lt "$1" ]; do
        line=$("$load" long "http://$addr" "$work/match" 50)
        version=$(field version "$line")
    done
}

# measure NAME: REPEATS runs of MOVES moves; prints each and keeps the median CPU ms per move.
measure() {
    local name=$1 before after line per runs=()
    for _ in $(seq 1 "$repeats"); do
        before=$(cpu_ms)
        line=$("$load" long "http://$addr" "$work/match" "$moves")
        after=$(cpu_ms)
        per=$(awk -v a="$after" -v b="$before" -v m="$(field requests "$line")" \
            'BEGIN { printf "%.4f", (a - b) / m }')
        echo "$name version=$(field version "$line") cpu_ms_per_move=$per" \
            "p50_ms=$(field p50_ms "$line") p99_ms=$(field p99_ms "$line")" >&2
        version=$(field version "$line")
        runs+=("$per")
    done
    printf '%s\n' "${runs[@]}" | sort -n | sed -n "$(((repeats + 1) / 2))p"
}

play_to "$early"
first=$(measure early)
play_to "$late"
last=$(measure late)
awk -v a="$first" -v b="$last" -v e="$early" -v l="$late" 'BEGIN {
    printf "service CPU per move with its view read: %.3f ms from version %d, %.3f ms from " \
        "version %d: ratio %.2f (target <= 1.1)\n", a, e, b, l, b / a }'
