"""The installable app (``israeli_whist.server.webapp``): the manifest in both languages, the icons
it names at the sizes it says, the service worker served from the root with every static file to
keep, the offline page, and the Content Security Policy that lets the manifest and worker load."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from israeli_whist.server.app import STATIC, create_app
from israeli_whist.server.headers import CONTENT_SECURITY_POLICY
from israeli_whist.server.settings import ServerSettings
from israeli_whist.server.webapp import kept_files, worker_source


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


@pytest.mark.parametrize(("asked", "headers", "language", "name"), [
    ("?lang=he", {}, "he", "ויסט ישראלי"), ("?lang=en", {"Accept-Language": "he-IL"}, "en", "Israeli Whist"),
    ("", {"Accept-Language": "he-IL,he;q=0.9,en;q=0.8"}, "he", "ויסט ישראלי"), ("", {}, "en", "Israeli Whist"),
    ("?lang=xx", {"Accept-Language": "fr"}, "en", "Israeli Whist")])
def test_the_manifest_in_the_players_language(client: TestClient, asked: str, headers: dict[str, str],
                                              language: str, name: str) -> None:
    response = client.get("/manifest.webmanifest" + asked, headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    found = response.json()
    assert (found["name"], found["lang"], found["dir"]) == (name, language, "rtl" if language == "he" else "ltr")
    assert (found["start_url"], found["scope"], found["display"]) == ("/", "/", "standalone")
    assert found["theme_color"] == "#0b6b3a"


def test_every_icon_the_manifest_names_is_there_at_its_size(client: TestClient) -> None:
    icons = client.get("/manifest.webmanifest").json()["icons"]
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in icons}
    assert any(icon["purpose"] == "maskable" for icon in icons)
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        assert response.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            path = STATIC / icon["src"].removeprefix("/static/")
            with Image.open(path) as image:
                assert f"{image.width}x{image.height}" == icon["sizes"]
    favicon = client.get("/favicon.ico")
    assert favicon.headers["content-type"] == "image/png" and favicon.content.startswith(b"\x89PNG")


def test_the_worker_is_served_from_the_root_and_keeps_every_static_file(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    kept = kept_files(STATIC)
    assert {"/static/common.js", "/static/alerts.js", "/static/i18n/he.json", "/static/icons/icon-512.png",
            "/static/offline.html"} <= set(kept)
    for url in kept:
        assert f'"{url}"' in response.text
        assert client.get(url).status_code == 200, url
    assert '"/offline"' in response.text
    assert client.get("/offline").status_code == 200


def test_a_changed_static_file_is_a_new_worker(tmp_path: Path) -> None:
    for name in ("serviceworker.js", "common.js"):
        (tmp_path / name).write_text((STATIC / name).read_text())
    before = worker_source(tmp_path)
    (tmp_path / "common.js").write_text("// changed\n")
    after = worker_source(tmp_path)
    assert before.splitlines()[0] != after.splitlines()[0]  # the VERSION line
    assert before.splitlines()[1:] == after.splitlines()[1:]


def test_the_policy_lets_the_manifest_and_the_worker_load_from_here_only() -> None:
    assert "manifest-src 'self'" in CONTENT_SECURITY_POLICY
    assert "worker-src 'self'" in CONTENT_SECURITY_POLICY


def test_every_page_links_the_manifest_and_the_icon() -> None:
    for page in STATIC.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert '<link rel="manifest" href="/manifest.webmanifest">' in text, page.name
        assert 'href="data:,"' not in text and "/static/icons/icon.svg" in text, page.name
