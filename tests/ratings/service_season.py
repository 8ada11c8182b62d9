"""The ratings the service STORES and SERVES against an independent implementation of the model.

`tests/ratings/cross_check.py` checks the model's arithmetic; this script checks the stored path,
against a running service whose base URL is its only argument (`.ci/ratings` starts one on a fresh
database). It plays a seeded season through the HTTP API: 130 score sheets of Lucky Jack and Lucky
Dice among 8 players, 2 to 6 at a table, ties common (a Lucky Jack round nobody wins, equal
jackpots, two seats emptying their dice in one round), up to 3 sheets open at once so that they
finish in another order than they started. The service rates each result in the transaction that
finishes it. Once half the season has finished, a round of a sheet from its first quarter is
corrected (`POST /v1/sheets/{id}/entries` with `corrects`) so that the sheet's ranks change; the
sheet keeps its `finished_at` and the service re-rates the game from it. Then the rest is played.

The season is a family's that started keeping score without a household (docs/households.md):
its first third is played in the public space; then a household is made, everything finished is
brought into it by name (`POST /v1/households/{id}/bring-in`, which must move every sheet and leave
none), and the rest of the season, the correction included, is played in the household with its
owner key. Meanwhile strangers with the same names keep finishing sheets in the public space. The
ratings compared below are the household's, read with its key: a bring-in that re-rated in the
wrong order, or a household board that counted a public result, cannot agree with openskill.

It then reads every sheet back (`GET /v1/sheets/{id}`: `players[].rank`, `finished_at`), orders
the results as the service rates them (`finished_at`, then id) and rates them from scratch, per
game, with the `openskill` package's `BradleyTerryFull` (mu 25, sigma 25/3, beta 25/6,
kappa 0.0001, tau 0; pinned in `.ci/ratings`). Every point of every player's rating history
(`GET /v1/players/{name}/ratings/{game}`, every page: the result, the rank, mu and sigma before
and after) and every current rating (`GET /v1/players/{name}/ratings`: mu, sigma, results rated
and won) must agree, mu and sigma within 1e-9 relative. The season is also replayed with the
corrected sheet as first entered, and the service's points from that sheet on must differ from
that replay somewhere, so a correction the service did not re-rate cannot pass. Prints how many
values were compared and the largest relative difference; exits 1 on any disagreement.

Only the standard library speaks HTTP (`urllib`), so it runs in the venv `.ci/ratings` makes.
"""

import json
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timezone

from openskill.models import BradleyTerryFull

TOLERANCE = 1e-9
SEED = 2026
SHEETS = 130
# Finished sheets played in the public space before the family makes its household.
PUBLIC_BEFORE = SHEETS // 3
# How often a stranger's public sheet finishes beside a household sheet being started.
STRANGERS = 0.15
OPEN_AT_ONCE = 3
PLAYERS = ["Ann", "Ben", "Cleo", "Dad", "Eve", "Finn", "Mum", "Zoé"]
GAMES = ["lucky-jack", "lucky-dice"]
MAX_AT_TABLE = {"lucky-jack": 6, "lucky-dice": 6}
# Lucky Jack's printed jackpot table, for the few jackpots the season deals (few values: ties).
JACKPOTS = {("jack", 4): 10_000, ("bell", 4): 7_000, ("seven", 3): 6_000}
HISTORY_PAGE = 25


class Failure(Exception):
    pass


class Service:
    def __init__(self, base: str):
        self.base = base.rstrip("/")
        self.requests = 0
        # Once the family has a household, every call but the strangers' is made with its key.
        self.household_key = None

    def call(self, method: str, path: str, body=None, token=None, expect=(200, 201), public=False):
        data = None if body is None else json.dumps(body).encode()
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        if self.household_key is not None and not public:
            headers["household-key"] = self.household_key
        for attempt in range(10):
            request = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    status, text = response.status, response.read().decode()
            except urllib.error.HTTPError as error:
                status, text = error.code, error.read().decode()
                if status == 429 and attempt < 9:
                    time.sleep(float(error.headers.get("retry-after") or 1))
                    continue
            if status not in expect:
                raise Failure(f"{method} {path}: {status} {text[:500]}")
            return json.loads(text) if text else None
        raise Failure(f"{method} {path}: still rate limited")


def competition_ranks(totals):
    """1 + how many have more: equal totals share a place (1, 2, 2, 4)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def jack_totals(tallies, players):
    totals = [0] * players
    for tally in tallies:
        jackpot = tally["jackpot"]
        if jackpot is not None:
            totals[jackpot["seat"]] += JACKPOTS[(jackpot["symbol"], jackpot["size"])]
    return totals


def jack_round(rng, players):
    if rng.random() < 0.4:
        return {"jackpot": None}
    symbol, size = rng.choice([("jack", 4), ("seven", 3), ("seven", 3), ("bell", 4)])
    return {"jackpot": {"seat": rng.randrange(players), "symbol": symbol, "size": size}}


def dice_round(rng, players):
    emptied = rng.sample(range(players), 2 if players > 2 and rng.random() < 0.3 else 1)
    return {"emptied": emptied}


def micros(instant: str) -> int:
    """An RFC 3339 instant as microseconds since the epoch, exactly (any fraction digits)."""
    stamp, _, zone = instant.rstrip("Z").partition("+")
    if zone not in ("", "00:00"):
        raise Failure(f"unexpected time zone in {instant!r}")
    whole, _, fraction = stamp.partition(".")
    seconds = datetime.fromisoformat(whole).replace(tzinfo=timezone.utc).timestamp()
    return int(seconds) * 1_000_000 + int((fraction + "000000")[:6])


def play(service: Service, rng: random.Random):
    """Plays the season; returns the sheets' ids in creation order, the correction made, the
    bring-in's report and how many strangers' sheets finished in the public space."""
    created = []
    open_sheets = []  # dicts: id, token, game, players, tallies
    finished = []
    correction = None
    brought_in = None
    strangers = 0
    while len(finished) < SHEETS:
        # Once the first third has finished, no sheet is started until every open one has ended
        # (a sheet in play stays public), and then the family brings its records in.
        waiting = brought_in is None and len(finished) >= PUBLIC_BEFORE
        if waiting and not open_sheets:
            brought_in = bring_in(service, len(finished))
            continue
        room = len(open_sheets) < OPEN_AT_ONCE and rng.random() < 0.7
        if not waiting and len(created) < SHEETS and (room or not open_sheets):
            game = "lucky-jack" if rng.random() < 0.75 else "lucky-dice"
            names = rng.sample(PLAYERS, rng.randint(2, MAX_AT_TABLE[game]))
            body = {"game": game, "players": [{"name": n} for n in names]}
            if game == "lucky-jack":
                body["options"] = {"rounds": 5 if rng.random() < 0.2 else 3}
            made = service.call("POST", "/v1/sheets", body, expect=(201,))
            sheet = {"id": made["sheet"]["id"], "token": made["owner_token"], "game": game,
                     "players": len(names), "tallies": []}
            created.append(sheet["id"])
            open_sheets.append(sheet)
            if brought_in is not None and rng.random() < STRANGERS:
                stranger_sheet(service, rng)
                strangers += 1
            continue
        sheet = rng.choice(open_sheets)
        round_of = jack_round if sheet["game"] == "lucky-jack" else dice_round
        tally = round_of(rng, sheet["players"])
        shown = service.call("POST", f"/v1/sheets/{sheet['id']}/entries", {"tally": tally}, sheet["token"])
        sheet["tallies"].append(tally)
        if shown["status"] == "finished":
            open_sheets.remove(sheet)
            finished.append(sheet)
            if len(finished) == SHEETS // 2:
                correction = correct(service, rng, finished[: SHEETS // 4])
    return created, correction, brought_in, strangers


def bring_in(service: Service, finished: int):
    """Makes the family's household and brings every finished public sheet of its players in: all
    `finished` must move and none stay. From here on calls carry the household's owner key."""
    made = service.call("POST", "/v1/households", {"name": "The cross-checkers"}, expect=(201,))
    service.household_key = made["owner_key"]
    household = made["household"]["id"]
    report = service.call("POST", f"/v1/households/{household}/bring-in", {"players": PLAYERS})
    if report["moved"] != finished or report["stayed"] != 0:
        raise Failure(f"the bring-in moved {report['moved']} of {finished} finished sheets "
                      f"and left {report['stayed']}")
    return report


def stranger_sheet(service: Service, rng: random.Random):
    """A Lucky Jack sheet of three of the same names in the public space, played to its end: the
    household's ratings must not count it."""
    names = rng.sample(PLAYERS, 3)
    body = {"game": "lucky-jack", "players": [{"name": n} for n in names]}
    made = service.call("POST", "/v1/sheets", body, expect=(201,), public=True)
    for _ in range(3):
        tally = {"jackpot": {"seat": rng.randrange(3), "symbol": "jack", "size": 4}}
        service.call("POST", f"/v1/sheets/{made['sheet']['id']}/entries", {"tally": tally},
                     made["owner_token"], public=True)


def correct(service: Service, rng: random.Random, earlier):
    """Corrects one round of an earlier finished Lucky Jack sheet so that its ranks change."""
    for sheet in rng.sample(earlier, len(earlier)):
        if sheet["game"] != "lucky-jack":
            continue
        before = service.call("GET", f"/v1/sheets/{sheet['id']}")
        ranks = [p["rank"] for p in before["players"]]
        options = []
        for index in range(len(sheet["tallies"])):
            alternatives = [{"jackpot": None}] + [
                {"jackpot": {"seat": s, "symbol": "jack", "size": 4}} for s in range(sheet["players"])
            ]
            for tally in alternatives:
                tallies = sheet["tallies"][:index] + [tally] + sheet["tallies"][index + 1 :]
                new_ranks = competition_ranks(jack_totals(tallies, sheet["players"]))
                if new_ranks != ranks:
                    options.append((index, tally, new_ranks))
        if not options:
            continue
        index, tally, new_ranks = rng.choice(options)
        entry = before["rounds"][index]["entry"]
        after = service.call(
            "POST",
            f"/v1/sheets/{sheet['id']}/entries",
            {"corrects": entry, "tally": tally, "note": "cross-check correction"},
            sheet["token"],
        )
        got = [p["rank"] for p in after["players"]]
        if after["status"] != "finished" or got != new_ranks:
            raise Failure(f"sheet {sheet['id']}: corrected to ranks {got} ({after['status']}), "
                          f"expected {new_ranks}")
        if after["finished_at"] != before["finished_at"]:
            raise Failure(f"sheet {sheet['id']}: finished_at moved from {before['finished_at']} "
                          f"to {after['finished_at']}")
        return {"id": sheet["id"], "round": index + 1, "ranks_before": ranks, "ranks_after": new_ranks}
    raise Failure("no earlier Lucky Jack sheet could be corrected to change its ranks")


def rate(model, results, overrides=None):
    """Rates the results in order, per game, from scratch. Returns per (player, game) the points
    (match id, rank, before, after) and the last rating."""
    ratings = {}
    points = {}
    for result in results:
        ranks = (overrides or {}).get(result["id"], result["ranks"])
        game = result["game"]
        teams = [[ratings.get((p, game)) or model.rating(name=p)] for p in result["names"]]
        before = [(t[0].mu, t[0].sigma) for t in teams]
        rated = model.rate(teams, ranks=ranks)
        for name, rank, old, [new] in zip(result["names"], ranks, before, rated):
            ratings[(name, game)] = new
            points.setdefault((name, game), []).append(
                {"match_id": result["id"], "rank": rank, "before": old, "after": (new.mu, new.sigma)}
            )
    return points, ratings


class Comparison:
    def __init__(self):
        self.compared = 0
        self.worst = 0.0

    def check(self, where: str, key: str, served: float, ours: float):
        self.compared += 1
        difference = abs(ours - served) / max(abs(ours), abs(served), 1e-300)
        self.worst = max(self.worst, difference)
        if difference > TOLERANCE:
            raise Failure(f"{where}: {key} is {served!r} in the service, {ours!r} in openskill")


def history(service: Service, name: str, game: str):
    items, cursor = [], None
    quoted = urllib.parse.quote(name, safe="")
    while True:
        query = {"limit": HISTORY_PAGE}
        if cursor:
            query["cursor"] = cursor
        page = service.call("GET", f"/v1/players/{quoted}/ratings/{game}?{urllib.parse.urlencode(query)}")
        items.extend(page["items"])
        cursor = page["next_cursor"]
        if not cursor:
            return items


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: service_season.py BASE_URL", file=sys.stderr)
        return 2
    service = Service(sys.argv[1])
    model = BradleyTerryFull(mu=25.0, sigma=25.0 / 3.0, beta=25.0 / 6.0, kappa=0.0001, tau=0.0)
    rng = random.Random(SEED)
    try:
        created, correction, brought_in, strangers = play(service, rng)

        # The results as the service holds them, in the order it rates them.
        results = []
        for sheet_id in created:
            sheet = service.call("GET", f"/v1/sheets/{sheet_id}")
            if sheet["status"] != "finished":
                raise Failure(f"sheet {sheet_id} is {sheet['status']}")
            seats = sorted(sheet["players"], key=lambda p: p["seat"])
            results.append({
                "id": sheet_id,
                "game": sheet["game"],
                "at": micros(sheet["finished_at"]),
                "names": [p["name"] for p in seats],
                "ranks": [p["rank"] for p in seats],
            })
        results.sort(key=lambda r: (r["at"], uuid.UUID(r["id"]).bytes))
        started = {sheet_id: index for index, sheet_id in enumerate(created)}
        overtaken = sum(
            any(started[later["id"]] < started[r["id"]] for later in results[index + 1 :])
            for index, r in enumerate(results)
        )
        corrected = next(r for r in results if r["id"] == correction["id"])
        if corrected["ranks"] != correction["ranks_after"]:
            raise Failure(f"sheet {corrected['id']} reads ranks {corrected['ranks']} after its correction")
        place = results.index(corrected)

        expected, current = rate(model, results)
        # The season as if the correction had not been made: the service must not agree with it
        # after the corrected sheet, or the check would pass a service that never re-rated.
        uncorrected, _ = rate(model, results, {corrected["id"]: correction["ranks_before"]})
        later = {r["id"] for r in results[place:]}
        moved = 0

        comparison = Comparison()
        points = 0
        for (name, game), ours in sorted(expected.items()):
            served = history(service, name, game)
            where = f"{name} in {game}"
            if [p["match_id"] for p in served] != [p["match_id"] for p in ours]:
                raise Failure(f"{where}: the history lists {len(served)} results, not the {len(ours)} rated, "
                              f"or in another order")
            for index, (point, mine, other) in enumerate(zip(served, ours, uncorrected[(name, game)])):
                at = f"{where}, point {index + 1} (sheet {point['match_id']})"
                if point["rank"] != mine["rank"]:
                    raise Failure(f"{at}: rank {point['rank']} in the history, {mine['rank']} on the sheet")
                for side in ("before", "after"):
                    comparison.check(at, f"{side}.mu", point[side]["mu"], mine[side][0])
                    comparison.check(at, f"{side}.sigma", point[side]["sigma"], mine[side][1])
                points += 1
                if point["match_id"] in later and not (
                    abs(point["after"]["mu"] - other["after"][0]) <= TOLERANCE * abs(other["after"][0])
                    and abs(point["after"]["sigma"] - other["after"][1]) <= TOLERANCE * other["after"][1]
                ):
                    moved += 1

        for name in PLAYERS:
            shown = service.call("GET", f"/v1/players/{urllib.parse.quote(name, safe='')}/ratings")
            games = {g["game"]: g for g in shown["games"]}
            mine = sorted(game for (player, game) in expected if player == name)
            if sorted(games) != mine:
                raise Failure(f"{name}: rated in {sorted(games)} by the service, in {mine} by the season")
            for game in mine:
                ours = current[(name, game)]
                served = games[game]
                where = f"{name}'s current rating in {game}"
                comparison.check(where, "mu", served["rating"]["mu"], ours.mu)
                comparison.check(where, "sigma", served["rating"]["sigma"], ours.sigma)
                wins = sum(p["rank"] == 1 for p in expected[(name, game)])
                if (served["rated"], served["won"]) != (len(expected[(name, game)]), wins):
                    raise Failure(f"{where}: rated {served['rated']}, won {served['won']}; "
                                  f"the season has {len(expected[(name, game)])}, {wins}")

        if moved == 0:
            raise Failure(f"the correction of sheet {corrected['id']} moved no rating from it on: "
                          f"was the game re-rated?")
    except Failure as failure:
        print(f"service ratings: {failure}", file=sys.stderr)
        return 1

    per_game = {g: sum(r["game"] == g for r in results) for g in GAMES}
    print(
        f"service ratings: {comparison.compared} stored and served values agree with openskill "
        f"(largest relative difference {comparison.worst:.1e}): {points} history points and "
        f"{len(expected)} current ratings from {per_game['lucky-jack']} Lucky Jack and "
        f"{per_game['lucky-dice']} Lucky Dice sheets ({overtaken} finished ahead of a sheet started "
        f"before them); result {place + 1} corrected (round {correction['round']}, ranks "
        f"{correction['ranks_before']} -> {correction['ranks_after']}), {moved} points from it on "
        f"re-rated; the first {brought_in['moved']} played in public and brought into a household, "
        f"the rest played in it beside {strangers} strangers' public sheets"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
