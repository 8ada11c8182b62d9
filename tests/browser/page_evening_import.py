"""The family's evening, third pass: plays brought in from BG Stats from the page. Look back's
"Bring in plays from BG Stats" reads the file on the phone, shows first what would come in
(nothing written), offers the file's Leo as the household's Leon, keeps BG Stats' anonymous player
in the plays but off every board, and brings the plays in: they open from the report and from
the player's record, read again at once."""

import json

from playwright.sync_api import Page, expect

from page_kit import BASE, api, big_text, check, household_key, new_phone, page_width, start_sheet
from page_sheets import jack_round

SLUGS = ["lucky-jack", "luck-plus", "lucky-dice", "plus-minus", "lucky-luau"]
CARD = "Bring in plays from BG Stats"


def bgstats_file() -> dict:
    """A BG Stats export: Mum (known), Leo (the household knows a Leon), Dad (new), BG Stats'
    anonymous player; three plays of the games here (one whose ranks contradict its scores), a
    game of Catan and a play BG Stats leaves out of its statistics."""
    def score(ref, points, rank, winner=False):
        return {"playerRefId": ref, "score": str(points), "rank": rank, "winner": winner}

    return {
        "players": [
            {"id": 1, "name": "Mum", "isAnonymous": False},
            {"id": 2, "name": "Leo", "isAnonymous": False},
            {"id": 3, "name": "Dad"},
            {"id": 9, "name": "Anonymous", "isAnonymous": True},
        ],
        "games": [
            {"id": 10, "name": "Lucky Jack", "highestWins": True},
            {"id": 11, "name": "Catan", "highestWins": True},
            {"id": 12, "name": "Plus & Minus", "highestWins": True},
        ],
        "locations": [{"id": 1, "name": "Kitchen"}],
        "plays": [
            {"uuid": "51A1B2C3-0000-4000-8000-000000000001", "gameRefId": 10, "playDate": "2025-04-05 20:00:00",
             "playerScores": [score(1, 9000, 1, True), score(2, 2000, 2), score(9, 500, 3)]},
            # Leo scored more, yet the file ranks Mum first: kept so, and to be checked.
            {"uuid": "51A1B2C3-0000-4000-8000-000000000002", "gameRefId": 10, "playDate": "2025-04-12 20:00:00",
             "playerScores": [score(1, 1000, 1, True), score(2, 6000, 2)]},
            {"uuid": "51A1B2C3-0000-4000-8000-000000000003", "gameRefId": 11, "playDate": "2025-04-13 16:00:00",
             "playerScores": [score(1, 10, 1, True), score(3, 8, 2)]},
            {"uuid": "51A1B2C3-0000-4000-8000-000000000004", "gameRefId": 10, "playDate": "2025-04-14 20:00:00", "ignored": True,
             "playerScores": [score(1, 10, 1, True), score(3, 8, 2)]},
            {"uuid": "51A1B2C3-0000-4000-8000-000000000005", "gameRefId": 12, "playDate": "2025-04-19 20:00:00",
             "playerScores": [score(3, 35, 1, True), score(2, -5, 2), score(1, -15, 3)]},
        ],
    }


def as_upload(content, name: str = "BGStatsExport.json") -> dict:
    body = content if isinstance(content, bytes) else json.dumps(content).encode()
    return {"name": name, "mimeType": "application/json", "buffer": body}


def boards(key: str) -> dict:
    """Every game's leaderboard in the household, as {game: {player: played}}."""
    return {slug: {row["player"]: row["played"] for row in api("GET", f"/v1/games/{slug}/leaderboard?limit=100", household=key)}
            for slug in SLUGS}


def rating_boards(key: str) -> set:
    return {item["player"] for slug in SLUGS for item in api("GET", f"/v1/games/{slug}/ratings?limit=100", household=key)["items"]}


def card(page: Page):
    return page.locator("details.bgstats-import")


def names_look_alike_and_the_card_reads_in_dark_mode(browser) -> None:
    """The look-alike rule the page offers a known player by, on its own; the card on Look back,
    folded and open, in dark mode."""
    page = new_phone(browser, "look-alike")
    page.goto(BASE + "/#look")
    expect(page.get_by_role("heading", level=1, name="Look back")).to_be_visible()
    found = page.evaluate(
        """async () => {
            const { lookAlike } = await import('/app/import.js');
            const known = ['Leon', 'Mum', 'Zoé', 'Ben', 'Joan', 'Alexandra'];
            return Object.fromEntries(['Leo', 'zoe', 'ZOÉ', 'Jon', 'Alexandre', 'leonard', 'Ann', 'Dad', 'Bo', 'Anonymous']
                .map((name) => [name, lookAlike(name, known)]));
        }"""
    )
    assert found == {
        "Leo": "Leon", "zoe": "Zoé", "ZOÉ": "Zoé", "Jon": "Joan", "Alexandre": "Alexandra", "leonard": "Leon",
        "Ann": None, "Dad": None, "Bo": None, "Anonymous": None,
    }, found
    # The card, folded and open, in dark mode too.
    page.emulate_media(color_scheme="dark")
    summary = page.get_by_text(CARD)
    expect(summary).to_be_visible()
    check(page, "import-card-folded-dark")
    summary.click()
    expect(page.get_by_label("BG Stats file")).to_be_visible()
    check(page, "import-card-dark")
    page.context.close()


def plays_from_bg_stats_are_previewed_matched_to_known_players_and_brought_in(browser) -> None:
    page = new_phone(browser, "import")
    # The household knows Mum and Leon: a finished sheet of theirs.
    start_sheet(page, "Lucky Jack (2–6 players)", ["Mum", "Leon"])
    jack_round(page, "Leon")
    page.get_by_role("button", name="Finish early").click()
    page.get_by_role("button", name="Finish now", exact=True).click()
    expect(page.locator("p.status")).to_contain_text("Game over: Leon wins.")
    key = household_key(page)
    before = boards(key)
    assert before["lucky-jack"] == {"Mum": 1, "Leon": 1}, before
    matches_before = api("GET", "/v1/matches?limit=100", household=key)["total"]

    # Leon's record in Look back, with the card below the forms.
    page.goto(BASE + "/#player=Leon")
    record = page.get_by_role("region", name="Leon’s record")
    expect(record.get_by_role("heading", name="Leon’s record")).to_be_visible()
    expect(record.get_by_role("link", name="Lucky Jack: Mum, Leon", exact=True)).to_have_count(1)
    page.get_by_text(CARD).click()
    picker = page.get_by_label("BG Stats file")

    # A file that is not JSON: said in plain words, nothing sent.
    picker.set_input_files(as_upload(b"{\"players\": [", "notes.json"))
    expect(card(page).locator(".error").first).to_contain_text("could not be read")
    expect(picker).to_have_attribute("aria-invalid", "true")
    # JSON, but no plays.
    picker.set_input_files(as_upload({"games": []}, "other.json"))
    expect(card(page).locator(".error").first).to_contain_text("holds no plays")

    # The preview: counts, what is left out and why, the play to check, who is who.
    with page.expect_response(lambda response: "/v1/imports/bgstats?dry_run=true" in response.url):
        picker.set_input_files(as_upload(bgstats_file()))
    report = card(page).locator(".import-report")
    expect(report.get_by_role("heading", name="What would come in")).to_be_visible()
    counts = report.locator("ul.counts")
    expect(counts).to_contain_text("3 plays would be added.")
    expect(counts).to_contain_text("2 plays left out.")
    expect(counts).not_to_contain_text("here already")
    left_out = report.get_by_role("region", name="Left out")
    expect(left_out).to_contain_text("Games other than the five kept here: 1 play")
    expect(left_out).to_contain_text("Catan")
    expect(left_out).to_contain_text("Left out of BG Stats’ own statistics: 1 play")
    to_check = report.get_by_role("region", name="Check these")
    expect(to_check.locator("li")).to_have_count(1)
    expect(to_check).to_contain_text("Lucky Jack, April 12, 2025: Mum, Leon")
    expect(to_check).to_contain_text("The places in the file do not follow its scores.")
    people = card(page).locator("ul.people")
    expect(people).to_contain_text("Mum: already here.")
    expect(people).to_contain_text("Anonymous: kept in the plays, never rated.")
    expect(people.get_by_label("Anonymous is")).to_have_count(0)
    # Leo looks like Leon: offered as him, and the numbers shown are those of Leo as Leon.
    leo = people.get_by_label("Leo is", exact=True)
    expect(leo).to_have_value("Leon")
    expect(people.get_by_label("Dad is", exact=True)).to_have_value("")
    expect(leo.locator("option")).to_have_text(["a new player", "Leon", "Mum"])
    # Nothing was written by the preview.
    assert boards(key) == before
    assert api("GET", "/v1/matches?limit=100", household=key)["total"] == matches_before
    check(page, "import-preview")
    big_text(page)
    page.wait_for_timeout(100)
    assert page_width(page) <= 390, page_width(page)

    # Another choice asks again, with the file as it would then be sent.
    with page.expect_request(lambda request: "dry_run=true" in request.url) as asked:
        leo.select_option(label="a new player")
    sent = {player["id"]: player["name"] for player in asked.value.post_data_json["players"]}
    assert sent == {1: "Mum", 2: "Leo", 3: "Dad", 9: "Anonymous"}, sent
    expect(to_check).to_contain_text("Lucky Jack, April 12, 2025: Mum, Leo")
    expect(card(page).get_by_role("status")).to_contain_text("Leo counted as a new player")
    with page.expect_request(lambda request: "dry_run=true" in request.url) as asked:
        leo.select_option(label="Leon")
    sent = {player["id"]: player["name"] for player in asked.value.post_data_json["players"]}
    assert sent == {1: "Mum", 2: "Leon", 3: "Dad", 9: "Anonymous"}, sent
    expect(to_check).to_contain_text("Lucky Jack, April 12, 2025: Mum, Leon")
    expect(card(page).get_by_role("status")).to_contain_text("Leo counted as Leon: 3 plays would be added.")
    assert boards(key) == before

    # Brought in: what came in, each added play a link; Leon's record is read again.
    with page.expect_request(lambda request: request.url.endswith("/v1/imports/bgstats")) as brought:
        card(page).get_by_role("button", name="Bring them in").click()
    assert "Leon" in [player["name"] for player in brought.value.post_data_json["players"]]
    expect(report.get_by_role("heading", name="What came in")).to_be_visible()
    expect(counts).to_contain_text("3 plays added.")
    added = report.get_by_role("region", name="Added").get_by_role("link")
    expect(added).to_have_count(3)
    expect(added.first).to_have_text("Lucky Jack, April 5, 2025: Mum, Leon, Anonymous")
    expect(card(page).get_by_role("button", name="Bring them in")).to_be_hidden()
    expect(people).to_have_count(0)
    # Leon's record, read again: the plays brought in are among his latest games.
    expect(record.get_by_role("link", name="Plus & Minus: Dad, Leon, Mum", exact=True)).to_be_visible()
    expect(record.get_by_role("link", name="Lucky Jack: Mum, Leon", exact=True)).to_have_count(2)
    expect(record.get_by_role("link", name="Lucky Jack: Mum, Leon, Anonymous", exact=True)).to_have_count(1)
    check(page, "import-done")

    # Leo is Leon on the boards; the anonymous player is on none, by wins or by rating.
    after = boards(key)
    assert after["lucky-jack"] == {"Mum": 3, "Leon": 3}, after
    assert after["plus-minus"] == {"Dad": 1, "Leon": 1, "Mum": 1}, after
    assert not any("Leo" in board or "Anonymous" in board for board in after.values()), after
    rated = rating_boards(key)
    assert "Anonymous" not in rated and "Leo" not in rated and "Leon" in rated, rated

    # An added play opens as its result, the anonymous player at the table.
    added.first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Mum, Leon, Anonymous")
    expect(page.locator("p.status")).to_contain_text("Game over: Mum wins.")

    # The same file again: Leo is offered as Leon again, so everything is here already.
    page.goto(BASE + "/#look")
    page.get_by_text(CARD).click()
    picker.set_input_files(as_upload(bgstats_file()))
    expect(counts).to_contain_text("3 plays are here already.")
    expect(counts).to_contain_text("0 plays would be added.")
    expect(counts).not_to_contain_text("other players or scores")
    expect(people.get_by_label("Leo is", exact=True)).to_have_value("Leon")
    expect(people).to_contain_text("Mum: already here.")
    expect(card(page).get_by_text("Nothing new to bring in.")).to_be_visible()
    expect(card(page).get_by_role("button", name="Bring them in")).to_be_hidden()
    # As a new player, Leo's plays differ from those here: they would stay as they are.
    people.get_by_label("Leo is", exact=True).select_option(label="a new player")
    expect(counts).to_contain_text("3 plays are here already with other players or scores")
    expect(report.get_by_role("region", name="Here with other players or scores").locator("li")).to_have_count(3)
    check(page, "import-again")
    page.context.close()


STEPS = [
    names_look_alike_and_the_card_reads_in_dark_mode,
    plays_from_bg_stats_are_previewed_matched_to_known_players_and_brought_in,
]
