"""Entering a round in each game's own terms, and what the page does with a refused one."""

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, new_phone, LUAU_SAMPLE, standings_row, start_sheet


def lucky_luau_sheet(browser) -> None:
    page = new_phone(browser, "luau")
    start_sheet(page, "Lucky Luau (2–6 players)", ["Ann", "Ben"])
    ann_lei = page.locator("fieldset.seat", has_text="Ann").get_by_label("Lei, left to right")
    ben_lei = page.locator("fieldset.seat", has_text="Ben").get_by_label("Lei, left to right")

    # A word that is no card: the service's message appears next to Ann's lei, which gets focus.
    ann_lei.fill("blue rde")
    ben_lei.fill("blue")
    page.get_by_role("button", name="Save the round").click()
    expect(ann_lei).to_have_attribute("aria-invalid", "true")
    ann_error = page.locator(f"#{ann_lei.get_attribute('id')}-error")
    expect(ann_error).to_be_visible()
    expect(ann_error).to_contain_text("lei has something that is not a card: “rde”")
    expect(ann_lei).to_be_focused()
    assert ann_error.get_attribute("id") in ann_lei.get_attribute("aria-describedby")
    check(page, "refused-entry")

    # The rulebook's sample lei: 33 points before Guests.
    ann_lei.fill(LUAU_SAMPLE)
    page.locator("fieldset.seat", has_text="Ann").get_by_label("Guest bonuses (optional)").fill("0/2 1/0 0/0")
    ben_lei.fill("yellow green blue ti mega spacer")
    # Scored by the service before anything is stored.
    page.get_by_role("button", name="Score without saving").click()
    preview = page.locator("form .preview")
    expect(preview).to_contain_text("Lei: 33")
    expect(preview).to_contain_text("Not saved yet")
    expect(page.locator("ol.rounds > li")).to_have_count(0)
    page.get_by_role("button", name="Save the round").click()
    expect(ann_error).to_be_hidden()
    expect(page.get_by_text("Not saved yet")).to_have_count(0)
    breakdown = page.locator("ol.rounds")
    expect(breakdown).to_contain_text("Lei: 33")
    expect(breakdown).to_contain_text("3. Purple = 7: red from Red at 2 (+3), blue from Blue at 4 (+4)")
    expect(breakdown).to_contain_text("Guests (side A): +1")
    expect(standings_row(page, "Ann")).to_contain_text("34")
    expect(standings_row(page, "Ben")).to_contain_text("15")
    expect(page.locator("p.status")).to_contain_text("Game over: Ann wins.")
    check(page, "lucky-luau-sheet")
    page.context.close()


STEPS = [lucky_luau_sheet]
