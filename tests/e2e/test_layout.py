"""The table screen keeps the player's whole hand in view, on a phone in Hebrew (375x812) and on a
laptop in English (1280x800), through every phase of an Israeli Whist hand: the trump auction,
the Frisch, the bids after it, the contract bids and the play; and nothing sticks out sideways.

The page plays seat 0; the other three seats are people too, played over their own WebSockets by
the test, so every phase comes in a known order: everybody passes (a Frisch), each passes three
cards, the page bids 7 hearts after the Frisch, the others pass, contracts, then the play.
A screenshot of each phase is written to ``test-artifacts/screenshots/<viewport>-<phase>.png`` at
the root of the repository (git-ignored), for a person to look at.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from bench_kit import load_bench
from playwright.sync_api import Browser, Page, ViewportSize, expect
from server_kit import RealConn
from table_seats import MOVING, my_turn, others_act, shoot, sit_with_people, table_data, until

TIMEOUT_MS = 15_000
HEBREW = re.compile(r"[\u0590-\u05FF]")
tour_kit = load_bench("page_tour")  # its axe-core check, as tests/e2e/test_accessibility.py runs it

VIEWPORTS: dict[str, tuple[ViewportSize, str]] = {
    "phone-he": ({"width": 375, "height": 812}, "he-IL"),
    "laptop-en": ({"width": 1280, "height": 800}, "en-US"),
}

# Boxes of the hand's cards, of the call picker, and every element sticking out sideways (outside a
# box that scrolls on its own, such as the score sheet's), measured where the player sees them.
LAYOUT_FACTS = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const scrolls = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      if (["auto", "scroll", "hidden"].includes(getComputedStyle(a).overflowX)) return true;
    }
    return false;
  };
  const wide = [...document.body.querySelectorAll("*")].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.right > innerWidth + 0.5 || r.left < -0.5) && !scrolls(el);
  }).map((el) => `${el.tagName}#${el.id}.${el.className} ${JSON.stringify(box(el))}`);
  const actions = document.getElementById("actions");
  // Seen, not covered: the element on top at a box's centre is inside it.
  const uncovered = (el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top !== null && el.contains(top);
  };
  const mine = document.querySelector("#felt .seat.mine");
  return {
    felt: box(document.getElementById("felt")),
    seat: mine ? {...box(mine), uncovered: uncovered(mine)} : null,
    width: innerWidth, height: innerHeight, scrollWidth: document.scrollingElement.scrollWidth,
    cards: [...document.querySelectorAll("#hand .card")].map(box),
    actions: actions.hidden ? null : box(actions),
    wide,
  };
}"""


def check_axe(page: Page) -> None:
    """axe-core finds nothing wrong with the table as it is now, of any impact."""
    results = tour_kit.axe_results(page)
    assert results["passes"], "axe checked nothing"
    assert not results["violations"], [tour_kit.describe(v) for v in results["violations"]]


def check_layout(page: Page, name: str, phase: str) -> None:
    """The whole hand (and the call to make, if any) inside the viewport, nothing wider than it;
    and a screenshot of the phase."""
    shoot(page, name, phase)
    facts: dict[str, Any] = page.evaluate(LAYOUT_FACTS)
    width, height = facts["width"], facts["height"]
    assert facts["cards"], (phase, "no cards in the hand")
    outside = [c for c in facts["cards"]
               if c["left"] < 0 or c["right"] > width or c["top"] < 0 or c["bottom"] > height]
    assert not outside, (name, phase, "cards out of view", outside, (width, height))
    if facts["actions"] is not None:
        box = facts["actions"]
        assert box["top"] >= 0 and box["bottom"] <= height and box["right"] <= width, (name, phase, box)
    for part in ("felt", "seat"):
        box = facts[part]
        assert box["top"] >= 0 and box["bottom"] <= height, (name, phase, part, "out of view", box, height)
    assert facts["seat"]["uncovered"], (name, phase, "your seat box is covered")
    assert facts["scrollWidth"] <= width, (name, phase, facts["scrollWidth"])
    assert not facts["wide"], (name, phase, facts["wide"])


def play_a_card(page: Page, touch: bool, by_button: bool = False) -> None:
    """The first legal card of the hand, played: on a touch screen the first tap only picks it, and
    a second tap on it (or the confirm button, with ``by_button``) plays it."""
    card = page.locator("#hand .card:not([disabled])").first
    mine = page.locator("#trick:not(.previous) .played[data-seat='0']")
    expect(page.get_by_test_id("confirm-play")).to_be_checked(checked=touch)
    number = card.get_attribute("data-card")
    card.click()
    if touch:
        picked = page.locator(f"#hand .card[data-card='{number}']")
        expect(picked).to_have_class(re.compile(r"\bpicked\b"))
        expect(page.get_by_test_id("play-hint")).to_be_visible()
        page.wait_for_timeout(300)  # time for a move to come back, were it sent
        expect(mine).to_have_count(0)
        assert table_data(page)["pending"] == "false"
        (page.get_by_test_id("play-confirm") if by_button else picked).click()
    expect(page.locator(f"#hand .card[data-card='{number}']")).to_have_count(0)  # played


def check_felt_state(page: Page, trump: str, bid: str) -> None:
    """Trump, the declarer's contract and every seat's contract and tricks, on the felt and in view."""
    felt = page.get_by_test_id("felt")
    expect(felt.get_by_test_id("trump")).to_have_text(trump)
    expect(felt.get_by_test_id("declarer")).to_contain_text(bid)
    shown = [felt.get_by_test_id("trump"), felt.get_by_test_id("declarer"), felt.get_by_test_id("over-under")]
    for seat in range(4):
        shown += [felt.get_by_test_id(f"tricks-{seat}"), felt.get_by_test_id(f"contract-{seat}")]
    for item in shown:
        expect(item).to_be_visible()
        expect(item).to_be_in_viewport()


def check_held(page: Page) -> None:
    """Each other seat's cards, face down, with their number, on the felt in view: 13 less the
    tricks played, one less for a seat whose card is in the trick on the table."""
    count = 13 - int(table_data(page)["tricksPlayed"])
    in_trick: list[str] = page.locator("#trick:not(.previous) .played[data-seat]").evaluate_all(
        "els => els.map(e => e.dataset.seat)")
    for seat in (1, 2, 3):
        held = page.get_by_test_id(f"held-{seat}").locator(".backs")
        expect(held).to_have_attribute("data-count", str(count - (str(seat) in in_trick)))
        expect(held).to_be_in_viewport()


def choose_frisch_cards(page: Page, conns: list[RealConn], name: str) -> None:
    """Three Frisch cards picked, one put back and another picked (nothing sent until the confirm
    button, which names the seat they go to), then confirmed: the three leave the hand together."""
    confirm = page.get_by_test_id("frisch-confirm")
    free = page.locator("#hand .card:not([disabled]):not(.selected)")
    chosen = page.locator("#hand .card.selected")
    for _ in range(3):
        expect(confirm).to_be_disabled()
        free.first.click()
    expect(chosen).to_have_count(3)
    expect(free).to_have_count(0)  # no fourth
    first = chosen.first.get_attribute("data-card")
    chosen.first.click()  # changed: put back
    expect(chosen).to_have_count(2)
    expect(confirm).to_be_disabled()
    page.locator(f"#hand .card:not(.selected):not([data-card='{first}']):not([disabled])").first.click()
    page.wait_for_timeout(300)  # time for a card to come back, were it sent
    assert table_data(page)["pending"] == "false"
    expect(page.locator("#hand .card")).to_have_count(13)
    picks = chosen.evaluate_all("els => els.map(e => e.dataset.card)")
    assert first not in picks and len(picks) == 3, picks
    expect(confirm).to_contain_text("Ben")
    shoot(page, name, "frisch-chosen")
    confirm.click()
    until(page, conns, lambda d: d["phase"] != "frisch")  # the others choose theirs
    for card in picks:
        expect(page.locator(f"#hand .card[data-card='{card}']")).to_have_count(0)


@pytest.fixture
def patient_expect() -> Iterator[None]:
    expect.set_options(timeout=TIMEOUT_MS)
    yield
    expect.set_options(timeout=None)


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_the_hand_stays_in_view_through_every_phase(browser: Browser, server: Any, name: str,
                                                      patient_expect: None) -> None:
    viewport, locale = VIEWPORTS[name]
    touch = name.startswith("phone")  # a touch screen: deliberate play is on by default
    context = browser.new_context(locale=locale, viewport=viewport, has_touch=touch)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with ExitStack() as stack:
        stack.callback(context.close)
        page.goto(server.url + "/")
        conns = sit_with_people(page, server.url, stack, name="Noa Bat-Sheva Levi-Montalcini",
                                others=["Ben", "Dana Rosenblum-Katz", "Eli"])

        # The first trump auction: the three others pass, then the page passes too.
        until(page, conns, my_turn("auction"))
        check_layout(page, name, "auction")
        jump = page.get_by_test_id("calls-jump")  # the calls, one tap away where they are below the hand
        if name.startswith("phone"):
            jump.click()
            expect(page.get_by_test_id("calls")).to_be_in_viewport(ratio=1)
            page.evaluate("window.scrollTo(0, 0)")
        else:
            expect(jump).to_be_hidden()  # beside the felt, in view
            expect(page.get_by_test_id("calls")).to_be_in_viewport()
        page.locator("#actions [data-name=pass]").click()

        # The Frisch: three cards, chosen on the page.
        until(page, conns, my_turn("frisch"))
        check_layout(page, name, "frisch")
        expect(page.get_by_test_id("status")).to_contain_text("Ben")  # to whom: Frisch cards go left
        choose_frisch_cards(page, conns, name)

        # The auction after the Frisch, with the picker: a level, then a suit.
        until(page, conns, my_turn("auction"))
        levels = page.locator("#actions [data-kind=level]")
        expect(levels.first).to_have_attribute("aria-pressed", "true")
        page.locator("#actions [data-kind=level][data-level='7']").click()
        expect(page.locator("#actions [data-kind=level][data-level='7']")).to_have_attribute("aria-pressed", "true")
        bids = page.locator("#actions [data-kind=bid]")
        strains: list[str] = bids.evaluate_all("els => els.map(e => e.dataset.name)")
        assert strains == ["7C", "7D", "7H", "7S", "7NT"], strains
        check_layout(page, name, "bid")
        page.locator("#actions [data-name='7H']").click()
        # The bid is the high bid so far, not yet the declarer's: the others have not passed yet.
        expect(page.locator("#table")).to_have_attribute("data-high-bid", "7H")
        expect(page.locator("#declarer-item")).to_have_attribute("data-open", "true")
        if locale == "en-US":
            expect(page.locator("#declarer-label")).to_have_text("High bid")
            expect(page.get_by_test_id("seat-0")).to_contain_text("high bid")
        else:
            expect(page.locator("#declarer-label")).to_have_text("ההכרזה הגבוהה")

        # Contracts: the others pass the auction, the declarer bids first.
        until(page, conns, my_turn("contract"))
        expect(page.locator("#declarer-item")).to_have_attribute("data-open", "false")
        if locale == "en-US":
            expect(page.locator("#declarer-label")).to_have_text("Declarer")
        check_layout(page, name, "contract")
        page.locator("#actions [data-kind=contract]").first.click()

        # The play: the declarer leads.
        until(page, conns, my_turn("play"))
        expect(page.get_by_test_id("trump")).to_have_text("♥")
        check_layout(page, name, "play")
        check_held(page)
        check_felt_state(page, "♥", "7♥")
        expect(page.get_by_test_id("leads-0")).to_be_visible()
        # The moves, slowed down twentyfold (Chromium's own animation clock) to be caught in flight.
        cdp = context.new_cdp_session(page)
        cdp.send("Animation.enable")
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})
        play_a_card(page, touch)
        assert page.evaluate(MOVING, "#trick .played[data-seat='0']") == 1
        shoot(page, name, "card-in-flight")
        until(page, conns, lambda d: int(d.get("tricksPlayed", "0")) >= 1, one_by_one=True)
        expect(page.locator("#trick.previous .played")).to_have_count(4)
        # The whole trick stays a moment (then goes to its winner): each card moving, still drawn.
        assert page.evaluate(MOVING, "#trick.previous .played") == 4
        shoot(page, name, "finished-trick")
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
        # The trick just played, on the felt until the next card and in the last trick's panel:
        # its cards faded, the names under them legible (axe's contrast check, once nothing moves).
        page.wait_for_function("() => document.getAnimations().length === 0")
        expect(page.locator("#trick.previous .played")).to_have_count(4)
        check_axe(page)
        page.get_by_test_id("last-trick-button").click()
        expect(page.get_by_test_id("last-trick").locator(".played")).to_have_count(4)
        check_axe(page)
        page.get_by_test_id("last-trick-button").click()
        page.emulate_media(reduced_motion="reduce")
        until(page, conns, lambda d: int(d.get("tricksPlayed", "0")) >= 1 and my_turn("play")(d))
        check_layout(page, name, "play-trick-2")
        play_a_card(page, touch, by_button=True)
        assert page.evaluate("() => document.getAnimations().length") == 0  # reduced motion: nothing moves
        check_held(page)
        check_felt_state(page, "♥", "7♥")
        assert HEBREW.search(page.get_by_test_id("status").inner_text()) or locale == "en-US"

        # The rest of the hand, to its end: the summary in view, on a phone over the felt.
        deadline = time.monotonic() + 90
        while table_data(page).get("over") != "true":
            assert time.monotonic() < deadline, table_data(page)
            if my_turn("play")(table_data(page)):
                play_a_card(page, touch)
            elif not others_act(conns):
                time.sleep(0.02)
        summary = page.get_by_test_id("hand-summary")
        expect(summary).to_be_visible()
        expect(summary).to_be_in_viewport()
        expect(page.get_by_test_id("felt")).to_be_in_viewport()
        shoot(page, name, "end-of-hand")
        check_axe(page)
        assert not errors, errors
