#!/usr/bin/env bash
# The move cache's memory: the service's peak resident memory (VmHWM) with MATCHES live matches
# cached (default 10,000: the default capacity), each created and moved once.
#
#   bash bench/cache_memory.sh      # MATCHES=10000 CONCURRENCY=16
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
matches=${MATCHES:-10000}
concurrency=${CONCURRENCY:-16}
pg=postgres://postgres@127.0.0.1:5432
addr=127.0.0.1:18183

referee=$(built_executable referee --release --bin referee)
load=$(built_executable load --release --example load)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS referee_cache_memory WITH (FORCE)"
DATABASE_URL="$pg/referee_cache_memory" BIND_ADDRESS="$addr" RATE_LIMIT_PER_SECOND=0 \
    MOVE_CACHE_MATCHES="$matches" RUST_LOG=warn "$referee" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -fs "http://$addr/readyz" >/dev/null && break; sleep 0.2; done

kib() { sed -n "s/^$1:[[:space:]]*\([0-9]*\) kB/\1/p" "/proc/$pid/status"; }
echo "before: VmRSS $(($(kib VmRSS) / 1024)) MiB"
"$load" warm "http://$addr" "$concurrency" "$matches"
live=$(psql "$pg/referee_cache_memory" -Atc "SELECT count(*) FROM matches WHERE status = 'in_progress'")
echo "after $matches matches warmed ($live in progress): VmRSS $(($(kib VmRSS) / 1024)) MiB," \
    "peak VmHWM $(($(kib VmHWM) / 1024)) MiB"
