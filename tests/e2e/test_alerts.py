"""Turn alerts (``static/alerts.js``) at a real table of bots: the browser's sound, vibration and
notifications are stubbed by an init script that counts what the page asks for, and the page's
visibility and whether the player has clicked yet are faked the same way. A chime and a buzz come
when the turn becomes the player's, once they have clicked on the page and unless the sound is off
(remembered); a notification only while the page is hidden; nothing for the bots' turns in
between; and notifications are asked for on the first click, never on load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from e2e_kit import TIMEOUT_MS, RunningServer, browser_page
from playwright.sync_api import Browser, Page, expect

STUBS = """
window.asked = { sound: 0, vibrate: 0, notification: 0, permission: 0 };
window.pageHidden = false;
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => window.pageHidden });
Object.defineProperty(Document.prototype, "visibilityState",
  { configurable: true, get: () => (window.pageHidden ? "hidden" : "visible") });
let permission = "default";
class CountedNotification {
  constructor() { window.asked.notification += 1; }
  static get permission() { return permission; }
  static requestPermission() {
    window.asked.permission += 1;
    permission = "granted";
    return Promise.resolve(permission);
  }
}
window.Notification = CountedNotification;
ServiceWorkerRegistration.prototype.showNotification = function () {
  window.asked.notification += 1;
  return Promise.resolve();
};
const node = () => ({ connect: (next) => next, frequency: {},
  gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } });
class CountedAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = node(); this.notes = 0; }
  resume() { return Promise.resolve(); }
  createGain() { return node(); }
  createOscillator() {
    const oscillator = node();
    // One sound is two notes: counted at its first.
    oscillator.start = () => { if (this.notes++ % 2 === 0) window.asked.sound += 1; };
    oscillator.stop = () => {};
    return oscillator;
  }
}
window.AudioContext = CountedAudio;
// The browser's own "has the player clicked here yet" (a page Playwright opens starts with it set).
let clicked = false;
addEventListener("pointerdown", () => { clicked = true; }, true);
Object.defineProperty(Navigator.prototype, "userActivation",
  { configurable: true, get: () => ({ hasBeenActive: clicked, isActive: clicked }) });
Object.defineProperty(Navigator.prototype, "vibrate",
  { configurable: true, value: () => { window.asked.vibrate += 1; return true; } });
"""


# Long enough that the state after the player's move is seen before the bots' answers come.
BOT_DELAY = 0.8


@pytest.fixture
def table_page(browser: Browser, make_server: Callable[..., Any]) -> Iterator[Page]:
    server: RunningServer = make_server(bot_delay=BOT_DELAY)
    server.start()  # type: ignore[attr-defined]
    with browser_page(browser, server, width=1280, height=800) as (context, page):
        context.add_init_script(STUBS)
        response = page.request.post(server.url + "/api/guest", data={"name": "Dana"})
        assert response.ok, response.text()
        kinds = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
        response = page.request.post(server.url + "/api/tables", data={
            "game": "israeli", "options": {"hands": 3}, "seats": kinds, "take_seat": 0, "public": False})
        assert response.status == 201, response.text()
        page.goto(server.url + f"/table/{response.json()['id']}")
        yield page


def asked(page: Page) -> dict[str, int]:
    found: dict[str, int] = page.evaluate("() => ({...window.asked})")
    return found


def wait_for_my_turn(page: Page) -> None:
    expect(page.locator("#table[data-my-turn=true][data-pending=false]")).to_be_attached(timeout=TIMEOUT_MS * 2)


def move_until_the_turn_passes(page: Page) -> None:
    """The player's move (a pass, else the first call, else the first card that may be played),
    until the turn is another's: a Frisch takes three cards in one turn."""
    while page.locator("#table[data-my-turn=true]").count():
        version = page.locator("#table").get_attribute("data-version")
        choices = page.locator("#actions [data-name=pass], #actions button.action, #hand .card:not([disabled])")
        choices.first.click()
        expect(page.locator("#table")).not_to_have_attribute("data-version", version or "", timeout=TIMEOUT_MS * 2)


def the_next_turn(page: Page, hidden: bool) -> dict[str, int]:
    """A move, the bots' moves, and what was asked for once it is the player's turn again."""
    move_until_the_turn_passes(page)
    page.evaluate(f"window.pageHidden = {str(hidden).lower()}")
    wait_for_my_turn(page)
    page.wait_for_timeout(300)  # a notification is sent after a look for the service worker
    return asked(page)


def test_alerts_on_the_players_turn_only_and_as_set(table_page: Page) -> None:
    page = table_page
    wait_for_my_turn(page)
    page.wait_for_timeout(300)
    # Before any click: nothing (the browser would block the sound), and no permission asked on load.
    assert asked(page) == {"sound": 0, "vibrate": 0, "notification": 0, "permission": 0}
    # Shown, with the sound on: a chime and a buzz, no notification; the bots' three or more moves in
    # between alerted nothing; the first click asked whether notifications may be shown.
    assert the_next_turn(page, hidden=False) == {"sound": 1, "vibrate": 1, "notification": 0, "permission": 1}
    # Hidden: a notification too.
    assert the_next_turn(page, hidden=True) == {"sound": 2, "vibrate": 2, "notification": 1, "permission": 1}
    toggle = page.get_by_test_id("sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.evaluate("window.pageHidden = false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    # Muted and shown: nothing at all.
    assert the_next_turn(page, hidden=False) == {"sound": 2, "vibrate": 2, "notification": 1, "permission": 1}
    # Muted and hidden: the notification alone.
    assert the_next_turn(page, hidden=True) == {"sound": 2, "vibrate": 2, "notification": 2, "permission": 1}
    # The mute is remembered: after a reload the switch shows it off, and a turn after a move is silent.
    page.evaluate("window.pageHidden = false")
    page.reload()
    expect(page.get_by_test_id("sound-toggle")).to_have_attribute("aria-pressed", "false")
    wait_for_my_turn(page)
    assert the_next_turn(page, hidden=False)["sound"] == 0
