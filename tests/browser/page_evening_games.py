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


def zoe_wins_a_jack_sheet(phone) -> tuple[str, str]:
    """Mum, Dad and Zoé's Lucky Jack sheet, won by Zoé and finished early; it is the phone's first,
    so it makes the phone's household. Its id and the household's key."""
    jack = start_sheet(phone, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    key = household_key(phone)
    assert key and key.startswith("hh_owner_"), key
    jack_round(phone, "Zoé")
    expect(standings_row(phone, "Zoé")).to_contain_text("10,000")
    phone.get_by_role("button", name="Finish early").click()
    phone.get_by_role("button", name="Finish now", exact=True).click()
    expect(phone.locator("p.status")).to_contain_text("Game over: Zoé wins.")
    return jack, key


def an_evening_lists_every_game_the_family_played_whatever_the_game(browser) -> None:
    """Mum, Dad and Zoé finish a Lucky Jack sheet (Zoé wins); Grandpa sits down with Mum and Dad
    for Lucky Luau, a new sheet and not a play-again; meanwhile the service deals Zoé and Dad a
    Lucky Jack match. The Luau sheet's "This evening" lists the three games in the order they
    began, each linked to its own page, and counts Zoé's win."""
    phone = new_phone(browser, "evening-whatever-the-game")
    jack, key = zoe_wins_a_jack_sheet(phone)

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


def a_finished_hosted_match_shows_the_evening_it_belongs_to(browser) -> None:
    """Mum, Dad and Zoé finish a Lucky Jack sheet (Zoé wins); then the service deals Zoé and Dad
    a short Lucky Jack match, played to its end. Opened on the family's phone once it is over, the
    match's page shows "This evening" as the sheet's does: the sheet (linked, its winner), then
    the match as "this one", and the wins table."""
    phone = new_phone(browser, "evening-on-a-match")
    jack, key = zoe_wins_a_jack_sheet(phone)

    # The service deals Zoé and Dad a short Lucky Jack match (3 rounds of at most 4 turns), in
    # the same household, played to its end through the API: each acting seat's first legal move.
    hosted = api("POST", "/v1/matches", {
        "game": "lucky-jack", "seats": [{"name": "Zoé"}, {"name": "Dad"}], "randomness": "server",
        "options": {"rounds": 3, "max_turns_per_round": 4},
    }, household=key)
    match_id = hosted["match"]["id"]
    seats = {seat["seat"]: seat["token"] for seat in hosted["seat_tokens"]}
    for _ in range(400):
        current = api("GET", f"/v1/matches/{match_id}", household=key)
        if current["status"] != "in_progress":
            break
        assert current["to_act"] and not current["chance_pending"], current
        seat = current["to_act"][0]
        view = api("GET", f"/v1/matches/{match_id}", token=seats[seat], household=key)
        move = {"seat": seat, "move": view["view"]["legal_moves"][0], "expected_version": view["version"]}
        api("POST", f"/v1/matches/{match_id}/moves", move, token=seats[seat], household=key)
    finished = api("GET", f"/v1/matches/{match_id}", household=key)
    assert finished["status"] == "finished", finished["status"]
    names = [seat["name"] for seat in finished["seats"]]
    winners = [names[seat] for seat in finished["standings"]["winners"]]
    won = f"{' and '.join(winners)} {'shared the win' if len(winners) > 1 else 'won'}"

    evening = api("GET", f"/v1/matches/{match_id}/evening", household=key)
    assert [(item["id"], item["kind"]) for item in evening["sheets"]] == [(jack, "sheet"), (match_id, "hosted")], evening["sheets"]

    phone.goto(f"{BASE}/#match={match_id}")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Zoé, Dad")
    expect(phone.locator("p.turn")).to_contain_text("The match is over")
    summary = phone.get_by_role("region", name="This evening")
    expect(summary).to_contain_text("2 games played.")
    games = summary.locator("ol.games > li")
    expect(games).to_have_count(2)
    expect(games.nth(0)).to_have_text("Game 1, Lucky Jack: Zoé won")
    expect(games.nth(0).get_by_role("link", name="Game 1, Lucky Jack")).to_have_attribute("href", f"#sheet={jack}")
    expect(games.nth(1)).to_have_text(f"Game 2 (this one), Lucky Jack: {won}")
    expect(games.nth(1).get_by_role("link")).to_have_count(0)
    # Zoé and Dad sat at both games; Mum at the sheet only.
    wins = summary.locator("table.evening-wins")
    expect(wins.locator("tbody tr")).to_have_count(3)
    for name, sat in (("Zoé", 2), ("Dad", 2), ("Mum", 1)):
        row = wins.locator("tbody tr").filter(has=phone.get_by_role("rowheader", name=name, exact=True))
        expect(row.locator("td")).to_have_text([str(sat), str((name == "Zoé") + winners.count(name))])
    check(phone, "evening-on-a-match")

    # The sheet opens from the match's evening, and its own evening names the match.
    games.nth(0).get_by_role("link").click()
    expect(phone).to_have_url(f"{BASE}/#sheet={jack}")
    back = phone.get_by_role("region", name="This evening").locator("ol.games > li")
    expect(back.nth(1).get_by_role("link", name="Game 2, Lucky Jack (dealt by the service)")).to_have_attribute("href", f"#match={match_id}")
    phone.context.close()


STEPS = [
    an_evening_lists_every_game_the_family_played_whatever_the_game,
    a_finished_hosted_match_shows_the_evening_it_belongs_to,
]
