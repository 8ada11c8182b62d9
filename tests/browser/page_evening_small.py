"""The family's evening, its smaller things: invite codes opened at 127.0.0.1 say that other
phones cannot reach them, and take the computer's network address instead; "Check that the
shuffle was fair" checks, on the page, the seed against its fingerprint and the opening deal
against the seed; a renamed player is renamed in the phone's list of sheets and in the names it
offers; a round's end is said in sentences, a jackpot of sevens as "three sevens". Each step is
a sentence of what the family sees, and fails on the page before these were fixed."""

import json
import re
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect

from page_kit import BASE, api, big_text, check, new_phone, page_width, standings_row, start_sheet, wait_until
from page_table import host_form

PORT = urlsplit(BASE).port
LAN = "192.168.1.20"


def qr_picture(canvas) -> str:
    """What a QR code's canvas shows, as a data URL: it changes when the code holds another link."""
    return canvas.evaluate("canvas => canvas.toDataURL()")


def invite_codes_say_other_phones_cannot_reach_this_address(browser) -> None:
    """Hosted from http://127.0.0.1, the invites say beside their codes that phones cannot open
    them, and how to fix it; the computer's network address typed in makes every code hold it,
    and the phone keeps it for the next match."""
    host = new_phone(browser, "invites-at-loopback")
    host_form(host, ["Ivy", "Ike"])
    host.get_by_role("button", name="Host the match").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Ivy, Ike")
    warning = host.locator("section.phones-warning")
    expect(warning).to_have_accessible_name("Other phones cannot open these codes yet")
    expect(warning).to_contain_text("only this computer knows")
    expect(warning).to_contain_text("start the service with BIND_ADDRESS=0.0.0.0:8080")
    expect(warning).to_contain_text("http://192.168.1.20:8080/")
    codes = host.locator("canvas.invite-qr")
    expect(codes).to_have_count(2)
    invites = [card.locator(".code").inner_text().strip() for card in host.locator("li.invite-card").all()]
    for index, code in enumerate(invites):
        expect(codes.nth(index)).to_have_attribute("data-link", f"{BASE}/#invite={code}")
    check(host, "small-invites-at-loopback")

    address = warning.get_by_label("This computer’s network address", exact=True)
    use = warning.get_by_role("button", name="Use this address")
    # Another loopback address would not help: said beside the field.
    address.fill("localhost:8080")
    use.click()
    expect(address).to_have_attribute("aria-invalid", "true")
    expect(warning.locator(".error")).to_contain_text("not 127.0.0.1 or localhost")
    before = [qr_picture(codes.nth(index)) for index in range(2)]
    # Typed without its port, it takes the page's.
    address.fill(LAN)
    use.click()
    lan = f"http://{LAN}:{PORT}"
    expect(warning.locator("p.using")).to_have_text(f"The codes now open {lan}/ on the phones.")
    expect(host.locator("#announce")).to_have_text(f"The codes now open {lan}/.")
    expect(warning).to_have_accessible_name("The codes use this computer’s network address")
    for index, code in enumerate(invites):
        expect(codes.nth(index)).to_have_attribute("data-link", f"{lan}/#invite={code}")
        assert qr_picture(codes.nth(index)) != before[index], f"the code for {code} was not drawn again"
    check(host, "small-invites-network-address")

    # Kept on this phone: the invites shown again use it.
    host.reload()
    expect(codes.first).to_have_attribute("data-link", f"{lan}/#invite={invites[0]}")
    expect(warning.get_by_label("This computer’s network address", exact=True)).to_have_value(lan)
    # And forgotten on request.
    warning.get_by_role("button", name="Forget this address").click()
    expect(codes.first).to_have_attribute("data-link", f"{BASE}/#invite={invites[0]}")
    # At 200 % text the warning wraps inside the phone, the long setting included.
    big_text(host)
    host.wait_for_timeout(100)
    assert page_width(host) <= 390, f"the invites with their warning are {page_width(host)} px wide at 200 % text"
    host.context.close()


def play_to_the_end(match_id: str, tokens: dict[int, str]) -> dict:
    """Each seat to act takes its first legal move until the match is over."""
    for _ in range(2000):
        state = api("GET", f"/v1/matches/{match_id}")
        if state["status"] != "in_progress":
            return state
        seat = state["to_act"][0]
        move = api("GET", f"/v1/matches/{match_id}", token=tokens[seat])["view"]["legal_moves"][0]
        api("POST", f"/v1/matches/{match_id}/moves", {"move": move}, token=tokens[seat])
    raise AssertionError(f"match {match_id} did not end")


def a_server_dealt_match(names: list[str]) -> dict:
    created = api("POST", "/v1/matches", {"game": "lucky-jack", "seats": [{"name": name} for name in names], "options": {"max_turns_per_round": 2}})
    match_id = created["match"]["id"]
    finished = play_to_the_end(match_id, {seat["seat"]: seat["token"] for seat in created["seat_tokens"]})
    assert finished["status"] == "finished" and finished["seed"], finished["status"]
    return finished


def rewritten(change):
    """A route handler that lets the service answer, then changes its JSON with `change(body)`."""

    def handle(route):
        reply = route.fetch()
        if reply.status != 200:
            route.fulfill(response=reply)
            return
        body = reply.json()
        change(body)
        headers = {name: value for name, value in reply.headers.items() if name.lower() not in ("content-length", "content-encoding")}
        route.fulfill(status=200, headers=headers, body=json.dumps(body))

    return handle


def verdicts_of(page: Page, match_id: str):
    page.goto(f"{BASE}/#match={match_id}")
    expect(page.locator("p.turn")).to_contain_text("The match is over")
    page.get_by_text("Check that the shuffle was fair").click()
    verdicts = page.locator("details.fairness ul.verdicts")
    expect(verdicts).not_to_contain_text("Checking")
    return verdicts


MATCHES = "The seed matches its fingerprint: the shuffle was decided before the first card."
DEALT = "The cards dealt at the start are the ones this seed deals: the service dealt them again from the seed and got the same table."


def the_shuffle_is_checked_against_its_fingerprint_and_the_deal_against_the_seed(browser) -> None:
    """Opened, "Check that the shuffle was fair" says what it checked: the revealed seed hashed on
    the phone is the fingerprint published at the start, and the opening deal is the one the
    seed deals. Also without the browser's own SHA-256 (a page at http://192.168.1.20), and in
    red when the fingerprint or the deal does not match."""
    match = a_server_dealt_match(["Sal", "Sid"])
    match_id = match["id"]

    page = new_phone(browser, "fair-shuffle")
    verdicts = verdicts_of(page, match_id)
    expect(verdicts.locator("li.verdict.good")).to_have_text([f"✓ {MATCHES}", f"✓ {DEALT}"])
    expect(verdicts).to_contain_text("this page does not deal them again")
    check(page, "small-shuffle-checked")
    page.context.close()

    # A page where crypto.subtle is missing (not a secure context) checks with its own SHA-256.
    plain = new_phone(browser, "fair-shuffle-plain")
    plain.add_init_script("Object.defineProperty(Crypto.prototype, 'subtle', { get() { return undefined; }, configurable: true });")
    verdicts = verdicts_of(plain, match_id)
    assert plain.evaluate("() => crypto.subtle === undefined")
    expect(verdicts.locator("li.verdict.good")).to_have_text([f"✓ {MATCHES}", f"✓ {DEALT}"])
    plain.context.close()

    # A fingerprint that is not the seed's: said in red, and nothing more claimed.
    other = a_server_dealt_match(["Sam", "Sue"])
    forged = new_phone(browser, "fair-shuffle-forged")

    forged.route(re.compile(rf"/v1/matches/{match_id}(\?.*)?$"), rewritten(lambda body: body.update(seed_sha256=other["seed_sha256"])))
    verdicts = verdicts_of(forged, match_id)
    bad = verdicts.locator("li.verdict.bad")
    expect(bad).to_have_text(re.compile("^✗ The seed does NOT match the fingerprint published when the match began"))
    expect(verdicts.locator("li.verdict.good")).to_have_count(0)
    # In the page's colour for what went wrong.
    error_colour = forged.evaluate("() => { const probe = document.createElement('span'); probe.style.color = 'var(--error)'; document.body.append(probe); "
                                   "const seen = getComputedStyle(probe).color; probe.remove(); return seen; }")
    assert bad.evaluate("item => getComputedStyle(item).color") == error_colour
    check(forged, "small-shuffle-forged")
    forged.context.close()

    # A log whose opening deal is not the seed's (the two hands swapped): the deal is refused.
    swapped = new_phone(browser, "fair-shuffle-swapped")

    def swap(body):
        for entry in body["entries"]:
            if entry["ply"] == 1 and (entry.get("chance") or {}).get("kind") == "deal":
                entry["chance"]["hands"].reverse()

    swapped.route(re.compile(rf"/v1/matches/{match_id}/log\?"), rewritten(swap))
    verdicts = verdicts_of(swapped, match_id)
    expect(verdicts.locator("li.verdict.good")).to_have_text([f"✓ {MATCHES}"])
    expect(verdicts.locator("li.verdict.bad")).to_have_text("✗ The cards dealt at the start are NOT the ones this seed deals.")
    swapped.context.close()


def a_renamed_player_is_renamed_in_the_list_of_sheets_and_the_names_offered(browser) -> None:
    """Noor renamed Noora on the sheet: the phone's list of its sheets says "Nina, Noora", and the
    names it offers for the next sheet are Nina and Noora, no longer Noor."""
    page = new_phone(browser, "renamed")
    start_sheet(page, "Lucky Jack (2–6 players)", ["Nina", "Noor"])
    standings_row(page, "Noor").get_by_role("button", name="Noor (rename)").click()
    rename = page.locator("form", has=page.get_by_role("heading", name="Rename Noor"))
    rename.get_by_label("New name", exact=True).fill("Noora")
    rename.get_by_role("button", name="Save the name").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Nina, Noora")

    page.goto(f"{BASE}/#")
    kept = page.get_by_role("region", name="Sheets kept on this phone")
    expect(kept.get_by_role("link")).to_have_text(["Lucky Jack: Nina, Noora"])
    offered = page.locator("ul.chips button.chip-name")
    expect(offered).to_have_text(["+ Add Nina", "+ Add Noora"])
    check(page, "small-renamed-everywhere")
    # The sheet's own code for other phones says the same warning, inside the phone at 200 % text.
    kept.get_by_role("link").click()
    expect(page.locator("section.phones-warning")).to_contain_text("BIND_ADDRESS=0.0.0.0:8080")
    big_text(page)
    page.wait_for_timeout(100)
    assert page_width(page) <= 390, f"the sheet with its warning is {page_width(page)} px wide at 200 % text"
    page.context.close()


# A Lucky Jack deal for two where Ada lays down three sevens on her fourth discard (Bo plays
# first; every discard the same as or higher than the top).
SEVENS_DEAL = {
    "kind": "deal",
    "hands": [
        ["lemon", "cherry", "grape", "seven", "seven", "seven", "bell"],
        ["lemon", "cherry", "grape", "clover", "jack", "bell", "lemon"],
    ],
    "flip": "lemon",
}
BEFORE_THE_JACKPOT = [(1, "lemon"), (0, "lemon"), (1, "cherry"), (0, "cherry"), (1, "grape"), (0, "grape"), (1, "clover")]


def a_round_end_is_said_in_sentences_with_sevens_in_words(browser) -> None:
    """Ada's jackpot of sevens ends round 1: the banner says it in a sentence with its full stop,
    "three sevens" in words and the points in digits; said aloud, the next sentence (whose turn)
    does not run into it; the log's line ends with its full stop too."""
    created = api("POST", "/v1/matches", {"game": "lucky-jack", "seats": [{"name": "Ada"}, {"name": "Bo"}], "randomness": "table"})
    match_id = created["match"]["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seat_tokens"]}
    api("POST", f"/v1/matches/{match_id}/chance", {"outcome": SEVENS_DEAL}, token=created["owner_token"])
    for seat, card in BEFORE_THE_JACKPOT:
        api("POST", f"/v1/matches/{match_id}/moves", {"move": {"type": "discard", "card": card, "jackpot": False}}, token=tokens[seat])

    page = new_phone(browser, "round-end-words")
    page.goto(f"{BASE}/#match={match_id}")
    expect(page.locator("p.turn")).to_have_text("Ada’s turn.")
    version = api("GET", f"/v1/matches/{match_id}")["version"]
    api("POST", f"/v1/matches/{match_id}/moves", {"move": {"type": "discard", "card": "bell", "jackpot": False}}, token=tokens[0])
    wait_until(lambda: api("GET", f"/v1/matches/{match_id}")["version"] > version)

    said = "Round 1 ends: Ada wins the jackpot (three sevens, 6,000 points)."
    expect(page.locator("p.banner")).to_have_text(said)
    expect(page.locator("#announce")).to_have_text(f"{said} Waiting for the cards to be dealt.")
    expect(page.locator("ol.log > li").last).to_have_text(
        "Ada discarded a bell (higher than the top); JACKPOT! Ada laid down three sevens and won 6,000 points; "
        "round 1 ends: Ada wins the jackpot (three sevens, 6,000 points).")
    # Every line of the log is a sentence of its own.
    for line in page.locator("ol.log > li").all_inner_texts():
        assert re.search(r"[.!?][”\"’)]*$", line), f"a log line without its full stop: {line!r}"
    # The table's own list keeps its digits.
    expect(page.get_by_role("list", name="Rounds played")).to_have_text(["Round 1: Ada won the jackpot (3 sevens, 6,000 points)"])
    check(page, "small-round-end-sentences")
    page.context.close()


STEPS = [
    invite_codes_say_other_phones_cannot_reach_this_address,
    the_shuffle_is_checked_against_its_fingerprint_and_the_deal_against_the_seed,
    a_renamed_player_is_renamed_in_the_list_of_sheets_and_the_names_offered,
    a_round_end_is_said_in_sentences_with_sevens_in_words,
]
