#!/usr/bin/env bash
# A rehearsal of the compose `scaled` profile without Docker (not part of the test suite): the
# real docker/haproxy.cfg, with its Docker-only parts swapped for local addresses, in front of
# three release instances on one database. It checks two things the profile promises:
#
# 1. a live stream is not cut by the balancer: the rehearsal lowers `timeout server` to 3 s and
#    the service's heartbeat to 100 s, and a stream must still be open after 8 s;
# 2. a rolling stop loses nothing: clients keep creating matches through the balancer while one
#    instance gets SIGTERM; every request must get its 201, and the instance must exit 0 once
#    its drain (SHUTDOWN_DRAIN_SECONDS, 8 s here) is over.
#
#   bash perf/balancer.sh     # needs haproxy (Debian's package), curl and jq
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
pg=postgres://postgres@127.0.0.1:5432
database=referee_balancer
drain=8
front=127.0.0.1:18420
work=$(mktemp -d /tmp/referee-balancer.XXXXXX)

referee=$(built_executable referee --release --bin referee)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
# One invite key for all instances, as in production (docs/operations.md).
invite_key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
for i in 1 2 3; do
    INVITE_KEY=$invite_key \
    DATABASE_URL="$pg/$database" BIND_ADDRESS=127.0.0.1:1842$i RATE_LIMIT_PER_SECOND=0 \
        SHUTDOWN_DRAIN_SECONDS=$drain LIVE_HEARTBEAT_SECONDS=100 TRUSTED_PROXIES=127.0.0.1 \
        RUST_LOG=warn "$referee" >"$work/instance-$i.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:1842$i/readyz" >/dev/null && break; sleep 0.2; done
done

servers='    server r1 127.0.0.1:18421\n    server r2 127.0.0.1:18422\n    server r3 127.0.0.1:18423'
sed -e '/^resolvers docker/,/^$/d' -e 's/ resolvers docker init-addr none resolve-prefer ipv4//' \
    -e "s/^    server-template .*/$servers/" -e "s/bind :8080/bind $front/" \
    -e 's/timeout server 60s/timeout server 3s/' docker/haproxy.cfg >"$work/haproxy.cfg"
haproxy -c -q -f "$work/haproxy.cfg"
haproxy -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do curl -fs "http://$front/readyz" >/dev/null && break; sleep 0.2; done
sleep 3 # every server through its first health checks

host() {
    curl -s -o "${1:-/dev/null}" -w '%{http_code}\n' -X POST "http://$front/v1/matches" \
        -H 'content-type: application/json' \
        -d '{"game":"lucky-jack","seats":[{"name":"Ann"},{"name":"Ben"}]}'
}

echo "== 1. a quiet live stream through the balancer (server timeout 3 s, heartbeat 100 s)"
host "$work/created.json" >/dev/null
id=$(jq -r .match.id "$work/created.json")
owner=$(jq -r .owner_token "$work/created.json")
started=$(date +%s%N)
status=0
curl -sN --max-time 8 -H "authorization: Bearer $owner" \
    "http://$front/v1/matches/$id/stream" -o "$work/stream.txt" || status=$?
held_ms=$((($(date +%s%N) - started) / 1000000))
# 28: curl's own --max-time ended it; anything else means the stream was closed under it.
if [ "$status" -ne 28 ]; then
    echo "FAILED: the stream ended after $held_ms ms (curl exit $status)" >&2
    exit 1
fi
echo "open for $held_ms ms, then closed by the client; $(grep -c '^event:' "$work/stream.txt") events"

echo "== 2. SIGTERM to one instance while 4 clients create matches through the balancer"
seconds=$((drain + 10))
clients=()
for w in 1 2 3 4; do
    (
        end=$(($(date +%s) + seconds))
        while [ "$(date +%s)" -lt "$end" ]; do host; done >"$work/codes.$w"
    ) &
    clients+=($!)
done
sleep 3
kill -TERM "${pids[0]}"
signalled=$(date +%s%N)
exit_status=0
wait "${pids[0]}" || exit_status=$?
took_ms=$((($(date +%s%N) - signalled) / 1000000))
wait "${clients[@]}"
echo "instance 1 exited with $exit_status, $took_ms ms after SIGTERM (drain $drain s)"
sort "$work"/codes.* | uniq -c | sed 's/^/answers: /'
echo "balancer: $(grep -c 'referees/r1 ' "$work/haproxy.log" || true) requests to instance 1," \
    "$(grep -o 'Server referees/r1 is DOWN[^,]*' "$work/haproxy.log" | head -n 1)"
if [ "$exit_status" -ne 0 ] || grep -vqx 201 "$work"/codes.*; then
    echo "FAILED: a request was lost or the instance did not stop cleanly" >&2
    exit 1
fi
echo "no request lost"
