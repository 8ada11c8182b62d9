"""The family's evening, second pass (issue 41), on the page's own screens: a rating below 0 that
the words around it explain, a chart with its days and its points in words, tables that fit a
phone at 200 % text or show that they scroll, and a short Lucky Jack match hosted and played from
four phones in few taps. Each step is a sentence of what the family sees."""

import re

from playwright.sync_api import Page, expect

from page_kit import BASE, PATIENCE, api, big_text, check, household_key, new_phone, page_width, start_sheet, wait_until
from page_ratings import finished_sheet
from page_table import host_form

PHONE = 390
# Two players no other walk uses: Otto wins the one Lucky Dice coaster, Odile comes second.
WINNER, SECOND = "Otto", "Odile"
_played = False


def otto_beats_odile() -> None:
    """Their one Lucky Dice evening, once per run (each step may also run alone)."""
    global _played
    if not _played:
        finished_sheet([SECOND, WINNER], WINNER)
        _played = True


def shown(value: float) -> str:
    """A rating as the page shows it (web/ratings.js formatRating)."""
    rounded = round(value * 10) / 10
    return f"{0.0 if rounded == 0 else rounded:.1f}"


def a_rating_below_zero_is_explained_and_its_chart_has_days(browser) -> None:
    """Odile's -1.0 after one second place sits under words that say why it can be below 0; the
    chart says the day, and each result is a row a finger can open and read."""
    otto_beats_odile()
    [dice] = [game for game in api("GET", f"/v1/players/{SECOND}/ratings")["games"] if game["game"] == "lucky-dice"]
    assert dice["rating"]["rating"] < 0, dice
    [result] = api("GET", f"/v1/players/{SECOND}/ratings/lucky-dice")["items"]

    page = new_phone(browser, "rating-below-zero")
    page.goto(f"{BASE}/#player={SECOND}")
    expect(page.get_by_role("heading", name=f"{SECOND}’s record")).to_be_visible()
    ratings = page.get_by_role("region", name="Skill ratings")
    item = ratings.locator("ul.ratings > li").filter(has=page.get_by_role("heading", name="Lucky Dice", exact=True))
    expect(item.locator("dl.record")).to_contain_text(shown(dice["rating"]["rating"]))

    # The words above never contradict the number: a rating can dip below 0.
    meaning = ratings.locator("p.hint").first
    expect(meaning).not_to_contain_text("starts at 0 and grows")
    expect(meaning).to_contain_text("below 0")
    # And beside it, what this one means.
    expect(item).to_contain_text("A first guess from 1 result: below the 0.0 everyone starts at; good places will raise it.")

    # The chart carries the day (one evening: "Start" on the left, its day on the right).
    day = page.evaluate("iso => new Date(iso).toLocaleDateString(undefined, {day: 'numeric', month: 'short', year: 'numeric'})", result["finished_at"])
    chart = item.get_by_role("img")
    expect(chart).to_have_attribute("aria-label", re.compile(re.escape(day)))
    expect(chart.locator("text.label")).to_contain_text(["Start", day])

    # Its points in words: one tap opens them, a row per result with its day.
    points = item.locator("details.rating-points")
    summary = points.locator("summary")
    expect(summary).to_have_text("Each result, day by day (1)")
    assert summary.bounding_box()["height"] >= 44, summary.bounding_box()
    summary.click()
    row = points.locator("li")
    expect(row).to_have_count(1)
    expect(row).to_have_text(f"{day}: 2nd of 2, rating 0.0 to {shown(result['after']['rating'])}")
    expect(row.get_by_role("link", name=day)).to_have_attribute("href", f"#sheet={result['match_id']}")
    check(page, "evening-rating-below-zero")
    page.context.close()


def a_wide_table_shows_it_scrolls_and_the_rating_board_fits(browser) -> None:
    """At a phone's width the rating leaderboard shows every column, "Won" included; a table that
    is wider than the phone shows a shadow on the side it goes on."""
    otto_beats_odile()
    page = new_phone(browser, "wide-tables")
    page.goto(f"{BASE}/#board=lucky-dice&order=rating")
    expect(page.get_by_role("heading", name="Lucky Dice leaderboard by rating")).to_be_visible()
    board = page.get_by_role("region", name=re.compile("^Rating leaderboard table"))
    won = board.get_by_role("columnheader", name="Won")
    edge = board.bounding_box()
    cell = won.bounding_box()
    assert cell["x"] + cell["width"] <= edge["x"] + edge["width"] + 0.5, f"Won is cut: {cell} in {edge}"
    assert board.evaluate("box => box.scrollWidth <= box.clientWidth"), "the rating board scrolls at a phone's width"
    check(page, "evening-rating-board")

    # At 200 % text it cannot fit: it scrolls inside its box, and the shadow on the right says so.
    big_text(page)
    assert board.evaluate("box => box.scrollWidth > box.clientWidth"), "the board fits even at 200 % text"
    shadow = board.evaluate("box => getComputedStyle(box).backgroundImage")
    assert "radial-gradient" in shadow, f"a table that scrolls shows nothing of it: {shadow}"
    assert page_width(page) <= PHONE, page_width(page)
    check(page, "evening-rating-board-big-text")
    page.context.close()


def every_screen_fits_a_phone_at_200_percent_text(browser) -> None:
    """At 200 % text, no screen of looking back, hosting or playing a match is wider than the
    phone: what cannot fit wraps, or scrolls inside its own box."""
    otto_beats_odile()
    page = new_phone(browser, "big-text")
    widths: dict[str, int] = {}

    def keep(name: str) -> None:
        widths[name] = page_width(page)
        print(f"at 200 % text, {name}: {widths[name]} px", flush=True)

    def measure(name: str, address: str, ready) -> None:
        page.goto(f"{BASE}/#{address}")
        big_text(page)
        expect(ready()).to_be_visible()
        # Layout settles after the text grows.
        page.wait_for_timeout(100)
        keep(name)

    measure("look back", "look", lambda: page.get_by_role("heading", name="Look back"))
    measure("a player's record", f"player={SECOND}", lambda: page.get_by_role("heading", name=f"{SECOND}’s record"))
    measure("the leaderboard by wins", "board=lucky-dice", lambda: page.get_by_role("heading", name="Lucky Dice leaderboard"))
    measure("the leaderboard by rating", "board=lucky-dice&order=rating", lambda: page.get_by_role("heading", name="Lucky Dice leaderboard by rating"))
    measure("head to head", f"look&versus={SECOND}&opponent={WINNER}", lambda: page.get_by_role("heading", name=f"{SECOND} against {WINNER}"))
    measure("watch", "watch", lambda: page.get_by_role("heading", name="Watch a match"))
    measure("the host's form", "host", lambda: page.get_by_role("button", name="Host the match"))

    # A match hosted from this phone: its invites, then its table as Ann's seat.
    page.get_by_label("Game", exact=True).select_option("lucky-jack")
    for index, name in enumerate(["Ann", "Ben"]):
        page.get_by_role("textbox", name=f"Player {index + 1}", exact=True).fill(name)
    page.get_by_role("button", name="Host the match").click()
    expect(page.get_by_role("button", name="Play Ann’s seat on this phone")).to_be_visible()
    page.wait_for_timeout(100)
    keep("a match's invites")
    check(page, "evening-invites-big-text")
    page.get_by_role("button", name="Play Ann’s seat on this phone").click()
    expect(page.get_by_role("heading", name="Your moves, Ann")).to_be_visible()
    page.wait_for_timeout(100)
    keep("a match's table")
    check(page, "evening-match-big-text")

    sheet = new_phone(browser, "big-text-sheet")
    start_sheet(sheet, "Lucky Jack (2–6 players)", ["Mum", "Dad", "Zoé"])
    big_text(sheet)
    sheet.wait_for_timeout(100)
    width = page_width(sheet)
    print(f"at 200 % text, a Lucky Jack sheet: {width} px", flush=True)
    assert width <= 390, f"a Lucky Jack sheet at 200 % text is {width} px wide"
    check(sheet, "evening-sheet-big-text")
    sheet.context.close()

    wide = {name: width for name, width in widths.items() if width > PHONE}
    assert not wide, f"wider than a {PHONE} px phone at 200 % text: {wide}"
    page.goto(f"{BASE}/#player={SECOND}")
    big_text(page)
    expect(page.get_by_role("heading", name=f"{SECOND}’s record")).to_be_visible()
    check(page, "evening-record-big-text")
    page.context.close()


class Taps:
    """Counts what a family's fingers do: a tap is a tap, a list to choose from two (open, pick),
    a name typed one (the tap into its box), a code scanned one."""

    def __init__(self):
        self.count = 0

    def tap(self, target) -> None:
        target.click()
        self.count += 1

    def choose(self, select, value: str) -> None:
        select.select_option(value)
        self.count += 2

    def type(self, box, text: str) -> None:
        box.fill(text)
        self.count += 1

    def scan(self, phone: Page, address: str) -> None:
        phone.goto(address)
        self.count += 1


# A family of four, and a short match: 12 turns a round, 3 rounds.
FAMILY = ["Mum", "Dad", "Zoé", "Leo"]
TURNS_PER_ROUND = "12"


def a_short_lucky_jack_match_asks_only_before_its_end(browser) -> None:
    """Mum hosts Lucky Jack from her phone and plays Mum's seat; Dad, Zoé and Leo scan their
    codes. Every turn is "Draw a card", then "Discard the drawn card": the page says once that
    these cannot be taken back, and asks only before the move that ends the game. The taps are
    counted: at most 60 % of what asking before every final move took."""
    taps = Taps()
    host = new_phone(browser, "host-Mum")
    host.goto(f"{BASE}/#watch")
    taps.tap(host.get_by_role("link", name="Host a match"))
    taps.choose(host.get_by_label("Game", exact=True), "lucky-jack")
    while host.locator("ol.players input").count() < len(FAMILY):
        taps.tap(host.get_by_role("button", name="Add a player"))
    for index, name in enumerate(FAMILY):
        taps.type(host.get_by_role("textbox", name=f"Player {index + 1}", exact=True), name)
    turns = host.locator("[name=max_turns_per_round]")
    if not turns.is_visible():
        taps.tap(host.locator("details", has=turns).locator("summary").first)
    taps.type(turns, TURNS_PER_ROUND)
    taps.tap(host.get_by_role("button", name="Host the match"))
    expect(host.get_by_role("heading", level=1)).to_have_text(f"Lucky Jack: {', '.join(FAMILY)}")
    match_id = host.url.split("#host=", 1)[1]
    key = household_key(host)
    codes = {name: host.locator("li.invite-card").filter(has=host.get_by_role("heading", name=name, exact=True)).locator(".code").inner_text().strip()
             for name in FAMILY[1:]}
    taps.tap(host.get_by_role("button", name=f"Play {FAMILY[0]}’s seat on this phone"))
    expect(host.get_by_role("heading", name=f"Your moves, {FAMILY[0]}")).to_be_visible()
    phones = {FAMILY[0]: host}
    for name in FAMILY[1:]:
        phone = new_phone(browser, f"phone-{name}")
        taps.scan(phone, f"{BASE}/#invite={codes[name]}")
        taps.tap(phone.get_by_role("button", name=f"Take {name}’s seat"))
        expect(phone.get_by_role("heading", name=f"Your moves, {name}")).to_be_visible()
        phones[name] = phone
    to_host = taps.count

    def state():
        return api("GET", f"/v1/matches/{match_id}", household=key)

    moves = finals = asked = 0
    asked_before_the_end: list[str] = []
    seen_note = False
    for _ in range(400):
        current = state()
        if current["status"] != "in_progress":
            break
        name = FAMILY[current["to_act"][0]]
        phone = phones[name]
        turn = phone.locator("p.turn")
        expect(turn).to_have_attribute("data-version", str(current["version"]))
        expect(turn).to_have_text(re.compile(f"^Your turn, {name}"))
        cards = phone.locator("#moves button.move-card")
        expect(cards.first).to_be_visible()
        types = [cards.nth(index).get_attribute("data-move-type") for index in range(cards.count())]
        wanted = next((kind for kind in ("discard_drawn", "draw", "keep", "discard") if kind in types), types[0])
        button = phone.locator(f"#moves [data-move-type={wanted}]").first
        final = "final" in (button.get_attribute("class") or "")
        if final and not seen_note:
            # Said once, above the moves: never a question before each of them.
            seen_note = "cannot be taken back" in " ".join(phone.locator("#moves-title ~ p.moves-note").all_inner_texts())
            if seen_note:
                check(phone, "evening-moves-said-once")
        before = current["version"]
        taps.tap(button)
        dialog = phone.get_by_role("dialog")
        answered = lambda: dialog.count() > 0 or state()["version"] > before  # noqa: E731
        try:
            wait_until(answered, timeout=PATIENCE / 2)
        except AssertionError:
            # As a player would: a move the page could not send (the service busy on a loaded
            # machine) is said on the page, and tapped again.
            said = " ".join(phone.get_by_role("alert").all_inner_texts())
            print(f"  {name}'s {wanted} not answered; the page says {said!r}: tapped again", flush=True)
            taps.tap(button)
            wait_until(answered, timeout=PATIENCE)
        if dialog.count():
            asked += 1
            if asked == 1:
                check(phone, "evening-end-the-game")
            yes = dialog.get_by_role("button", name=re.compile("^Yes"))
            taps.tap(yes)
            moved = lambda: state()["version"] > before  # noqa: E731
            try:
                wait_until(moved, timeout=PATIENCE / 2)
            except AssertionError:
                # As above: a "Yes" the page did not take (its dialog still open) is tapped again.
                # A closed dialog means the move is on its way, and it is waited for. What the
                # page says is printed, so a lost tap shows apart from a move never answered.
                said = " ".join(phone.get_by_role("alert").all_inner_texts())
                still_asking = dialog.count() > 0
                print(f"  {name}'s confirmed {wanted} not answered; the page says {said!r}; "
                      f"{'tapped again' if still_asking else 'waiting on'}", flush=True)
                if still_asking:
                    taps.tap(yes)
                wait_until(moved, timeout=PATIENCE)
            if state()["status"] == "in_progress":
                asked_before_the_end.append(f"{name}'s {wanted}")
        moves += 1
        finals += final
    finished = state()
    assert finished["status"] == "finished", finished["status"]
    for phone in phones.values():
        expect(phone.locator("p.turn")).to_contain_text("The match is over")
    check(host, "evening-match-over")
    # Asking before every final move (the page before issue 41) took one more tap each.
    asking_every_time = taps.count + (finals - asked)
    print(f"taps to host and play one short Lucky Jack match: {taps.count} ({to_host} to host and seat four phones, "
          f"{moves} moves, {finals} of them final, {asked} asked); asking before every final move: {asking_every_time}", flush=True)
    assert seen_note, "nothing above the moves says that they cannot be taken back"
    assert not asked_before_the_end, f"asked before moves that do not end the game: {asked_before_the_end}"
    assert asked == 1, f"the move that ends the game asked {asked} times"
    assert taps.count <= 0.6 * asking_every_time, (taps.count, asking_every_time)
    for phone in phones.values():
        phone.context.close()


def who_deals_first_offers_only_the_players_at_the_table(browser) -> None:
    """Issue 41, item 11: "Who deals first" offered Player 5 and 6 in a 4-player match. It offers
    the players at the table, by name, and follows the list as players are added or removed."""
    host = new_phone(browser, "who-deals-first")
    host_form(host, ["Mum", "Dad", "Zoé", "Kit"])
    dealer = host.get_by_label("Who deals first", exact=True)
    if not dealer.is_visible():
        host.locator("details", has=dealer).locator("summary").first.click()
    expect(dealer.locator("option")).to_have_text(["Mum", "Dad", "Zoé", "Kit"])
    dealer.select_option(label="Kit")
    host.get_by_role("button", name="Remove player 4").click()
    expect(dealer.locator("option")).to_have_text(["Mum", "Dad", "Zoé"])
    check(host, "host-who-deals-first")
    host.context.close()


STEPS = [
    who_deals_first_offers_only_the_players_at_the_table,
    a_rating_below_zero_is_explained_and_its_chart_has_days,
    a_wide_table_shows_it_scrolls_and_the_rating_board_fits,
    every_screen_fits_a_phone_at_200_percent_text,
    a_short_lucky_jack_match_asks_only_before_its_end,
]
