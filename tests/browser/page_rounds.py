"""Entering a round in each game's own terms, by tapping card pictures, and what the page does with
a refused one: the message sits next to the player's picker the refusal is about."""

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, household_key, new_phone, standings_row, start_sheet


def seat(page: Page, name: str):
    """A player's part of the round form (their fieldset, legend = their name)."""
    return page.locator("fieldset.seat").filter(has=page.locator("legend", has_text=name))


def picker(scope, label: str):
    return scope.get_by_role("group", name=label, exact=True)


def tap(scope, *labels: str) -> None:
    """Taps the pictures of these cards, in order, in a picker."""
    for label in labels:
        scope.get_by_role("button", name=f"Add {label}", exact=True).click()


def type_cards(scope, text: str) -> None:
    scope.get_by_text("Type instead").click()
    scope.get_by_label("Or type them").fill(text)
    scope.get_by_role("button", name="Add", exact=True).click()


def expect_refused_at(page: Page, control) -> None:
    """A refusal shown next to `control`: marked invalid, its message visible beside it."""
    expect(control).to_have_attribute("aria-invalid", "true")
    error = page.locator(f"#{control.get_attribute('id')}-error")
    expect(error).to_be_visible()
    expect(error).not_to_be_empty()


def entries(sheet_id: str, page: Page):
    """The sheet's standing entries, read in the household of the phone `page` that made it."""
    return [entry for entry in api("GET", f"/v1/sheets/{sheet_id}", household=household_key(page))["entries"] if not entry.get("superseded_by")]


def card_gallery(browser) -> None:
    """Every game's cards and the dice, as the pictures the pickers and tables show."""
    page = new_phone(browser, "gallery")
    page.goto(BASE + "/#")
    expect(page.get_by_role("button", name="Start the sheet")).to_be_visible()
    page.evaluate(
        """async () => {
            const cards = await import('/app/cards.js');
            const { h } = await import('/app/dom.js');
            const games = [
                ['lucky-jack', 'Lucky Jack', cards.JACK_SYMBOLS],
                ['luck-plus', 'Luck Plus', cards.LUCK_PLUS_CARDS],
                ['plus-minus', 'Plus & Minus', cards.RANKS],
                ['lucky-luau', 'Lucky Luau', [...cards.LUAU_CARDS, 'rainbow:blue', 'cut:yellow']],
                ['lucky-dice', 'Lucky Dice', cards.DICE_SYMBOLS],
            ];
            const main = document.getElementById('main');
            main.replaceChildren(h('h1', { tabindex: -1 }, 'Cards'),
                ...games.map(([game, title, list]) => h('section', { class: 'card' }, h('h2', {}, title),
                    h('div', { class: 'jackpot-picture' }, list.map((card) => cards.cardFace(game, card))))),
                h('section', { class: 'card' }, h('h2', {}, 'Dice'),
                    h('div', { class: 'jackpot-picture' }, [1, 2, 3, 4, 5, 6, 'pig', 'hamsa'].map((value) => cards.dieFace(value)),
                        cards.cardFace('lucky-dice', { left: 'pig', right: 'clover' })),
                    cards.cardPicker({ game: 'luck-plus', cards: [1, 2, 3, 4, 5, 6], label: 'The roll', max: 2, typing: false }).element));
        }"""
    )
    expect(page.get_by_role("img", name="Transfer Plus 2", exact=True)).to_be_visible()
    expect(page.get_by_role("img", name="Ace", exact=True)).to_be_visible()
    expect(page.get_by_role("img", name="Rainbow Flower as Blue", exact=True)).to_be_visible()
    expect(page.get_by_role("img", name="Die showing 5", exact=True).first).to_be_visible()
    # A roll of two dice, tapped: a face may come twice; two dice and no more.
    roll = page.get_by_role("group", name="The roll", exact=True)
    roll.get_by_role("button", name="Add Die showing 6", exact=True).click()
    roll.get_by_role("button", name="Add Die showing 6", exact=True).click()
    expect(roll.get_by_role("button", name="Remove Die showing 6", exact=True)).to_have_count(2)
    expect(roll.get_by_role("button", name="Add Die showing 1", exact=True)).to_be_disabled()
    check(page, "cards-gallery")
    page.context.close()


def luck_plus_round(browser) -> None:
    page = new_phone(browser, "luck-plus")
    # Scored by points, the cards left count (scored by hands won, only who went out is asked).
    sheet_id = start_sheet(page, "Luck Plus (2–8 players)", ["Ann", "Ben", "Cleo"], {"How to score": "Points won from the others"})
    ann, ben, cleo = seat(page, "Ann"), seat(page, "Ben"), seat(page, "Cleo")
    ben_left, cleo_left = picker(ben, "Cards left in hand"), picker(cleo, "Cards left in hand")

    # Ann went out: nothing of hers left to count.
    ann.get_by_label("Went out").check()
    expect(picker(ann, "Cards left in hand")).to_be_hidden()
    expect(ann).to_contain_text("Ann went out")

    # Ben's hand by tapping: three Go 3, Stop 12 (the deck holds one: tapped, it is used up), Luck Plus.
    ben.get_by_role("button", name="Tap Ben’s cards").click()
    tap(ben_left, "Go 3", "Go 3", "Go 3", "Stop 12", "Luck Plus")
    expect(ben_left.get_by_role("button", name="Add Stop 12", exact=True)).to_be_disabled()
    expect(ben_left.get_by_role("button", name="Remove Go 3", exact=True)).to_have_count(3)
    expect(ben_left.get_by_role("button", name="Add Go 3", exact=True).locator(".count")).to_have_attribute("data-count", "×3")

    # Cleo types instead: a card that does not exist is refused in words beside the field ...
    cleo.get_by_role("button", name="Tap Cleo’s cards").click()
    type_cards(cleo_left, "go 13")
    typed = cleo_left.get_by_label("Or type them")
    expect_refused_at(page, typed)
    expect(typed).to_be_focused()
    # ... common spellings are read as the cards they mean.
    typed.fill("Go3, go-3 dbl")
    cleo_left.get_by_role("button", name="Add", exact=True).click()
    expect(typed).not_to_have_attribute("aria-invalid", "true")
    expect(cleo_left.get_by_role("button", name="Remove Go 3", exact=True)).to_have_count(2)
    expect(cleo_left.get_by_role("button", name="Remove Doubles", exact=True)).to_be_visible()

    # Five Go 3 in all: the deck holds four. The refusal sits by the hand that holds most of them.
    page.get_by_role("button", name="Save the round").click()
    expect_refused_at(page, ben_left)
    # Ben's cards are opened to show it; Cleo's fold away, untouched.
    expect(cleo.locator("fieldset.picker")).to_be_hidden()
    expect(cleo.locator("fieldset.picker")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("ol.rounds > li")).to_have_count(0)
    check(page, "luck-plus-refused")

    ben_left.get_by_role("button", name="Remove Go 3", exact=True).first.click()
    ben_left.get_by_role("button", name="Remove Go 3", exact=True).first.click()
    expect(ben_left.get_by_role("button", name="Remove Go 3", exact=True)).to_have_count(1)
    page.get_by_role("button", name="Save the round").click()
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    tally = entries(sheet_id, page)[0]["tally"]
    assert tally["out"] == [{"seat": 0, "luck_out": False}], tally
    assert sorted(tally["cards_left"][1]) == ["GO-3", "LP", "STOP-12"], tally
    assert sorted(tally["cards_left"][2]) == ["DBL", "GO-3", "GO-3"], tally
    assert tally["cards_left"][0] == [], tally
    # Go 3 + Stop 12 + Luck Plus 25 = 40; Go 3 + Go 3 + Doubles 15 = 21.
    rounds = page.locator("ol.rounds")
    expect(rounds).to_contain_text("Cards left worth: Ben 40 points, Cleo 21 points")
    expect(page.locator("ol.entries")).to_contain_text("Ann went out; Ben kept")
    expect(page.locator("ol.entries")).not_to_contain_text("GO-3")
    # The form is empty again for the next hand.
    expect(ben_left.get_by_role("button", name="Remove Go 3", exact=True)).to_have_count(0)
    check(page, "luck-plus-sheet")
    page.context.close()


def plus_minus_round(browser) -> None:
    page = new_phone(browser, "plus-minus")
    sheet_id = start_sheet(page, "Plus & Minus (3–6 players)", ["Ann", "Ben", "Cleo"])
    ann, ben, cleo = seat(page, "Ann"), seat(page, "Ben"), seat(page, "Cleo")

    # The example of the contract, tapped: Ann +K Q 7 −5, an ace in hand (typed "1", as people do).
    tap(picker(ann, "Plus stack"), "King", "Queen", "Seven")
    tap(picker(ann, "Minus stack"), "Five")
    type_cards(picker(ann, "Cards in hand"), "1")
    expect(picker(ann, "Cards in hand").get_by_role("button", name="Remove Ace", exact=True)).to_be_visible()
    ben.get_by_role("button", name="Tap Ben’s cards").click()
    tap(picker(ben, "Plus stack"), "Two")
    tap(picker(ben, "Minus stack"), "Ten", "Jack", "Queen")
    # A mistaken tap is taken back by tapping the picked card.
    picker(ben, "Minus stack").get_by_role("button", name="Remove Queen", exact=True).click()
    cleo.get_by_role("button", name="Tap Cleo’s cards").click()
    tap(picker(cleo, "Plus stack"), "Ace", "Ace")
    expect(picker(cleo, "Plus stack").get_by_role("button", name="Add Ace", exact=True).locator(".count")).to_have_attribute("data-count", "×2")
    tap(picker(cleo, "Cards in hand"), "Nine", "Three")

    # A word that is no card is refused beside the field it was typed in.
    ben_hand = picker(ben, "Cards in hand")
    ben.get_by_role("button", name="Tap Ben’s cards").click()
    type_cards(ben_hand, "rde")
    expect_refused_at(page, ben_hand.get_by_label("Or type them"))
    ben_hand.get_by_label("Or type them").fill("")
    check(page, "plus-minus-entry")

    page.get_by_role("button", name="Save the round").click()
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    tally = entries(sheet_id, page)[0]["tally"]
    cards = [{stack: sorted(seat_cards.get(stack, [])) for stack in ("plus", "minus", "hand")} for seat_cards in tally["players"]]
    assert cards == [
        {"plus": ["7", "K", "Q"], "minus": ["5"], "hand": ["A"]},
        {"plus": ["2"], "minus": ["10", "J"], "hand": []},
        {"plus": ["A", "A"], "minus": [], "hand": ["3", "9"]},
    ], cards
    expect(standings_row(page, "Ann")).to_contain_text("-5")
    expect(standings_row(page, "Ben")).to_contain_text("-15")
    expect(standings_row(page, "Cleo")).to_contain_text("35")
    expect(page.locator("ol.rounds")).to_contain_text("Cleo: plus 40 − minus 0 − hand 5 = 35")
    expect(page.locator("ol.entries")).to_contain_text("Ann: plus King, Queen, Seven; minus Five; hand Ace")
    check(page, "plus-minus-sheet")
    page.context.close()


def lucky_luau_sheet(browser) -> None:
    page = new_phone(browser, "luau")
    sheet_id = start_sheet(page, "Lucky Luau (2–6 players)", ["Ann", "Ben"])
    ann, ben = seat(page, "Ann"), seat(page, "Ben")
    ann_lei, ben_lei = picker(ann, "Lei, left to right"), picker(ben, "Lei, left to right")

    # The rulebook's sample lei, tapped left to right (the Knife cut a Yellow Flower): 33 points,
    # scored by the service as the cards are tapped.
    tap(ann_lei, "Blue Flower", "Red Flower", "Purple Flower", "Blue Flower", "Fish Hook", "Kukui Nut", "Blue Flower", "Rainbow Flower")
    expect(ann_lei.get_by_role("button", name="Remove Purple Flower (card 3)", exact=True)).to_be_visible()
    ann.get_by_text("Used the Knife?").click()
    tap(picker(ann, "What the Knife cut"), "Yellow Flower, cut by the Knife")
    ann_score = ann.locator(".lei-score")
    expect(ann_score).to_contain_text("Lei: 33 points")
    expect(ann_score).to_contain_text("3. Purple = 7: red from Red at 2 (+3), blue from Blue at 4 (+4)")
    # The Fish Hook is one a player: used, it is offered no more.
    expect(ann_lei.get_by_role("button", name="Add Fish Hook", exact=True)).to_be_disabled()
    # Guests as choices: Guest 1 gives 0 on side A and 2 on side B, Guest 2 gives 1 on side A.
    ann.get_by_text("Guest bonuses (optional)").click()
    ann.get_by_role("group", name="Guest 1").get_by_label("Side B").select_option("2")
    ann.get_by_role("group", name="Guest 2").get_by_label("Side A").select_option("1")
    expect(ann_score).to_contain_text("Lei: 33 points, 34 with the Guests")
    check(page, "lucky-luau-live-score")

    # Ben's lei, with his Spacer both on the lei and cut by his Knife: the service refuses (one
    # Spacer a player), and says so next to Ben's lei.
    tap(ben_lei, "Yellow Flower", "Green Flower", "Blue Flower", "Ti Leaf", "Mega Leaf", "Spacer")
    ben.get_by_text("Used the Knife?").click()
    tap(picker(ben, "What the Knife cut"), "Spacer, cut by the Knife")
    expect(ben.locator(".lei-score .refused")).to_be_visible()
    page.get_by_role("button", name="Save the round").click()
    expect_refused_at(page, ben_lei)
    expect(ann_lei).not_to_have_attribute("aria-invalid", "true")
    # The live score still says what is wrong with Ben's lei, and Ann's still shows her points.
    expect(ben.locator(".lei-score .refused")).not_to_be_empty()
    expect(ann.locator(".lei-score")).to_contain_text("Lei: 33 points")
    check(page, "lucky-luau-refused")

    picker(ben, "What the Knife cut").get_by_role("button", name="Remove Spacer, cut by the Knife", exact=True).click()
    expect(ben.locator(".lei-score")).to_contain_text("Lei: 15 points")

    # A Rainbow said to be Pink with no Pink beside it: the service names the position only, and
    # the page still puts the refusal by the lei that has it (Ben's, whose live score says so).
    tap(ben_lei, "Rainbow Flower as Pink")
    expect(ben.locator(".lei-score .refused")).to_be_visible()
    page.get_by_role("button", name="Save the round").click()
    expect_refused_at(page, ben_lei)
    expect(ann_lei).not_to_have_attribute("aria-invalid", "true")
    ben_lei.get_by_role("button", name="Remove Rainbow Flower as Pink (card 7)", exact=True).click()
    expect(ben.locator(".lei-score")).to_contain_text("Lei: 15 points")
    page.get_by_role("button", name="Save the round").click()
    expect(page.locator("ol.rounds > li")).to_have_count(1)
    tally = entries(sheet_id, page)[0]["tally"]
    assert tally["leis"][0]["lei"] == ["blue", "red", "purple", "blue", "hook", "kukui", "blue", "rainbow", "cut:yellow"], tally
    assert tally["leis"][0]["guests"] == [[0, 2], [1, 0], [0, 0]], tally
    assert tally["leis"][1]["lei"] == ["yellow", "green", "blue", "ti", "mega", "spacer"], tally
    breakdown = page.locator("ol.rounds")
    expect(breakdown).to_contain_text("Lei: 33")
    expect(breakdown).to_contain_text("3. Purple = 7: red from Red at 2 (+3), blue from Blue at 4 (+4)")
    expect(breakdown).to_contain_text("Guests (side A): +1")
    expect(standings_row(page, "Ann")).to_contain_text("34")
    expect(standings_row(page, "Ben")).to_contain_text("15")
    expect(page.locator("p.status")).to_contain_text("Game over: Ann wins.")
    expect(page.locator("ol.entries")).to_contain_text("Ann: Blue Flower, Red Flower, Purple Flower")
    check(page, "lucky-luau-sheet")
    page.context.close()


def lucky_jack_picture(browser) -> None:
    """Lucky Jack keeps its three choices; the jackpot chosen is drawn beside them."""
    page = new_phone(browser, "jack-picture")
    sheet_id = start_sheet(page, "Lucky Jack (2–6 players)", ["Ann", "Ben"])
    jackpot = page.locator(".jackpot-picture")
    expect(jackpot).to_be_hidden()
    page.get_by_label("Jackpot winner").select_option(label="Ben")
    page.get_by_label("Symbol").select_option("bell")
    page.get_by_label("Cards laid down").select_option("4")
    expect(jackpot.get_by_role("img", name="Bell", exact=True)).to_have_count(4)
    check(page, "lucky-jack-entry")
    page.get_by_role("button", name="Save the round").click()
    expect(page.locator("ol.entries")).to_contain_text("Ben: jackpot of 4 × Bell")
    assert entries(sheet_id, page)[0]["tally"] == {"jackpot": {"seat": 1, "symbol": "bell", "size": 4}}
    page.context.close()


STEPS = [card_gallery, lucky_jack_picture, luck_plus_round, plus_minus_round, lucky_luau_sheet]
