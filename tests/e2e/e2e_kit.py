"""What the browser tests share: a page on the running server that fails its test if the page
throws or breaks the server's Content Security Policy (an inline style or script, which the
policy blocks: the page would be missing it), and is closed however the test ends."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from playwright.sync_api import Browser, BrowserContext, Page

TIMEOUT_MS = 15_000  # a loaded two-core machine can take more than Playwright's defaults


def chromium_path() -> str:
    path = os.environ.get("WHIST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("End-to-end tests need Debian's chromium package (apt-get install chromium)")
    return path


class RunningServer(Protocol):
    url: str

    def restart(self) -> None: ...


@contextmanager
def browser_page(browser: Browser, server: RunningServer, *, locale: str = "en-US", width: int = 1000,
                 height: int = 800) -> Iterator[tuple[BrowserContext, Page]]:
    """A new browser context (its own cookies: its own guest) on the lobby page."""
    context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors = watch(context, page)
    page.goto(server.url + "/")
    try:
        yield context, page
        assert not errors, errors
    finally:
        context.close()


def watch(context: BrowserContext, page: Page) -> list[str]:
    """What the test must not see, as it happens: the page's uncaught errors, and what the
    Content Security Policy blocked on every page of the context (those a test opens later too;
    Chromium reports it as a console error: "Refused to apply inline style because it violates ...")."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    context.on("console", lambda message: errors.append(message.text)
               if "Content Security Policy" in message.text else None)
    return errors
