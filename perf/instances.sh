#!/usr/bin/env bash
# Many instances on one database (not part of the test suite): moves per second with 1, 2 and 3
# instances of the release binary sharing one PostgreSQL database, over loopback.
#
#   bash perf/instances.sh     # CONCURRENCY=32 SECONDS_PER_RUN=10 ROUNDS=3 INSTANCES=3
#
# All instances run for the whole benchmark; a run with n instances shares its load workers out
# among the first n (worker i talks to instance i mod n over its own keep-alive connection, as a
# balancer of connections would), at the same total concurrency. The machine's speed drifts, so
# the counts run in interleaved rounds (each round: 1, 2, 3 instances, in an order that rotates
# from round to round) and the summary gives the median and spread of moves/s for each count and
# of its ratio to the single instance in the same round.
#
# Every run is audited as in perf/load.sh: the match_events rows it added must equal the moves
# acknowledged plus the chance plies they triggered plus the deals of the matches it created.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
concurrency=${CONCURRENCY:-32}
seconds=${SECONDS_PER_RUN:-10}
rounds=${ROUNDS:-3}
instances=${INSTANCES:-3}
pg=postgres://postgres@127.0.0.1:5432
database=referee_instances
work=$(mktemp -d /tmp/referee-instances.XXXXXX)

referee=$(built_executable referee --release --bin referee)
load=$(built_executable load --release -p referee-tools --bin load)
psql "$pg/postgres" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)"

pids=()
bases=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
# One invite key for all instances, as in production (docs/operations.md).
invite_key=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
for i in $(seq 1 "$instances"); do
    address=127.0.0.1:$((18300 + i))
    INVITE_KEY=$invite_key \
    DATABASE_URL="$pg/$database" BIND_ADDRESS="$address" RATE_LIMIT_PER_SECOND=0 \
        DATABASE_POOL_SIZE=${DATABASE_POOL_SIZE:-8} RUST_LOG=warn "$referee" \
        >"$work/instance-$i.log" 2>&1 &
    pids+=($!)
    bases+=("http://$address")
    # The first instance creates and migrates the database before the others start.
    for _ in $(seq 1 100); do curl -fs "http://$address/readyz" >/dev/null && break; sleep 0.2; done
    curl -fs "http://$address/readyz" >/dev/null
done

events() { psql "$pg/$database" -Atc "SELECT count(*) FROM match_events"; }

# One moves run on the first $1 instances, audited against the rows it stored.
moves() {
    local n=$1 before after line expected list
    list=$(IFS=,; echo "${bases[*]:0:$n}")
    before=$(events)
    line=$("$load" moves "$list" "$concurrency" "$seconds")
    after=$(events)
    expected=$(sed -n 's/.* stored_expected=\([0-9]*\).*/\1/p' <<<"$line")
    if [ "$((after - before))" -ne "$expected" ]; then
        echo "STORED EVENTS MISMATCH: the database gained $((after - before)) events," \
            "the answers account for $expected: $line" >&2
        exit 1
    fi
    echo "$line stored=$((after - before))"
}

# Warm-up: every instance connects its pool and the tables get their first pages.
for n in $(seq 1 "$instances"); do seconds=2 moves "$n" >/dev/null; done

echo "concurrency $concurrency, $seconds s per run, $rounds rounds, up to $instances instances;" \
    "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for round in $(seq 1 "$rounds"); do
    for k in $(seq 0 $((instances - 1))); do
        moves $(((round - 1 + k) % instances + 1))
    done | sed "s/^/round=$round /" | tee -a "$work/results"
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

python3 - "$work/results" <<'PY'
import statistics, sys

runs = {}
for line in open(sys.argv[1]):
    fields = dict(w.split("=", 1) for w in line.split() if "=" in w)
    runs.setdefault(int(fields["round"]), {})[int(fields["instances"])] = fields

counts = sorted({n for r in runs.values() for n in r})
print("\nround  " + "".join(f"{n} inst. moves/s  p99 ms   " for n in counts))
for number, r in sorted(runs.items()):
    print(f"{number:>5}  " + "".join(
        f"{float(r[n]['rps']):>14.0f} {float(r[n]['p99_ms']):>7.1f}   " for n in counts))
print(f"\nmedian [min–max] over {len(runs)} rounds")
for n in counts:
    rps = [float(r[n]["rps"]) for r in runs.values()]
    ratio = [float(r[n]["rps"]) / float(r[1]["rps"]) for r in runs.values()]
    p99 = [float(r[n]["p99_ms"]) for r in runs.values()]
    print(f"  {n} instance{'s' if n > 1 else ' '}: {statistics.median(rps):>7.0f} moves/s "
          f"[{min(rps):.0f}–{max(rps):.0f}], × {statistics.median(ratio):.2f} the single "
          f"instance [{min(ratio):.2f}–{max(ratio):.2f}], p99 {statistics.median(p99):.1f} ms "
          f"[{min(p99):.1f}–{max(p99):.1f}]")
acknowledged = sum(int(f["requests"]) for r in runs.values() for f in r.values())
stored = sum(int(f["stored"]) for r in runs.values() for f in r.values())
print(f"  moves acknowledged {acknowledged}; events stored {stored} "
      "(moves + chance plies + deals of new matches: audited equal per run)")
PY
