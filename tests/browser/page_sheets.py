"""Score sheets on the table page: keeping one, sharing it read-only, correcting it, and looking
back at what was played."""

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, new_phone, standings_row, start_sheet


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

    # The read-only view on another phone: no owner token there, and the link carries none.
    link = owner.locator("a.share-link").get_attribute("href")
    assert link and "own_" not in link and "token" not in link, link
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
    reader.context.close()
    owner.context.close()


def look_back(browser) -> None:
    page = new_phone(browser, "looker")
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
    page.context.close()


STEPS = [lucky_jack_sheet, look_back]
