"""The family's evening, second pass (issue 41, items 1-3): a play brought in from BG Stats opens
as its result, a Luck Plus round asks only what its scoring counts and long round forms fold each
player's cards away, and a sheet reloaded offline still shows what this phone last knew of it."""

from playwright.sync_api import Page, expect

import page_kit
from page_kit import (
    BASE, api, check, household_key, new_phone, standings_row, start_sheet, wait_until,
)

FAMILY = ["Mum", "Dad", "Zoé"]
# One play of each game, as BG Stats writes it: its title, the family's scores, and who won.
PLAYS = [
    ("lucky-jack", "Lucky Jack", [9000, 2000, 500], 0),
    ("lucky-dice", "Lucky Dice", [1, 3, 2], 1),
    ("luck-plus", "Luck Plus", [2, 3, 5], 2),
    ("plus-minus", "Plus & Minus", [35, -5, -15], 0),
    ("lucky-luau", "Lucky Luau", [15, 34, 20], 1),
]
OFFLINE = "Failed to load resource: net::ERR_INTERNET_DISCONNECTED"


def bgstats_file() -> dict:
    """A BG Stats export of one evening's five plays (ranks and winners as BG Stats marks them)."""
    plays = []
    for index, (_, title, scores, winner) in enumerate(PLAYS):
        order = sorted(range(len(scores)), key=lambda seat: -scores[seat])
        plays.append({
            "uuid": f"41A1B2C3-0000-4000-8000-00000000000{index}",
            "gameRefId": 10 + index,
            "playDate": f"2025-03-0{index + 1} 20:00:00",
            "playerScores": [
                {"playerRefId": seat + 1, "score": str(score), "rank": order.index(seat) + 1, "winner": seat == winner}
                for seat, score in enumerate(scores)
            ],
        })
    return {
        "players": [{"id": seat + 1, "name": name} for seat, name in enumerate(FAMILY)],
        "games": [{"id": 10 + index, "name": title, "highestWins": True} for index, (_, title, _, _) in enumerate(PLAYS)],
        "plays": plays,
    }


def an_imported_play_shows_its_result_players_and_scores(browser) -> None:
    """Every play brought in from BG Stats opens as its result: players, scores, the winner and
    where it came from, with no error and no empty rounds."""
    made = api("POST", "/v1/households", {"name": "The Imports"})
    report = api("POST", "/v1/imports/bgstats", bgstats_file(), household=made["owner_key"])
    ids = [play["id"] for play in report["plays"]]
    assert len(ids) == len(PLAYS) and all(ids), report
    phone = new_phone(browser, "imported")
    for index, ((slug, title, scores, winner), sheet_id) in enumerate(zip(PLAYS, ids)):
        link = f"{BASE}/#sheet={sheet_id}"
        if index == 0:
            # The family's follow-only code, as the table's share link carries it.
            link += f"&household={made['household']['id']}&key={made['reader_key']}"
        phone.goto(link)
        expect(phone.get_by_role("heading", level=1)).to_have_text(f"{title}: {', '.join(FAMILY)}")
        expect(phone.locator("p.status")).to_contain_text(f"Game over: {FAMILY[winner]} wins.")
        for seat, name in enumerate(FAMILY):
            expect(standings_row(phone, name)).to_contain_text(f"{scores[seat]:,}")
        expect(standings_row(phone, FAMILY[winner])).to_contain_text("winner")
        rounds = phone.get_by_role("region", name="Rounds")
        expect(rounds).to_contain_text("brought in from BG Stats: only the final scores came with it")
        expect(rounds).to_contain_text("Played on March")
        expect(rounds).not_to_contain_text("No rounds yet")
        expect(phone.locator("ol.entries")).to_contain_text("#1: brought in from BG Stats, with the final scores")
        expect(phone.get_by_role("alert")).to_have_count(0)
        expect(phone.locator("main")).not_to_contain_text("Cannot read")
        # A play of another day is no evening of this one.
        expect(phone.get_by_role("region", name="This evening")).to_have_count(0)
        if slug in ("lucky-luau", "lucky-jack"):
            check(phone, f"imported-{slug}")
    phone.context.close()


class Taps:
    """Counts the taps a walk makes, as a family's fingers would."""

    def __init__(self):
        self.count = 0

    def click(self, locator) -> None:
        locator.click()
        self.count += 1

    def check(self, locator) -> None:
        locator.check()
        self.count += 1


def heights(page: Page) -> dict:
    return page.evaluate(
        """() => ({ page: document.documentElement.scrollHeight,
                    form: Math.round(document.querySelector('form.entry').getBoundingClientRect().height) })"""
    )


def seat(page: Page, name: str):
    return page.locator("fieldset.seat").filter(has=page.locator("legend", has_text=name))


def a_luck_plus_round_scored_by_hands_won_asks_only_who_went_out(browser) -> None:
    """Scored by hands won (the default), a hand is who went out: one tap and the save."""
    page = new_phone(browser, "hands-won")
    players = ["Ann", "Ben", "Cleo", "Dan"]
    sheet_id = start_sheet(page, "Luck Plus (2–8 players)", players)
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    measured = heights(page)
    print(f"  Luck Plus hands won, 4 players: round form {measured['form']} px, page {measured['page']} px", flush=True)
    expect(page.locator("form.entry")).to_contain_text("Scored by hands won: tick who went out")
    # No card is asked for: the scoring does not count them.
    expect(page.get_by_role("group", name="Cards left in hand", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="Tap Ben’s cards")).to_have_count(0)
    check(page, "luck-plus-hands-won-entry")

    taps = Taps()
    taps.check(seat(page, "Cleo").get_by_label("Went out"))
    taps.click(page.get_by_role("button", name="Save the round"))
    print(f"  Luck Plus hands won, 4 players: {taps.count} taps for a round", flush=True)
    assert taps.count <= 2, taps.count
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    expect(standings_row(page, "Cleo")).to_contain_text("1")
    expect(page.locator("ol.rounds")).to_contain_text("Cleo went out.")
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    entry = api("GET", f"/v1/sheets/{sheet_id}", household=household_key(page))["entries"][0]
    assert entry["tally"] == {"out": [{"seat": 2, "luck_out": False}], "cards_left": [[], [], [], []]}, entry
    check(page, "luck-plus-hands-won-sheet")
    page.context.close()


def a_luck_plus_round_scored_by_points_offers_one_players_cards_at_a_time(browser) -> None:
    """Scored by points, each player left in counts their cards: one player's cards are offered
    at a time, behind a button, and the others say in a line what was tapped."""
    page = new_phone(browser, "points-won")
    players = ["Ann", "Ben", "Cleo", "Dan"]
    start_sheet(page, "Luck Plus (2–8 players)", players, {"How to score": "Points won from the others"})
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    measured = heights(page)
    print(f"  Luck Plus points, 4 players, all folded: round form {measured['form']} px, page {measured['page']} px", flush=True)
    for name in players:
        expect(seat(page, name).get_by_role("group", name="Cards left in hand", exact=True)).to_be_hidden()
    check(page, "luck-plus-points-folded")

    seat(page, "Ann").get_by_label("Went out").check()
    expect(page.get_by_role("button", name="Tap Ann’s cards")).to_be_hidden()
    ben, cleo, dan = seat(page, "Ben"), seat(page, "Cleo"), seat(page, "Dan")
    ben.get_by_role("button", name="Tap Ben’s cards").click()
    expect(ben.get_by_role("button", name="Tap Ben’s cards")).to_have_attribute("aria-expanded", "true")
    ben.get_by_role("button", name="Add Go 3", exact=True).click()
    ben.get_by_role("button", name="Add Luck Plus", exact=True).click()
    measured = heights(page)
    print(f"  Luck Plus points, 4 players, one open: round form {measured['form']} px, page {measured['page']} px", flush=True)
    check(page, "luck-plus-points-one-open")
    # Opening Cleo's folds Ben's away: his line says what was tapped.
    cleo.get_by_role("button", name="Tap Cleo’s cards").click()
    expect(ben.get_by_role("group", name="Cards left in hand", exact=True)).to_be_hidden()
    expect(ben.locator("p.folded")).to_have_text("Cards left: Go 3, Luck Plus")
    cleo.get_by_role("button", name="Add Doubles", exact=True).click()
    dan.get_by_role("button", name="Tap Dan’s cards").click()
    dan.get_by_role("button", name="Add Stop 12", exact=True).click()
    page.get_by_role("button", name="Save the round").click()
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    expect(page.locator("ol.rounds")).to_contain_text("Ann went out. Cards left worth: Ben 28 points, Cleo 15 points, Dan 12 points")
    expect(standings_row(page, "Ann")).to_contain_text("55")
    # The form is empty again, every player folded.
    expect(ben.locator("p.folded")).to_have_text("No cards tapped yet.")
    page.context.close()


def a_plus_and_minus_round_shows_one_players_cards_at_a_time(browser) -> None:
    """Six players' three stacks each: the first player's cards are offered, the others folded
    with a line of what they hold; one tap opens the next player's."""
    page = new_phone(browser, "plus-minus-folded")
    players = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    sheet_id = start_sheet(page, "Plus & Minus (3–6 players)", players)
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    measured = heights(page)
    print(f"  Plus & Minus, 6 players: round form {measured['form']} px, page {measured['page']} px", flush=True)
    ann, ben = seat(page, "Ann"), seat(page, "Ben")
    expect(ann.get_by_role("group", name="Plus stack", exact=True)).to_be_visible()
    expect(ben.get_by_role("group", name="Plus stack", exact=True)).to_be_hidden()
    expect(ben.locator("p.folded")).to_have_text("No cards tapped yet.")
    check(page, "plus-minus-folded")

    ann.get_by_role("group", name="Plus stack", exact=True).get_by_role("button", name="Add King", exact=True).click()
    ann.get_by_role("group", name="Minus stack", exact=True).get_by_role("button", name="Add Five", exact=True).click()
    ben.get_by_role("button", name="Tap Ben’s cards").click()
    expect(ann.get_by_role("group", name="Plus stack", exact=True)).to_be_hidden()
    expect(ann.locator("p.folded")).to_have_text("Plus stack: King · Minus stack: Five")
    expect(ann.get_by_role("button", name="Tap Ann’s cards")).to_have_attribute("aria-expanded", "false")
    ben.get_by_role("group", name="Plus stack", exact=True).get_by_role("button", name="Add Two", exact=True).click()
    page.get_by_role("button", name="Save the round").click()
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    tally = api("GET", f"/v1/sheets/{sheet_id}", household=household_key(page))["entries"][0]["tally"]
    assert tally["players"][0] == {"plus": ["K"], "minus": ["5"], "hand": []}, tally
    assert tally["players"][1] == {"plus": ["2"], "minus": [], "hand": []}, tally
    # The next round starts with the first player's cards offered again.
    expect(ann.get_by_role("group", name="Plus stack", exact=True)).to_be_visible()
    page.context.close()


def page_files_kept(page: Page) -> None:
    """Waits until the service worker keeps every page file this visit loaded."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    wait_until(lambda: page.evaluate(
        """async () => {
            const names = await caches.keys();
            if (!names.length) return false;
            const cache = await caches.open(names[0]);
            const kept = new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
            const loaded = performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname)
                .filter((path) => path.startsWith('/app/'));
            return kept.has('/') && loaded.every((path) => kept.has(path));
        }"""
    ))


def a_sheet_reloaded_offline_shows_what_this_phone_last_knew(browser) -> None:
    """Offline, a reload shows the standings, the rounds and the rounds waiting to be sent, with
    the form for the next one; back online, the waiting round is sent once."""
    page = new_phone(browser, "offline-reload")
    sheet_id = start_sheet(page, "Lucky Jack (2–6 players)", FAMILY)
    key = household_key(page)
    page.get_by_label("Jackpot winner").select_option(label="Zoé")
    page.get_by_label("Symbol").select_option("jack")
    page.get_by_label("Cards laid down").select_option("4")
    page.get_by_role("button", name="Save the round").click()
    expect(standings_row(page, "Zoé")).to_contain_text("10,000")
    page_files_kept(page)

    page.context.set_offline(True)
    page.get_by_label("Jackpot winner").select_option(label="Mum")
    page.get_by_label("Symbol").select_option("bell")
    page.get_by_label("Cards laid down").select_option("3")
    page.get_by_role("button", name="Save the round").click()
    pending = page.get_by_role("region", name="Waiting to send")
    expect(pending).to_contain_text("Round 2: Mum: jackpot of 3 × Bell")

    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Mum, Dad, Zoé")
    expect(page.get_by_role("alert")).to_contain_text("as this phone last saw it")
    expect(standings_row(page, "Zoé")).to_contain_text("10,000")
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    expect(pending).to_contain_text("Round 2: Mum: jackpot of 3 × Bell")
    expect(page.get_by_role("heading", name="Round 3", exact=True)).to_be_visible()
    check(page, "offline-reload")
    # The home screen still lists the sheet, by its game's name.
    page.goto(BASE + "/#")
    expect(page.get_by_role("link", name="Lucky Jack: Mum, Dad, Zoé")).to_be_visible()
    page.goto(f"{BASE}/#sheet={sheet_id}")
    expect(pending).to_contain_text("Round 2")

    page.context.set_offline(False)
    expect(pending).to_have_count(0)
    expect(page.locator("ol.rounds > li")).to_have_count(2)
    expect(page.get_by_role("alert")).to_have_count(0)
    stored = api("GET", f"/v1/sheets/{sheet_id}", household=key)
    expect(standings_row(page, "Mum")).to_contain_text(f"{stored['standings']['totals'][0]:,}")
    rounds = [entry for entry in stored["entries"] if entry["kind"] == "round"]
    assert [entry["tally"]["jackpot"]["seat"] for entry in rounds] == [2, 0], rounds
    page.context.close()
    # Chromium logs each read the page tried while this phone was offline: expected, and only those.
    page_kit.page_errors[:] = [error for error in page_kit.page_errors if error != f"offline-reload: console: {OFFLINE}"]


STEPS = [
    an_imported_play_shows_its_result_players_and_scores,
    a_luck_plus_round_scored_by_hands_won_asks_only_who_went_out,
    a_luck_plus_round_scored_by_points_offers_one_players_cards_at_a_time,
    a_plus_and_minus_round_shows_one_players_cards_at_a_time,
    a_sheet_reloaded_offline_shows_what_this_phone_last_knew,
]
