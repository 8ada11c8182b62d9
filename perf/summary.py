"""Summarise perf/load.sh's rounds: per-round ratios, then the median and spread of each.

    python3 perf/summary.py RESULTS PEAK_KIB

RESULTS holds one line per run, `round=N <workload> key=value ...` (see examples/load.rs and
perf/load.sh). Ratios are taken within a round, so drift between rounds cancels out.
"""

import statistics
import sys


def parse(path):
    rounds = {}
    for line in open(path):
        words = line.split()
        fields = dict(w.split("=", 1) for w in words if "=" in w)
        name = next(w for w in words if "=" not in w)
        if fields.get("concurrency", fields.get("clients")) == "1":
            name += "_1"
        rounds.setdefault(int(fields["round"]), {})[name] = fields
    return rounds


def main():
    rounds = parse(sys.argv[1])
    peak_kib = int(sys.argv[2])
    ratios = {
        "checks / echo": ("check", "rps", "echo", "rps", 0.8),
        "moves / pgbench INSERT": ("moves", "rps", "insert", "tps", 0.5),
        "moves / pgbench floor": ("moves", "rps", "floor", "tps", 1.0),
    }
    latencies = {
        "check, single client": "check_1",
        "stored move, single client": "moves_1",
        "floor statement, single client": "floor_latency",
    }
    series = {name: [] for name in list(ratios) + list(latencies)}

    print("\nper round (concurrent runs; client_cores = the load client's CPU use; load = the load"
          " average as the round began; events = match_events rows after its moves run)")
    print("round  load    echo/s   check/s   moves/s  insert/s   floor/s  check÷echo  moves÷ins  "
          "moves÷floor  client cores echo/check/moves    events")
    for number, r in sorted(rounds.items()):
        values = {}
        for name, (a, ka, b, kb, _) in ratios.items():
            values[name] = float(r[a][ka]) / float(r[b][kb])
            series[name].append(values[name])
        for name, run in latencies.items():
            series[name].append((float(r[run]["p50_ms"]), float(r[run]["p99_ms"])))
        print(f"{number:>5} {r.get('load', {}).get('load1', '?'):>5} "
              f"{float(r['echo']['rps']):>9.0f} {float(r['check']['rps']):>9.0f} "
              f"{float(r['moves']['rps']):>9.0f} {float(r['insert']['tps']):>9.0f} "
              f"{float(r['floor']['tps']):>9.0f} "
              + "".join(f"{values[n]:>11.3f}" for n in ratios)
              + f"   {r['echo']['client_cores']}/{r['check']['client_cores']}"
              f"/{r['moves']['client_cores']}"
              f"{r['moves'].get('events_total', '?'):>20}")

    n = len(rounds)
    print(f"\nmedian [min–max] over {n} round{'s' if n != 1 else ''}")
    for name, (*_, target) in ratios.items():
        s = series[name]
        print(f"  {name:<32} {statistics.median(s):.3f}  [{min(s):.3f}–{max(s):.3f}]"
              f"  (target >= {target})")
    for name in latencies:
        p50 = [p for p, _ in series[name]]
        p99 = [p for _, p in series[name]]
        print(f"  {name:<32} p50 {statistics.median(p50):.3f} ms [{min(p50):.3f}–{max(p50):.3f}]"
              f"  p99 {statistics.median(p99):.3f} ms [{min(p99):.3f}–{max(p99):.3f}]")
    # The service's tables grow from round to round (never reset); the floor starts afresh in
    # every run. A move whose cost grows with the tables makes these fall below 1.
    first, last = rounds[min(rounds)], rounds[max(rounds)]
    raw = float(last["moves"]["rps"]) / float(first["moves"]["rps"])
    name = "moves ÷ pgbench floor"
    against_floor = series["moves / pgbench floor"][-1] / series["moves / pgbench floor"][0]
    print(f"  moves/s, last round ÷ first       {raw:.3f}  ({first['moves']['rps']} → "
          f"{last['moves']['rps']}/s; as {name}: {against_floor:.3f}; match_events "
          f"{first['moves'].get('events_total', '?')} → {last['moves'].get('events_total', '?')})")
    acknowledged = sum(int(r[m]["requests"]) for r in rounds.values() for m in ("moves", "moves_1"))
    stored = sum(int(r[m]["stored"]) for r in rounds.values() for m in ("moves", "moves_1"))
    print(f"  moves acknowledged {acknowledged}; events stored {stored} "
          "(moves + their chance plies + deals of new matches: audited equal per run)")
    print(f"  service peak memory (VmHWM)      {peak_kib / 1024:.1f} MiB  (target < 100)")


main()
