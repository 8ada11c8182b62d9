"""Score sheets on the table page: keeping one, sharing it read-only, correcting it, and looking
back at what was played."""

import json
import re
import urllib.request

from playwright.sync_api import Page, expect

import page_kit
from page_kit import BASE, api, check, household_key, new_phone, standings_row, start_sheet, wait_until

# The read-only link of the first walk's sheet: it carries its household's follow-only key, so the
# phone that looks back joins the household whose games it looks at.
shared = {}


def lucky_jack_sheet(browser) -> None:
    owner = new_phone(browser, "owner")
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

    # The read-only view on another phone: no owner token there, and the link carries none; the
    # sheet is the household's (made on the phone's first sheet), so it carries the follow-only key.
    link = owner.locator("a.share-link").get_attribute("href")
    assert link and "own_" not in link and "token" not in link and "hh_owner_" not in link, link
    assert "&key=hh_reader_" in link, link
    shared["link"] = link
    sheet_id = link.split("#sheet=", 1)[1].split("&", 1)[0]
    key = household_key(owner)
    owner_token_stored = owner.evaluate("() => localStorage.getItem('referee.sheets')")
    assert "own_" in owner_token_stored
    assert owner.locator("canvas[role=img]").evaluate("c => c.width > 100")
    reader = new_phone(browser, "reader")
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
    expect(reader.locator("ol.rounds > li")).to_have_count(2)

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
    expect(standings_row(reader, "Zoé")).to_contain_text("7,000")
    check(owner, "lucky-jack-sheet")

    owner.get_by_label("Jackpot winner").select_option(label="Mum")
    owner.get_by_label("Symbol").select_option("seven")
    owner.get_by_label("Cards laid down").select_option("3")
    owner.get_by_role("button", name="Save the round").click()
    expect(owner.locator("p.status")).to_contain_text("Game over: Zoé wins.")
    expect(standings_row(owner, "Mum")).to_contain_text("6,000")
    expect(reader.locator("p.status")).to_contain_text("Game over: Zoé wins.")

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
    dad_total = api("GET", f"/v1/sheets/{sheet_id}", household=key)["standings"]["totals"][1]
    assert dad_total > 0
    for phone in (owner, reader):
        expect(standings_row(phone, "Dad")).to_contain_text(f"{dad_total:,}")
    check(reader, "lucky-jack-shared")
    reader.context.close()
    owner.context.close()


def look_back(browser) -> None:
    page = new_phone(browser, "looker")
    # The family's games are its household's: this phone follows it, as the table's code offers.
    page.goto(shared["link"])
    expect(page.get_by_text("Read-only.", exact=False)).to_be_visible()
    keyed = {"household-key": household_key(page)}
    page.goto(BASE + "/#look")
    page.get_by_label("Name").fill("zoé")
    page.get_by_role("button", name="Show their record").click()
    record = page.get_by_role("region", name="Lucky Jack")
    expect(record).to_contain_text("Jackpots")
    expect(page.get_by_role("heading", name="Zoé’s record")).to_be_visible()
    for label, kind in (("History as CSV", "text/csv"), ("History as NDJSON", "ndjson")):
        href = page.get_by_role("link", name=label).get_attribute("href")
        reply = page.request.get(BASE + href, headers=keyed)
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

    sheet_link = page.request.get(BASE + "/v1/matches?kind=sheet&game=lucky-jack&limit=1", headers=keyed).json()
    sheet_id = sheet_link["items"][0]["id"]
    page.goto(f"{BASE}/#sheet={sheet_id}")
    bgstats = page.get_by_role("link", name="BG Stats").get_attribute("href")
    assert page.request.get(BASE + bgstats, headers=keyed).ok
    page.context.close()



def round_entries(sheet_id: str, key: str | None) -> list:
    """The sheet's standing round entries, as the service has them (in the household of `key`)."""
    return [entry for entry in api("GET", f"/v1/sheets/{sheet_id}", household=key)["entries"] if (entry.get("kind") or "round") == "round"]


def jack_round(page: Page, winner: str | None, symbol: str = "jack", size: str = "4") -> None:
    if winner:
        page.get_by_label("Jackpot winner").select_option(label=winner)
        page.get_by_label("Symbol").select_option(symbol)
        page.get_by_label("Cards laid down").select_option(size)
    else:
        page.get_by_label("Jackpot winner").select_option(label="Nobody (no jackpot)")
    page.get_by_role("button", name="Save the round").click()


def options_in_words(browser) -> None:
    """Options read as a family's words, the irrelevant ones hidden, the target on the sheet."""
    page = new_phone(browser, "options")
    page.goto(BASE + "/#")
    page.get_by_label("Game", exact=True).select_option(label="Luck Plus (2–8 players)")
    form = page.locator("form", has=page.get_by_role("heading", name="New score sheet"))
    expect(form.locator("p.target")).to_have_text("First to win 5 hands.")
    form.get_by_text("Luck Plus: scoring and length").click()
    expect(form.get_by_label("How to score")).to_be_visible()
    expect(form.get_by_label("Score that ends the game")).to_be_visible()
    # Dealing and move rules play no part on a score sheet.
    expect(form.get_by_label("Who deals first")).to_have_count(0)
    expect(form.get_by_label("One roll may be used several times")).to_have_count(0)
    text = form.inner_text()
    assert not re.search(r"[a-z]+_[a-z]+", text), text
    form.get_by_label("How to score").select_option(label="Points won from the others")
    expect(form.locator("p.target")).to_have_text("First to reach 250 points.")
    form.get_by_label("Score that ends the game").fill("500")
    expect(form.locator("p.target")).to_have_text("First to reach 500 points.")
    check(page, "sheet-options")
    # Past the rulebook's bound: the refusal sits under the option, in words.
    form.get_by_label("Score that ends the game").fill("5000")
    for index, name in enumerate(["Ann", "Ben"]):
        page.locator("ol.players input").nth(index).fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(form.get_by_label("Score that ends the game")).to_have_attribute("aria-invalid", "true")
    form.get_by_label("Score that ends the game").fill("500")
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Luck Plus: Ann, Ben")
    expect(page.locator("main p.target")).to_have_text("First to reach 500 points.")

    # Lucky Luau: one round is the whole game, said on the form and on the sheet.
    page.goto(BASE + "/#")
    page.get_by_label("Game", exact=True).select_option(label="Lucky Luau (2–6 players)")
    expect(page.locator("form p.target")).to_contain_text("One round is the whole game")
    start_sheet(page, "Lucky Luau (2–6 players)", ["Ann", "Ben"])
    expect(page.get_by_role("heading", name="The whole game: everyone’s leis")).to_be_visible()
    expect(page.locator("form.entry")).to_contain_text("this one round is the whole game")
    expect(page.get_by_role("button", name="Finish early")).to_have_count(0)
    check(page, "luau-sheet-form")
    page.context.close()


def roster(browser) -> None:
    """Names used on this phone come back as chips: a second game needs no typing."""
    page = new_phone(browser, "roster")
    start_sheet(page, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    start_sheet(page, "Lucky Jack (2–6 players)", ["Grandpa", "Zoé"])
    page.goto(BASE + "/#")
    chips = page.locator("ul.chips")
    # Most recent first; each name once.
    expect(chips.get_by_role("button", name=re.compile("^Add "))).to_have_text([re.compile(f"Add {name}$") for name in ("Grandpa", "Zoé", "Mum", "Dad")])
    check(page, "roster")
    page.get_by_role("button", name="Forget Grandpa on this phone").click()
    expect(chips.get_by_role("button", name="Add Grandpa")).to_have_count(0)
    page.get_by_label("Game", exact=True).select_option(label="Lucky Jack (2–6 players)")
    for name in ("Zoé", "Mum", "Dad"):
        page.get_by_role("button", name=f"Add {name}").click()
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Zoé")
    expect(page.get_by_label("Player 3", exact=True)).to_have_value("Dad")
    expect(chips.get_by_role("button", name=re.compile("^Add "))).to_have_count(0)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Zoé, Mum, Dad")
    page.goto(BASE + "/#")
    expect(chips.get_by_role("button", name=re.compile("^Add "))).to_have_text([re.compile(f"Add {name}$") for name in ("Zoé", "Mum", "Dad")])
    page.context.close()


def mend_the_sheet(browser) -> None:
    """Undo the last round (with a reason), rename a player, finish early, give a sheet up."""
    page = new_phone(browser, "mender")
    sheet_id = start_sheet(page, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    key = household_key(page)
    expect(page.locator("main p.target")).to_have_text("3 rounds to play; the most points wins.")
    jack_round(page, "Zoé")
    expect(page.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    jack_round(page, "Dad", "bell", "3")
    expect(page.get_by_role("heading", name="Round 3", exact=True)).to_be_visible()

    # Round 2 was typed twice... no: it was a mistake. A reason is needed, tapped or typed.
    page.get_by_role("button", name="Undo the last round").click()
    expect(page.get_by_role("heading", name="Take round 2 away?")).to_be_focused()
    page.get_by_role("button", name="Take round 2 away").click()
    expect(page.get_by_role("group", name="Take round 2 away?").get_by_role("alert")).to_have_text("Choose a reason, or say why in your own words.")
    page.get_by_label("Entered by mistake").check()
    check(page, "undo-round")
    page.get_by_role("button", name="Take round 2 away").click()
    expect(page.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    expect(page.locator("ol.entries")).to_contain_text("Note: Entered by mistake")
    expect(standings_row(page, "Dad")).to_contain_text("0")
    assert len(api("GET", f"/v1/sheets/{sheet_id}", household=key)["rounds"]) == 1

    # Dad wants to be Papa: tap his name.
    page.get_by_role("button", name="Dad (rename)").click()
    expect(page.get_by_label("New name")).to_be_focused()
    page.get_by_label("New name").fill("Papa")
    page.get_by_role("button", name="Save the name").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Mum, Papa, Zoé")
    expect(page.locator("ol.entries")).to_contain_text("Dad renamed Papa")
    # A name already at the table is refused, in words, under the name.
    page.get_by_role("button", name="Papa (rename)").click()
    page.get_by_label("New name").fill("MUM")
    page.get_by_role("button", name="Save the name").click()
    expect(page.get_by_label("New name")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("form.panel p.error")).not_to_be_empty()
    check(page, "rename-refused")
    page.get_by_role("button", name="Cancel").click()

    # Bedtime: finish early, after a confirmation.
    page.get_by_role("button", name="Finish early").click()
    expect(page.get_by_role("heading", name="Finish the game now?")).to_be_focused()
    expect(page.get_by_role("group", name="Finish the game now?")).to_contain_text("Zoé wins")
    check(page, "finish-early")
    page.get_by_role("button", name="Keep playing").click()
    expect(page.get_by_role("heading", name="Finish the game now?")).to_have_count(0)
    page.get_by_role("button", name="Finish early").click()
    page.get_by_role("button", name="Finish now", exact=True).click()
    expect(page.locator("p.status")).to_contain_text("Game over: Zoé wins.")
    expect(page.locator("table.standings caption")).to_have_text("Final standings (finished early)")
    expect(page.get_by_role("button", name="Save the round")).to_have_count(0)
    assert api("GET", f"/v1/sheets/{sheet_id}", household=key)["finished_early"] is True

    # Another sheet is given up.
    start_sheet(page, "Plus & Minus (3–6 players)", ["Mum", "Papa", "Zoé"])
    expect(page.locator("main p.target")).to_have_text("3 rounds to play (everyone deals once); the most points wins.")
    page.get_by_role("button", name="Give up this sheet").click()
    expect(page.get_by_role("heading", name="Give up this sheet?")).to_be_focused()
    page.get_by_role("button", name="Give it up").click()
    expect(page.locator("p.status")).to_contain_text("This sheet was given up.")
    expect(page.get_by_role("button", name="Save the round")).to_have_count(0)
    expect(page.get_by_role("button", name="Play again with the same players")).to_be_visible()
    check(page, "given-up")
    page.context.close()


def send_with_key(sheet_id: str, body: dict, token: str, key: str) -> dict:
    request = urllib.request.Request(f"{BASE}/v1/sheets/{sheet_id}/entries", method="POST", data=json.dumps(body).encode())
    request.add_header("content-type", "application/json")
    request.add_header("authorization", f"Bearer {token}")
    request.add_header("idempotency-key", key)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def offline_rounds(browser) -> None:
    """Rounds saved offline wait on the phone, in words, and arrive once each, in order."""
    page = new_phone(browser, "offline")
    sheet_id = start_sheet(page, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    key = household_key(page)
    page.context.set_offline(True)
    jack_round(page, "Zoé")
    pending = page.get_by_role("region", name="Waiting to send")
    expect(pending).to_contain_text("Round 1: Zoé: jackpot of 4 × Jack")
    expect(pending).to_contain_text("Waiting to send.")
    expect(page.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    jack_round(page, "Mum", "bell", "3")
    expect(pending.locator("li")).to_have_count(2)
    expect(page.locator("#announce")).to_contain_text("waiting to send")
    check(page, "offline-waiting")
    assert round_entries(sheet_id, key) == []

    # The first send reached the service but its answer was lost; the page sends it again.
    stored = json.loads(page.evaluate("() => localStorage.getItem('referee.outbox')"))[sheet_id]
    token = json.loads(page.evaluate("() => localStorage.getItem('referee.sheets')"))[sheet_id]["token"]
    send_with_key(sheet_id, stored[0]["body"], token, stored[0]["key"])
    page.context.set_offline(False)
    expect(pending).to_have_count(0)
    expect(page.locator("ol.rounds > li")).to_have_count(2)
    entries = round_entries(sheet_id, key)
    assert [entry["tally"]["jackpot"]["seat"] for entry in entries] == [2, 0], entries
    page.reload()
    expect(page.locator("ol.rounds > li")).to_have_count(2)
    assert len(round_entries(sheet_id, key)) == 2

    # Two more offline: the first ends the game, the second is refused, in words, beside it.
    page.context.set_offline(True)
    jack_round(page, None)
    expect(page.get_by_role("heading", name="Round 4", exact=True)).to_be_visible()
    jack_round(page, "Dad")
    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    refused = pending.locator("li.refused")
    expect(refused).to_contain_text("Round 4")
    expect(refused.locator("p.error")).to_contain_text("Not sent:")
    expect(page.locator("p.status")).to_contain_text("Game over")
    check(page, "offline-refused")
    page.get_by_role("button", name="Discard round 4").click()
    expect(pending).to_have_count(0)
    assert len(round_entries(sheet_id, key)) == 3
    page.context.close()
    # Chromium logs each read the page tried while this phone was offline: expected, and only those.
    page_kit.page_errors[:] = [error for error in page_kit.page_errors
                               if error != "offline: console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED"]


def play_jack_game(page: Page, winners: list) -> None:
    for number, winner in enumerate(winners, start=1):
        expect(page.get_by_role("heading", name=f"Round {number}", exact=True)).to_be_visible()
        jack_round(page, winner)


def evening(browser) -> None:
    """Play again with the same players; one link for the evening, followed by the table's phones."""
    owner = new_phone(browser, "evening-owner")
    first = start_sheet(owner, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    link = owner.locator("a.share-link").get_attribute("href")
    # The evening's first sheet, with its household's follow-only key.
    assert f"#sheet={first}&household=" in link and "&key=hh_reader_" in link, link
    reader = new_phone(browser, "evening-reader")
    reader.goto(link)
    expect(reader.get_by_text("Read-only.", exact=False)).to_be_visible()
    play_jack_game(owner, ["Zoé", None, None])
    expect(owner.locator("p.status")).to_contain_text("Game over: Zoé wins.")
    check(owner, "sheet-finished-play-again")

    # One tap: the same game and players, a new sheet.
    owner.get_by_role("button", name="Play again with the same players").click()
    expect(owner).not_to_have_url(re.compile(first))
    second = owner.url.split("#sheet=", 1)[1]
    expect(owner.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Mum, Dad, Zoé")
    expect(owner.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    assert api("GET", f"/v1/sheets/{second}", household=household_key(owner))["rematch_of"] == first
    # The share link and its QR stay the evening's first sheet.
    expect(owner.locator("a.share-link")).to_have_attribute("href", link)
    # The reader's phone moves on by itself, and says so.
    expect(reader).to_have_url(re.compile(second))
    expect(reader.locator("#announce")).to_contain_text("The table started the next game")
    expect(reader.locator("a.share-link")).to_have_attribute("href", link)
    expect(reader.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Mum, Dad, Zoé")
    expect(reader.locator("p.status")).to_contain_text("No rounds yet.")

    # Bedtime comes early: finish and play again in one go.
    jack_round(owner, "Dad", "bell", "3")
    owner.get_by_role("button", name="Finish early").click()
    owner.get_by_role("button", name="Finish now and play again").click()
    expect(owner).not_to_have_url(re.compile(second))
    third = owner.url.split("#sheet=", 1)[1]
    expect(reader).to_have_url(re.compile(third))

    # The evening so far, on the sheet.
    summary = owner.get_by_role("region", name="This evening")
    expect(summary).to_contain_text("2 games played")
    expect(summary).to_contain_text("Game 1, Lucky Jack: Zoé won")
    expect(summary).to_contain_text("Game 2, Lucky Jack: Dad won")
    expect(summary).to_contain_text("Game 3 (this one)")
    wins = summary.locator("table.evening-wins")
    expect(wins.locator("tr", has=owner.get_by_role("rowheader", name="Zoé"))).to_contain_text("1")
    expect(wins.locator("tbody tr").first).not_to_contain_text("Mum")
    check(owner, "evening-summary")
    check(reader, "evening-followed")

    # The owner looking back at the first game is offered the way to the next, not a second one.
    owner.goto(f"{BASE}/#sheet={first}")
    expect(owner.get_by_role("button", name="Play again with the same players")).to_have_count(0)
    owner.get_by_role("link", name="Go to the next game").click()
    expect(owner).to_have_url(re.compile(second))

    # A phone that scans the evening's code late lands on the current game.
    late = new_phone(browser, "evening-late")
    late.goto(link)
    expect(late).to_have_url(re.compile(third))
    for phone in (owner, reader, late):
        phone.context.close()


def hand_over(browser) -> None:
    """The sheet moves to another phone by a QR code; the old phone's token stops working."""
    giver = new_phone(browser, "giver")
    sheet_id = start_sheet(giver, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    key = household_key(giver)
    old_token = json.loads(giver.evaluate("() => localStorage.getItem('referee.sheets')"))[sheet_id]["token"]
    # A second tab on the giving phone, still holding the old token.
    stale_tab = giver.context.new_page()
    stale_tab.goto(f"{BASE}/#sheet={sheet_id}")
    expect(stale_tab.get_by_role("button", name="Save the round")).to_be_visible()

    giver.get_by_role("button", name="Hand the sheet to another phone").click()
    expect(giver.get_by_role("heading", name="Hand the sheet to another phone")).to_be_focused()
    giver.get_by_role("button", name="Show the code for the other phone").click()
    expect(giver.get_by_role("img", name="QR code that hands this sheet to another phone")).to_be_visible()
    handover = giver.locator("a.handover-link").get_attribute("href")
    assert f"#sheet={sheet_id}&owner=own_" in handover, handover
    # The sheet is the giver's household's: the taking phone joins it to keep reading it.
    assert "&key=hh_owner_" in handover, handover
    check(giver, "hand-over")

    taker = new_phone(browser, "taker")
    taker.goto(handover)
    expect(taker).to_have_url(f"{BASE}/#sheet={sheet_id}")
    expect(taker.locator("p.status")).to_contain_text("You keep this sheet.")
    assert household_key(taker) == key
    jack_round(taker, "Zoé")
    expect(standings_row(taker, "Zoé")).to_contain_text("10,000")
    assert len(round_entries(sheet_id, key)) == 1

    giver.get_by_role("button", name="The other phone has it").click()
    expect(giver.locator("p.status")).to_contain_text("You handed this sheet to another phone; here it is read-only.")
    expect(giver.get_by_role("button", name="Save the round")).to_have_count(0)
    assert sheet_id not in (giver.evaluate("() => localStorage.getItem('referee.sheets')") or "")

    # The old token is refused; the tab that still held it says the sheet was handed over.
    stale_tab.get_by_label("Jackpot winner").select_option(label="Dad")
    stale_tab.get_by_role("button", name="Save the round").click()
    expect(stale_tab.locator("p.status")).to_contain_text("You handed this sheet to another phone")
    expect(stale_tab.get_by_role("button", name="Save the round")).to_have_count(0)
    check(stale_tab, "handed-over")
    try:
        api("POST", f"/v1/sheets/{sheet_id}/entries", {"tally": {"jackpot": None}}, token=old_token)
        raise AssertionError("the old owner token still writes")
    except AssertionError as error:
        assert "401" in str(error), error
    assert len(round_entries(sheet_id, key)) == 1
    giver.context.close()
    taker.context.close()


def a_link_never_replaces_a_kept_token_without_asking(browser) -> None:
    """Hardening round 4: a link `#sheet=<id>&owner=<anything>` replaced the owner token the phone
    kept, its only copy. Now the phone asks first; declining keeps its token and ignores the
    link's, and a link with the token it already keeps asks nothing."""
    phone = new_phone(browser, "kept-token")
    sheet_id = start_sheet(phone, "Lucky Jack (2–6 players)", ["Mum", "Dad"])
    key = household_key(phone)

    def kept() -> str:
        return json.loads(phone.evaluate("() => localStorage.getItem('referee.sheets')"))[sheet_id]["token"]

    own = kept()
    question = phone.get_by_role("dialog", name="Replace this phone’s key to the sheet?")
    # The same token: nothing to ask.
    phone.goto(f"{BASE}/#sheet={sheet_id}&owner={own}")
    expect(phone).to_have_url(f"{BASE}/#sheet={sheet_id}")
    expect(phone.locator("p.status")).to_contain_text("You keep this sheet.")
    expect(question).to_have_count(0)
    assert kept() == own

    # Another token: asked, and declining keeps this phone's.
    phone.goto(f"{BASE}/#sheet={sheet_id}&owner=own_not-the-sheets")
    expect(question).to_be_visible()
    expect(question.get_by_role("button", name="Keep this phone’s key")).to_be_focused()
    expect(phone).to_have_url(f"{BASE}/#sheet={sheet_id}")
    check(phone, "link-token-question")
    question.get_by_role("button", name="Keep this phone’s key").click()
    expect(question).to_have_count(0)
    assert kept() == own
    expect(phone.locator("p.status")).to_contain_text("You keep this sheet.")
    jack_round(phone, "Dad")
    expect(standings_row(phone, "Dad")).to_contain_text("10,000")
    assert len(round_entries(sheet_id, key)) == 1

    # Escape is a no too.
    phone.goto(f"{BASE}/#sheet={sheet_id}&owner=own_not-the-sheets")
    expect(question).to_be_visible()
    phone.keyboard.press("Escape")
    expect(question).to_have_count(0)
    assert kept() == own

    # Saying yes takes the link's token (a sheet handed back to this phone).
    phone.goto(f"{BASE}/#sheet={sheet_id}&owner=own_handed-back")
    question.get_by_role("button", name="Use the link’s key").click()
    expect(question).to_have_count(0)
    wait_until(lambda: kept() == "own_handed-back")
    phone.context.close()


STEPS = [lucky_jack_sheet, look_back, options_in_words, roster, mend_the_sheet, offline_rounds, evening, hand_over,
         a_link_never_replaces_a_kept_token_without_asking]
