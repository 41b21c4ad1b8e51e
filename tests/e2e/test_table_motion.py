"""A new deal arrives in the hand: the cards come in one after another (static/motion.js), where
the player allows movement, and appear at once where the browser asks for reduced motion.

The page sits at seat 0 of an Israeli Whist table without Frisch rounds; the test's three seats
pass, as does the page, so the deal is thrown in and dealt again while the page looks.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from table_seats import MOVING, my_turn, sit_with_people, table_data, until

TIMEOUT_MS = 15_000


@pytest.mark.parametrize("reduced", [False, True])
def test_a_new_deal_arrives_card_by_card(browser: Browser, server: Any, reduced: bool) -> None:
    context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800},
                                  reduced_motion="reduce" if reduced else "no-preference")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    with ExitStack() as stack:
        stack.callback(context.close)
        page.goto(server.url + "/")
        conns = sit_with_people(page, server.url, stack, options={"frisch_rounds": 0})
        first_deal = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert page.evaluate(MOVING, "#hand .card") == 0  # the page as it opens: nothing comes in

        # Chromium's animation clock slowed twentyfold, for the cards to be caught on their way.
        cdp = context.new_cdp_session(page)
        cdp.send("Animation.enable")
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.05})
        until(page, conns, my_turn("auction"))
        page.locator("#actions [data-name=pass]").click()
        until(page, conns, lambda d: d.get("hands") == "1")  # all passed: thrown in, dealt again
        expect(page.locator("#hand .card")).to_have_count(13)
        second_deal = page.locator("#hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert second_deal != first_deal
        moving = page.evaluate(MOVING, "#hand .card")
        assert moving == (0 if reduced else 13), moving
        assert table_data(page)["phase"] == "auction"
