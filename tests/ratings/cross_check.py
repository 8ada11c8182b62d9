"""The service's skill ratings against an independent implementation of the same model.

Reads the seasons `cargo run --bin ratings-season` prints (stdin): every result's players,
ranks and the ratings the service computed after it. Rates the same results from scratch with
the `openskill` package's Bradley-Terry full-pairing model (pinned in `.ci/ratings`), with the
same parameters and no dynamics factor, and fails on any mu or sigma that differs by more than
1e-9, relatively. The second season has one result corrected in the middle and was re-rated by
the service from that result on; openskill rates it whole, from the start.
"""

import json
import sys

from openskill.models import BradleyTerryFull

TOLERANCE = 1e-9


def close(a: float, b: float) -> bool:
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b), 1e-300)


def main() -> int:
    data = json.load(sys.stdin)
    m = data["model"]
    model = BradleyTerryFull(mu=m["mu"], sigma=m["sigma"], beta=m["beta"], kappa=m["kappa"], tau=0.0)
    compared = 0
    worst = 0.0
    for number, season in enumerate(data["seasons"], start=1):
        ratings = {}
        for index, result in enumerate(season):
            teams = [[ratings.get(p) or model.rating(name=p)] for p in result["players"]]
            rated = model.rate(teams, ranks=result["ranks"])
            for player, [rating], theirs in zip(result["players"], rated, result["after"]):
                ratings[player] = rating
                for key, ours in (("mu", rating.mu), ("sigma", rating.sigma)):
                    compared += 1
                    difference = abs(ours - theirs[key]) / max(abs(ours), 1e-300)
                    worst = max(worst, difference)
                    if not close(ours, theirs[key]):
                        print(
                            f"season {number}, result {index + 1}, {player}: {key} is {theirs[key]!r} "
                            f"in the service, {ours!r} in openskill",
                            file=sys.stderr,
                        )
                        return 1
    if compared == 0:
        print("nothing compared", file=sys.stderr)
        return 1
    print(f"ratings: {compared} values agree with openskill (largest relative difference {worst:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
