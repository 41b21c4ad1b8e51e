"""Lighthouse and axe-core on every page of the web app, as a player sees it.

Starts ``whist serve`` on a free port with a throwaway data folder, makes what the pages show
(``page_tour.make_tour``: a guest, a table in the auction, one in the play, a finished game with
its analysis, a score sheet with hands), then:

- **Lighthouse** (``bench/lighthouse``, pinned by its ``package-lock.json``; ``npm ci`` there
  installs it) on each page, on the system's Chromium (``CHROME_PATH``), headless: its mobile
  preset with the browser in Hebrew, its desktop preset in English. Printed: the four category
  scores (performance, accessibility, best practices, SEO) of each page and preset and its
  cumulative layout shift (the most of the runs), the audits that cost points, and in brackets
  Lighthouse's advice that counts for no score. Chromium resolves no host name but 127.0.0.1
  (``--host-resolver-rules``), so neither it nor the page can reach anything beyond the server;
  every request Lighthouse saw is checked to be to that server, and Lighthouse sends no error
  reports.
- **axe-core** (the same check as ``tests/e2e/test_accessibility.py``, WCAG 2.1 A and AA) on each
  page in Hebrew at 375x812 and in English at 1280x800: the violations by impact, and in
  brackets those of axe's own best practices, which are not WCAG's.

Lighthouse's performance score is measured on this machine's cores with its simulated mobile
network and CPU: compare runs made on one machine. The figures are in docs/benchmarks.md.

Run:  (cd bench/lighthouse && npm ci) && python bench/page_audit.py [--pages lobby,replay]
          [--presets mobile,desktop] [--runs 1] [--report out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

# bench/ is on the path
from page_tour import BLOCKING, WCAG_TAGS, Tour, TourPage, audit_context, axe_results, make_tour, served

LIGHTHOUSE_DIR = Path(__file__).resolve().parent / "lighthouse"
LIGHTHOUSE = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
# Lighthouse 12 on a newer Chromium now and then fails to record its trace ("NO_NAVSTART"): tried again.
TRIES = 3
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
# Lighthouse's two presets, each with the language the pages are seen in (they follow the browser's)
# and the viewport of the axe check made beside it (Lighthouse's own are 412x823 and 1350x940).
PRESETS = {"mobile": ("he-IL", 375, 812), "desktop": ("en-US", 1280, 800)}
# No host resolves but the server's: the browser reaches nothing beyond 127.0.0.1.
OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


def chromium() -> str:
    path = os.environ.get("CHROME_PATH") or os.environ.get("WHIST_CHROMIUM") or "/usr/bin/chromium"
    if not Path(path).exists():
        raise SystemExit(f"Chromium not found at {path}: apt-get install chromium, or set CHROME_PATH")
    return path


# Lighthouse -----------------------------------------------------------------------------------------

def lighthouse(tour: Tour, page: TourPage, preset: str, folder: Path) -> dict[str, Any]:
    """One Lighthouse run of ``page``: its JSON result."""
    output = folder / f"{page.name}-{preset}.json"
    offline = OFFLINE.replace("=", '="', 1) + '"'  # quoted: Lighthouse splits its Chrome flags at spaces
    flags = ["--headless=new", "--no-sandbox", f"--accept-lang={PRESETS[preset][0]}", offline]
    command = [str(LIGHTHOUSE), tour.url + page.path, "--output=json", f"--output-path={output}", "--quiet",
               f"--only-categories={','.join(CATEGORIES)}", "--no-enable-error-reporting",
               f"--chrome-flags={' '.join(flags)}"]
    if preset == "desktop":
        command.append("--preset=desktop")
    if page.signed_in:
        command.append("--extra-headers=" + json.dumps({"Cookie": f"whist_session={tour.cookie}"}))
    for _ in range(TRIES):
        output.unlink(missing_ok=True)
        done = subprocess.run(command, env={**os.environ, "CHROME_PATH": chromium()}, capture_output=True, text=True,
                              timeout=300)
        if done.returncode == 0 and output.exists():
            break
    else:
        raise RuntimeError(f"lighthouse failed {TRIES} times on {page.name} ({preset}): {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(output.read_text())
    outside = [r["url"] for r in result["audits"]["network-requests"]["details"]["items"]
               if not r["url"].startswith((tour.url + "/", "data:", "ws://127.0.0.1"))]
    assert not outside, f"requests beyond the server: {outside}"
    return result


def scores(result: dict[str, Any]) -> dict[str, int]:
    return {name: round(100 * result["categories"][name]["score"]) for name in CATEGORIES}


def findings(result: dict[str, Any], weighed: bool) -> list[str]:
    """The audits the page failed, each once with its value where it has one: those that cost it
    points (``weighed``), or Lighthouse's advice that counts for no score."""
    found = []
    for name in CATEGORIES:
        for ref in result["categories"][name]["auditRefs"]:
            audit = result["audits"][ref["id"]]
            if (ref["weight"] > 0) == weighed and audit["score"] is not None and audit["score"] < 1:
                value = f" {audit['displayValue']}" if audit.get("displayValue") else ""
                found.append(f"{ref['id']}{value}")
    return found


# axe-core -------------------------------------------------------------------------------------------

def axe_summary(tour: Tour, pages: list[TourPage], presets: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """For each page and preset: the count of violations by impact, and the rules broken."""
    summary: dict[str, dict[str, dict[str, Any]]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox", OFFLINE])
        try:
            for page in pages:
                for preset in presets:
                    locale, width, height = PRESETS[preset]
                    context = audit_context(browser, tour, page, locale=locale, width=width, height=height)
                    try:
                        tab = context.new_page()
                        tab.goto(tour.url + page.path)
                        tab.locator(page.ready).first.wait_for(timeout=30_000)
                        violations = axe_results(tab, [*WCAG_TAGS, "best-practice"])["violations"]
                    finally:
                        context.close()
                    wcag = [v for v in violations if "best-practice" not in v["tags"]]
                    summary.setdefault(page.name, {})[preset] = {
                        "impacts": dict(Counter(v["impact"] for v in wcag)),
                        "rules": sorted(f"{v['id']} ({v['impact']})" for v in wcag),
                        "best_practice": sorted(f"{v['id']} ({v['impact']})" for v in violations if v not in wcag)}
        finally:
            browser.close()
    return summary


# The run --------------------------------------------------------------------------------------------

def run(args: argparse.Namespace) -> dict[str, Any]:
    if not LIGHTHOUSE.exists():
        raise SystemExit(f"Lighthouse is not installed: (cd {LIGHTHOUSE_DIR} && npm ci)")
    presets = args.presets.split(",")
    with tempfile.TemporaryDirectory(prefix="whist-audit-") as name, served(Path(name)) as url:
        folder = Path(name)
        tour = make_tour(url)
        wanted = args.pages.split(",") if args.pages else [p.name for p in tour.pages]
        pages = [p for p in tour.pages if p.name in wanted]
        report: dict[str, Any] = {"lighthouse": {}, "axe": {}}
        for page in pages:
            for preset in presets:
                results = [lighthouse(tour, page, preset, folder) for _ in range(args.runs)]
                runs = [scores(r) for r in results]
                median = {c: round(statistics.median(r[c] for r in runs)) for c in CATEGORIES}
                report["lighthouse"].setdefault(page.name, {})[preset] = {
                    "scores": median, "runs": runs, "findings": sorted({f for r in results for f in findings(r, True)}),
                    "advice": sorted({f for r in results for f in findings(r, False)}),
                    # the most the page moved of itself in any run (a score of 100 hides anything under 0.1)
                    "cls": max(r["audits"]["cumulative-layout-shift"]["numericValue"] for r in results)}
                print(f"{page.name:17} {preset:8} " + "  ".join(f"{c} {median[c]:3}" for c in CATEGORIES)
                      + f"  CLS {report['lighthouse'][page.name][preset]['cls']:.3f}", flush=True)
        report["axe"] = axe_summary(tour, pages, presets)
    print_report(report, presets)
    return report


def print_report(report: dict[str, Any], presets: list[str]) -> None:
    print("\nLighthouse (median of the runs; the audits that cost points, [and advice that counts for none]):")
    print(f"| page | preset | {' | '.join(CATEGORIES)} | CLS |")
    print("|" + " --- |" * (3 + len(CATEGORIES)))
    for page, by_preset in report["lighthouse"].items():
        for preset, found in by_preset.items():
            print(f"| {page} | {preset} | " + " | ".join(str(found["scores"][c]) for c in CATEGORIES)
                  + f" | {found['cls']:.3f} |")
    for page, by_preset in report["lighthouse"].items():
        for preset, found in by_preset.items():
            print(f"  {page} {preset}: {', '.join(found['findings']) or 'nothing'} [{', '.join(found['advice'])}]")
    print("\naxe-core, WCAG 2.1 A and AA (violations by impact; Hebrew 375x812, English 1280x800),"
          " [and axe's best practices, not WCAG's]:")
    blocking = 0
    for page, by_preset in report["axe"].items():
        for preset in presets:
            found = by_preset[preset]
            blocking += sum(found["impacts"].get(impact, 0) for impact in BLOCKING)
            print(f"  {page} {preset}: {found['impacts'] or 'none'} {', '.join(found['rules'])}"
                  f" [{', '.join(found['best_practice'])}]")
    print(f"serious or critical axe violations: {blocking}")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", default="", help="comma-separated page names (default: every page)")
    parser.add_argument("--presets", default="mobile,desktop", help="Lighthouse presets: mobile, desktop or both")
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs of each page and preset (the median)")
    parser.add_argument("--report", default=None, help="also write the figures to this JSON file")
    args = parser.parse_args()
    for preset in args.presets.split(","):
        if preset not in PRESETS:
            parser.error(f"unknown preset {preset!r}: mobile or desktop")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return args


def main() -> None:
    args = parse_arguments()
    report = run(args)
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
