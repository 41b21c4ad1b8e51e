"""Talk at the table in the browser (static/chat.js): a message from another seat shows as text
however much markup it holds; a muted player's messages are hidden for the one who muted, and only
on that browser, until unmuted; on a phone the chat is one tap away with the count of messages not
read yet; the creator chooses who may talk; a finished game's replay shows what was said up to the
place shown. axe-core finds nothing in the chat, open with messages, in Hebrew on a phone and in
English on a laptop; screenshots of both (and of the phone's button with its count) are written to
``test-artifacts/screenshots/chat-*.png``."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from bench_kit import load_bench
from e2e_kit import browser_page
from playwright.sync_api import Browser, Page, expect
from server_kit import Message, RealConn, connect_real
from table_seats import SCREENSHOTS, guest_cookie, sit_with_people

tour_kit = load_bench("page_tour")
MARKUP = '<b>bold</b> <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script>'


def say(conn: RealConn, message: Message, message_id: str) -> Message:
    conn.send({**message, "id": message_id})
    return conn.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == message_id)


def lines(page: Page, where: str = "chat-log") -> list[str]:
    """The chat's lines as "name: text", without the mute buttons (a spectator's name is marked)."""
    texts: list[str] = page.evaluate("""(where) => [...document.querySelectorAll(`[data-testid=${where}] .chat-line`)]
      .map((li) => li.textContent.trim())""", where)
    return texts


def no_axe_violation(page: Page) -> None:
    results = tour_kit.axe_results(page)
    assert results["passes"], "axe checked nothing"
    assert [tour_kit.describe(v) for v in results["violations"]] == []


def test_on_a_laptop_markup_is_text_and_a_muted_player_is_hidden(browser: Browser, server: Any) -> None:
    with browser_page(browser, server, width=1280, height=800) as (_, page), ExitStack() as stack:
        ben, dana, eli = sit_with_people(page, server.url, stack)
        chat = page.get_by_test_id("chat")
        expect(chat).to_be_visible()  # beside the table: no tap needed
        expect(page.get_by_test_id("chat-toggle")).to_be_hidden()
        assert say(ben, {"type": "chat", "text": MARKUP}, "b1")["type"] == "ack"
        expect(page.get_by_test_id("chat-line")).to_have_count(1)
        assert lines(page) == [f"Ben: {MARKUP}"]
        assert chat.locator("b, img, script").count() == 0
        assert page.evaluate("window.pwned") is None

        # The page's own message and a reaction reach the others.
        page.get_by_test_id("chat-input").fill("Good luck everyone")
        page.get_by_test_id("chat-send").click()
        assert dana.until(lambda m: m["type"] == "chat" and m["message"]["name"] == "Noa")["message"]["text"] == \
            "Good luck everyone"
        expect(page.get_by_test_id("chat-input")).to_have_value("")
        page.get_by_test_id("react-well_played").click()
        assert dana.until(lambda m: m["type"] == "chat")["message"]["reaction"] == "well_played"

        # Noa mutes Dana: Dana's messages go, Ben's and Eli's stay, and Dana's new ones never show.
        assert say(dana, {"type": "chat", "text": "Dana here"}, "d1")["type"] == "ack"
        dana_line = page.get_by_test_id("chat-line").filter(has_text="Dana here")
        dana_line.get_by_test_id("chat-mute").click()
        expect(dana_line).to_have_count(0)
        assert say(dana, {"type": "chat", "text": "Can you hear me?"}, "d2")["type"] == "ack"
        assert say(eli, {"type": "react", "reaction": "🎉"}, "e1")["type"] == "ack"
        expect(page.get_by_test_id("chat-line").filter(has_text="🎉")).to_have_count(1)
        assert not any("Dana" in text for text in lines(page))
        expect(page.get_by_test_id("chat-muted")).to_contain_text("Dana")
        # Remembered by this browser: a reload (the recent messages from the server) still hides her.
        page.reload()
        expect(page.get_by_test_id("chat-line").filter(has_text="🎉")).to_have_count(1)
        assert not any("Dana" in text for text in lines(page))
        assert lines(page)[:2] == [f"Ben: {MARKUP}", "Noa: Good luck everyone"]
        no_axe_violation(page)
        page.evaluate("window.scrollTo(0, 0)")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "chat-1280x800-en.png"))
        # The others still hear her: muting is Noa's own.
        assert ben.until(lambda m: m["type"] == "chat" and m["message"].get("text") == "Can you hear me?")
        page.get_by_test_id("chat-unmute").click()
        expect(page.get_by_test_id("chat-line").filter(has_text="Dana")).to_have_count(2)


def test_on_a_phone_the_chat_is_one_tap_away_with_the_unread_count(browser: Browser, server: Any) -> None:
    with browser_page(browser, server, locale="he-IL", width=375, height=812) as (_, page), ExitStack() as stack:
        ben, dana, _ = sit_with_people(page, server.url, stack, others=("בן", "דנה", "אלי"))
        toggle = page.get_by_test_id("chat-toggle")
        expect(page.get_by_test_id("chat")).to_be_hidden()
        expect(toggle).to_be_visible()
        assert say(ben, {"type": "chat", "text": "בהצלחה לכולם!"}, "b1")["type"] == "ack"
        assert say(dana, {"type": "react", "reaction": "sorry"}, "d1")["type"] == "ack"
        expect(toggle).to_have_attribute("data-unread", "2")
        expect(toggle).to_have_attribute("aria-label", "צ'אט, הודעות חדשות: 2")
        gal = guest_cookie(server.url, "גל")  # watching: the message is marked as a spectator's
        table_id = page.url.rsplit("/", 1)[-1]
        with connect_real(server.url, gal, table_id) as watcher:
            assert say(watcher, {"type": "chat", "text": "אני רק צופה"}, "g1")["type"] == "ack"
        expect(toggle).to_have_attribute("data-unread", "3")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "chat-375x812-he-unread.png"))  # the button with its count
        toggle.click()
        expect(page.get_by_test_id("chat")).to_be_visible()
        expect(toggle).to_have_attribute("data-unread", "0")
        assert lines(page) == ["בן: בהצלחה לכולם!", "דנה: סליחה!", "גל צופה: אני רק צופה"]
        expect(page.locator(".chat-line.spectator .chat-tag")).to_have_text("צופה")
        expect(page.get_by_test_id("chat-input")).to_be_focused()
        page.get_by_test_id("chat-input").fill("תודה!")
        no_axe_violation(page)
        page.screenshot(path=str(SCREENSHOTS / "chat-375x812-he.png"))
        page.get_by_test_id("chat-send").click()
        assert ben.until(lambda m: m["type"] == "chat" and m["message"].get("text") == "תודה!")
        page.get_by_test_id("chat-close").click()
        expect(page.get_by_test_id("chat")).to_be_hidden()
        expect(page.get_by_test_id("hand")).to_be_visible()


def test_the_creator_limits_the_chat_to_the_players(browser: Browser, server: Any) -> None:
    with browser_page(browser, server, width=1280, height=800) as (_, page), ExitStack() as stack:
        ben, _, _ = sit_with_people(page, server.url, stack)
        mode = page.get_by_test_id("chat-mode")
        expect(mode).to_be_visible()  # Noa made the table
        mode.select_option("seated")
        table_id = page.url.rsplit("/", 1)[-1]
        ben.until(lambda m: m["type"] == "state" and m["table"]["chat"] == "seated")
        with connect_real(server.url, guest_cookie(server.url, "Gal"), table_id) as watcher:
            assert watcher.state["table"]["chat"] == "seated"
            assert say(watcher, {"type": "chat", "text": "hi"}, "g1")["code"] == "chat_seated"
        assert say(ben, {"type": "chat_mode", "mode": "everyone"}, "b1")["code"] == "not_creator"
        mode.select_option("off")
        ben.until(lambda m: m["type"] == "state" and m["table"]["chat"] == "off")
        expect(page.get_by_test_id("chat-note")).to_have_text("The chat is off at this table.")
        expect(page.get_by_test_id("chat-input")).to_be_disabled()
        assert say(ben, {"type": "chat", "text": "hello?"}, "b2")["code"] == "chat_off"


def test_the_replay_shows_what_was_said_at_its_place(browser: Browser, server: Any) -> None:
    with browser_page(browser, server, width=1280, height=800) as (_, page):
        response = page.request.post(server.url + "/api/guest", data={"name": "Noa"})
        assert response.ok
        bot = {"kind": "bot", "level": "random"}
        response = page.request.post(server.url + "/api/tables", data={
            "game": "israeli", "options": {"hands": 1}, "seats": [bot] * 4, "take_seat": None})
        table_id = response.json()["id"]
        page.goto(f"{server.url}/table/{table_id}")
        page.get_by_test_id("chat-input").fill("First words")
        page.get_by_test_id("chat-send").click()
        expect(page.get_by_test_id("chat-line")).to_have_count(1)
        expect(page.locator("#table")).to_have_attribute("data-over", "true", timeout=60_000)
        page.get_by_test_id("react-one_more").click()
        expect(page.get_by_test_id("chat-line")).to_have_count(2)
        game = page.request.get(f"{server.url}/api/games/{table_id}").json()
        hand, step = place_of(game, game["chat"][0]["version"])
        page.goto(f"{server.url}/replay/{table_id}#hand={hand + 1}&step={step}")
        said = page.get_by_test_id("replay-chat")
        expect(said.locator(".chat-line")).to_have_count(1)
        assert lines(page, "replay-chat") == ["Noa watching: First words"]  # Noa only watched the bots
        if step > 0:  # a step before it: not said yet
            page.get_by_test_id("previous").click()
            expect(said.locator(".chat-line")).to_have_count(0)
            expect(said).to_have_text("Nothing was said up to this point.")
        page.get_by_test_id("hand-select").select_option(index=len(game["hands"]) - 1)
        page.get_by_test_id("last").click()
        expect(said.locator(".chat-line")).to_have_count(2)
        expect(said).to_contain_text("One more game?")


def place_of(game: Message, version: int) -> tuple[int, int]:
    """The replay's (hand, step) after ``version`` actions: each hand's steps are its deal and one per action."""
    before = 0
    for number, hand in enumerate(game["hands"]):
        actions = len(hand["steps"]) - 1
        if version <= before + actions:
            return number, version - before
        before += actions
    raise AssertionError(f"no place for version {version}")
