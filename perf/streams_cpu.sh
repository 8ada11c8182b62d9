#!/usr/bin/env bash
# What open streams cost the service per move (not part of the test suite).
#
#   bash perf/streams_cpu.sh     # VERSIONS=2000 MOVES=200 STREAMS=64
#
# Starts the release service, plays one long Plus & Minus match (3 seats, server randomness,
# 60 rounds, its maximum; `load long`, one client, one move at a time, each after
# the acting seat's view read) up to VERSIONS versions, then measures the service process's CPU
# time (utime + stime from /proc/<pid>/stat) over MOVES more moves in three phases:
#
#   1. no stream open;
#   2. STREAMS spectator SSE streams open on that match (`curl -sN …/stream`), the CPU read once
#      every stream has received the last move's version, so the deliveries are paid for;
#   3. no stream open again.
#
# The figure is CPU ms per move (its view read included); the ratio is phase 2 ÷ the mean of
# phases 1 and 3, which also cancels the match's growth over the run. Each phase also prints the
# single client's stored-move latency (p50/p99), and the load average as it began: CPU time is
# less sensitive to other work on the machine than throughput, but not immune to it.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
versions=${VERSIONS:-2000}
moves=${MOVES:-200}
streams=${STREAMS:-64}
pg=postgres://postgres@127.0.0.1:5432
addr=127.0.0.1:18184
work=$(mktemp -d /tmp/referee-streams-cpu.XXXXXX)

referee=$(built_executable referee --release --bin referee)
load=$(built_executable load --release -p referee-tools --bin load)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_streams_cpu WITH (FORCE)"
DATABASE_URL="$pg/referee_streams_cpu" BIND_ADDRESS="$addr" RATE_LIMIT_PER_SECOND=0 \
    LIVE_STREAMS_PER_MATCH=$((streams + 16)) LIVE_STREAMS_PER_INSTANCE=$((streams * 2 + 64)) \
    LIVE_STREAMS_PER_CLIENT=$((streams + 16)) MAX_CONNECTIONS=$((streams * 2 + 1024)) \
    RUST_LOG=warn "$referee" &
pid=$!
stream_pids=()
close_streams() {
    if [ "${#stream_pids[@]}" -gt 0 ]; then
        kill "${stream_pids[@]}" 2>/dev/null || true
        wait "${stream_pids[@]}" 2>/dev/null || true
    fi
    stream_pids=()
}
trap 'close_streams; kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 50); do curl -fs "http://$addr/readyz" >/dev/null && break; sleep 0.2; done

ticks=$(getconf CLK_TCK)
# The service's CPU time so far, in ms: utime and stime are fields 14 and 15 of its stat, that is
# the 12th and 13th after the parenthesised command name.
cpu_ms() { sed 's/.*) //' "/proc/$pid/stat" | awk -v t="$ticks" '{ print ($12 + $13) * 1000 / t }'; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

# Up to VERSIONS versions, in steps of 250 moves.
version=0
while [ "$version" -lt "$versions" ]; do
    line=$("$load" long "http://$addr" "$work/match" 250)
    version=$(field version "$line")
done
id=$(head -1 "$work/match")
echo "match $id at version $version; $moves moves per phase, $streams streams in phase 2"

# Waits (up to 120 s) until every stream's last `id:` is $1.
streams_at() {
    local want=$1 n
    for _ in $(seq 1 600); do
        n=0
        for f in "$work"/stream.*; do
            [ "$(tail -n 1 "$f")" = "id: $want" ] && n=$((n + 1))
        done
        [ "$n" -eq "$streams" ] && return 0
        sleep 0.2
    done
    echo "only $n of $streams streams reached version $want" >&2
    return 1
}

# After the curls are gone, the service notices a closed stream only when it next writes to it,
# after a change: until then a dead stream still reads every change, at the next phase's expense.
# So unmeasured moves are played until /metrics shows no stream open.
streams_gone() {
    local open line
    for _ in $(seq 1 50); do
        open=$(curl -fs "http://$addr/metrics" | sed -n 's/^referee_live_streams_open \([0-9]*\).*/\1/p')
        [ "${open:-0}" -eq 0 ] && return 0
        line=$("$load" long "http://$addr" "$work/match" 1)
        version=$(field version "$line")
        sleep 0.2
    done
    echo "$open streams still open on the service" >&2
    return 1
}

phase() {
    local open=$1 before after line load1 i
    read -r load1 _ </proc/loadavg
    if [ "$open" -gt 0 ]; then
        rm -f "$work"/stream.*
        for i in $(seq 1 "$open"); do
            # Only the `id:` lines are kept: enough to see what each stream received.
            curl -sN "http://$addr/v1/matches/$id/stream" \
                > >(grep --line-buffered '^id: ' >"$work/stream.$i") &
            stream_pids+=("$!")
        done
        streams_at "$version"
    fi
    sleep 1
    before=$(cpu_ms)
    line=$("$load" long "http://$addr" "$work/match" "$moves")
    version=$(field version "$line")
    [ "$open" -eq 0 ] || streams_at "$version"
    after=$(cpu_ms)
    close_streams
    [ "$open" -eq 0 ] || streams_gone
    echo "phase streams=$open load1=$load1 moves=$(field requests "$line") version=$version" \
        "cpu_ms=$((after - before)) cpu_ms_per_move=$(awk -v c="$((after - before))" \
        -v m="$(field requests "$line")" 'BEGIN { printf "%.3f", c / m }')" \
        "p50_ms=$(field p50_ms "$line") p99_ms=$(field p99_ms "$line")"
}

{
    phase 0
    phase "$streams"
    phase 0
} | tee "$work/phases"
awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); f[NR, kv[1]] = kv[2] } }
    END {
        base = (f[1, "cpu_ms_per_move"] + f[3, "cpu_ms_per_move"]) / 2
        printf "\nservice CPU per move: %.3f ms with no stream (mean of phases 1 and 3), " \
            "%.3f ms with %d streams: ratio %.2f (target after issue 24: <= 1.5)\n",
            base, f[2, "cpu_ms_per_move"], f[2, "streams"], f[2, "cpu_ms_per_move"] / base
        printf "stored move, one client, p50: %s / %s ms with no stream, %s ms with %d streams\n",
            f[1, "p50_ms"], f[3, "p50_ms"], f[2, "p50_ms"], f[2, "streams"]
    }' "$work/phases"
