"""Hosted matches on the table page: watching one, playing a seat, joining by invite."""

import time

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, new_phone, standings_row, start_sheet



def spectate(browser) -> None:
    spectator = new_phone(browser, "spectator")
    created = api(
        "POST",
        "/v1/matches",
        {
            "game": "lucky-jack",
            "seats": [{"name": "Ann"}, {"name": "Ben"}],
            # Two turns a round keep the match short; it still plays real moves to its end.
            "options": {"max_turns_per_round": 2},
        },
    )
    match_id = created["match"]["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seat_tokens"]}
    spectator.goto(f"{BASE}/#match={match_id}")
    expect(spectator.locator("p.status")).to_contain_text("In progress")
    expect(spectator.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Ann, Ben")
    assert spectator.get_by_role("heading", name="Your moves").count() == 0
    check(spectator, "spectator")

    # The seat to act opens its own view from a link with the token in the fragment.
    acting = api("GET", f"/v1/matches/{match_id}")["to_act"][0]
    seat = new_phone(browser, "seat")
    seat.goto(f"{BASE}/#match={match_id}&token={tokens[acting]}")
    expect(seat.get_by_role("heading", name="Your moves")).to_be_visible()
    assert "token" not in seat.url, "the seat token is dropped from the address"
    before = api("GET", f"/v1/matches/{match_id}")["version"]
    check(seat, "seat")
    seat.locator("#moves button").first.click()
    for _ in range(50):
        if api("GET", f"/v1/matches/{match_id}")["version"] > before:
            break
        time.sleep(0.1)
    plies = len(api("GET", f"/v1/matches/{match_id}/log")["entries"])
    assert plies > 0 and api("GET", f"/v1/matches/{match_id}")["version"] > before
    expect(seat.locator("ol.log > li")).to_have_count(plies)
    seat.context.close()
    # The spectator's page follows by itself.
    expect(spectator.locator("ol.log > li")).to_have_count(plies, timeout=10_000)

    # The rest through the API, from each seat's legal moves, a little apart so the page sees
    # the match move.
    for _ in range(200):
        state = api("GET", f"/v1/matches/{match_id}")
        if state["status"] != "in_progress":
            break
        for seat_index in state["to_act"]:
            legal = api("GET", f"/v1/matches/{match_id}", token=tokens[seat_index])["view"]["legal_moves"]
            if legal:
                api("POST", f"/v1/matches/{match_id}/moves", {"move": legal[0]}, tokens[seat_index])
                break
        else:
            raise AssertionError(f"nobody can move: {state['to_act']}")
        time.sleep(0.3)
    final = api("GET", f"/v1/matches/{match_id}")
    assert final["status"] == "finished", final["status"]
    expect(spectator.locator("p.status")).to_contain_text("Finished", timeout=15_000)
    expect(spectator.locator("ol.log > li")).to_have_count(len(api("GET", f"/v1/matches/{match_id}/log")["entries"]))
    expect(spectator.get_by_text("Seed revealed", exact=False)).to_be_visible()
    export = spectator.get_by_role("link", name="Export (JSON)").get_attribute("href")
    assert spectator.request.get(BASE + export).json()["status"] == "finished"
    check(spectator, "spectator-finished")
    spectator.context.close()


def join_by_invite(browser) -> None:
    """A new phone joins by a seat's invite code (the QR code's link), once, and only on a tap."""
    created = api(
        "POST",
        "/v1/matches",
        {"game": "lucky-jack", "seats": [{"name": "Ann"}, {"name": "Ben"}], "invites": True},
    )
    match_id = created["match"]["id"]
    # Opening the link, as a link previewer or scanner that runs the page would, takes nothing:
    # the page shows the seat and a button, and the seat stays open until the tap.
    linked = created["invites"][0]
    phone = new_phone(browser, "invited")
    phone.goto(f"{BASE}{linked['join']}")
    take = phone.get_by_role("button", name="Take Ann’s seat")
    expect(take).to_be_visible()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Ann’s seat")
    phone.wait_for_timeout(500)
    assert api("GET", f"/v1/invites/{linked['code']}")["redeemed"] is False, "opening the link took the seat"
    phone.reload()
    expect(take).to_be_visible()
    assert api("GET", f"/v1/invites/{linked['code']}")["redeemed"] is False, "reloading the link took the seat"
    check(phone, "invite-link")
    take.click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Ann, Ben")
    assert match_id in phone.url and linked["code"] not in phone.url
    assert api("GET", f"/v1/invites/{linked['code']}")["redeemed"] is True, "the tap did not take the seat"
    # The spent link says so, and redeems nothing.
    phone.goto(f"{BASE}{linked['join']}")
    expect(phone.get_by_role("alert")).to_contain_text("already took this seat")
    expect(phone.get_by_role("button", name="Take Ann’s seat")).to_have_count(0)

    code = created["invites"][1]["code"]
    phone.goto(f"{BASE}/#watch")
    phone.get_by_role("textbox", name="Invite code").fill(code.lower())
    phone.get_by_role("button", name="Take my seat").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Ann, Ben")
    assert match_id in phone.url and code not in phone.url
    check(phone, "invited-seat")
    # The code is spent: a second phone is told so, next to the field.
    phone.goto(f"{BASE}/#watch")
    phone.get_by_role("textbox", name="Invite code").fill(code)
    phone.get_by_role("button", name="Take my seat").click()
    expect(phone.get_by_role("form", name="Join with an invite code")).to_contain_text("already")
    phone.context.close()


STEPS = [spectate, join_by_invite]
