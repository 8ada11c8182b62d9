"""The family's evening, whatever the game: in a household, a sheet's "This evening" lists every
game the same people played that night, a sheet of another game and a match the service dealt
included, not only the sheets played again from one another. The step is a sentence of what the
family sees, and fails on the page before the service gathered the night's other games (it
answered the play-again chain alone: the Luau sheet, one game still being played, and the page
shows no evening for that)."""

import re

from playwright.sync_api import expect

from page_kit import BASE, api, check, household_key, new_phone, standings_row, start_sheet
from page_sheets import jack_round


def an_evening_lists_every_game_the_family_played_whatever_the_game(browser) -> None:
    """Mum, Dad and Zoé finish a Lucky Jack sheet (Zoé wins); Grandpa sits down with Mum and Dad
    for Lucky Luau, a new sheet and not a play-again; meanwhile the service deals Zoé and Dad a
    Lucky Jack match. The Luau sheet's "This evening" lists the three games in the order they
    began, each linked to its own page, and counts Zoé's win."""
    phone = new_phone(browser, "evening-whatever-the-game")
    # The phone's first sheet makes its household.
    jack = start_sheet(phone, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    key = household_key(phone)
    assert key and key.startswith("hh_owner_"), key
    jack_round(phone, "Zoé")
    expect(standings_row(phone, "Zoé")).to_contain_text("10,000")
    phone.get_by_role("button", name="Finish early").click()
    phone.get_by_role("button", name="Finish now", exact=True).click()
    expect(phone.locator("p.status")).to_contain_text("Game over: Zoé wins.")

    # Another game, started afresh from the home screen: not the Jack sheet played again.
    luau = start_sheet(phone, "Lucky Luau (2–6 players)", ["Grandpa", "Mum", "Dad"])
    assert api("GET", f"/v1/sheets/{luau}", household=key).get("rematch_of") is None

    # The service deals Zoé and Dad a Lucky Jack match, in the same household.
    hosted = api("POST", "/v1/matches", {"game": "lucky-jack", "seats": [{"name": "Zoé"}, {"name": "Dad"}]}, household=key)
    match_id = hosted["match"]["id"]

    evening = api("GET", f"/v1/sheets/{luau}/evening", household=key)
    assert [(item["id"], item["kind"], item["game"]) for item in evening["sheets"]] == [
        (jack, "sheet", "lucky-jack"), (luau, "sheet", "lucky-luau"), (match_id, "hosted", "lucky-jack"),
    ], evening["sheets"]

    # The Luau sheet, opened again: its evening is the three games.
    assert phone.url == f"{BASE}/#sheet={luau}", phone.url
    phone.reload()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Lucky Luau: Grandpa, Mum, Dad")
    summary = phone.get_by_role("region", name="This evening")
    expect(summary).to_contain_text("1 game played, 2 more started.")
    games = summary.locator("ol.games > li")
    expect(games).to_have_count(3)
    expect(games.nth(0)).to_have_text("Game 1, Lucky Jack: Zoé won")
    expect(games.nth(0).get_by_role("link")).to_have_attribute("href", f"#sheet={jack}")
    expect(games.nth(1)).to_have_text(re.compile(r"^Game 2 \(this one\), Lucky Luau: playing, 0 rounds so far"))
    expect(games.nth(1).get_by_role("link")).to_have_count(0)
    expect(games.nth(2)).to_have_text("Game 3, Lucky Jack (dealt by the service): being played")
    dealt = games.nth(2).get_by_role("link", name="Game 3, Lucky Jack (dealt by the service)")
    expect(dealt).to_have_attribute("href", f"#match={match_id}")
    # Zoé's win counts, over the two games she sat at.
    wins = summary.locator("table.evening-wins")
    zoe = wins.locator("tbody tr").filter(has=phone.get_by_role("rowheader", name="Zoé"))
    expect(zoe.locator("td")).to_have_text(["2", "1"])
    expect(wins.locator("tbody tr").first.get_by_role("rowheader")).to_have_text("Zoé")
    expect(wins.locator("tbody tr")).to_have_count(4)
    # The evening's link stays this sheet's (the first of its play-again chain), not the Jack
    # sheet's, which another phone would follow no further.
    expect(phone.locator("a.share-link")).to_have_attribute("href", re.compile(rf"#sheet={luau}&household="))
    check(phone, "evening-whatever-the-game")

    # The match the service dealt opens from the evening.
    dealt.click()
    expect(phone).to_have_url(f"{BASE}/#match={match_id}")
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Lucky Jack")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Zoé, Dad")
    phone.context.close()


STEPS = [
    an_evening_lists_every_game_the_family_played_whatever_the_game,
]
