"""The site as an installable app, in the system's Chromium: the browser's own installability
check (the one Lighthouse's installability audit read, through the DevTools protocol) finds
nothing missing once the service worker runs; and with the network gone, a page opened again
is the offline page, in the player's language, saying that the table needs the connection."""

from __future__ import annotations

import time

from e2e_kit import RunningServer, browser_page
from playwright.sync_api import Browser, expect


def test_the_lobby_is_installable(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server) as (context, page):
        page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
        session = context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest["errors"]
        assert manifest["url"].endswith("/manifest.webmanifest?lang=en")
        # A Playwright context is a private window, which Chromium never installs from
        # ("in-incognito", which Lighthouse's audit also set aside): nothing else may be missing.
        found = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [error["errorId"] for error in found] == ["in-incognito"], found
        # The check finds what is missing: the same page without its manifest. The browser learns
        # of the removed link asynchronously (a check asked at once may read its cached answer), so
        # it is asked again until it notices, for a few seconds at most.
        page.evaluate("document.querySelector('link[rel=manifest]').remove()")
        deadline = time.monotonic() + 10
        while True:
            found = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
            if "no-manifest" in [error["errorId"] for error in found] or time.monotonic() > deadline:
                break
            page.wait_for_timeout(200)
        assert "no-manifest" in [error["errorId"] for error in found], found


def test_a_page_without_the_network_is_the_offline_page(browser: Browser, server: RunningServer) -> None:
    with browser_page(browser, server, locale="he-IL") as (context, page):
        page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # the worker controls the page from its next load
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.goto(server.url + "/table/anything")
        expect(page.get_by_test_id("offline-page")).to_be_visible()
        expect(page.locator("h1")).to_have_text("אין חיבור")
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        context.set_offline(False)
