"""Skill ratings on the look-back view: a player's rating per game with its chart, the leaderboard
by rating with "More", and two players head to head. The walk makes its own results through the
API: one-round Lucky Dice sheets between players no other walk uses."""

import re

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, new_phone

# Five evenings of Rhea, Remy and Rosa: (players, who won the one coaster). Rhea plays all five;
# against Remy (four shared) she is ahead twice (1, 2), behind once (3) and level once (5, where
# Rosa won and neither got a coaster).
EVENINGS = [
    (["Rhea", "Remy", "Rosa"], "Rhea"),
    (["Rhea", "Remy"], "Rhea"),
    (["Rhea", "Remy", "Rosa"], "Remy"),
    (["Rhea", "Rosa"], "Rhea"),
    (["Rhea", "Remy", "Rosa"], "Rosa"),
]
# Enough other rated players for the leaderboard by rating to need its "More" button (20 a page).
CROWD = [[f"Rater {table}{seat}" for seat in range(1, 7)] for table in range(1, 5)]
# Hugo and Hana share more results than one page of head to head shows.
DUEL_GAMES = 22


def finished_sheet(players: list[str], winner: str) -> str:
    """A Lucky Dice sheet played to one coaster: `winner` empties their dice in the one round and
    wins; everyone else shares second place with none. Lucky Dice, not Lucky Jack: the sheets walk
    expects the Lucky Jack leaderboard to be its own."""
    created = api("POST", "/v1/sheets", {"game": "lucky-dice", "players": [{"name": name} for name in players], "options": {"coaster_target": 1}})
    sheet_id = created["sheet"]["id"]
    after = api("POST", f"/v1/sheets/{sheet_id}/entries", {"tally": {"emptied": [players.index(winner)]}}, token=created["owner_token"])
    assert after["status"] == "finished", after["status"]
    return sheet_id


_evenings_played = False


def play_evenings() -> None:
    """The five evenings, once per run (each step may also run alone)."""
    global _evenings_played
    if not _evenings_played:
        for players, winner in EVENINGS:
            finished_sheet(players, winner)
        _evenings_played = True


def shown(value: float) -> str:
    """A rating as the page shows it (web/ratings.js formatRating)."""
    rounded = round(value * 10) / 10
    return f"{0.0 if rounded == 0 else rounded:.1f}"


def check_wide(page: Page, name: str) -> None:
    """axe at a phone's width and at 1280 px (check() runs it at the width it finds)."""
    check(page, name)
    page.set_viewport_size({"width": 1280, "height": 900})
    check(page, f"{name}-wide")


def player_ratings(browser) -> None:
    """A player with five results: the rating, the place and a chart that says what it shows."""
    play_evenings()
    ratings = api("GET", "/v1/players/Rhea/ratings")
    [dice] = [game for game in ratings["games"] if game["game"] == "lucky-dice"]
    assert dice["rated"] == 5, dice
    history = api("GET", "/v1/players/Rhea/ratings/lucky-dice")["items"]
    assert len(history) == 5, history
    first, last = history[0]["before"]["rating"], history[-1]["after"]["rating"]
    assert shown(first) == "0.0", first

    page = new_phone(browser, "ratings")
    page.goto(BASE + "/#look")
    page.get_by_label("Name").fill("rhea")
    page.get_by_role("button", name="Show their record").click()
    expect(page.get_by_role("heading", name="Rhea’s record")).to_be_visible()
    ratings_section = page.get_by_role("region", name="Skill ratings")
    item = ratings_section.locator("ul.ratings > li").filter(has=page.get_by_role("heading", name="Lucky Dice", exact=True))
    expect(item).to_have_count(1)
    figures = item.locator("dl.record")
    expect(figures).to_contain_text(shown(dice["rating"]["rating"]))
    place = {1: "1st", 2: "2nd", 3: "3rd"}.get(dice["place"], f"{dice['place']}th")
    expect(figures).to_contain_text(f"{place} of {dice['players']}")
    expect(figures.locator("dd").nth(2)).to_have_text("5")

    chart = item.get_by_role("img")
    summary = f"Rating from 0.0 to {shown(last)} over 5 results"
    expect(chart).to_have_attribute("aria-label", re.compile(re.escape(summary) + "$"))
    expect(chart.locator("title")).to_have_text(re.compile(re.escape(summary)))
    assert chart.evaluate("svg => svg.tagName") == "svg"
    expect(chart.locator("circle.dot")).to_have_count(6)  # the start and each result
    expect(chart.locator("text")).to_contain_text([shown(max(first, *[point["after"]["rating"] for point in history]))])
    box = chart.bounding_box()
    assert box and 300 <= box["width"] <= 390 and box["height"] < box["width"] / 2, box
    check_wide(page, "ratings-player")

    # Dark mode: the line follows the page's colours, never a fixed black.
    page.emulate_media(color_scheme="dark")
    colour = chart.evaluate("svg => getComputedStyle(svg.querySelector('path.line')).stroke")
    assert colour == "rgb(143, 220, 185)", colour
    check(page, "ratings-player-dark")
    page.emulate_media(color_scheme="light")

    # This year: every result here is this year's, so the chart is the same.
    page.goto(BASE + "/#player=Rhea&period=year")
    expect(page.get_by_role("heading", name="Rhea’s record this year")).to_be_visible()
    expect(page.get_by_role("region", name="Skill ratings").get_by_role("img")).to_have_attribute("aria-label", re.compile(re.escape(summary) + "$"))

    # A player with no rated result: no chart, a sentence instead (the service answers 200).
    page.goto(BASE + "/#player=Nobody%20Rated")
    expect(page.get_by_role("region", name="Skill ratings")).to_contain_text("No rated results yet")
    page.context.close()


def rating_leaderboard(browser) -> None:
    """The leaderboard by rating: highest first, its figures, and "More" by keyboard."""
    for table in CROWD:
        finished_sheet(table, table[0])
    board = api("GET", "/v1/games/lucky-dice/ratings?limit=100")
    everyone = board["items"]
    assert len(everyone) > 20, len(everyone)
    values = [row["rating"]["rating"] for row in everyone]
    assert values == sorted(values, reverse=True), values

    page = new_phone(browser, "rating-board")
    page.goto(BASE + "/#look")
    board_form = page.locator("form", has=page.get_by_role("heading", name="A game’s leaderboard"))
    board_form.get_by_label("Game", exact=True).select_option(label="Lucky Dice")
    board_form.get_by_label("Order").select_option(label="By rating")
    board_form.get_by_role("button", name="Show the leaderboard").click()
    expect(page.get_by_role("heading", name="Lucky Dice leaderboard by rating")).to_be_visible()
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(20)
    for index in (0, 1, 19):
        row, expected = rows.nth(index), everyone[index]
        expect(row.get_by_role("rowheader")).to_have_text(expected["player"])
        expect(row.locator("td").nth(0)).to_have_text(str(expected["place"]))
        expect(row.locator("td").nth(1)).to_have_text(shown(expected["rating"]["rating"]))
        expect(row.locator("td").nth(2)).to_have_text(str(expected["rated"]))
        expect(row.locator("td").nth(3)).to_have_text(str(expected["won"]))
    # Rhea, Remy and Rosa in the order of their ratings.
    ours = [row["player"] for row in everyone if row["player"] in ("Rhea", "Remy", "Rosa")]
    shown_names = [name for name in rows.get_by_role("rowheader").all_inner_texts() if name in ours]
    assert shown_names == ours[: len(shown_names)], (shown_names, ours)
    check_wide(page, "ratings-leaderboard")

    # "More" by keyboard: Enter reads the next page, focus moves to its first player.
    more = page.get_by_role("button", name="More", exact=True)
    more.focus()
    page.keyboard.press("Enter")
    expect(rows).to_have_count(min(len(everyone), 40))
    expect(page.locator("table tbody tr").nth(20).get_by_role("link")).to_be_focused()
    expect(page.locator("table tbody tr").nth(20).get_by_role("rowheader")).to_have_text(everyone[20]["player"])
    if len(everyone) <= 40:
        expect(more).to_have_count(0)
    check(page, "ratings-leaderboard-more")

    # This year: the same players (every result here is this year's), the period in the heading.
    board_form.get_by_label("Period").select_option(label="This year")
    board_form.get_by_role("button", name="Show the leaderboard").click()
    expect(page.get_by_role("heading", name="Lucky Dice leaderboard by rating this year")).to_be_visible()
    expect(rows.first.get_by_role("rowheader")).to_have_text(everyone[0]["player"])
    expect(board_form.get_by_label("Order")).to_have_value("rating")

    # A game the service does not know, by rating too: the words go beside the game's field.
    page.goto(BASE + "/#board=no-such-game&order=rating")
    game = page.get_by_label("Game", exact=True)
    expect(game).to_have_attribute("aria-invalid", "true")
    expect(game).to_have_accessible_description("That game is not one this service knows. Choose a game from the list.")
    page.context.close()


def head_to_head(browser) -> None:
    """Two players: who was ahead how often, their ratings, and their results together."""
    play_evenings()
    versus = api("GET", "/v1/players/Rhea/versus/Remy?game=lucky-dice")
    [row] = versus["games"]
    assert (row["played"], row["player_ahead"], row["opponent_ahead"], row["level"]) == (4, 2, 1, 1), row

    page = new_phone(browser, "versus")
    page.goto(BASE + "/#look")
    form = page.locator("form", has=page.get_by_role("heading", name="Head to head"))
    # The same name twice is caught on the phone.
    form.get_by_label("Player").fill("Rhea")
    form.get_by_label("Against").fill("rhea")
    form.get_by_role("button", name="Compare them").click()
    expect(form.get_by_label("Against")).to_have_attribute("aria-invalid", "true")
    expect(form.get_by_label("Against")).to_be_focused()

    # The service says so too, for an address typed by hand (look-alike spellings are one name).
    page.goto(BASE + "/#look&versus=Rhea&opponent=rhea")
    form = page.locator("form", has=page.get_by_role("heading", name="Head to head"))
    expect(form.get_by_label("Against")).to_have_accessible_description(
        "That is the same player twice. Type someone else to compare them with.")

    # By keyboard: the names typed in lower case, the game chosen, Enter sends.
    form.get_by_label("Player").fill("rhea")
    form.get_by_label("Against").fill("remy")
    form.get_by_label("Which game").select_option(label="Lucky Dice")
    form.get_by_label("Against").press("Enter")
    result = page.get_by_role("region", name="Rhea against Remy, Lucky Dice")
    expect(result).to_contain_text("4 played: Rhea ahead 2, Remy ahead 1, level 1")
    expect(result).to_contain_text(f"Ratings: Rhea {shown(row['player_rating']['rating'])}, Remy {shown(row['opponent_rating']['rating'])}")
    shared = result.locator("ol.shared > li")
    expect(shared).to_have_count(4)
    # Newest first: the last evening, which Rosa won, left them level.
    expect(shared.first).to_contain_text("Rhea 2nd, 0 points; Remy 2nd, 0 points")
    expect(shared.nth(1)).to_contain_text("Remy 1st, 1 point (won)")
    expect(result.get_by_role("button", name="More", exact=True)).to_have_count(0)
    check_wide(page, "ratings-versus")

    # More results than one page: "More" follows the cursor to the end.
    for number in range(DUEL_GAMES):
        finished_sheet(["Hugo", "Hana"], "Hugo" if number % 2 == 0 else "Hana")
    page.goto(BASE + "/#look&versus=Hugo&opponent=Hana")
    result = page.get_by_role("region", name="Hugo against Hana")
    expect(result).to_contain_text(f"{DUEL_GAMES} played: Hugo ahead {DUEL_GAMES // 2}, Hana ahead {DUEL_GAMES // 2}, level 0")
    shared = result.locator("ol.shared > li")
    expect(shared).to_have_count(20)
    more = result.get_by_role("button", name="More", exact=True)
    more.focus()
    page.keyboard.press("Enter")
    expect(shared).to_have_count(DUEL_GAMES)
    expect(shared.nth(20).get_by_role("link")).to_be_focused()
    expect(more).to_have_count(0)
    # The oldest shared result is the first evening, which Hugo won.
    expect(shared.last).to_contain_text("Hugo 1st, 1 point (won)")
    check(page, "ratings-versus-more")

    # Two players who never shared a table.
    page.goto(BASE + "/#look&versus=Hugo&opponent=Rosa")
    expect(page.get_by_text("They have not finished a game at the same table yet.")).to_be_visible()
    page.context.close()


STEPS = [player_ratings, rating_leaderboard, head_to_head]
