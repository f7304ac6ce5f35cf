"""The browser page as a player meets it: a whole deal on a phone, the moves the page makes
by itself, hints the creator turned off, the page without a network, and reduced motion.

A real ``conquian serve`` process and Debian's Chromium, as in ``test_web_browser.py`` (whose
fixtures these tests share); every wait is for an event of the page, never for a time.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    FloatRect,
    Page,
    Route,
    WebSocket,
    expect,
)
from starlette.testclient import TestClient
from test_web_browser import CSP_WATCH, WAIT_MS, browser, csp_violations, served
from web_helpers import TestDatabase, check_wire, hello, sqlite_database

from conquian.web.app import create_app

__all__ = ["browser", "served"]  # the shared fixtures

PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}

READY_JS = """() => !!document.getElementById("summary")
  || (document.querySelector("#actions button:not([disabled])") !== null
      && document.getElementById("app").dataset.auto !== "scheduled")"""
"""The page waits for this player's decision (or shows the end of a deal): the moves it makes
by itself are made."""

MOVED_JS = """n => document.getElementById("app").dataset.seq !== n
  || !!document.getElementById("summary")"""

SETTLED_JS = "Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))"
"""Wait for every animation of the page to end."""

BOXES_JS = """
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {what: el.id || el.className || el.tagName, left: r.left, top: r.top,
            right: r.right, bottom: r.bottom, width: r.width, height: r.height};
  };
  // the first ancestor that clips the element (its overflow is not visible) and cuts it
  const clipper = (el) => {
    const r = el.getBoundingClientRect();
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const b = a.getBoundingClientRect();
      if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5 || r.right > b.right + 0.5)
        return a.id || a.className;
    }
    return null;
  };
"""
"""The layout checks' helpers: an element's box, and the ancestor that cuts it off."""

PHONE_LAYOUT_JS = (
    """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
"""
    + BOXES_JS
    + """
  const root = document.scrollingElement;
  // what a player looks at: every card of every table (yours too), every dead card, the
  // centre, the prompt, a hint open, the buttons and the hand; and the header's controls
  const seen = [...document.querySelectorAll(
    "#hand, #hand .card-btn, #actions button, #prompt, #centre, #dead .chip, .field .table .card, .player.me, .hint, .lesson, header.top > *, header.top nav > *")].filter(shown);
  // a box that scrolls inside the page: what it hides, a player has no reason to look for
  const scrollers = [...document.querySelectorAll("main *")].filter((el) =>
    shown(el) && el.scrollHeight > el.clientHeight + 1 && ["auto", "scroll"].includes(getComputedStyle(el).overflowY));
  return {
    width: innerWidth, height: innerHeight,
    scroll: [scrollX, scrollY, root.scrollWidth, root.scrollHeight],
    seen: seen.map(box),
    tables: [...document.querySelectorAll(".field .table")].map((t) => t.querySelectorAll(".card").length),
    dead: [document.querySelectorAll("#dead .chip").length, [...document.querySelectorAll("#dead .chip")].filter(shown).length],
    clipped: seen.map((el) => [el.id || el.className, clipper(el)]).filter(([, by]) => by),
    scrollers: scrollers.map((el) => el.id || el.className),
    targets: [...document.querySelectorAll(
      "#hand .card-btn, #actions button, #btn-side, #centre-take, .choice, #btn-cancel, #sound")].filter(shown).map(box),
    keys: [...document.querySelectorAll("kbd")].filter(shown).length,
  };
}"""
)


def check_phone_layout(page: Page) -> dict[str, Any]:
    """The whole table in the screen (NEWCOMER-ES F1): every card of every table (yours
    included), every dead card, the centre, the prompt, an open hint, the buttons, the hand
    and the header's controls inside it and cut by nothing, no box that scrolls and nothing
    to scroll, each button a finger's size, no keyboard hint (once the cards in flight have
    landed)."""
    page.evaluate(SETTLED_JS)
    at: dict[str, Any] = page.evaluate(PHONE_LAYOUT_JS)
    width, height = at["width"], at["height"]
    # a phone widens its layout to what overflows it (and shows it all smaller)
    screen = page.viewport_size
    assert screen == {"width": width, "height": height}, (
        f"zoomed out: {[b['what'] for b in at['seen'] if screen and b['right'] > screen['width']]}"
    )
    scroll_x, scroll_y, scroll_width, scroll_height = at["scroll"]
    assert (scroll_x, scroll_y) == (0, 0), at["scroll"]
    assert scroll_width <= width and scroll_height <= height, f"the page scrolls: {at['scroll']}"
    assert at["keys"] == 0, "keyboard hints on a touch screen"
    assert not at["scrollers"], f"a box scrolls inside the page: {at['scrollers']}"
    parts = [b for b in at["seen"] if b["what"] in ("hand", "prompt", "actions", "hint")]
    assert not at["clipped"], f"cut off: {at['clipped']} ({parts})"
    assert at["dead"][0] == at["dead"][1], f"dead cards hidden: {at['dead']}"
    for box in at["seen"]:
        inside = box["left"] >= 0 and box["top"] >= 0
        inside = inside and box["right"] <= width + 0.5 and box["bottom"] <= height + 0.5
        assert inside, f"{box['what']} is not inside the {width}x{height} screen: {box}"
    for box in at["targets"]:
        assert box["width"] >= 44 and box["height"] >= 44, f"{box['what']} is too small: {box}"
    return at


DESKTOP_LAYOUT_JS = (
    """() => {
"""
    + BOXES_JS
    + """
  const root = document.scrollingElement;
  const field = document.querySelector(".field");
  const shown = [...document.querySelectorAll(
    "#hand, #hand .card-btn, #actions, #actions button, #prompt, #centre, .middle, .field .player, .field .table")];
  return {
    width: innerWidth, height: innerHeight,
    scroll: [scrollX, scrollY, root.scrollWidth, root.scrollHeight],
    field: [field.scrollHeight, field.clientHeight],
    tables: document.querySelectorAll(".field .table").length,
    boxes: shown.map(box),
    clipped: shown.map((el) => [el.id || el.className, clipper(el)]).filter(([, by]) => by),
  };
}"""
)


def check_desktop_layout(page: Page, seats: int) -> None:
    """Every table, the centre, the prompt, the buttons and the hand inside the screen, none
    cut by a box that clips (the table area scrolls not at all), and the page not scrolled
    (once the cards in flight have landed)."""
    page.evaluate(SETTLED_JS)
    at = page.evaluate(DESKTOP_LAYOUT_JS)
    width, height = at["width"], at["height"]
    scroll_x, scroll_y, scroll_width, scroll_height = at["scroll"]
    assert (scroll_x, scroll_y) == (0, 0), at["scroll"]
    assert scroll_width <= width and scroll_height <= height, f"the page scrolls: {at['scroll']}"
    assert at["tables"] == seats, at["tables"]
    content, shown = at["field"]
    assert content <= shown, f"the tables do not fit: {content} px in {shown} px"
    assert not at["clipped"], f"cut off: {at['clipped']}"
    for box in at["boxes"]:
        inside = box["left"] >= 0 and box["top"] >= 0
        inside = inside and box["right"] <= width + 0.5 and box["bottom"] <= height + 0.5
        assert inside, f"{box['what']} is not inside the {width}x{height} screen: {box}"


def overlaps(a: FloatRect, b: FloatRect) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def drag_to_centre(page: Page, card: Any) -> None:
    """Drag a card of the hand onto the middle of the table (pointer events), once nothing
    moves (a card still travelling is not where its box will be)."""
    page.evaluate(SETTLED_JS)
    start = card.bounding_box()
    goal = page.locator(".middle").bounding_box()
    assert start is not None and goal is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(goal["x"] + goal["width"] / 2, goal["y"] + goal["height"] / 2, steps=8)
    page.mouse.up()


def decide(page: Page, *, touch: bool, checked_toast: list[bool] | None = None) -> None:
    """Make this player's decision the way a player would: take with the centre card (a
    take that goes out first), force, discard by dragging the card onto the centre, pass a
    card on, or decline."""
    tap = page.tap if touch else page.click
    before = page.locator("#app").get_attribute("data-seq")
    if page.locator("#centre-take").count():
        tap("#centre-take")
        if page.locator(".choice").count():
            out = page.locator('.choice[data-out="true"]')
            (out.first if out.count() else page.locator(".choice").first).click()
    elif page.locator("#btn-force").count():
        tap("#btn-force")
    elif page.locator("#btn-discard").count():
        if checked_toast is not None and not checked_toast:
            # a discard with no card picked is refused in a toast that covers nothing
            tap("#btn-discard")
            expect(page.locator("#toast.show")).to_be_visible()
            said = page.locator("#toast").inner_text()  # touch words: no "double-click"
            assert "tap" in said and "double" not in said, said
            toast = page.locator("#toast").bounding_box()
            assert toast is not None
            for what in ("#hand", "#actions"):
                box = page.locator(what).bounding_box()
                assert box is not None and not overlaps(toast, box), f"the toast covers {what}"
            checked_toast.append(True)
        drag_to_centre(page, page.locator("#hand .card-btn").last)
    elif page.locator("#btn-exchange").count():
        page.locator("#hand .card-btn").first.click()
        tap("#btn-exchange")
    else:
        tap("#actions button:not(#btn-hint)")
    page.wait_for_function(MOVED_JS, arg=before, timeout=WAIT_MS)


REVIEW_MS = 90_000
"""The longest wait for a deal's review (the server judges each decision; seconds when the
machine is quiet)."""


def last_deal_frame(frames: list[tuple[int | None, str]]) -> dict[str, Any]:
    """The first state message that told of the deal that ended last."""
    states = [json.loads(raw) for _, raw in frames if '"type":"state"' in raw]
    ended = [s for s in states if s.get("last")]
    assert ended, "no state message told of the end of a deal"
    deal = ended[-1]["last"]["deal"]
    return next(s for s in ended if s["last"]["deal"] == deal)


@pytest.fixture
def context(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Browser contexts to be closed after the test."""
    made: list[BrowserContext] = []
    yield made
    for ctx in made:
        ctx.close()


def open_page(contexts: list[BrowserContext], browser: Browser, **kwargs: Any) -> Page:
    ctx = browser.new_context(**kwargs)
    contexts.append(ctx)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def listen(page: Page, frames: list[tuple[int | None, str]]) -> None:
    """Keep every websocket message the page receives (it plays seat 0), to check it against
    the true game; and what the content security policy blocks."""

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append((0, str(payload))))

    page.on("websocket", on_socket)
    page.add_init_script(CSP_WATCH)


TWO_DEALS = "standard,match=n_deals,match_target=2"
"""A match of two deals: the first one's end is followed by the next."""


def play_the_computer(page: Page, server: str, *, hints: bool = True, rules: str = "") -> None:
    """Start a game against the easy computer, from the home page (or, for ``rules`` the
    home page does not offer, with the same request)."""
    page.goto(server + "/")
    if rules:
        made = page.evaluate(
            """rules => fetch("/api/games", {method: "POST",
                 headers: {"Content-Type": "application/json"},
                 body: JSON.stringify({mode: "bot", level: "easy", name: "Ana", rules})})
               .then(r => r.json())""",
            rules,
        )
        page.goto(f"{server}/#/g/{made['id']}/{made['token']}")
        page.wait_for_selector("#app[data-seq]", timeout=WAIT_MS)
        return
    page.fill("#name", "Ana")
    page.check("input[name=level][value=easy]")
    if not hints:
        page.uncheck("#hints-bot")
    page.click("#play-bot")
    page.wait_for_selector("#app[data-seq]", timeout=WAIT_MS)


def next_deal(page: Page, server: str) -> bool:
    """Close the summary of the deal that ended; where it ended the match (a single-deal
    match ends at its first deal won), start a new game against the computer instead, since
    no move comes after it.  True where a new game was started."""
    if page.locator("#summary-title").get_attribute("data-over") == "true":
        play_the_computer(page, server)
        return True
    page.click("#btn-next")
    return False


# ------------------------------------------------------------------ a deal on a phone


def test_a_whole_deal_on_a_phone_fits_the_screen_and_ends_face_up(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    server, db = served
    page = open_page(context, browser, **PHONE)
    frames: list[tuple[int | None, str]] = []
    listen(page, frames)
    play_the_computer(page, server, rules=TWO_DEALS)
    toast_checked: list[bool] = []
    decisions = 0
    while True:
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        if page.locator("#summary").count():
            break
        check_phone_layout(page)
        decide(page, touch=True, checked_toast=toast_checked)
        decisions += 1
        assert decisions < 200, "the deal did not end"
    assert toast_checked, "no discard was made by dragging"
    # the moves the page made by itself are in the log, said as such
    auto = page.locator("#log li.auto")
    assert auto.count() >= 1
    assert "automatically" in str(auto.first.text_content())

    # the summary opens at its headline (NEWCOMER-ES F13), its next button still focused
    title = page.locator("#summary-title").bounding_box()
    viewport = page.viewport_size
    assert title is not None and viewport is not None
    assert title["y"] >= 0 and title["y"] + title["height"] <= viewport["height"], title
    assert page.evaluate("document.activeElement && document.activeElement.id") == "btn-next"
    # the end of the deal: every table and every hand face up, the next deal not yet shown
    ended = last_deal_frame(frames)
    last = ended["last"]
    assert len(last["hands"]) == 2
    for seat, hand in enumerate(last["hands"]):
        shown = page.locator(f'#summary .final-hand[data-seat="{seat}"] .card')
        assert shown.evaluate_all("els => els.map(e => e.dataset.card)") == hand
    assert page.locator("#summary .final-table").count() == 2
    assert page.locator("#summary .table.winning .card").count() >= (
        11 if last["winner"] is not None else 0
    )
    assert page.locator("#app").get_attribute("data-deal") == str(last["deal"])
    mine = page.locator("#hand .card-btn").evaluate_all("els => els.map(e => e.dataset.card)")
    assert mine == last["hands"][0], "behind the summary is not the deal that ended"

    # the review of the player's decisions in that deal, asked for from the summary: the
    # winning chance of each decision drawn, each judged one said in words
    page.tap("#btn-review")
    expect(page.locator("#review")).to_have_attribute("data-state", "done", timeout=REVIEW_MS)
    review = next(json.loads(raw) for _, raw in reversed(frames) if '"type":"review"' in raw)
    assert review["deal"] == last["deal"] and review["player"] == 0
    points = page.locator("#review .review-chart polyline.played").get_attribute("points")
    assert points is not None and len(points.split()) == len(review["decisions"])
    judged = [d for d in review["decisions"] if d["legal_count"] > 1]
    expect(page.locator("#review .review-moves li")).to_have_count(len(judged))
    marked = [d for d in review["decisions"] if d["mark"]]
    expect(page.locator("#review .review-chart circle")).to_have_count(len(marked))
    # its scale marked on the left and a legend of its two lines
    ticks = page.locator("#review .review-chart text.tick").all_text_contents()
    assert ticks == ["0%", "50%", "100%"]
    legend = " ".join(page.locator("#review .review-legend").inner_text().split())
    assert legend == "Your moves Best moves"
    # each judged decision's position, a tap on its line away: the player's hand, every table
    # (a marked one's first, when the deal has one), and the danger under a marked one
    for d in (marked or judged)[:1]:
        line = page.locator(f'#review li[data-move="{d["move"]}"]')
        board = line.locator(".review-board")
        expect(board).to_be_hidden()
        line.locator("summary").tap()
        expect(board).to_be_visible()
        shown = board.locator(".rb-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")
        assert shown == d["board"]["hand"]
        expect(board.locator(".rb-table")).to_have_count(2)
        feeds = d["mark"] and d["feeds_words"]
        expect(line.locator(".review-danger")).to_have_count(1 if feeds else 0)
        box = board.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    width = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], "the review is wider than the phone"
    over = page.locator("#summary-title").get_attribute("data-over") == "true"
    assert over == (last["deal"] == 2)
    if not over:
        # the server had dealt the next deal in that very message: the page kept it back
        assert ended["match"]["deal"] == last["deal"] + 1
        assert sorted(ended["obs"]["hand"]) != sorted(mine)
        page.tap("#btn-next")
        expect(page.locator("#summary")).to_have_count(0)
        expect(page.locator("#app")).to_have_attribute("data-deal", str(last["deal"] + 1))
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        check_phone_layout(page)
    assert not page.errors and not csp_violations(page), (page.errors, csp_violations(page))  # type: ignore[attr-defined]
    assert check_wire(sqlite_database(db), frames) > decisions  # no hidden card was sent


@pytest.mark.parametrize(
    ("size", "rules", "lang"),
    [
        ((390, 844), "tercerilla", "es"),
        ((360, 640), "mexican,num_players=4", "ru"),  # the longest words
        ((360, 640), "mexican,num_players=4", "kn"),  # the tallest letters
        ((360, 640), "standard", "es"),  # its header ran past 360 px before 8a785f2
    ],
    ids=["390x844-tercerilla", "360x640-four", "360x640-four-kannada", "360x640-two"],
)
def test_at_every_decision_on_a_phone_every_table_the_dead_cards_and_the_hand_are_in_sight(
    served: tuple[str, Path],
    browser: Browser,
    context: list[BrowserContext],
    size: tuple[int, int],
    rules: str,
    lang: str,
) -> None:
    """At every decision of a deal, the exchange and the force included, and again with the
    hint open at each kind of decision: what the player must see is on the screen (F1), in
    the language picked (the header's menus among it)."""
    server, _ = served
    width, height = size
    page = open_page(context, browser, **{**PHONE, "viewport": {"width": width, "height": height}})
    page.add_init_script('localStorage.setItem("conquian.autoplay", "off");')  # every decision
    page.add_init_script(CSP_WATCH)
    page.goto(server + f"/?lang={lang}")
    play_the_computer(page, server, rules=rules)
    # the sound is on, and its switch in sight (in the header): pressed, it is off
    sound = page.locator("#sound")
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.tap("#sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("localStorage.getItem('conquian.sound')") == "off"
    kinds: set[str] = set()
    hinted: set[str] = set()
    most = {"melded": 0, "dead": 0}
    for _ in range(600):
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        if page.locator("#summary").count():
            # a deal can end before any card dies (one going out at once): then the next one
            if most["dead"] or not page.locator("#btn-next").count():
                break
            page.tap("#btn-next")
            expect(page.locator("#summary")).to_have_count(0)
            continue
        at = check_phone_layout(page)
        most = {
            "melded": max(most["melded"], sum(at["tables"])),
            "dead": max(most["dead"], at["dead"][0]),
        }
        buttons = page.locator("#actions button:not(#btn-hint)").evaluate_all(
            "els => els.map(e => e.id)"
        )
        kind = "+".join(sorted(buttons))
        kinds.add(kind)
        if kind not in hinted and page.locator("#btn-hint").count():
            hinted.add(kind)
            page.tap("#btn-hint")
            expect(page.locator(".hint")).to_be_visible(timeout=WAIT_MS)
            check_phone_layout(page)
        decide(page, touch=True)
    else:
        raise AssertionError("the deal did not end")
    assert hinted == kinds, (hinted, kinds)  # the hint was open at every kind of decision
    if rules != "standard":
        assert "btn-exchange" in kinds, kinds
    assert "btn-decline" in "+".join(kinds), kinds
    assert most["dead"] >= 1 and most["melded"] + most["dead"] >= 3, most  # cards were seen
    assert not page.errors and not csp_violations(page), (page.errors, csp_violations(page))  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the guided first hand


def lesson_move(page: Page, action: str) -> None:
    """Make the lesson's move ``action`` (engine notation) with the page's buttons."""
    word, _, rest = action.partition(" ")
    if word == "discard":  # paid as a player pays on a phone: dragged onto the table
        drag_to_centre(page, page.locator(f'#hand .card-btn[data-card="{rest}"]'))
    elif word == "exchange":
        page.tap(f'#hand .card-btn[data-card="{rest}"]')
        page.tap("#btn-exchange")
    elif word == "take":
        page.tap("#centre-take")
        if page.locator(".choice").count():
            page.locator(".choice").first.click()
    else:
        page.tap(f"#btn-{word}")


def test_the_guided_hand_is_played_to_its_end_on_a_phone_in_spanish(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    """*Aprende a jugar* from the home page, in Spanish on the smaller phone (360x640; the
    390x844 one was looked at in docs/web.md's screenshots): each step's words in sight with
    the whole table, one wrong move answered with what the lesson asks (nothing changes),
    every move made by the learner (the page makes none for him), and the end."""
    from conquian.bots.lesson import LEARNER, LESSON_MOVES

    server, _ = served
    width, height = 360, 640
    page = open_page(
        context,
        browser,
        **{**PHONE, "viewport": {"width": width, "height": height}},
        locale="es-MX",
    )
    frames: list[tuple[int | None, str]] = []
    listen(page, frames)
    page.goto(server + "/")
    page.tap("#learn")
    page.wait_for_selector("#app[data-seq]", timeout=WAIT_MS)
    steps = [m for m in LESSON_MOVES if m.seat == LEARNER]
    said: list[str] = []
    for number, move in enumerate(steps):
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        lesson = page.locator(".lesson")
        expect(lesson).to_be_visible()
        said.append(lesson.inner_text())
        assert page.locator("#app").get_attribute("data-auto") != "scheduled"  # none made for him
        check_phone_layout(page)  # the lesson's words, the table and the hand all in sight
        if number == 2:  # a wrong card paid: refused with what the lesson asks
            before = page.locator("#app").get_attribute("data-seq")
            lesson_move(page, "discard 2c")
            expect(page.locator("#toast.show")).to_contain_text("la lección te pide que pagues")
            assert page.locator("#app").get_attribute("data-seq") == before
        before = page.locator("#app").get_attribute("data-seq")
        lesson_move(page, move.action)
        page.wait_for_function(MOVED_JS, arg=before, timeout=WAIT_MS)
    expect(page.locator("#summary")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#summary .lesson-end").first).to_have_text("¡Ganaste! Bajaste 9 cartas.")
    assert said[0].startswith("Aprende a jugar") and "Primero, el cambio" in said[0]
    assert any("Fuérzala" in text for text in said) and "tómala y ganas" in said[-1]
    states = [json.loads(raw) for _, raw in frames if '"type":"state"' in raw]
    assert all("lesson" in s for s in states if s.get("obs")), "a learner's state without words"
    page.tap("#summary .lesson-done")
    expect(page.locator("#new-game")).to_be_visible(timeout=WAIT_MS)
    assert not page.errors and not csp_violations(page), (page.errors, csp_violations(page))  # type: ignore[attr-defined]


# ------------------------------------------------------------------ a desktop


@pytest.mark.parametrize(
    ("rules", "seats"), [("standard", 2), ("tercerilla", 3), ("mexican,num_players=4", 4)]
)
def test_the_table_at_1280x800_shows_every_table_and_the_hand_without_scrolling(
    served: tuple[str, Path],
    browser: Browser,
    context: list[BrowserContext],
    rules: str,
    seats: int,
) -> None:
    server, _ = served
    page = open_page(context, browser, **DESKTOP)
    page.add_init_script(CSP_WATCH)
    # every decision is the player's (none made for him): a deal has enough of them to see
    # the table at each kind of decision, however soon it ends
    page.add_init_script("localStorage.setItem('conquian.autoplay', 'off')")
    play_the_computer(page, server, rules=rules)
    decisions = 0
    while decisions < 14:
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        if page.locator("#summary").count():
            if page.locator("#summary-title").get_attribute("data-over") == "true":
                break
            page.click("#btn-next")  # a short deal: on into the next one
            expect(page.locator("#summary")).to_have_count(0)
            continue
        check_desktop_layout(page, seats)
        decide(page, touch=False)
        decisions += 1
    assert decisions >= 3, "too few decisions to see the table"
    assert not page.errors and not csp_violations(page), (page.errors, csp_violations(page))  # type: ignore[attr-defined]


# ------------------------------------------------------------------ moves made for you


def test_the_page_declines_for_you_only_while_the_option_is_on(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    server, _ = served
    page = open_page(context, browser, **DESKTOP)
    play_the_computer(page, server)
    expect(page.locator("#opt-auto")).to_be_checked()  # on against the computer
    auto = page.locator("#log li.auto")
    while not auto.count():
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        if page.locator("#summary").count():
            next_deal(page, server)
            continue
        decide(page, touch=False)
    assert "automatically" in auto.first.inner_text()
    # the cards travel, and no animation lasts more than 300 ms
    assert int(page.locator("html").get_attribute("data-animations") or 0) > 0
    longest = page.evaluate(
        "Math.max(0, ...document.getAnimations().map(a => a.effect.getComputedTiming().endTime))"
    )
    assert longest <= 300
    # off: the player is asked, even where only one move is possible
    page.uncheck("#opt-auto")
    assert page.evaluate("localStorage.getItem('conquian.autoplay')") == "off"
    made = auto.count()
    for _ in range(80):
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        if page.locator("#summary").count():
            if next_deal(page, server):
                expect(page.locator("#opt-auto")).not_to_be_checked()  # remembered
                made = auto.count()
            continue
        if page.locator("#app").get_attribute("data-auto") == "off":
            break
        decide(page, touch=False)
    else:
        pytest.fail("no decision with a single move came")
    only = page.locator("#actions button:not([disabled]):not(#btn-hint)")
    expect(only).to_have_count(1)
    before = page.locator("#app").get_attribute("data-seq")
    only.click()
    page.wait_for_function(MOVED_JS, arg=before, timeout=WAIT_MS)
    assert auto.count() == made
    page.reload()
    page.wait_for_selector("#opt-auto", timeout=WAIT_MS)
    expect(page.locator("#opt-auto")).not_to_be_checked()  # remembered
    assert not page.errors, page.errors  # type: ignore[attr-defined]


HOLD_AUTO_JS = """() => {
  // the page's 280 ms timers (a move it makes by itself, and its wait for the cards in
  // flight) are held here instead of run, and every move the page sends is counted
  window.__held = [];
  window.__acts = [];
  const later = window.setTimeout;
  window.setTimeout = function (fn, ms, ...rest) {
    if (ms === 280 && typeof fn === "function") return void window.__held.push(fn);
    return later.call(window, fn, ms, ...rest);
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try {
      const message = JSON.parse(data);
      if (message.type === "act") window.__acts.push(message.action);
    } catch (e) {}
    return send.call(this, data);
  };
}"""

IN_FLIGHT_JS = """() => {
  // a card is still in flight (as the page sees it), so the move waits once more
  const flying = {playState: "running",
                  effect: {getComputedTiming: () => ({endTime: 1e9, localTime: 0})}};
  document.getAnimations = () => [flying];
  const plan = window.__held.pop();  // the newest plan (each call of the page's plans anew)
  window.__held.length = 0;
  plan();
  return window.__held.length;
}"""


def test_a_move_the_page_planned_is_not_made_once_the_option_is_off(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    """Turning the option off voids a move the page has planned even while that move waits
    for the cards in flight to land (a second timer, which the first one's cancel cannot
    reach). The page's own timers are held and run by the test, so no time is waited for."""
    server, _ = served
    page = open_page(context, browser, **DESKTOP)
    page.add_init_script(f"({HOLD_AUTO_JS})()")
    play_the_computer(page, server)
    for _ in range(200):
        page.wait_for_function(f"() => window.__held.length > 0 || ({READY_JS})()", timeout=WAIT_MS)
        if page.evaluate("window.__held.length"):
            break
        if page.locator("#summary").count():
            next_deal(page, server)
            continue
        decide(page, touch=False)
    else:
        pytest.fail("the page never planned a move of its own")
    expect(page.locator("#app")).to_have_attribute("data-auto", "scheduled")
    acts = page.evaluate("window.__acts.length")
    said = page.locator("#log li.auto").count()
    assert page.evaluate(IN_FLIGHT_JS) == 1  # the planned move now waits for the cards
    assert page.evaluate("window.__acts.length") == acts  # and has not been made
    page.uncheck("#opt-auto")
    expect(page.locator("#app")).to_have_attribute("data-auto", "off")
    page.evaluate("window.__held.shift()()")  # the wait ends: the old plan must do nothing
    assert page.evaluate("window.__acts.length") == acts, page.evaluate("window.__acts")
    assert page.locator("#log li.auto").count() == said  # nor said to be made
    # the player makes the only move himself
    page.evaluate("delete document.getAnimations")
    before = page.locator("#app").get_attribute("data-seq")
    only = page.locator("#actions button:not([disabled]):not(#btn-hint)")
    expect(only).to_have_count(1)
    only.click()
    page.wait_for_function(MOVED_JS, arg=before, timeout=WAIT_MS)
    assert page.evaluate("window.__acts.length") == acts + 1
    assert not page.errors, page.errors  # type: ignore[attr-defined]


ONE_DISCARD_JS = """() => {
  // every state that offers discards offers only the first of them, as at the last card of
  // a hand (the server still checks the move); the moves the page sends are counted
  window.__acts = [];
  const setter = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage").set;
  Object.defineProperty(WebSocket.prototype, "onmessage", {
    set(handler) {
      setter.call(this, (event) => {
        const message = JSON.parse(event.data);
        const legal = message.obs?.legal_actions ?? [];
        if (message.type === "state" && legal.length && legal.every((a) => a.startsWith("discard ")))
          message.obs.legal_actions = legal.slice(0, 1);
        handler({ data: JSON.stringify(message) });
      });
    },
  });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const message = JSON.parse(data);
    if (message.type === "act") window.__acts.push(message.action);
    return send.call(this, data);
  };
}"""


def test_discard_with_no_card_picked_discards_the_only_card_that_may_go(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    """At the last card of a hand the player presses *Discard* and it goes: there is no card
    to pick.  (The page shows every discard decision as one with a single legal discard.)"""
    server, _ = served
    page = open_page(context, browser, **DESKTOP)
    page.add_init_script(f"({ONE_DISCARD_JS})()")
    play_the_computer(page, server)
    page.uncheck("#opt-auto")  # else the page makes the only move itself
    for _ in range(80):
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        if page.locator("#summary").count():
            next_deal(page, server)
            continue
        if page.locator("#btn-discard").count():
            break
        decide(page, touch=False)
    else:
        pytest.fail("no discard came")
    expect(page.locator("#app")).to_have_attribute("data-auto", "off")
    assert not page.locator("#hand .card-btn.selected").count()
    before = page.locator("#app").get_attribute("data-seq")
    page.click("#btn-discard")
    page.wait_for_function(MOVED_JS, arg=before, timeout=WAIT_MS)
    assert page.evaluate("window.__acts").pop().startswith("discard ")
    expect(page.locator("#toast.show")).to_have_count(0)  # no "pick a card" refusal
    assert not page.errors, page.errors  # type: ignore[attr-defined]


# ------------------------------------------------------------------ reduced motion, no hints


def test_reduced_motion_moves_nothing_and_hints_the_creator_turned_off_are_not_offered(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    server, _ = served
    page = open_page(context, browser, reduced_motion="reduce", **DESKTOP)
    page.add_init_script(CSP_WATCH)
    play_the_computer(page, server, hints=False)
    expect(page.locator("#hints-state")).to_have_attribute("data-hints", "false")
    expect(page.locator("#hints-state")).to_contain_text("Hints are off in this game")
    for _ in range(6):
        page.wait_for_function(READY_JS, timeout=WAIT_MS)
        if page.locator("#summary").count():
            break
        assert page.locator("#btn-hint").count() == 0
        decide(page, touch=False)
        running = page.evaluate("document.getAnimations().length")
        assert running == 0, "something moves with prefers-reduced-motion"
    assert page.locator("html").get_attribute("data-animations") is None
    assert not page.errors and not csp_violations(page)  # type: ignore[attr-defined]


CONTRAST_JS = """(element) => {
  // WCAG's contrast of an element's text over what is drawn behind it (its own background
  // blended over its ancestors' until an opaque one)
  const rgba = (text) => (text.match(/[\\d.]+/g) || []).map(Number).concat([1]).slice(0, 4);
  const over = (top, below) => top.slice(0, 3).map((c, i) => c * top[3] + below[i] * (1 - top[3]));
  let back = [255, 255, 255];
  const layers = [];
  for (let el = element; el; el = el.parentElement) {
    const colour = rgba(getComputedStyle(el).backgroundColor);
    if (colour[3] > 0) layers.push(colour);
    if (colour[3] === 1) break;
  }
  for (const layer of layers.reverse()) back = over(layer, back);
  const text = over(rgba(getComputedStyle(element).color), back);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(text), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_the_banners_and_notices_can_be_read(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    """NEWCOMER-ES F5: the banner shown while the connection is lost was red text on red.
    Every banner and notice of the game page, drawn where the page draws it, has a contrast
    of at least 4.5:1 (WCAG AA)."""
    server, _ = served
    page = open_page(context, browser, **DESKTOP)
    play_the_computer(page, server)
    page.wait_for_function(READY_JS, timeout=WAIT_MS)
    kinds = page.evaluate(
        """async () => {
      const b = await import('/static/game/banners.js');
      const region = document.querySelector('.field .region') || document.querySelector('#app');
      region.insertAdjacentHTML('afterbegin',
        `<div id="probe">${b.offlineBanner({offline: true})}${b.watchingBanner()}</div>`);
      return [...document.querySelectorAll('#probe .banner')].map((el) => el.className);
    }"""
    )
    assert len(kinds) == 2 and "error" in kinds[0], kinds
    for banner in page.locator("#probe .banner").all():
        ratio = banner.evaluate(CONTRAST_JS)
        assert ratio >= 4.5, (banner.get_attribute("class"), banner.inner_text(), ratio)
    for kind in ("error", "info"):
        page.evaluate(
            "async (kind) => (await import('/static/page.js')).toast('Una prueba', kind)", kind
        )
        ratio = page.locator("#toast").evaluate(CONTRAST_JS)
        assert ratio >= 4.5, (kind, ratio)


# ------------------------------------------------------------------ joining


def test_a_join_pressed_before_the_game_is_described_takes_the_seat(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    """The join page draws its form at once and describes the game when the server answers;
    a press before that answer waits for it and takes the seat (the form was once sent as a
    plain form then, which left the page for the home page). The answer is held by the test
    until the button is pressed."""
    server, _ = served
    page = open_page(context, browser, **DESKTOP)
    page.goto(server + "/api/lobby")
    made = page.evaluate(
        """() => fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
             body: JSON.stringify({mode: "friend", name: "Ana"})}).then(r => r.json())"""
    )
    held: list[Route] = []
    page.route(f"**/api/games/{made['id']}", lambda route: held.append(route))  # not the join
    with page.expect_request(f"**/api/games/{made['id']}"):
        page.goto(f"{server}/#/join/{made['id']}")
    page.fill("#name", "Ben")
    expect(page.locator("#join-info")).to_have_text("Loading…")
    assert len(held) == 1
    page.click("#join-btn")
    held[0].continue_()
    expect(page).to_have_url(re.compile(r"#/g/" + made["id"] + "/"), timeout=WAIT_MS)
    expect(page.locator("#seat-list li")).to_have_count(2, timeout=WAIT_MS)
    expect(page.locator("#seat-list li[data-seat='1']")).to_contain_text("Ben")
    assert not page.errors and not csp_violations(page)  # type: ignore[attr-defined]


# ------------------------------------------------------------------ installable, offline


def test_the_page_installs_and_opens_offline_with_a_notice(
    served: tuple[str, Path], browser: Browser, context: list[BrowserContext]
) -> None:
    server, _ = served
    page = open_page(context, browser, **PHONE)
    page.add_init_script(CSP_WATCH)
    page.goto(server + "/")
    manifest = page.evaluate(
        """async () => {
      const link = document.querySelector('link[rel=manifest]');
      const answer = await fetch(link.href);
      return [answer.headers.get('content-type'), await answer.json()];
    }"""
    )
    assert manifest[0].startswith("application/manifest+json")
    assert manifest[1]["display"] == "standalone"
    assert manifest[1]["name"] == manifest[1]["short_name"] == "Conquián"  # as its players write it
    assert {i["sizes"] for i in manifest[1]["icons"]} >= {"192x192", "512x512", "any"}
    page.wait_for_function("navigator.serviceWorker.ready.then(r => !!r.active)", timeout=WAIT_MS)
    page.reload()  # now the worker controls the page and has kept its files
    page.wait_for_function("!!navigator.serviceWorker.controller", timeout=WAIT_MS)
    expect(page.locator("#offline")).to_be_hidden()
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("You are offline")
    expect(page.locator("header.top .brand")).to_be_visible()  # the page, not an error
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#offline")).to_be_hidden()
    assert not page.errors and not csp_violations(page)  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the server's side of hints


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


def test_hints_are_the_creators_choice_and_the_server_keeps_to_it(
    client: TestClient, database: TestDatabase
) -> None:
    def made(body: dict[str, Any]) -> dict[str, Any]:
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()  # type: ignore[no-any-return]

    def hints_of(game_id: str) -> bool:
        return client.get(f"/api/games/{game_id}").json()["hints"]  # type: ignore[no-any-return]

    # by default: on against the computer, off between people
    assert hints_of(made({"mode": "bot"})["id"]) is True
    assert hints_of(made({"mode": "friend"})["id"]) is False
    mixed = {"rules": "tercerilla", "seats": [{"kind": "person"}, {"kind": "bot"}]}
    assert hints_of(made(mixed)["id"]) is False
    assert hints_of(made({**mixed, "hints": True})["id"]) is True
    refused = client.post("/api/games", json={"mode": "bot", "hints": "yes"})
    assert refused.status_code == 400 and "'hints'" in refused.json()["error"]
    off = made({"mode": "bot", "hints": False, "name": "Ana"})
    with client.websocket_connect(f"/ws/{off['id']}") as ws:
        ws.send_text(hello(off["token"]))
        state = json.loads(ws.receive_text())
        assert state["type"] == "state" and state["game"]["hints"] is False
        ws.send_text(json.dumps({"type": "hint", "id": 3}))
        while (said := json.loads(ws.receive_text()))["type"] == "state":
            pass
        assert said["type"] == "error" and said["id"] == 3
        assert said["message"].startswith("Hints are off in this game")
        ws.send_text(json.dumps({"type": "ping", "id": "still"}))  # the connection goes on
        while (said := json.loads(ws.receive_text()))["type"] == "state":
            pass
        assert said == {"type": "pong", "id": "still"}
    rows = database.query("select hints from games where id = %s", off["id"])
    assert [bool(r[0]) for r in rows] == [False]  # stored with the game
    # a new server on the same database keeps to it
    with TestClient(create_app(database.url, bot_delay=0)) as again:
        assert again.get(f"/api/games/{off['id']}").json()["hints"] is False
