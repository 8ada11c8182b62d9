"""Households on the table page: a phone's first sheet makes one, its games are the household's
only, other phones join it by a QR code (one that keeps score too, one that only follows), a sheet
handed over carries it, and a phone of another household is asked before it switches."""

import re

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, household_key, kept_household, new_phone, standings_row, start_sheet
from page_sheets import jack_round

# Names no other walk uses: a phone outside the household must not find them.
GRAN, KIT = "Granny Lee", "Kit Lee"


def refused_status(method: str, path: str, **options) -> str:
    """The status the service answers `path` with, when it refuses it."""
    try:
        api(method, path, **options)
    except AssertionError as error:
        return str(error).split(": ", 1)[1].split(" ", 1)[0]
    raise AssertionError(f"{method} {path} was answered")


def share_links(page: Page) -> dict:
    """The home screen's two join links, by role, after opening "Share the household"."""
    page.goto(BASE + "/#")
    page.get_by_text("Share the household").click()
    links = {}
    for role in ("owner", "reader"):
        link = page.locator(f"a.household-link.{role}")
        if link.count():
            links[role] = link.get_attribute("href")
    return links


def look_up(page: Page, name: str) -> None:
    page.goto(BASE + "/#look")
    page.get_by_label("Name").fill(name)
    page.get_by_role("button", name="Show their record").click()
    expect(page.get_by_role("heading", name=f"{name}’s record")).to_be_visible()


def a_family_keeps_its_games_to_its_own_phones(browser) -> None:
    """Phone A's first sheet makes a household; B joins it to keep score too, C only to follow;
    a phone outside it sees none of it; a phone following the sheet sees each round arrive."""
    a = new_phone(browser, "household-a")
    a.goto(BASE + "/#")
    household = a.get_by_role("region", name="Household")
    expect(household).to_contain_text("Your first sheet makes a household for this phone")
    sheet_id = start_sheet(a, "Lucky Jack (2–6 players)", [GRAN, KIT])
    kept = kept_household(a)
    assert kept["role"] == "owner" and kept["name"] == "Our household", kept
    assert kept["key"].startswith("hh_owner_") and kept["readerKey"].startswith("hh_reader_"), kept
    # The sheet is the household's: not there without one of its keys, there with either.
    assert refused_status("GET", f"/v1/sheets/{sheet_id}") == "404"
    assert api("GET", f"/v1/sheets/{sheet_id}", household=kept["key"])["id"] == sheet_id
    assert api("GET", f"/v1/sheets/{sheet_id}", household=kept["readerKey"])["id"] == sheet_id

    jack_round(a, GRAN)
    expect(standings_row(a, GRAN)).to_contain_text("10,000")
    a.get_by_role("button", name="Finish early").click()
    a.get_by_role("button", name="Finish now", exact=True).click()
    expect(a.locator("p.status")).to_contain_text(f"Game over: {GRAN} wins.")

    # A's Look back says whose games these are, and finds Granny's win.
    look_up(a, GRAN)
    expect(a.locator("p.space")).to_have_text("Our household’s games: only the household’s phones see them.")
    expect(a.get_by_role("region", name="All games")).to_contain_text("Won")
    expect(a.locator("dl.record").first).to_contain_text("1")
    check(a, "household-look-back")

    # The home screen: the household's name, what this phone does, its two codes.
    links = share_links(a)
    region = a.get_by_role("region", name="Our household")
    expect(region).to_contain_text("This phone keeps score for Our household.")
    expect(a.get_by_role("img", name="QR code: a phone that keeps score too")).to_be_visible()
    expect(a.get_by_role("img", name="QR code: a phone that only follows")).to_be_visible()
    assert "#household=" in links["owner"] and "key=hh_owner_" in links["owner"], links
    assert "key=hh_reader_" in links["reader"] and "hh_owner_" not in links["reader"], links
    check(a, "household-share")

    # Phone B "scans" the code for a phone that keeps score too: the key leaves the address at once.
    b = new_phone(browser, "household-b")
    b.goto(links["owner"])
    expect(b.get_by_role("region", name="Our household")).to_contain_text("This phone keeps score for Our household.")
    assert "key=" not in b.url, b.url
    assert kept_household(b)["role"] == "owner" and kept_household(b)["key"] == kept["key"]
    expect(b.get_by_role("button", name="Start the sheet")).to_be_visible()
    b.goto(f"{BASE}/#sheet={sheet_id}")
    expect(b.locator("p.status")).to_contain_text(f"Game over: {GRAN} wins.")
    look_up(b, GRAN)
    expect(b.locator("p.space")).to_contain_text("Our household’s games")
    expect(b.get_by_role("region", name="Lucky Jack")).to_be_visible()
    b.context.close()

    # Phone C takes the follow-only code: it reads everything, and starts and hosts nothing.
    c = new_phone(browser, "household-c")
    c.goto(links["reader"])
    expect(c.get_by_role("region", name="Our household")).to_be_visible()
    assert kept_household(c)["role"] == "reader"
    expect(c.locator("p.follower")).to_contain_text("This phone follows Our household’s games: it shows them but keeps no score.")
    expect(c.get_by_role("button", name="Start the sheet")).to_have_count(0)
    check(c, "household-follower")
    c.goto(BASE + "/#host")
    expect(c.locator("p.follower")).to_be_visible()
    expect(c.get_by_role("button", name="Host the match")).to_have_count(0)
    c.goto(BASE + "/#watch")
    expect(c.get_by_role("link", name="Host a match")).to_have_count(0)
    look_up(c, GRAN)
    expect(c.get_by_role("region", name="Lucky Jack")).to_be_visible()

    # A fresh phone D, in no household, does not find Granny's games at all.
    d = new_phone(browser, "household-d")
    look_up(d, GRAN)
    expect(d.locator("p.space")).to_have_text("Games played on this service without a household.")
    expect(d.get_by_text("No finished games yet.")).to_be_visible()
    expect(d.get_by_role("region", name="Lucky Jack")).to_have_count(0)
    d.goto(f"{BASE}/#sheet={sheet_id}")
    expect(d.get_by_text("There is no score sheet with that link")).to_be_visible()
    check(d, "household-outsider")
    d.context.close()

    # Play again; C follows the new sheet through its stream, which a fetch opens with the key.
    streams = []
    c.on("request", lambda request: streams.append(request) if "/stream" in request.url else None)
    a.goto(f"{BASE}/#sheet={sheet_id}")
    a.get_by_role("button", name="Play again with the same players").click()
    expect(a).not_to_have_url(re.compile(sheet_id))
    second = a.url.split("#sheet=", 1)[1]
    c.goto(f"{BASE}/#sheet={second}")
    expect(c.locator("p.status")).to_contain_text("No rounds yet.")
    jack_round(a, KIT, "bell", "3")
    expect(standings_row(a, KIT)).to_contain_text("5,000")
    expect(standings_row(c, KIT)).to_contain_text("5,000")
    followed = [request for request in streams if f"/v1/sheets/{second}/stream" in request.url]
    assert followed and followed[-1].headers.get("household-key") == kept["readerKey"], [r.url for r in streams]
    a.context.close()
    c.context.close()


def a_sheet_handed_over_takes_its_household_along(browser) -> None:
    """The hand-over code of a household's sheet joins the taking phone to the household, so the
    sheet it now keeps stays readable there."""
    giver = new_phone(browser, "household-giver")
    sheet_id = start_sheet(giver, "Lucky Jack (2–6 players)", [GRAN, KIT])
    giver.get_by_role("button", name="Hand the sheet to another phone").click()
    giver.get_by_role("button", name="Show the code for the other phone").click()
    handover = giver.locator("a.handover-link").get_attribute("href")
    assert "&household=" in handover and "key=hh_owner_" in handover, handover
    taker = new_phone(browser, "household-taker")
    taker.goto(handover)
    expect(taker).to_have_url(f"{BASE}/#sheet={sheet_id}")
    expect(taker.locator("p.status")).to_contain_text("You keep this sheet.")
    assert household_key(taker) == household_key(giver)
    jack_round(taker, KIT)
    expect(standings_row(taker, KIT)).to_contain_text("10,000")
    giver.get_by_role("button", name="The other phone has it").click()
    expect(standings_row(giver, KIT)).to_contain_text("10,000")
    # The taker's own list keeps it, as its household's: its read-only link carries the key.
    taker.goto(BASE + "/#")
    taker.get_by_role("link", name=re.compile(f"Lucky Jack: {GRAN}")).click()
    expect(taker.locator("a.share-link")).to_have_attribute("href", re.compile("&key=hh_reader_"))
    giver.context.close()
    taker.context.close()


def a_phone_of_another_household_is_asked_before_it_switches(browser) -> None:
    """A link to another household asks first, "stay" focused; staying changes nothing, switching
    shows the other household's games. A refused code says why in plain words."""
    made = api("POST", "/v1/households", {"name": "The Parks"})
    phone = new_phone(browser, "household-switch")
    phone.goto(f"{BASE}/#household={made['household']['id']}&key={made['owner_key']}")
    expect(phone.get_by_role("region", name="The Parks")).to_contain_text("This phone keeps score for The Parks.")

    other = api("POST", "/v1/households", {"name": "The Lees"})
    link = f"{BASE}/#household={other['household']['id']}&key={other['reader_key']}"
    question = phone.get_by_role("dialog", name="Switch this phone to another household?")
    phone.goto(link)
    expect(question).to_be_visible()
    expect(question).to_contain_text("This phone belongs to The Parks.")
    expect(question.get_by_role("button", name="Stay with The Parks")).to_be_focused()
    assert "key=" not in phone.url, phone.url
    check(phone, "household-switch-question")
    question.get_by_role("button", name="Stay with The Parks").click()
    expect(question).to_have_count(0)
    assert kept_household(phone)["name"] == "The Parks"

    phone.goto(link)
    question.get_by_role("button", name="Switch to The Lees").click()
    expect(phone.locator("p.follower")).to_contain_text("This phone follows The Lees’ games")
    assert kept_household(phone)["key"] == other["reader_key"]
    phone.goto(BASE + "/#look")
    expect(phone.locator("p.space")).to_have_text("The Lees’ games: only the household’s phones see them.")

    # A replaced key opens nothing: the page says so in the catalogue's words, and keeps its own.
    phone.goto(f"{BASE}/#household={made['household']['id']}&key=hh_owner_not-a-key")
    expect(phone.get_by_role("heading", level=1)).to_have_text("This household code cannot be used")
    expect(phone.get_by_role("alert")).to_contain_text("household code no longer works")
    assert kept_household(phone)["name"] == "The Lees"
    phone.context.close()


def a_phone_with_public_sheets_stays_public_until_it_makes_a_household(browser) -> None:
    """A phone that kept sheets before households stays in the public space; "Make a household"
    is its own choice, and says what it means."""
    phone = new_phone(browser, "household-public")
    created = api("POST", "/v1/sheets", {"game": "lucky-jack", "players": [{"name": "Ann"}, {"name": "Ben"}]})
    sheet_id = created["sheet"]["id"]
    phone.goto(f"{BASE}/#sheet={sheet_id}&owner={created['owner_token']}")
    expect(phone.locator("p.status")).to_contain_text("You keep this sheet.")
    start_sheet(phone, "Lucky Jack (2–6 players)", ["Ann", "Ben"])
    assert kept_household(phone) is None
    phone.goto(BASE + "/#")
    household = phone.get_by_role("region", name="Household")
    expect(household).to_contain_text("new games are kept for the household’s phones only")
    check(phone, "household-public-home")
    household.get_by_role("button", name="Make a household").click()
    expect(phone.get_by_role("region", name="Our household")).to_be_visible()
    assert kept_household(phone)["role"] == "owner"
    # The public sheet it kept still opens.
    phone.goto(f"{BASE}/#sheet={sheet_id}")
    expect(phone.locator("p.status")).to_contain_text("You keep this sheet.")
    expect(phone.locator("a.share-link")).to_have_attribute("href", f"{BASE}/#sheet={sheet_id}")
    phone.context.close()


def a_phone_brings_its_earlier_games_into_its_new_household(browser) -> None:
    """Issue 40: "a family can bring its public records into a new group (by name, with a report
    of what moved)". The finished sheet moves and opens only with the household's key; the one
    still being played stays, and the report says why."""
    phone = new_phone(browser, "household-bring-in")
    finished = api("POST", "/v1/sheets", {"game": "lucky-jack", "players": [{"name": "Ida"}, {"name": "Jo"}]})
    finished_id = finished["sheet"]["id"]
    for _ in range(3):
        tally = {"tally": {"jackpot": {"seat": 0, "symbol": "bell", "size": 4}}}
        api("POST", f"/v1/sheets/{finished_id}/entries", tally, token=finished["owner_token"])
    phone.goto(f"{BASE}/#sheet={finished_id}&owner={finished['owner_token']}")
    expect(phone.locator("p.status")).to_contain_text("You keep this sheet.")
    start_sheet(phone, "Lucky Jack (2–6 players)", ["Ida", "Jo"])
    phone.goto(BASE + "/#")
    phone.get_by_role("region", name="Household").get_by_role("button", name="Make a household").click()
    card = phone.locator(".bring-in")
    card.get_by_text("Bring in this phone’s earlier games").click()
    card.get_by_role("button", name="See what would move").click()
    expect(card).to_contain_text("1 game would move into the household (Lucky Jack 1).")
    expect(card).to_contain_text("1 stays without the household: Lucky Jack with Ida, Jo: still being played.")
    check(phone, "household-bring-in-preview")
    assert api("GET", f"/v1/sheets/{finished_id}")["status"] == "finished", "a preview moves nothing"
    card.get_by_role("button", name="Bring them in").click()
    expect(card).to_contain_text("1 game moved into the household")
    assert refused_status("GET", f"/v1/sheets/{finished_id}") == "404"
    assert api("GET", f"/v1/sheets/{finished_id}", household=household_key(phone))["status"] == "finished"
    # The phone's link to the moved sheet now carries the household's key.
    phone.goto(f"{BASE}/#sheet={finished_id}")
    expect(phone.locator("a.share-link")).to_have_attribute("href", re.compile("household="))
    phone.context.close()


STEPS = [
    a_family_keeps_its_games_to_its_own_phones,
    a_sheet_handed_over_takes_its_household_along,
    a_phone_of_another_household_is_asked_before_it_switches,
    a_phone_with_public_sheets_stays_public_until_it_makes_a_household,
    a_phone_brings_its_earlier_games_into_its_new_household,
]
