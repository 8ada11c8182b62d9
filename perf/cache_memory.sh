#!/usr/bin/env bash
# The service's peak resident memory (VmHWM) with MATCHES live matches cached (default 10,000:
# the default capacity), each created and moved once, then with STREAMS spectator streams open
# on top of them (default 1,000, over 20 more matches, by the `live_streams` tool, which also
# plays STREAM_MOVES moves on one of them with its 50 subscribers watching).
#
#   bash perf/cache_memory.sh      # MATCHES=10000 CONCURRENCY=16 STREAMS=1000 STREAM_MOVES=50 [REFEREE=bin]
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
matches=${MATCHES:-10000}
concurrency=${CONCURRENCY:-16}
streams=${STREAMS:-1000}
stream_moves=${STREAM_MOVES:-50}
pg=postgres://postgres@127.0.0.1:5432
addr=127.0.0.1:18183

# REFEREE: another build to measure (alternated runs of two builds compare them).
referee=${REFEREE:-$(built_executable referee --release --bin referee)}
load=$(built_executable load --release -p referee-tools --bin load)
live_streams=$(built_executable live_streams --release -p referee-tools --bin live_streams)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_cache_memory WITH (FORCE)"
# Stream caps raised above the defaults only as far as needed: every stream comes from this one
# address, and spectators may hold three quarters of the instance's streams, which are at most
# half of its connections (docs/security.md, "Live streams").
DATABASE_URL="$pg/referee_cache_memory" BIND_ADDRESS="$addr" RATE_LIMIT_PER_SECOND=0 \
    MOVE_CACHE_MATCHES="$matches" LIVE_STREAMS_PER_MATCH=$((streams / 20 + 16)) \
    LIVE_STREAMS_PER_CLIENT=$((streams + 16)) MAX_CONNECTIONS=$((streams * 2 + 1024)) \
    LIVE_STREAMS_PER_INSTANCE=$((streams * 2 + 64)) RUST_LOG=warn "$referee" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -fs "http://$addr/readyz" >/dev/null && break; sleep 0.2; done

kib() { sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$pid/status"; }
read -r load1 _ </proc/loadavg
echo "load average $load1; before: VmRSS $(($(kib VmRSS) / 1024)) MiB"
"$load" warm "http://$addr" "$concurrency" "$matches"
live=$(psql "$pg/referee_cache_memory" -Atc "SELECT count(*) FROM matches WHERE status = 'in_progress'")
echo "after $matches matches warmed ($live in progress): VmRSS $(($(kib VmRSS) / 1024)) MiB," \
    "peak VmHWM $(($(kib VmHWM) / 1024)) MiB"
if [ "$streams" -gt 0 ]; then
    "$live_streams" "http://$addr" "$pid" "$streams" "$stream_moves"
    echo "after $streams streams open on top: VmRSS $(($(kib VmRSS) / 1024)) MiB," \
        "peak VmHWM $(($(kib VmHWM) / 1024)) MiB"
fi
