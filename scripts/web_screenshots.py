"""Take the screenshots of docs/images/ with a headless Chromium: python scripts/web_screenshots.py"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from conquian.tools.load import start_server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
OUT = Path(__file__).resolve().parent.parent / "docs" / "images"


def play_one(page: Page) -> bool:
    """Make one move in the page (take when possible); False when none is open."""
    page.wait_for_selector("#actions button:not([disabled]), #summary", timeout=20000)
    if page.locator("#summary").count():
        if "Game over" in page.inner_text("#summary-title"):
            return False
        page.click("#btn-next")
        return True
    if page.locator("#btn-take").count():
        page.click("#btn-take")
        if page.locator(".choice").count():
            page.locator(".choice").first.click()
    elif page.locator("#btn-force").count():
        page.click("#btn-force")
    elif page.locator("#btn-discard").count():
        page.locator("#hand .card-btn").last.click()
        page.click("#btn-discard")
    elif page.locator("#btn-decline").count():
        page.click("#btn-decline")
    elif page.locator("#btn-pass").count():
        page.click("#btn-pass")
    page.wait_for_timeout(150)
    return True


def main() -> int:
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(f"sqlite:///{tmp}/shots.sqlite3", bot_delay=0.0)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                friend = browser.new_page()
                friend.goto(base + "/")
                friend.fill("#name", "Marisol")
                friend.check("#public")  # listed in the lobby that web-home.png shows
                friend.click("#play-friend")
                friend.wait_for_selector("#invite")
                page = browser.new_page(viewport={"width": 1280, "height": 860})
                page.goto(base + "/")
                page.fill("#name", "Ana")
                page.wait_for_selector("#lobby-list li")
                page.screenshot(path=str(OUT / "web-home.png"))
                page.click("#play-bot")
                page.wait_for_selector("#hand .card-btn")
                for _ in range(moves):
                    if not play_one(page):
                        break
                page.wait_for_selector("#actions button:not([disabled]), #summary")
                if page.locator("#hand .card-btn").count() > 1:
                    page.locator("#hand .card-btn").nth(1).click()
                page.screenshot(path=str(OUT / "web-game.png"))
                phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
                phone.goto(page.url)
                phone.wait_for_selector("#prompt")
                phone.screenshot(path=str(OUT / "web-phone.png"), full_page=True)
                page.select_option("#deck", "spanish")
                page.screenshot(path=str(OUT / "web-spanish.png"))
                page.select_option("#deck", "french")
                while play_one(page):
                    pass
                page.screenshot(path=str(OUT / "web-game-over.png"))
                page.locator("#summary .over-buttons a", has_text="Replay").last.click()
                page.wait_for_selector("#rp-step")
                for _ in range(12):
                    page.keyboard.press("ArrowRight")
                page.screenshot(path=str(OUT / "web-replay.png"))
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
