"""The table page in a real browser: Debian's chromium, headless, driven by Playwright.

Runs against a service already listening at BASE_URL (see `.ci/page`, which starts one on a fresh
database). Every screen is checked with axe-core and photographed at 360 px and 1280 px into
target/browser/. Any request to a host other than this machine is blocked and fails the run.
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect, sync_playwright

BASE = os.environ.get("BASE_URL", "http://127.0.0.1:8080").rstrip("/")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "target" / "browser"
# Served to the page by the test itself (never reaching the service), from the page's own origin,
# so the page's Content-Security-Policy stays in force while axe runs.
AXE_URL = f"{BASE}/__browser-test__/axe.min.js"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LUAU_SAMPLE = "blue red purple blue cut:yellow hook kukui blue rainbow"

blocked: list[str] = []
page_errors: list[str] = []


def api(method: str, path: str, body=None, token=None):
    """The service's JSON API, straight from Python (for seeding and driving matches)."""
    request = urllib.request.Request(BASE + path, method=method)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, data) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read().decode()}") from error


def guard(context) -> None:
    """Blocks (and records) every request that would leave the machine; serves axe-core."""

    def handle(route):
        url = route.request.url
        if url == AXE_URL:
            route.fulfill(path=str(AXE), content_type="text/javascript")
        elif urlsplit(url).hostname in LOCAL_HOSTS or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", handle)


def watch_console(page: Page, label: str) -> None:
    def on_console(message):
        text = message.text
        # Chromium logs every 4xx the API answers (a refused entry is a 422, a stream URL the
        # service does not have yet a 404 before the page falls back to polling): expected.
        if message.type == "error" and not text.startswith("Failed to load resource: the server responded with a status of 4"):
            page_errors.append(f"{label}: console: {text}")
        if "Content Security Policy" in text:
            page_errors.append(f"{label}: CSP: {text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: page_errors.append(f"{label}: {error}"))


def check(page: Page, name: str) -> None:
    """axe-core on the screen as it is (no violation allowed), then the two screenshots."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=AXE_URL)
    result = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ['violations']});
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary),
            }));
        }"""
    )
    assert not result, f"axe-core violations on {name}:\n" + json.dumps(result, indent=2)
    for width, height in ((360, 780), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        overflow = page.evaluate("() => document.documentElement.scrollWidth")
        assert overflow <= width, f"{name} is {overflow} px wide in a {width} px window"
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})


def start_sheet(page: Page, game_label: str, players: list[str]) -> str:
    page.goto(BASE + "/#")
    page.get_by_label("Game", exact=True).select_option(label=game_label)
    while page.locator("ol.players input").count() < len(players):
        page.get_by_role("button", name="Add a player").click()
    for index, name in enumerate(players):
        page.locator("ol.players input").nth(index).fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(", ".join(players))
    return page.url.split("#sheet=", 1)[1]


def standings_row(page: Page, name: str):
    return page.locator("table.standings tbody tr").filter(has=page.get_by_role("rowheader", name=name))


def lucky_jack_sheet(owner: Page, reader_context) -> None:
    owner.goto(BASE + "/")
    expect(owner.get_by_role("heading", name="New score sheet")).to_be_visible()
    check(owner, "home")

    start_sheet(owner, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    expect(owner.get_by_role("heading", name="Round 1")).to_be_visible()
    owner.get_by_label("Jackpot winner").select_option(label="Zoé")
    owner.get_by_label("Symbol").select_option("jack")
    owner.get_by_label("Cards laid down").select_option("4")
    owner.get_by_role("button", name="Save the round").click()
    expect(standings_row(owner, "Zoé")).to_contain_text("10,000")
    # Screen readers hear the new standings through the live region; focus is back on the form.
    expect(owner.locator("#announce")).to_have_text("Round saved. After round 1: Zoé leads with 10,000.")
    expect(owner.get_by_label("Jackpot winner")).to_be_focused()
    expect(owner.get_by_role("heading", name="Round 2")).to_be_visible()

    # The read-only view on another phone: no owner token there, and the link carries none.
    link = owner.locator("a.share-link").get_attribute("href")
    assert link and "own_" not in link and "token" not in link, link
    owner_token_stored = owner.evaluate("() => localStorage.getItem('referee.sheets')")
    assert "own_" in owner_token_stored
    assert owner.locator("canvas[role=img]").evaluate("c => c.width > 100")
    reader = reader_context.new_page()
    watch_console(reader, "reader")
    reader.set_viewport_size({"width": 360, "height": 780})
    reader.goto(link)
    expect(standings_row(reader, "Zoé")).to_contain_text("10,000")
    expect(reader.get_by_text("Read-only.", exact=False)).to_be_visible()
    expect(reader.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Mum, Dad, Zoé")
    assert reader.get_by_role("button", name="Save the round").count() == 0
    assert reader.get_by_role("button", name="Correct round 1").count() == 0

    # Round 2, nobody won, by keyboard alone: the disabled jackpot fields are skipped.
    owner.keyboard.press("Tab")
    expect(owner.get_by_label("Note (optional)")).to_be_focused()
    owner.keyboard.press("Tab")
    expect(owner.get_by_role("button", name="Save the round")).to_be_focused()
    owner.keyboard.press("Enter")
    expect(owner.get_by_role("heading", name="Round 3")).to_be_visible()
    expect(reader.locator("ol.rounds > li")).to_have_count(2, timeout=10_000)

    # Round 1 was four bells, not four jacks: a correction, with its note.
    owner.get_by_role("button", name="Correct round 1").click()
    expect(owner.get_by_role("heading", name="Correct round 1")).to_be_visible()
    expect(owner.get_by_label("Symbol")).to_have_value("jack")
    owner.get_by_label("Symbol").select_option("bell")
    owner.get_by_label("Note (optional)").fill("bells, not jacks")
    owner.get_by_role("button", name="Save the correction of round 1").click()
    expect(standings_row(owner, "Zoé")).to_contain_text("7,000")
    history = owner.locator("ol.entries")
    expect(history).to_contain_text("Note: bells, not jacks")
    expect(history).to_contain_text("Replaced by entry #3")
    expect(history).to_contain_text("Corrects entry #1")
    expect(standings_row(reader, "Zoé")).to_contain_text("7,000", timeout=10_000)
    check(owner, "lucky-jack-sheet")

    owner.get_by_label("Jackpot winner").select_option(label="Mum")
    owner.get_by_label("Symbol").select_option("seven")
    owner.get_by_label("Cards laid down").select_option("3")
    owner.get_by_role("button", name="Save the round").click()
    expect(owner.locator("p.status")).to_contain_text("Game over: Zoé wins.")
    expect(standings_row(owner, "Mum")).to_contain_text("6,000")
    expect(reader.locator("p.status")).to_contain_text("Game over: Zoé wins.", timeout=10_000)

    # A finished sheet can still be corrected: round 2 was Dad's three lemons after all.
    owner.get_by_role("button", name="Correct round 2").click()
    expect(owner.get_by_role("heading", name="Correct round 2")).to_be_visible()
    owner.get_by_label("Jackpot winner").select_option(label="Dad")
    owner.get_by_label("Symbol").select_option("lemon")
    owner.get_by_label("Cards laid down").select_option("3")
    owner.get_by_label("Note (optional)").fill("Dad's lemons")
    owner.get_by_role("button", name="Save the correction of round 2").click()
    expect(owner.locator("ol.entries")).to_contain_text("Note: Dad's lemons")
    expect(owner.get_by_role("heading", name="Correct round 2")).to_have_count(0)
    dad_total = api("GET", "/v1/sheets/" + link.split("#sheet=")[1])["standings"]["totals"][1]
    assert dad_total > 0
    for phone in (owner, reader):
        expect(standings_row(phone, "Dad")).to_contain_text(f"{dad_total:,}", timeout=10_000)
    check(reader, "lucky-jack-shared")
    reader.close()


def lucky_luau_sheet(page: Page) -> None:
    start_sheet(page, "Lucky Luau (2–6 players)", ["Ann", "Ben"])
    ann_lei = page.locator("fieldset.seat", has_text="Ann").get_by_label("Lei, left to right")
    ben_lei = page.locator("fieldset.seat", has_text="Ben").get_by_label("Lei, left to right")

    # A word that is no card: the service's message appears next to Ann's lei, which gets focus.
    ann_lei.fill("blue rde")
    ben_lei.fill("blue")
    page.get_by_role("button", name="Save the round").click()
    expect(ann_lei).to_have_attribute("aria-invalid", "true")
    ann_error = page.locator(f"#{ann_lei.get_attribute('id')}-error")
    expect(ann_error).to_be_visible()
    expect(ann_error).to_contain_text('"rde" is not a card word')
    expect(ann_lei).to_be_focused()
    assert ann_error.get_attribute("id") in ann_lei.get_attribute("aria-describedby")
    check(page, "refused-entry")

    # The rulebook's sample lei: 33 points before Guests.
    ann_lei.fill(LUAU_SAMPLE)
    page.locator("fieldset.seat", has_text="Ann").get_by_label("Guest bonuses (optional)").fill("0/2 1/0 0/0")
    ben_lei.fill("yellow green blue ti mega spacer")
    # Scored by the service before anything is stored.
    page.get_by_role("button", name="Score without saving").click()
    preview = page.locator("form .preview")
    expect(preview).to_contain_text("Lei: 33")
    expect(preview).to_contain_text("Not saved yet")
    expect(page.locator("ol.rounds > li")).to_have_count(0)
    page.get_by_role("button", name="Save the round").click()
    expect(ann_error).to_be_hidden()
    expect(page.get_by_text("Not saved yet")).to_have_count(0)
    breakdown = page.locator("ol.rounds")
    expect(breakdown).to_contain_text("Lei: 33")
    expect(breakdown).to_contain_text("3. Purple = 7: red from Red at 2 (+3), blue from Blue at 4 (+4)")
    expect(breakdown).to_contain_text("Guests (side A): +1")
    expect(standings_row(page, "Ann")).to_contain_text("34")
    expect(standings_row(page, "Ben")).to_contain_text("15")
    expect(page.locator("p.status")).to_contain_text("Game over: Ann wins.")
    check(page, "lucky-luau-sheet")


def look_back(page: Page) -> None:
    page.goto(BASE + "/#look")
    page.get_by_label("Name").fill("zoé")
    page.get_by_role("button", name="Show their record").click()
    record = page.get_by_role("region", name="Lucky Jack")
    expect(record).to_contain_text("Jackpots")
    expect(page.get_by_role("heading", name="Zoé’s record")).to_be_visible()
    for label, kind in (("History as CSV", "text/csv"), ("History as NDJSON", "ndjson")):
        href = page.get_by_role("link", name=label).get_attribute("href")
        reply = page.request.get(BASE + href)
        assert reply.ok and kind in reply.headers["content-type"], (href, reply.status)
    check(page, "player")

    page.goto(BASE + "/#look")
    page.get_by_label("Game", exact=True).select_option(label="Lucky Jack")
    page.get_by_role("button", name="Show the leaderboard").click()
    first = page.locator("table tbody tr").first
    expect(first).to_contain_text("Zoé")
    expect(page.locator("table thead")).to_contain_text("jackpots")
    expect(page.locator("ul.leaders")).to_contain_text("Most four card jackpots: Zoé (1)")
    check(page, "leaderboard")

    # "Who has the most jackpots this year?": every sheet here ended this year.
    board_form = page.locator("form", has=page.get_by_role("heading", name="A game’s leaderboard"))
    board_form.get_by_label("Period").select_option(label="This year")
    page.get_by_role("button", name="Show the leaderboard").click()
    expect(page.get_by_role("heading", name="Lucky Jack leaderboard this year")).to_be_visible()
    expect(page.locator("ul.leaders")).to_contain_text("Most four card jackpots: Zoé (1)")

    sheet_link = page.request.get(BASE + "/v1/matches?kind=sheet&game=lucky-jack&limit=1").json()
    sheet_id = sheet_link["items"][0]["id"]
    page.goto(f"{BASE}/#sheet={sheet_id}")
    bgstats = page.get_by_role("link", name="BG Stats").get_attribute("href")
    assert page.request.get(BASE + bgstats).ok


def spectate(spectator: Page, seat_context) -> None:
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
    seat = seat_context.new_page()
    watch_console(seat, "seat")
    seat.set_viewport_size({"width": 360, "height": 780})
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
    seat.close()
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


def join_by_invite(seat_context) -> None:
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
    phone = seat_context.new_page()
    watch_console(phone, "invited")
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
    phone.close()


def main() -> int:
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert AXE.exists(), f"{AXE} is missing: run `npm ci` in tests/browser"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True)
        try:
            contexts = [browser.new_context(viewport={"width": 360, "height": 780}) for _ in range(3)]
            for context in contexts:
                guard(context)
            owner_context, reader_context, seat_context = contexts
            page = owner_context.new_page()
            watch_console(page, "owner")
            for step in (
                lambda: lucky_jack_sheet(page, reader_context),
                lambda: lucky_luau_sheet(page),
                lambda: look_back(page),
                lambda: spectate(page, seat_context),
                lambda: join_by_invite(seat_context),
            ):
                step()
        finally:
            browser.close()
    assert not blocked, f"requests that would have left the machine: {blocked}"
    assert not page_errors, "errors in the page:\n" + "\n".join(page_errors)
    print(f"table page: all screens pass; screenshots in {SHOTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
