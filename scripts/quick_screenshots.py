"""Take the screenshots of play now (docs/images/web-es-quick-*.png) in a headless Chromium,
in Spanish: python scripts/quick_screenshots.py

Ana presses *Jugar ahora* for the Mexican two-player game and waits (the wait, 390x844);
Ben presses it too and they sit at one table, its clock beside the name of the one who
decides (360x640); Ana opens the phrases of table talk (390x844) and says one, which Ben
sees beside her name (360x640); Ben presses her name: the form to report or block her.
Then Ben closes his tab: Ana sees him disconnected, with the time he has to come back, then
the offer to claim the match, and the match claimed (390x844; the server's grace is 15 s).
Last, a friends' table whose host lets the players write: Ana writes a line, Ben reads it
(360x640).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from conquian.tools.load import start_server

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def shot(page: Page, name: str) -> None:
    page.wait_for_timeout(300)  # the page's fade-in (a picture, not a test)
    page.screenshot(path=str(OUT / f"web-es-quick-{name}.png"))
    print("wrote", f"web-es-quick-{name}.png")


def main() -> int:
    folder = Path(tempfile.mkdtemp())
    proc, base = start_server(f"sqlite:///{folder / 'games.sqlite3'}", args=["--grace", "15"])
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            ana = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            ben = browser.new_context(viewport={"width": 360, "height": 640}).new_page()
            ana.goto(base + "/?lang=es")
            ana.fill("#name", "Ana")
            shot(ana, "390-home")
            ana.select_option("#quick-form", "mexican2")
            ana.click("#play-now")
            ana.wait_for_selector("#quick-cancel")
            ana.wait_for_function("document.getElementById('quick-waited').textContent !== ''")
            shot(ana, "390-waiting")
            ben.goto(base + "/?lang=es")
            ben.fill("#name", "Ben")
            ben.select_option("#quick-form", "mexican2")
            ben.click("#play-now")
            for page in (ana, ben):
                page.wait_for_selector(".who .clock", timeout=20000)
            shot(ben, "360-table")
            ana.click("#talk-btn")
            shot(ana, "390-talk")
            ana.click("#talk-palette [data-say=nice]")
            ben.wait_for_selector(".player.opp .talk")
            shot(ben, "360-said")
            ben.click(".player.opp button.name")
            ben.wait_for_selector("#conduct")
            shot(ben, "360-report")
            ben.close()
            ana.wait_for_selector(".player.opp .badge.gone .clock")
            shot(ana, "390-gone")
            ana.wait_for_selector("#claim-btn", timeout=40000)
            shot(ana, "390-claim")
            ana.click("#claim-btn")
            ana.wait_for_selector("#prompt:has-text('reclam')")
            shot(ana, "390-claimed")
            # a friends' table whose host lets the players write
            ana.goto(base + "/?lang=es")
            ana.select_option("#game-rules", "mexican,num_players=2")
            ana.check("#chat-friends")
            ana.click("#play-friend")
            link = ana.locator("#invite-table")
            link.wait_for()
            while "#/join/" not in link.input_value():
                ana.wait_for_timeout(100)
            ben = browser.new_context(viewport={"width": 360, "height": 640}).new_page()
            ben.goto(link.input_value().replace("/#/", "/?lang=es#/"))
            ben.fill("#name", "Ben")
            ben.click("#join-btn")
            try:
                ben.wait_for_selector("#hand .card-btn")
            except Exception:
                ben.screenshot(path="/tmp/ben-fail.png")
                ana.screenshot(path="/tmp/ana-fail.png")
                raise
            ana.wait_for_selector("#hand .card-btn")
            ana.click("#talk-btn")
            ana.fill("#talk-text", "¿Otra partida después de esta? Ya casi me toca ganar 😄")
            shot(ana, "390-write")
            ana.click("#talk-line button[type=submit]")
            ben.wait_for_selector(".player.opp .talk.written")
            shot(ben, "360-written")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
