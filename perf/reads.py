"""Whole-match reads timed from outside, against a running service (not part of the tests).

    bash perf/reads.sh        # builds the release service, starts it on a fresh database

Plays a two-seat Lucky Jack match (the server deals and draws) for 50 moves, then times the reads
that go over the whole match: the export, the log's first page, a past ply, the match itself.
One client, one connection kept alive; the medians are wall-clock over loopback, including
Python's own share (about 0.3 ms a request here).
"""

import statistics
import sys
import time

import requests

BASE = sys.argv[1]
HTTP = requests.Session()


def call(method, path, body=None, token=None):
    headers = {"authorization": f"Bearer {token}"} if token else {}
    reply = HTTP.request(method, BASE + path, json=body, headers=headers, timeout=60)
    reply.raise_for_status()
    return reply


def main():
    created = call("POST", "/v1/matches", {"game": "lucky-jack", "seats": [
        {"name": "Ann"}, {"name": "Ben"}], "options": {"rounds": 5}}).json()
    mid = created["match"]["id"]
    tokens = [seat["token"] for seat in created["seat_tokens"]]
    moves = 0
    while moves < 50:
        shown = call("GET", f"/v1/matches/{mid}").json()
        if shown["status"] == "finished":
            break
        seat = shown["to_act"][0]
        legal = call("GET", f"/v1/matches/{mid}", token=tokens[seat]).json()["view"]["legal_moves"]
        call("POST", f"/v1/matches/{mid}/moves", {"seat": seat, "move": legal[0]}, tokens[seat])
        moves += 1
    owner = created["owner_token"]
    for name, path in (("export", "/export"), ("log, first page", "/log"),
                       ("ply 25", "/plies/25"), ("the match", "")):
        times = []
        for _ in range(60):
            start = time.perf_counter()
            call("GET", f"/v1/matches/{mid}{path}", token=owner).content
            times.append(time.perf_counter() - start)
        print(f"{name:<18} after {moves} moves: p50 {statistics.median(times[10:]) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
