"""The last to bid a contract sees the one number they may not take (the contracts would add up to
the tricks: over/under), disabled among the others, with the reason, in English and in Hebrew.

The page sits at seat 0; seats 1 to 3 are people played over their own WebSockets: seat 1 bids the
lowest trump bid and the others pass, so seat 1 is the declarer and bids its contract first, and
the page, at the declarer's right, bids last.
"""

from __future__ import annotations

import time
from contextlib import ExitStack

import pytest
from e2e_kit import RunningServer, browser_page
from playwright.sync_api import Browser, expect
from server_kit import RealConn
from table_seats import shoot, sit_with_people


def others_move(conns: list[RealConn]) -> None:
    """Each of the test's seats whose turn it is: seat 1 bids the lowest bid, the others pass;
    contracts: the first legal one."""
    for conn in conns:
        conn.quiet(0.01)
        view = conn.state["view"]
        if view["player"] != conn.state["you"] or not view["legal"]:
            continue
        names = {item["name"]: item["action"] for item in view["legal"]}
        bids = [item["action"] for item in view["legal"] if item["name"][0].isdigit() and view["phase"] == "auction"]
        if view["phase"] == "auction":
            action = bids[0] if conn.state["you"] == 1 and view["high_bid"] is None else names["pass"]
        else:
            action = view["legal"][0]["action"]
        reply = conn.act(action, message_id=f"{conn.state['you']}-{conn.state['version']}")
        assert reply["type"] == "ack", reply


@pytest.mark.parametrize(("locale", "width", "reason"), [("en-US", 1280, "may not add up to 13"),
                                                         ("he-IL", 375, "סך החוזים לא יכול להיות 13")])
def test_the_forbidden_last_contract_is_shown_disabled_with_the_reason(
        browser: Browser, server: RunningServer, locale: str, width: int, reason: str) -> None:
    with browser_page(browser, server, locale=locale, width=width, height=800) as (_, page), ExitStack() as stack:
        conns = sit_with_people(page, server.url, stack)
        deadline = time.monotonic() + 30
        table = page.locator("#table")
        while table.get_attribute("data-phase") != "contract" or table.get_attribute("data-my-turn") != "true":
            assert time.monotonic() < deadline
            if table.get_attribute("data-my-turn") == "true" and table.get_attribute("data-phase") == "auction":
                page.locator("#actions [data-name=pass]").click()
            others_move(conns)
            time.sleep(0.05)

        for conn in conns:
            conn.quiet(0.2)
        contracts = [conn.state["view"]["contracts"][conn.state["you"]] for conn in conns]
        assert min(contracts) >= 0, contracts
        forbidden = 13 - sum(contracts)
        button = page.locator(f"#actions [data-kind=forbidden][data-name='{forbidden}']")
        expect(button).to_be_disabled()
        expect(page.get_by_test_id("contract-forbidden")).to_contain_text(reason)
        expect(page.get_by_test_id("contract-forbidden")).to_be_in_viewport()
        shoot(page, "phone-he" if locale == "he-IL" else "laptop-en", "contract-last")
        offered = page.locator("#actions [data-kind=contract]").evaluate_all(
            "els => els.map(e => Number(e.dataset.name))")
        assert forbidden not in offered and offered, offered
