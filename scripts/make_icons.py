"""Renders the app's icon, ``server/static/icons/icon.svg``, to the PNG sizes browsers ask for
(the manifest's 192 and 512, Apple's 180 touch icon, a 32 px favicon), with the system's Chromium.
The PNGs are committed; run this after changing the drawing:

    python3 scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "src" / "israeli_whist" / "server" / "static" / "icons"
SIZES = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180, "favicon-32.png": 32}


def main() -> None:
    drawing = (ICONS / "icon.svg").read_text()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for name, size in SIZES.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content('<style>html,body{margin:0}svg{display:block;width:100vw;height:100vh}</style>' + drawing)
            page.screenshot(path=str(ICONS / name), omit_background=False)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
