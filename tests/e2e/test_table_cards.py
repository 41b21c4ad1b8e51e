"""The table's cards (static/cards.js): faces a phone player reads at a glance, suits told apart by
shape as well as colour, the four-colour deck as a setting the browser remembers, and the others'
hands shown face down with how many cards each holds.

The page sits at seat 0 of an Israeli Whist table whose other seats are free: nobody moves, so
every seat holds its 13 cards while the test looks.
"""

from __future__ import annotations

from typing import Any

import pytest
from e2e_kit import RunningServer, browser_page
from playwright.sync_api import Browser, Page, expect

# Per suit (clubs, diamonds, hearts, spades): the colour of a card of the hand, its shape's outline
# (the SVG's markup) and the size of its corner index as the player sees it.
CARD_FACTS = """() => {
  const bySuit = {};
  for (const face of document.querySelectorAll("#hand .card-face")) {
    const suit = Math.floor(face.dataset.card / 13);
    const rank = face.querySelector(".rank");
    bySuit[suit] = {
      colour: getComputedStyle(face).color,
      shape: face.querySelector(".corner-pip").innerHTML,
      pips: face.querySelectorAll("svg.pip").length,
      rankPx: parseFloat(getComputedStyle(rank).fontSize),
      rankBox: rank.getBoundingClientRect().height,
      text: face.textContent,
    };
  }
  return bySuit;
}"""


def open_table(page: Page, server: RunningServer) -> None:
    response = page.request.post(server.url + "/api/guest", data={"name": "Noa"})
    assert response.ok, response.text()
    response = page.request.post(server.url + "/api/tables", data={
        "game": "israeli", "options": {"hands": 1}, "seats": [{"kind": "human"}] * 4, "take_seat": 0})
    assert response.status == 201, response.text()
    page.goto(f"{server.url}/table/{response.json()['id']}")
    expect(page.locator("#hand .card")).to_have_count(13)


def card_facts(page: Page) -> dict[int, dict[str, Any]]:
    facts: dict[str, dict[str, Any]] = page.evaluate(CARD_FACTS)
    return {int(suit): fact for suit, fact in facts.items()}


def test_faces_are_readable_on_a_phone_and_suits_differ_by_shape(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server, locale="he-IL", width=375, height=812) as (_, page):
        open_table(page, server)
        facts = card_facts(page)
        assert len(facts) >= 3, facts  # 13 cards of four suits: a hand without three suits is one in 10^4
        for suit, fact in facts.items():
            # The corner index: 16 px or more at 375 px wide, a suit shape beside it and a large one
            # in the middle; the text says the card for a reader ("Q♠").
            assert fact["rankPx"] >= 16 and fact["rankBox"] >= 14, (suit, fact)
            assert fact["pips"] == 2, (suit, fact)
            assert "♣♦♥♠"[suit] in fact["text"], (suit, fact)
        assert len({fact["shape"] for fact in facts.values()}) == len(facts), "two suits drawn alike"
        red = [facts[s]["colour"] for s in (1, 2) if s in facts]
        black = [facts[s]["colour"] for s in (0, 3) if s in facts]
        assert not set(red) & set(black), facts


def test_the_four_colour_deck_is_a_remembered_setting(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server, width=1280, height=800) as (_, page):
        open_table(page, server)
        assert len({fact["colour"] for fact in card_facts(page).values()}) == 2
        setting = page.get_by_test_id("four-colour")
        expect(setting).not_to_be_checked()
        setting.check()
        facts = card_facts(page)
        assert len({fact["colour"] for fact in facts.values()}) == len(facts), facts  # a colour per suit

        page.reload()
        expect(page.locator("#hand .card")).to_have_count(13)
        expect(page.get_by_test_id("four-colour")).to_be_checked()
        assert card_facts(page) == facts
        page.get_by_test_id("four-colour").uncheck()
        assert len({fact["colour"] for fact in card_facts(page).values()}) == 2


@pytest.mark.parametrize(("locale", "width", "height"), [("he-IL", 375, 812), ("en-US", 1280, 800)])
def test_the_others_hands_are_shown_face_down_with_their_count(browser: Browser, server: RunningServer,
                                                               locale: str, width: int, height: int) -> None:
    with browser_page(browser, server, locale=locale, width=width, height=height) as (_, page):
        open_table(page, server)
        for seat in (1, 2, 3):
            held = page.get_by_test_id(f"held-{seat}")
            expect(held.locator(".backs")).to_have_attribute("data-count", "13")
            expect(held.locator(".card-back")).to_have_count(13)
            expect(held.locator(".backs-count")).to_have_text("13")
            expect(held.locator(".backs-count")).to_be_in_viewport()
        expect(page.get_by_test_id("held-0")).to_have_count(0)  # your own hand is face up below
