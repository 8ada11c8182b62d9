"""Fixtures made through the API, for the docs page test and for the fuzzing (.ci/fuzz).

Each one puts an operation on its success path: a server-seeded match in play (with its seat
tokens), one played to its end (result, export, BG Stats, rematch), a score sheet in play and one
whose every round is entered, two table matches made from the documented examples (one waiting
for its deal, one dealt, so the documented chance and move examples are accepted on them), a
match whose seats are joined by invite codes, and a match and a sheet to abandon.

Run as a script (`fixtures.py BASE_URL`), it prints them as shell `export` lines for .ci/fuzz.
Standard library only: .ci/fuzz runs it with the system Python.
"""

import json
import shlex
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass

PLAYER = "Ann"
# PLAYER's opponent in the finished match, so their head-to-head record has a shared result.
OPPONENT = "Ben"
# Enough moves for any short Lucky Jack match; a match still going after this many never ends.
MOVE_LIMIT = 2_000


class ApiError(Exception):
    pass


def call(base: str, method: str, path: str, body=None, token: str | None = None):
    request = urllib.request.Request(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.load(reply)
    except urllib.error.HTTPError as error:
        raise ApiError(f"{method} {path}: {error.code} {error.read().decode()}") from error


def example(spec: dict, path: str) -> dict:
    return spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["example"]


@dataclass
class Hosted:
    id: str
    owner_token: str
    seat_tokens: dict[int, str]
    invite_codes: dict[int, str]


def create_match(base: str, body: dict) -> Hosted:
    created = call(base, "POST", "/v1/matches", body)
    seats = {seat["seat"]: seat["token"] for seat in created["seat_tokens"]}
    codes = {invite["seat"]: invite["code"] for invite in created.get("invites") or []}
    return Hosted(created["match"]["id"], created["owner_token"], seats, codes)


def play(base: str, match: Hosted, moves: int | None = None) -> None:
    """Plays each acting seat's first legal move, `moves` times or until the match ends."""
    made = 0
    while moves is None or made < moves:
        detail = call(base, "GET", f"/v1/matches/{match.id}", token=match.owner_token)
        if detail["status"] != "in_progress":
            return
        if made >= MOVE_LIMIT or not detail["to_act"] or detail["chance_pending"]:
            raise ApiError(f"match {match.id} stuck: {detail['status']}, to act {detail['to_act']}")
        seat = detail["to_act"][0]
        view = call(base, "GET", f"/v1/matches/{match.id}", token=match.seat_tokens[seat])
        move = {"seat": seat, "move": view["view"]["legal_moves"][0], "expected_version": view["version"]}
        call(base, "POST", f"/v1/matches/{match.id}/moves", move, token=match.seat_tokens[seat])
        made += 1


@dataclass
class Sheet:
    id: str
    owner_token: str


def create_sheet(base: str, spec: dict, rounds: int) -> Sheet:
    """The documented sheet, with the documented entry made `rounds` times (or until it ends)."""
    created = call(base, "POST", "/v1/sheets", example(spec, "/v1/sheets"))
    sheet = Sheet(created["sheet"]["id"], created["owner_token"])
    entry = example(spec, "/v1/sheets/{id}/entries")
    for _ in range(rounds):
        detail = call(base, "GET", f"/v1/sheets/{sheet.id}")
        if detail["status"] != "in_progress":
            break
        body = {**entry, "expected_version": detail["version"]}
        call(base, "POST", f"/v1/sheets/{sheet.id}/entries", body, token=sheet.owner_token)
    return sheet


@dataclass
class Fixtures:
    live: Hosted  # server-seeded, in play, one move in
    finished: Hosted  # server-seeded, played to its end
    sheet: Sheet  # the documented sheet, one round entered
    finished_sheet: Sheet  # the documented sheet, every round entered
    awaiting_deal: Hosted  # the documented table match, before its deal
    dealt: Hosted  # the documented table match, its documented deal reported and corrected
    move_seat: int  # the seat of the documented move
    correctable: Hosted  # the documented table match, its documented deal (with its mistake) reported
    moved: Hosted  # the documented table match, dealt, corrected and its documented move made
    lobby: Hosted  # seats open, joined by invite codes; no move yet, so seats can be renamed
    abandonable: Hosted  # a match in play, to abandon
    abandonable_sheet: Sheet  # a sheet in play, to abandon
    # The documented sheet with one round (version 1), one for each documented mending: its last
    # round taken away, a player renamed, finished early, handed to another phone.
    mendable_sheets: dict[str, Sheet]
    household: tuple[str, str]  # a household's id and its owner key


def make(base: str, spec: dict) -> Fixtures:
    two_players = {"game": "lucky-jack", "seats": [{"name": PLAYER}, {"name": OPPONENT}]}
    live = create_match(base, two_players)
    play(base, live, moves=1)
    # Few turns a round, so the match ends after a few dozen moves.
    finished = create_match(base, {**two_players, "options": {"rounds": 3, "max_turns_per_round": 5}})
    play(base, finished)
    table = example(spec, "/v1/matches")
    awaiting_deal = create_match(base, table)
    def reported(corrected: bool, moved: bool) -> Hosted:
        match = create_match(base, table)
        steps = ["chance"] + ["corrections"] * corrected + ["moves"] * moved
        for step in steps:
            path = f"/v1/matches/{{id}}/{step}"
            call(base, "POST", path.replace("{id}", match.id), example(spec, path), match.owner_token)
        return match

    dealt = reported(corrected=True, moved=False)
    correctable = reported(corrected=False, moved=False)
    moved = reported(corrected=True, moved=True)
    move_seat = example(spec, "/v1/matches/{id}/moves")["seat"]
    sheet = create_sheet(base, spec, rounds=1)
    finished_sheet = create_sheet(base, spec, rounds=100)
    if call(base, "GET", f"/v1/sheets/{finished_sheet.id}")["status"] == "in_progress":
        raise ApiError("the documented sheet does not finish with the documented entry")
    # Seat 2 is free for the documented rename (to "Cleo").
    lobby_seats = [{"name": PLAYER}, {"name": OPPONENT}, {"name": "Dee"}]
    lobby = create_match(base, {"game": "lucky-jack", "seats": lobby_seats, "invites": True})
    abandonable = create_match(base, two_players)
    abandonable_sheet = create_sheet(base, spec, rounds=0)
    mendable_sheets = {
        operation: create_sheet(base, spec, rounds=1)
        for operation in ("remove_last_round", "rename_sheet_player", "finish_sheet", "reissue_sheet_owner_token")
    }
    made = call(base, "POST", "/v1/households", example(spec, "/v1/households"))
    household = (made["household"]["id"], made["owner_key"])
    return Fixtures(
        live,
        finished,
        sheet,
        finished_sheet,
        awaiting_deal,
        dealt,
        move_seat,
        correctable,
        moved,
        lobby,
        abandonable,
        abandonable_sheet,
        mendable_sheets,
        household,
    )


def main() -> None:
    base = sys.argv[1].rstrip("/")
    made = make(base, call(base, "GET", "/openapi.json"))
    exports = {
        "FUZZ_MATCH_ID": made.live.id,
        "FUZZ_MATCH_SEAT_TOKEN": made.live.seat_tokens[0],
        "FUZZ_FINISHED_MATCH_ID": made.finished.id,
        "FUZZ_FINISHED_MATCH_SEAT_TOKEN": made.finished.seat_tokens[0],
        "FUZZ_FINISHED_MATCH_OWNER_TOKEN": made.finished.owner_token,
        "FUZZ_LOBBY_MATCH_ID": made.lobby.id,
        "FUZZ_LOBBY_OWNER_TOKEN": made.lobby.owner_token,
        "FUZZ_INVITE_CODE": made.lobby.invite_codes[0],
        "FUZZ_ABANDON_MATCH_ID": made.abandonable.id,
        "FUZZ_ABANDON_MATCH_TOKEN": made.abandonable.owner_token,
        "FUZZ_ABANDON_SHEET_ID": made.abandonable_sheet.id,
        "FUZZ_ABANDON_SHEET_TOKEN": made.abandonable_sheet.owner_token,
        "FUZZ_CHANCE_MATCH_ID": made.awaiting_deal.id,
        "FUZZ_CHANCE_MATCH_TOKEN": made.awaiting_deal.owner_token,
        "FUZZ_MOVE_MATCH_ID": made.dealt.id,
        "FUZZ_MOVE_MATCH_SEAT_TOKEN": made.dealt.seat_tokens[made.move_seat],
        "FUZZ_CORRECT_MATCH_ID": made.correctable.id,
        "FUZZ_CORRECT_MATCH_TOKEN": made.correctable.owner_token,
        "FUZZ_TAKE_BACK_MATCH_ID": made.moved.id,
        "FUZZ_TAKE_BACK_MATCH_SEAT_TOKEN": made.moved.seat_tokens[made.move_seat],
        "FUZZ_SHEET_ID": made.sheet.id,
        "FUZZ_SHEET_TOKEN": made.sheet.owner_token,
        "FUZZ_FINISHED_SHEET_ID": made.finished_sheet.id,
        "FUZZ_FINISHED_SHEET_TOKEN": made.finished_sheet.owner_token,
        "FUZZ_HOUSEHOLD_ID": made.household[0],
        "FUZZ_HOUSEHOLD_OWNER_KEY": made.household[1],
        "FUZZ_HANDOVER_SHEET_ID": made.mendable_sheets["reissue_sheet_owner_token"].id,
        "FUZZ_HANDOVER_SHEET_TOKEN": made.mendable_sheets["reissue_sheet_owner_token"].owner_token,
        "FUZZ_PLAYER": PLAYER,
    }
    for name, value in exports.items():
        print(f"export {name}={shlex.quote(value)}")


if __name__ == "__main__":
    main()
