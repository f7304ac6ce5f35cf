"""One sitting of a tercerilla as a Mexican family plays it: three people on phones, in
Spanish, a match of several deals and its rematch, with a spectator; the table checked at
every decision of every player against the frictions of NEWCOMER-ES (F1, F3-F6, F10, F11,
F13, F14's keys), and screenshots kept.

    python scripts/tercerilla_sitting.py OUTDIR [--deals 3]

Not a test (it plays a whole match at the server's own pace, several minutes): it prints
each check with what it saw and exits 1 if one failed.  Uses the page tests' helpers
(tests/test_web_browser_play.py) and Debian's Chromium.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402
from test_web_browser import CHROMIUM, SHARE_STUB  # noqa: E402
from test_web_browser_play import READY_JS, check_phone_layout, decide  # noqa: E402
from web_helpers import check_wire, sqlite_database  # noqa: E402

from conquian.tools.load import start_server  # noqa: E402

WAIT_MS = 60_000
PHONES = {"Ana": (390, 844), "Ben": (360, 640), "Cy": (390, 844), "Eve": (360, 640)}


def phone(browser: Any, who: str) -> Page:
    width, height = PHONES[who]
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=True,
        locale="es-MX",
    )
    page: Page = ctx.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))  # type: ignore[attr-defined]
    return page


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--deals", type=int, default=3)
    args = parser.parse_args()
    out: Path = args.outdir
    out.mkdir(parents=True, exist_ok=True)
    db = out / "sitting.sqlite3"
    db.unlink(missing_ok=True)
    proc, base = start_server(f"sqlite:///{db}", bot_delay=0.6)
    checks: dict[str, list[str]] = {}
    failures: list[str] = []

    def check(name: str, ok: bool, seen: str) -> None:
        checks.setdefault(name, []).append(("ok " if ok else "FAIL ") + seen)
        if not ok:
            failures.append(f"{name}: {seen}")

    frames: list[tuple[int | None, str]] = []
    started = time.monotonic()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
            )
            ana, ben, cy, eve = (phone(browser, w) for w in PHONES)
            players = {"Ana": ana, "Ben": ben, "Cy": cy}
            for seat, page in enumerate(players.values()):
                page.on(
                    "websocket",
                    lambda ws, seat=seat: ws.on(
                        "framereceived", lambda p, seat=seat: frames.append((seat, str(p)))
                    ),
                )
            ana.add_init_script(SHARE_STUB)
            # F3: their game first, the home page says it
            ana.goto(base + "/")
            first = ana.locator("#game-rules option").first.inner_text()
            check("F3 the Mexican game first", "tercerilla" in first, first)
            pitch = ana.locator("#pitch").inner_text()
            check("F3 the page's words follow it", "México" in pitch, pitch)
            ana.screenshot(path=str(out / "01-ana-home.png"))
            ana.fill("#name", "Ana")
            ana.select_option("#game-length", f"match=n_deals,match_target={args.deals}")
            ana.tap("#play-friend")
            table = ana.locator("#invite-table")
            expect(table).to_have_value(re.compile(r"#/join/"), timeout=WAIT_MS)
            link = table.input_value()
            ana.tap("#invite .share-link[data-for=invite-table]")
            shared = ana.wait_for_function("() => window.__shared").json_value()
            check("F11 one link, Compartir", link in shared["text"], shared["text"])
            watch = ana.locator("#watch-link").input_value()
            ana.screenshot(path=str(out / "02-ana-share.png"))
            for name, page in (("Ben", ben), ("Cy", cy)):
                page.goto(link)
                page.fill("#name", name)
                page.tap("#join-btn")
                expect(page).to_have_url(re.compile(r"#/g/"), timeout=WAIT_MS)
            eve.goto(watch)
            expect(eve.locator(".player.opp")).to_have_count(2, timeout=WAIT_MS)
            view = eve.locator("#game-view").inner_text()
            check(
                "F11 the spectator sees no hand and no 'a tu derecha'",
                eve.locator("#hand .card-btn").count() == 0 and "a tu derecha" not in view,
                f"{eve.locator('#hand .card-btn').count()} hand cards",
            )
            decisions: Counter[str] = Counter()
            shots = 0
            deals_seen = 0
            deadline = time.monotonic() + 60 * 20
            over = {name: False for name in players}
            waiting_for_card: dict[str, bool] = {}
            while not all(over.values()):
                if time.monotonic() > deadline:
                    failures.append("the match did not end in 20 minutes")
                    break
                moved = False
                for name, page in players.items():
                    if over[name]:
                        continue
                    ready = page.evaluate(READY_JS)
                    if not ready:
                        continue
                    if page.locator("#summary").count():
                        title = page.locator("#summary-title").bounding_box()
                        check(
                            "F13 the summary opens at its headline",
                            title is not None and 0 <= title["y"] < PHONES[name][1],
                            f"{name}: {title}",
                        )
                        if name == "Ana":
                            deals_seen += 1
                            page.screenshot(path=str(out / f"10-ana-deal-{deals_seen}-end.png"))
                        if page.locator("#summary-title").get_attribute("data-over") == "true":
                            over[name] = True
                            continue
                        page.tap("#btn-next")
                        moved = True
                        continue
                    if page.evaluate("document.getElementById('app').dataset.auto") == "scheduled":
                        continue  # the page declines for him, at the server's pace (F10)
                    try:
                        at = check_phone_layout(page)
                        check("F1 the whole table in sight", True, f"{name}")
                        check("F14 no keyboard hints on a phone", at["keys"] == 0, name)
                    except AssertionError as exc:
                        check("F1 the whole table in sight", False, f"{name}: {exc}")
                    kinds = page.locator("#actions button").evaluate_all(
                        "els => els.map(e => e.id).join('+')"
                    )
                    decisions[kinds] += 1
                    if page.locator("#btn-exchange").count() and shots < 3:
                        shots += 1
                        page.screenshot(path=str(out / f"03-{name}-exchange.png"))
                    if waiting_for_card.pop(name, False):  # his first decision after the exchange
                        marked = page.locator("#hand .card-btn.received").count()
                        check("F6 the card received is marked", marked == 1, f"{name}: {marked}")
                    decide(page, touch=True)
                    if kinds == "btn-exchange":
                        waiting_for_card[name] = True
                    moved = True
                if not moved:
                    ana.wait_for_timeout(200)
            eve.screenshot(path=str(out / "20-eve-watching.png"))
            # F4: la cuenta across the rematch
            ana.tap("#summary .btn-rematch[data-count=keep]")
            expect(ana.locator(".go-rematch, #hand .card-btn").first).to_be_visible(timeout=WAIT_MS)
            facts = json.loads(frames[-1][1]) if frames else {}
            check(
                "F4 a match of several deals was played", deals_seen >= args.deals, str(deals_seen)
            )
            check(
                "no page error",
                not any(p.errors for p in (ana, ben, cy, eve)),  # type: ignore[attr-defined]
                str([p.errors for p in (ana, ben, cy, eve)]),  # type: ignore[attr-defined]
            )
            wired = check_wire(sqlite_database(db), frames)
            check("no hidden card on the wire", wired > 0, f"{wired} state messages checked")
            print("decisions by kind:", dict(decisions), "facts:", bool(facts))
            browser.close()
    finally:
        proc.terminate()
    print(f"one sitting in {time.monotonic() - started:.0f} s")
    for name, seen in checks.items():
        bad = [s for s in seen if s.startswith("FAIL")]
        print(f"{'FAIL' if bad else 'ok  '} {name}: {len(seen)} checks", *bad[:3], sep="\n    ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
