"""Screenshots of a game in the browser in every language: docs/images/web-<code>-desktop.png
(kn, hr, tr, ru; Spanish also at phone size as web-es-*.png).

    python scripts/language_screenshots.py [OUT_DIR]

Starts a server of its own on SQLite, plays a few moves against the computer in each
language (the page's language chosen by the browser's locale), asks for a hint and
photographs the table. Needs the test extras (Playwright and Debian's Chromium).
"""

from __future__ import annotations

import sys
from pathlib import Path
from tempfile import TemporaryDirectory

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from test_web_browser import ARGS, CHROMIUM, game_over, move, wait_for_news  # noqa: E402

from conquian.tools.load import start_server  # noqa: E402

NAMES = {"es": "Ana", "kn": "ಅನಾ", "hr": "Ana", "tr": "Ayşe", "ru": "Аня"}
LOCALES = {"es": "es-MX", "kn": "kn-IN", "hr": "hr-HR", "tr": "tr-TR", "ru": "ru-RU"}


def play_until_a_choice(page: Page, moves: int) -> None:
    """Play ``moves`` moves, then on to a decision where a hint names a card."""
    done = 0
    for _ in range(200):
        if game_over(page) or page.locator("#summary").count():
            return
        ready = page.locator("#btn-discard, #btn-take").count()
        if done >= moves and ready:
            break
        if move(page, use_keys=False):
            done += 1
        else:
            wait_for_news([page])
    if page.locator("#btn-hint").count():
        page.click("#btn-hint")
        page.wait_for_selector(".hint")


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with TemporaryDirectory() as tmp:
        proc, base = start_server(f"sqlite:///{tmp}/shots.sqlite3", bot_delay=0.0)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for code in ("kn", "hr", "tr", "ru"):
                    ctx = browser.new_context(
                        locale=LOCALES[code], viewport={"width": 1280, "height": 800}
                    )
                    page = ctx.new_page()
                    page.goto(base + "/")
                    page.wait_for_selector("#play-bot")
                    page.fill("#name", NAMES[code])
                    page.click("#play-bot")
                    page.wait_for_selector("#hand .card-btn")
                    play_until_a_choice(page, 6)
                    page.evaluate("window.scrollTo(0, 0)")
                    assert page.evaluate("document.documentElement.lang") == code
                    path = out / f"web-{code}-desktop.png"
                    page.screenshot(path=str(path))
                    print(path)
                    ctx.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
