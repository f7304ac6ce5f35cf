"""Take the screenshots of docs/images/ with a headless Chromium: python scripts/web_screenshots.py

Besides the home page, the game, the replay and the languages' pages: the table during play
at 1280x800 (``web-desktop.png``) and on a 390x844 phone (``web-phone-play.png``), a card in
flight (``web-move.png``: its animation paused half way with the Web Animations API), and
the French court cards (``web-french-court.png``).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

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
ASK_ME = 'localStorage.setItem("conquian.autoplay", "off");'
"""The screenshots show the player's own decisions: the page declines nothing by itself."""
PAUSE_HALF_WAY = """() => {
  const moving = document.getAnimations();
  for (const a of moving) { a.pause(); a.currentTime = 130; }
  return moving.length;
}"""
COURT_CARDS = """async () => {
  const { cardImage } = await import("/static/cards.js");
  const rows = ["s", "h", "d", "c"].map((suit) =>
    ["J", "Q", "K", "A", "7"].map((rank) => `<span class="card">${cardImage(rank + suit, "french")}</span>`).join(" "));
  document.getElementById("app").innerHTML =
    `<div id="gallery" class="board">${rows.map((r) => `<div class="table">${r}</div>`).join("")}</div>`;
  const gallery = document.getElementById("gallery");
  gallery.style.setProperty("--cw", "104px");
  gallery.style.setProperty("--ch", "146px");
}"""


SETTLE = "Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))"
"""Wait for the cards in flight to land (and the picked card to rise)."""
MOVED = """n => document.getElementById("app").dataset.seq !== n
  || !!document.getElementById("summary")"""
"""The move was answered: the page shows the next state (or the end of the deal)."""


def play_one(page: Page) -> bool:
    """Make one move in the page (take when possible) and wait for the server's answer;
    False when none is open."""
    page.wait_for_selector("#actions button:not([disabled]), #summary", timeout=20000)
    if page.locator("#summary").count():
        if "Game over" in page.inner_text("#summary-title"):
            return False
        page.click("#btn-next")
        page.wait_for_selector("#summary", state="detached")
        return True
    before = page.locator("#app").get_attribute("data-seq")
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
    page.wait_for_function(MOVED, arg=before, timeout=20000)
    return True


def shoot_play(browser: Browser, url: str) -> None:
    """The table at 1280x800 and on a phone, and a card in flight, in the game at ``url``."""
    desk = browser.new_page(viewport={"width": 1280, "height": 800})
    desk.add_init_script(ASK_ME)
    desk.goto(url)
    desk.wait_for_selector("#actions button:not([disabled])", timeout=20000)
    desk.evaluate(SETTLE)
    desk.screenshot(path=str(OUT / "web-desktop.png"))
    # a move, caught in flight: the next state's cards are animated; pause them half way
    desk.evaluate(
        """() => { window.__paused = 0;
          new MutationObserver(() => { window.__paused = Math.max(window.__paused,
            document.getAnimations().length); for (const a of document.getAnimations()) {
            a.pause(); a.currentTime = 130; } }).observe(document.getElementById("app"),
            {attributes: true, attributeFilter: ["data-seq"]}); }"""
    )
    for _ in range(12):
        play_one(desk)
        if desk.evaluate(PAUSE_HALF_WAY):
            break
    desk.screenshot(path=str(OUT / "web-move.png"))
    desk.close()
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.add_init_script(ASK_ME)
    phone = context.new_page()
    phone.goto(url)
    phone.wait_for_selector("#actions button:not([disabled])", timeout=20000)
    phone.evaluate(SETTLE)
    phone.screenshot(path=str(OUT / "web-phone-play.png"))
    context.close()


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
                page.add_init_script(ASK_ME)
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
                page.evaluate(SETTLE)
                page.screenshot(path=str(OUT / "web-game.png"))
                shoot_play(browser, page.url)
                page.bring_to_front()
                # another page of the same seat: it must not make the moves that leave no
                # choice by itself while this one plays on
                phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
                phone.add_init_script(ASK_ME)
                phone.goto(page.url)
                phone.wait_for_selector("#prompt")
                phone.evaluate(SETTLE)
                phone.screenshot(path=str(OUT / "web-phone.png"), full_page=True)
                phone.close()
                page.select_option("#deck", "spanish")
                page.evaluate(SETTLE)
                page.screenshot(path=str(OUT / "web-spanish.png"))
                page.select_option("#deck", "french")
                while play_one(page):
                    pass
                page.evaluate(SETTLE)
                page.screenshot(path=str(OUT / "web-game-over.png"))
                page.locator("#summary .over-buttons a", has_text="Replay").last.click()
                page.wait_for_selector("#rp-step")
                for _ in range(12):
                    page.keyboard.press("ArrowRight")
                page.screenshot(path=str(OUT / "web-replay.png"))
                court = browser.new_page(viewport={"width": 640, "height": 720})
                court.goto(base + "/#/rules")
                court.wait_for_selector("#rules-how h2")
                court.evaluate(COURT_CARDS)
                court.locator("#gallery").screenshot(path=str(OUT / "web-french-court.png"))
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
