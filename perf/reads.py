"""Whole-match reads timed from outside, against a running service (not part of the tests).

    bash perf/reads.sh        # builds the release service, starts it on a fresh database

Plays a two-seat Lucky Jack match (the server deals and draws) for 50 moves, then times the reads
that go over the whole match: the export, the log's first page, a past ply, the match itself.
One client, one connection kept alive; the medians are wall-clock over loopback, including
Python's own share, which /healthz gives: each read is also shown beyond it.
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
    # The client's own share, timed on the cheapest answer there is: what Python and the HTTP
    # round trip cost whatever is asked (0.3 to 0.7 ms a request, from day to day).
    client = median_ms("/healthz", None)
    print(f"{'/healthz':<18} p50 {client:.2f} ms (the client's own share, taken off below)")
    for name, path in (("export", "/export"), ("log, first page", "/log"),
                       ("ply 25", "/plies/25"), ("the match", "")):
        took = median_ms(f"/v1/matches/{mid}{path}", owner)
        print(f"{name:<18} after {moves} moves: p50 {took:.2f} ms, {took - client:.2f} ms "
              "beyond /healthz")


def median_ms(path, token):
    """The median of 50 timed GETs of `path`, after 10 untimed, in ms."""
    times = []
    for _ in range(60):
        start = time.perf_counter()
        call("GET", path, token=token).content
        times.append(time.perf_counter() - start)
    return statistics.median(times[10:]) * 1000


if __name__ == "__main__":
    main()
