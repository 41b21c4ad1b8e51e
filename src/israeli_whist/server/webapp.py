"""What makes the site an installable app: its manifest, its icons, and a service worker.

- ``/manifest.webmanifest``: the app's name, direction and language in the player's language
  (``?lang=he|en``, which the pages add from the language they show; else the browser's
  ``Accept-Language``), the felt's colour, the lobby as the start, and the icons of
  ``static/icons`` (drawn in ``icon.svg``; ``scripts/make_icons.py`` renders the PNGs).
- ``/sw.js``: the service worker (``static/serviceworker.js``), served from the root so that its
  scope is the whole site, with the list of static files to keep and a version made from their
  contents: a changed file is a changed worker, which the browser installs anew. The worker asks
  the network first, as the pages do (``Cache-Control: no-cache``: an old script must not run
  against a new server), and falls back to its copies only when the network fails; a page it
  cannot fetch is answered with ``/offline``, which says that the table needs the connection.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

THEME_COLOUR = "#0b6b3a"  # the felt (style.css's --felt)
BACKGROUND_COLOUR = "#fafaf7"  # the paper (--paper)
NAMES = {"en": ("Israeli Whist", "Whist"), "he": ("ויסט ישראלי", "ויסט")}
DESCRIPTIONS = {"en": "Play Israeli Whist, Classic Whist and Whistiti with friends or bots.",
                "he": "ויסט ישראלי, ויסט קלאסי וויסטיטי, עם חברים או עם בוטים."}
ICONS = [{"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
         {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
         # The drawing keeps its card inside the middle 80% circle: a phone may crop it to its shape.
         {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
         {"src": "/static/icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}]
# What the worker keeps, besides the static files: the offline page, and what every page links.
KEPT_ROUTES = ["/offline", "/favicon.ico"]
WORKER_MEDIA_TYPE = "text/javascript"
MANIFEST_MEDIA_TYPE = "application/manifest+json"


def manifest(language: str) -> dict[str, Any]:
    """The manifest in ``language`` (``en`` or ``he``)."""
    name, short_name = NAMES[language]
    return {"name": name, "short_name": short_name, "description": DESCRIPTIONS[language], "lang": language,
            "dir": "rtl" if language == "he" else "ltr", "id": "/", "start_url": "/", "scope": "/",
            "display": "standalone", "theme_color": THEME_COLOUR, "background_color": BACKGROUND_COLOUR,
            "icons": ICONS}


def language_of(request: Request) -> str:
    """``?lang=`` when it names one of ours; else Hebrew when the browser puts it first, as the
    pages choose (``common.js``: Hebrew if the browser's language starts with it)."""
    asked = request.query_params.get("lang")
    if asked in NAMES:
        return asked
    first = request.headers.get("accept-language", "").split(",", 1)[0].strip().lower()
    return "he" if first.startswith(("he", "iw")) else "en"


def kept_files(static: Path) -> list[str]:
    """The URLs of every static file the worker keeps (the worker's own source aside), sorted."""
    return sorted(f"/static/{path.relative_to(static).as_posix()}" for path in static.rglob("*")
                  if path.is_file() and path.name != "serviceworker.js" and not path.name.startswith("."))


def worker_source(static: Path) -> str:
    """``/sw.js``: the list of what to keep and its version, then the worker itself."""
    kept = kept_files(static) + KEPT_ROUTES
    digest = hashlib.sha256()
    for url in kept_files(static):
        digest.update(url.encode() + b"\0" + (static / url.removeprefix("/static/")).read_bytes())
    body = (static / "serviceworker.js").read_text(encoding="utf-8")
    digest.update(body.encode())
    return (f"const VERSION = {json.dumps(digest.hexdigest()[:16])};\n"
            f"const KEPT = {json.dumps(kept)};\n{body}")


def install_webapp(app: FastAPI, static: Path, revalidate: str) -> None:
    """The manifest's and the worker's routes (``revalidate``: the pages' ``Cache-Control``)."""

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def web_manifest(request: Request) -> Response:
        return JSONResponse(manifest(language_of(request)), media_type=MANIFEST_MEDIA_TYPE,
                            headers={"Cache-Control": revalidate, "Vary": "Accept-Language"})

    source = worker_source(static)  # once: the static files are the package's, unchanged while it runs

    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> Response:
        return Response(source, media_type=WORKER_MEDIA_TYPE, headers={"Cache-Control": revalidate})
