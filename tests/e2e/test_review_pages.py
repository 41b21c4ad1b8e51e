"""The review of a finished game on its replay page (issue 45): started from the page, its progress
shown, then each player's accuracy, losses and costliest decisions (links to their steps), the graph
of expected points with its key moments marked, the options of the decision at each step, where
the points went in the hand shown, and "learn from your mistakes", which shows a mistake's position
as the seat saw it and reveals the best choice only when asked. Screenshots of the review, the graph
and learn mode at 375x812 in Hebrew and 1280x800 in English, under test-artifacts/screenshots
(``<viewport>-review-*.png``), and axe-core's check of each.

The review job's API is the server's (docs/server-protocol.md, ``/api/history/{id}/review``); here it
is answered by a route, with the engine's review of the real game, shaped where a test needs it
(review_kit.py)."""

from __future__ import annotations

import re
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
from bench_kit import load_bench
from e2e_kit import browser_page
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from playwright.sync_api import Browser, Locator, Page, Route, expect
from review_kit import find_decision, game_review, shaped
from test_accessibility import MOST_LAYOUT_SHIFT, RECORD_LAYOUT_SHIFTS

from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
VIEWPORTS = {"phone-he": (375, 812, "he"), "laptop-en": (1280, 800, "en")}
REVIEW = "**/api/history/*/review*"
PHASE_WORDS = {"auction": "trump call", "frisch": "Frisch", "contract": "contract", "play": "play"}
tour_kit = load_bench("page_tour")


def finished_game(settings: ServerSettings, hands: int = 2) -> tuple[str, dict[str, Any]]:
    """A game of Ann's against three bots, played to its end: its table id and its record."""
    with TestClient(create_app(settings)) as client:
        sign_in(client, "Ann")
        table_id = new_table(client, "israeli", {"hands": hands}, [{"kind": "human"}, *BOTS])["id"]
        play_to_the_end(client, table_id)
        record: dict[str, Any] = client.get(f"/api/games/{table_id}/record").json()
    return table_id, record


def ann_review(record: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[int, int]]]:
    """The engine's review of the game, where Ann (seat 0) made a mistake (hand 1), a proven
    blunder (hand 2) and an inaccuracy (hand 1), and no other costly decision; and those three
    decisions, in that order."""
    review = game_review(record)
    return review, shaped(review, 0, ["mistake", "blunder", "inaccuracy"])


def serve_done(review: dict[str, Any]) -> Any:
    def answer(route: Route) -> None:
        route.fulfill(json={"state": "done", "done": 10, "total": 10, "review": review})
    return answer


def plain(node: Locator) -> str:
    """A node's text without the marks that keep numbers whole in either direction (the page's isolates,
    and the left-to-right mark Hebrew number formats put before a minus sign)."""
    return re.sub("[\u200e\u200f\u2066-\u2069]", "", node.inner_text()).strip()


def tenths(value: float) -> str:
    """A number as the page writes it (Intl.NumberFormat: one decimal, halves away from zero)."""
    return str(Decimal(str(value)).quantize(Decimal("0.1"), ROUND_HALF_UP))


def axe_clean(page: Page) -> None:
    results = tour_kit.axe_results(page)
    assert results["passes"], "axe checked nothing"
    assert [tour_kit.describe(v) for v in results["violations"]] == []


def test_the_review_is_started_shows_its_progress_then_every_player(server: Any, browser: Browser,
                                                                    app_settings: ServerSettings) -> None:
    table_id, record = finished_game(app_settings)
    review, chosen = ann_review(record)
    asked: list[tuple[str, float]] = []
    # The server's answers in turn: none yet; the POST's queued; a wait asked for (429, Retry-After);
    # running; then done, the review.
    answers: list[dict[str, Any]] = [
        {"json": {"state": "none", "done": 0, "total": 0, "review": None}},
        {"json": {"state": "queued", "done": 0, "total": 10, "review": None}},
        {"status": 429, "headers": {"Retry-After": "1"},
         "json": {"detail": "Too many analysis requests from this session", "code": "too_many"}},
        {"json": {"state": "running", "done": 4, "total": 10, "review": None}}]

    def answer(route: Route) -> None:
        asked.append((route.request.method, time.monotonic()))
        found = answers[len(asked) - 1] if len(asked) <= len(answers) else {
            "json": {"state": "done", "done": 10, "total": 10, "review": review}}
        route.fulfill(**found)

    with browser_page(browser, server, width=1280, height=800) as (_context, page):
        page.evaluate("localStorage.setItem('whist-lang', 'en')")
        page.route(REVIEW, answer)
        page.goto(f"{server.url}/replay/{table_id}")
        panel = page.get_by_test_id("review")
        while not asked:
            page.wait_for_timeout(50)
        page.wait_for_timeout(300)  # the answer "none" drawn: the offer to start, and no error
        expect(panel.locator(".error")).to_have_count(0)
        panel.get_by_test_id("review-start").click()
        progress = panel.get_by_test_id("review-progress")
        expect(progress).to_contain_text("The review waits for a free worker")
        expect(progress).to_contain_text("Reviewing the game: 4 of 10 done")
        assert progress.locator("progress").evaluate("bar => [bar.value, bar.max]") == [4, 10]
        expect(panel.get_by_test_id("review-player-0")).to_be_visible()
        methods = [method for method, _ in asked]
        assert methods == ["GET", "POST", "GET", "GET", "GET"]  # polled with GET after the one POST
        assert asked[3][1] - asked[2][1] >= 0.9  # asked again when told, not before
        page.wait_for_timeout(3500)
        assert len(asked) == 5  # done: no more asking
        expect(panel.locator(".error")).to_have_count(0)  # the wait's message gone with the next answer

        ann = panel.get_by_test_id("review-player-0")
        seat = review["seats"][0]
        expect(ann).to_contain_text(f"{tenths(seat['accuracy'])}% accuracy")
        expect(ann).to_contain_text("1 inaccuracy")
        expect(ann).to_contain_text("1 mistake")
        expect(ann).to_contain_text("1 blunder")
        phases = {d["phase"] for h in review["hands"] for d in h["decisions"]}  # the kinds the game had
        expect(ann.locator(".rv-phases li")).to_have_count(len(phases))
        assert f"play\n{tenths(seat['cost_by_phase']['play'])}" in plain(ann.locator(".rv-phases"))
        # The costliest first: the blunder; its link moves the replay to its step.
        costly = ann.locator(".rv-costly a")
        expect(costly).to_have_count(3)
        blunder_hand, blunder_step = chosen[1]
        blunder = find_decision(review, blunder_hand, blunder_step)
        expect(costly.first).to_contain_text(f"Hand {blunder_hand} · {PHASE_WORDS[blunder['phase']]}: ")
        costly.first.click()
        expect(page.get_by_test_id("step")).to_contain_text(f"{blunder_step} /")
        expect(page.get_by_test_id("hand-select")).to_have_value(str(blunder_hand - 1))

        # The step's decision: its options with their values, the one played and the best marked.
        step_box = page.get_by_test_id("review-step")
        expect(step_box).to_contain_text("Blunder")
        expect(step_box).to_contain_text("Proven")
        expect(step_box).to_contain_text("Cost")
        assert "Cost 24.0 ± 1.0" in plain(step_box)  # the blunder's cost: one and a half times its threshold
        decision = find_decision(review, blunder_hand, blunder_step)
        options = step_box.get_by_test_id("review-options").locator("li")
        expect(options.first).to_have_class(re.compile(r"\bbest\b"))
        assert f"{tenths(decision['options'][0]['value'])} ± " in plain(options.first)
        expect(step_box.locator("li.chosen")).to_have_count(1)
        expect(step_box.locator("li.chosen")).to_contain_text("played")
        assert int(step_box.locator("li.chosen .card-face").get_attribute("data-card") or -1) == decision["chosen"]

        # Where the points went in this hand: score, par ± error, decisions' cost, the rest.
        row = page.get_by_test_id("review-points-0")
        hand_seat = next(h for h in review["hands"] if h["number"] == blunder_hand)["seats"][0]
        expect(row).to_be_visible()
        assert [plain(row.locator("td").nth(i)) for i in range(4)] == [
            str(hand_seat["score"]), f"{tenths(hand_seat['par'])}\n± {tenths(hand_seat['par_error'])}",
            f"−{tenths(hand_seat['decisions_cost'])}" if hand_seat["decisions_cost"] > 0 else "0.0",
            ("+" if hand_seat["rest"] >= 0 else "") + tenths(hand_seat["rest"])]


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_graph_marks_the_key_moments(server: Any, browser: Browser, app_settings: ServerSettings,
                                         viewport: str) -> None:
    """A line per player, a mark at each mistake and blunder (not at an inaccuracy) whose link goes to
    its step, a legend; time runs the way the page reads (right to left in Hebrew)."""
    table_id, record = finished_game(app_settings)
    review, chosen = ann_review(record)
    marked = sum(e["verdict"] in ("mistake", "blunder") for line in review["timeline"] for e in line)
    width, height, language = VIEWPORTS[viewport]
    with browser_page(browser, server, width=width, height=height) as (context, page):
        page.evaluate(f"localStorage.setItem('whist-lang', '{language}')")
        context.add_init_script(RECORD_LAYOUT_SHIFTS)
        page.route(REVIEW, serve_done(review))
        blunder_hand, blunder_step = chosen[1]  # the screenshot shows the options at Ann's blunder
        page.goto(f"{server.url}/replay/{table_id}#hand={blunder_hand}&step={blunder_step}")
        expect(page.get_by_test_id("review-step").get_by_test_id("review-options")).to_be_visible()
        graph = page.get_by_test_id("review-graph")
        expect(graph.locator("polyline")).to_have_count(4)
        marks = graph.get_by_test_id("review-mark")
        expect(marks).to_have_count(marked)
        assert marked >= 2
        # Hands numbered along the bottom: the first before the second in the reading direction.
        first, second = graph.locator(".rv-hand text").evaluate_all(
            "all => all.map((t) => t.getBoundingClientRect().x)")
        assert (first < second) == (language == "en")
        expect(page.locator(".rv-legend li")).to_have_count(6)  # four players, a mistake, a blunder
        # The review, made already, is there when the page is first shown: nothing jumps as it comes.
        assert sum(page.evaluate("window.layoutShifts")) < MOST_LAYOUT_SHIFT
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-review.png"), full_page=True)
        page.locator(".rv-figure").screenshot(path=str(SCREENSHOTS / f"{viewport}-review-graph.png"))
        axe_clean(page)

        hand, step = chosen[0]
        mistake = marks.and_(page.locator(".seat-0.mistake")).first
        expect(mistake).to_have_attribute("aria-label", re.compile("Ann"))
        mistake.click()
        expect(page.get_by_test_id("step")).to_contain_text(f"{step} /")
        expect(page.get_by_test_id("hand-select")).to_have_value(str(hand - 1))
        expect(page.get_by_test_id("review-step")).to_contain_text("Mistake" if language == "en" else "טעות")


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_learning_from_the_mistakes(server: Any, browser: Browser, app_settings: ServerSettings, viewport: str) -> None:
    """Learn mode stops at each of the seat's mistakes and blunders (not its inaccuracies), at the
    position before it with the others' cards face down; a pick is told apart as the choice made, as
    good as the best, or worse; the best is shown only when asked; next and previous go between them."""
    table_id, record = finished_game(app_settings)
    review, chosen = ann_review(record)
    width, height, language = VIEWPORTS[viewport]
    words = {"en": ("Mistake 1 of 2", "the choice that was made", "is not as good", "as good as the best", "Best:"),
             "he": ("טעות 1 מתוך 2", "הבחירה שנעשתה", "פחות טובה", "טובה כמו הטובה ביותר", "הטובה ביותר:")}[language]
    with browser_page(browser, server, width=width, height=height) as (_context, page):
        page.evaluate(f"localStorage.setItem('whist-lang', '{language}')")
        page.route(REVIEW, serve_done(review))
        page.goto(f"{server.url}/replay/{table_id}#hand=1&step=0")
        page.get_by_test_id("learn-seat").select_option("0")
        page.get_by_test_id("learn-start").click()

        hand, step = chosen[0]
        expect(page.get_by_test_id("step")).to_contain_text(f"{step - 1} /")  # before the card
        box = page.get_by_test_id("review-step")
        expect(box).to_contain_text(words[0])
        # As the seat saw it: its own cards, the others' face down; no verdict of the search.
        expect(page.get_by_test_id("seat-0").locator(".card-face, .cardchip").first).to_be_visible()
        for other in (1, 2, 3):
            expect(page.get_by_test_id(f"seat-{other}").locator(".backs")).to_have_count(1)
            expect(page.get_by_test_id(f"seat-{other}").locator(".cardchip")).to_have_count(0)
        expect(page.get_by_test_id("verdict")).to_be_hidden()
        decision = find_decision(review, hand, step)
        _best, good, bad, *_ = (o for o in decision["options"] if o["action"] != decision["chosen"])
        buttons = box.get_by_test_id("review-options").locator("button")
        expect(buttons).not_to_have_count(0)
        expect(box.locator(".rv-value")).to_have_count(0)  # no values until the best is shown

        feedback = box.get_by_test_id("learn-feedback")
        box.locator(f"button[data-action='{decision['chosen']}']").click()
        expect(feedback).to_contain_text(words[1])
        box.locator(f"button[data-action='{bad['action']}']").click()
        expect(feedback).to_contain_text(words[2])
        box.locator(f"button[data-action='{good['action']}']").click()
        expect(feedback).to_contain_text(words[3])
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{viewport}-review-learn.png"))
        axe_clean(page)

        page.get_by_test_id("learn-reveal").click()
        expect(feedback).to_contain_text(words[4])
        expect(box.locator("li.best")).not_to_have_count(0)
        page.get_by_test_id("learn-next").click()  # the blunder; the inaccuracy is not stopped at
        hand2, step2 = chosen[1]
        expect(page.get_by_test_id("step")).to_contain_text(f"{step2 - 1} /")
        expect(page.get_by_test_id("hand-select")).to_have_value(str(hand2 - 1))
        expect(page.get_by_test_id("learn-next")).to_be_disabled()
        page.get_by_test_id("learn-previous").click()
        expect(page.get_by_test_id("step")).to_contain_text(f"{step - 1} /")
        page.get_by_test_id("learn-stop").click()
        expect(page.get_by_test_id("seat-1").locator(".cardchip").first).to_be_visible()


def test_the_servers_review_job_is_started_and_shared(server: Any, browser: Browser,
                                                      app_settings: ServerSettings) -> None:
    """The page on the server's own review routes: started by one person, its progress seen by
    another who opens the game after, without starting it again (the job is the game's)."""
    table_id, _record = finished_game(app_settings, hands=1)
    with browser_page(browser, server, width=1280, height=800) as (_context, page):
        page.evaluate("localStorage.setItem('whist-lang', 'en')")
        page.goto(f"{server.url}/replay/{table_id}")
        with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/review")) as started:
            page.get_by_test_id("review-start").click()
        job = started.value.json()
        assert job["state"] in ("queued", "running") and job["total"] >= 1 and job["review"] is None
        expect(page.get_by_test_id("review-progress")).to_contain_text(
            re.compile(r"The review waits for a free worker|Reviewing the game: \d+ of \d+ done"))
    with browser_page(browser, server, width=375, height=812) as (_context, other):
        posts: list[str] = []
        other.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        other.goto(f"{server.url}/replay/{table_id}")
        expect(other.get_by_test_id("review-progress")).to_be_visible()
        expect(other.get_by_test_id("review-start")).to_have_count(0)
        assert posts == []
