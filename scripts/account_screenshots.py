"""Take the screenshots of who you are (docs/images/web-es-account-*.png) in a headless
Chromium, in Spanish, at phone sizes and on a desktop: python scripts/account_screenshots.py

Lupe arrives as a guest (the account page offers to keep her player), keeps it with a
password (her ten recovery codes shown once), and looks at her account, the sign-in page of
another phone, her profile there (a finished game against the computer, and ratings written
straight to the store: ten rated games of tercerilla), and the review of her moves in that
game, opened on that phone from her profile (her seat, known by her cookie).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from websockets.sync.client import connect

from conquian.tools.load import start_server
from conquian.web.database import open_store
from conquian.web.schema import PlayerRow

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
PHONES = {"390": {"width": 390, "height": 844}, "360": {"width": 360, "height": 640}}


def shot(page: Page, name: str, full: bool = False) -> None:
    page.wait_for_timeout(300)  # the toast's and the page's fade-in (a picture, not a test)
    page.screenshot(path=str(OUT / f"web-es-account-{name}.png"), full_page=full)
    print("wrote", f"web-es-account-{name}.png")


def rate(db: str, player: str) -> None:
    """Ten rated games of tercerilla for ``player`` (against two made-up players)."""

    async def run() -> None:
        store = open_store(db)
        try:
            for rival, name in (("rival-one", "Chuy"), ("rival-two", "Mago")):
                await store.add_player(PlayerRow(rival, name, True, 0.0, 0.0))
            rng = random.Random(4)
            for number in range(10):
                balances = rng.sample([2, -1, -1], 3)
                ids = [player, "rival-one", "rival-two"]
                await store.rate_match(
                    f"shot-{number}", "tercerilla", list(zip(ids, balances, strict=True))
                )
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as apart:  # (this thread runs Playwright's event loop)
        apart.submit(asyncio.run, run()).result()


def finish_a_game(page: Page, base: str) -> None:
    """One deal against the easy computer, made with ``page``'s cookies, played at random."""
    rules = "standard,match=n_deals,match_target=1"
    made = page.request.post(
        base + "/api/games", data={"mode": "bot", "level": "easy", "rules": rules}
    ).json()
    rng = random.Random(1)
    with connect(base.replace("http", "ws", 1) + f"/ws/{made['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        sent = 0
        while True:
            msg = json.loads(ws.recv(30))
            if msg["type"] != "state" or msg["obs"] is None:
                continue
            if msg["last"] is not None:
                return  # the deal is over
            legal = msg["obs"]["legal_actions"]
            if legal and msg.get("ack", sent) == sent:
                time.sleep(0.06)  # under the server's 20 messages a second
                sent += 1
                ws.send(json.dumps({"type": "act", "action": rng.choice(legal), "id": sent}))


def main() -> int:
    folder = Path(tempfile.mkdtemp())
    db = f"sqlite:///{folder / 'games.sqlite3'}"
    proc, base = start_server(db, bot_delay=0.0, args=["--rate-limit", "off"])
    base = base.replace("127.0.0.1", "localhost")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            lupe = browser.new_context(viewport=PHONES["390"])
            page = lupe.new_page()
            page.goto(base + "/?lang=es#/account")
            page.wait_for_selector("#add-passkey")
            page.fill("#me-name", "Lupe")
            page.click("#name-form button")
            page.wait_for_selector("#add-passkey")
            shot(page, "390-guest")
            page.click("#password-box summary")
            page.fill("#login", "lupe.ortiz")
            page.fill("#password", "tamales de elote")
            page.click("#password-form button[type=submit]")
            page.wait_for_selector("#codes li")
            shot(page, "390-codes")
            page.click("#codes-done")
            me = page.evaluate("() => fetch('/api/me').then((r) => r.json())")
            rate(db, me["id"])
            finish_a_game(page, base)
            page.goto(base + "/?lang=es#/account")
            page.wait_for_selector("#sign-out")
            small = browser.new_context(viewport=PHONES["360"])
            other = small.new_page()
            other.goto(base + "/?lang=es#/signin")
            other.wait_for_selector("#password-sign-in")
            shot(other, "360-signin")
            other.fill("#login", "Lupe.Ortiz")
            other.fill("#password", "tamales de elote")
            other.click("#password-sign-in button[type=submit]")
            other.wait_for_selector("#sign-out")
            shot(other, "360-account", full=True)
            other.goto(base + f"/?lang=es#/player/{me['id']}")
            other.wait_for_selector("table.ratings")
            shot(other, "360-profile")
            other.click("#profile-games a[href^='#/mine/']")
            other.click("#btn-review", timeout=20000)
            other.wait_for_selector("#review[data-state=done]", timeout=20000)
            other.locator("#review").scroll_into_view_if_needed()
            shot(other, "360-review")
            desk = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
            desk.goto(base + f"/?lang=es#/player/{me['id']}")
            desk.wait_for_selector("table.ratings")
            shot(desk, "desktop-profile")
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
