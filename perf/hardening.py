"""Issue 38's targets measured from outside, against a running service (not part of the tests).

    bash perf/hardening.sh [MEASURE...]   # builds the release service, starts it on a fresh
                                          # database, runs the measures named (default: all)

Each measure prints one line: what was measured, the figure, and the service's own CPU (user +
system, from /proc) where the target is about CPU. Timings are wall-clock medians over loopback
on whatever else the machine is doing: compare figures of one run with each other.
"""

import json
import os
import statistics
import sys
import threading
import time
import uuid

import requests

BASE = sys.argv[1]
PID = int(sys.argv[2])
HTTP = requests.Session()


def cpu_seconds() -> float:
    """The service's user + system CPU so far."""
    fields = open(f"/proc/{PID}/stat").read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def call(method: str, path: str, body=None, token=None, ok=(200, 201), household=None):
    headers = {"authorization": f"Bearer {token}"} if token else {}
    if household:
        headers["household-key"] = household
    reply = HTTP.request(method, BASE + path, json=body, headers=headers, timeout=600)
    if reply.status_code not in ok:
        raise SystemExit(f"{method} {path}: {reply.status_code} {reply.text[:300]}")
    return reply.json() if reply.content else None


def timed(method: str, path: str, body=None, token=None, ok=(200, 201)):
    start = time.perf_counter()
    reply = call(method, path, body, token, ok)
    return time.perf_counter() - start, reply


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def report(name: str, figure: str) -> None:
    print(f"{name:<62} {figure}", flush=True)


def plays_file(count: int, date: str, players: int, names=None, game="Lucky Jack"):
    """A BG Stats file of `count` two-player plays among `players` made-up players."""
    names = names or [f"Imported {n}" for n in range(players)]
    plays = []
    for n in range(count):
        a, b = n % len(names), (n * 7 + 1) % len(names)
        if a == b:
            b = (b + 1) % len(names)
        plays.append({
            "uuid": str(uuid.uuid4()), "gameRefId": 1, "playDate": date,
            "playerScores": [{"playerRefId": a, "score": str(1000 + n % 5000)},
                             {"playerRefId": b, "score": str(500 + n % 3000)}]})
    return {"players": [{"id": i, "name": name} for i, name in enumerate(names)],
            "games": [{"id": 1, "name": game}], "plays": plays}


SHEETS = {}


def family_finish(family: int, household=None) -> float:
    """A family's three-round Lucky Jack sheet (in `household`, a key, if given): the time of the
    round that finishes it."""
    players = [{"name": f"Family{family} {who}"} for who in ("Mum", "Dad", "Zoe")]
    sheet = call("POST", "/v1/sheets", {"game": "lucky-jack", "players": players,
                                         "options": {"rounds": 3}}, household=household)
    sheet_id, token = sheet["sheet"]["id"], sheet["owner_token"]
    path = f"/v1/sheets/{sheet_id}/entries"
    for version in range(3):
        tally = {"jackpot": {"seat": version, "symbol": "jack", "size": 4}}
        took, reply = timed("POST", path, {"expected_version": version, "tally": tally}, token)
    assert reply["status"] == "finished", reply
    SHEETS[family] = (sheet_id, token)
    return took


def finishes(label: str, families: range) -> float:
    median = statistics.median(family_finish(f) for f in families)
    report(f"a family's finishing round, {label}", ms(median))
    return median


def many_names() -> None:
    """One anonymous sheet of 1,568 names (28 KB), the finding's request."""
    players = [{"name": f"Player {n}"} for n in range(1_568)]
    cpu = cpu_seconds()
    took, reply = timed("POST", "/v1/sheets", {"game": "lucky-jack", "players": players},
                        ok=(422,))
    report(f"a sheet of 1,568 names ({reply['code']})",
           f"{ms(took)}, CPU {cpu_seconds() - cpu:.3f} s")


def ratings_after_imports() -> None:
    before = finishes("before any import", range(0, 9))
    took, _ = timed("POST", "/v1/imports/bgstats", plays_file(1500, "9999-12-31 23:59:59", 40))
    report("import of 1,500 plays dated 9999", ms(took))
    after = finishes("after 1,500 plays dated 9999", range(9, 18))
    report("  after ÷ before (target ≤ 3, + 50 ms)", f"{after / before:.2f}")
    # Finishes while a file dated 1970 is imported: none may be refused.
    refused = []
    file = plays_file(5000, "1970-01-01 00:00:01", 40)

    def importing():
        call("POST", "/v1/imports/bgstats", file)

    thread = threading.Thread(target=importing)
    thread.start()
    count = 0
    while thread.is_alive():
        try:
            family_finish(100 + count)
        except SystemExit as refusal:
            refused.append(str(refusal))
        count += 1
    thread.join()
    report("finishes refused while 5,000 plays dated 1970 import", f"{len(refused)} of {count}")
    # Two imports of one game at once.
    results = []

    def one_import(n: int):
        try:
            call("POST", "/v1/imports/bgstats", plays_file(5000, "2020-01-01 12:00:00", 40))
            results.append(200)
        except SystemExit as refusal:
            results.append(str(refusal)[:80])

    threads = [threading.Thread(target=one_import, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report("two imports of 5,000 plays of one game at once", ", ".join(map(str, results)))
    # A rename of a player of the first family's sheet, which arrived before every import:
    # the only write that re-rates what came after it (all the imported plays).
    sheet, token = SHEETS[0]
    took, _ = timed("PATCH", f"/v1/sheets/{sheet}/seats/0", {"name": "Family0 Mother"}, token)
    report("rename at a result with 16,500 results after it", ms(took))
    finish_while = []

    def renaming():
        for n in range(4):
            call("PATCH", f"/v1/sheets/{sheet}/seats/0", {"name": f"Family0 Mum{n}"}, token)

    thread = threading.Thread(target=renaming)
    thread.start()
    while thread.is_alive():
        try:
            finish_while.append(family_finish(300 + len(finish_while)))
        except SystemExit as refusal:
            finish_while.append(str(refusal)[:80])
    thread.join()
    refused = [f for f in finish_while if isinstance(f, str)]
    times = [f for f in finish_while if not isinstance(f, str)]
    report("finishes during 4 such renames: refused, p50",
           f"{len(refused)} of {len(finish_while)}, {ms(statistics.median(times)) if times else '-'}")


def import_cpu() -> None:
    """Imports naming one of 30,000 players 30,000 times (5,000 plays of six references): the
    finding's file, whose plays are all skipped (one player six times at a table), and one whose
    plays are all written (six players of the 30,000)."""
    names = [f"P{n}" for n in range(30_000)]
    for label, refs in (("skipped", [29_999] * 6), ("written", range(29_994, 30_000))):
        scores = [{"playerRefId": ref, "score": str(k)} for k, ref in enumerate(refs)]
        file = {"players": [{"id": i, "name": name} for i, name in enumerate(names)],
                "games": [{"id": 1, "name": "Lucky Jack"}],
                "plays": [{"uuid": str(uuid.uuid4()), "gameRefId": 1,
                           "playDate": "2024-01-01 20:00:00", "playerScores": scores}
                          for _ in range(5_000)]}
        body = json.dumps(file).encode()
        cpu = cpu_seconds()
        start = time.perf_counter()
        answer = HTTP.post(BASE + "/v1/imports/bgstats", data=body,
                           headers={"content-type": "application/json"}, timeout=600)
        took = time.perf_counter() - start
        report(f"import of {len(body) / 1e6:.1f} MB, 30,000 references, {label} "
               f"({answer.status_code})", f"{ms(took)}, CPU {cpu_seconds() - cpu:.2f} s")


def take_backs() -> None:
    """Take-back time on a Luck Plus match early and late: the cost must not grow with it."""
    created = call("POST", "/v1/matches", {"game": "luck-plus", "seats": [
        {"name": "Ann"}, {"name": "Ben"}], "options": {"target": 1000,
                                                     "scoring": "points_to_winner"}})
    mid = created["match"]["id"]
    tokens = [seat["token"] for seat in created["seat_tokens"]]
    samples = {}

    def move_and_take_back(sample: bool):
        shown = call("GET", f"/v1/matches/{mid}")
        if shown["status"] == "finished":
            return False
        seat = shown["to_act"][0]
        mine = call("GET", f"/v1/matches/{mid}", token=tokens[seat])
        legal = mine["view"]["legal_moves"]
        moved = call("POST", f"/v1/matches/{mid}/moves", {"seat": seat, "move": legal[0]},
                     tokens[seat])
        if sample and len(moved["entries"]) == 1 and moved["status"] != "finished":
            took, _ = timed("POST", f"/v1/matches/{mid}/take-backs", {}, tokens[seat])
            samples.setdefault(moved["version"] // 500, []).append(took)
            call("POST", f"/v1/matches/{mid}/moves", {"seat": seat, "move": legal[0]},
                 tokens[seat])
        return True

    version = 0
    while version < 2200 and move_and_take_back(sample=version < 40 or version > 2000):
        version = call("GET", f"/v1/matches/{mid}")["version"]
    first, last = samples.get(0, []), samples.get(max(samples), [])
    report(f"take-back, p50 near version 5 ({len(first)} samples)", ms(statistics.median(first)))
    report(f"take-back, p50 near version {version} ({len(last)} samples)",
           ms(statistics.median(last)))
    report("  late ÷ early (target ≤ 3)",
           f"{statistics.median(last) / statistics.median(first):.2f}")


def period_board() -> None:
    """A stranger's read while eight clients read the period leaderboard."""
    for n in range(5):
        call("POST", "/v1/imports/bgstats", plays_file(5000, f"202{n}-06-01 12:00:00", 200))
    stranger = "/v1/players/Family0%20Mum/stats"

    def reads(count: int):
        return [timed("GET", stranger)[0] for _ in range(count)]

    idle = statistics.median(reads(40))
    report("a stranger's read, idle", ms(idle))
    stop = threading.Event()
    served = []

    def board_reader():
        while not stop.is_set():
            call("GET", "/v1/games/lucky-jack/ratings?from=2020-01-01T00:00:00Z"
                        "&to=2030-01-01T00:00:00Z", ok=(200, 503))
            served.append(1)

    readers = [threading.Thread(target=board_reader) for _ in range(8)]
    for r in readers:
        r.start()
    loaded = statistics.median(reads(40))
    stop.set()
    for r in readers:
        r.join()
    report("a stranger's read under 8 period-board readers", ms(loaded))
    report("  loaded ÷ idle (target ≤ 2)", f"{loaded / idle:.2f}")


def households() -> None:
    """Issue 40: one household's 6,000-play import against another household's finishing rounds."""
    ours = call("POST", "/v1/households", {"name": "Ours"})["owner_key"]
    theirs = call("POST", "/v1/households", {"name": "Theirs"})["owner_key"]
    before = statistics.median(family_finish(f, ours) for f in range(300, 311))
    report("a household's finishing round, nobody importing", ms(before))
    for importer, label in ((theirs, "another household"), (ours, "the same household")):
        files = [plays_file(5000, "2020-01-01 12:00:00", 40),
                 plays_file(1000, "2021-01-01 12:00:00", 40)]

        def importing():
            for file in files:
                call("POST", "/v1/imports/bgstats", file, household=importer)

        thread = threading.Thread(target=importing)
        thread.start()
        during, count = [], 0
        while thread.is_alive():
            during.append(family_finish(1000 * (len(label) + 1) + count, ours))
            count += 1
        thread.join()
        median = statistics.median(during)
        report(f"  while {label} imports 6,000 plays ({count} finishes)", ms(median))
        report("  during ÷ before (target ≤ 1.2 for another household)", f"{median / before:.2f}")

if __name__ == "__main__":
    chosen = sys.argv[3:]
    for measure in (many_names, ratings_after_imports, import_cpu, period_board, take_backs,
                    households):
        if not chosen or measure.__name__ in chosen:
            measure()
