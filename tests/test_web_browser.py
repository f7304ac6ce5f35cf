"""End to end: a real headless Chromium plays through a real ``conquian serve`` process.

Needs the ``playwright`` package (the ``test`` extra) and Debian's ``chromium``
(``/usr/bin/chromium``), which the ``browser`` fixture installs with apt when it is
missing and the tests run as root (else they are skipped, saying so, but under CI: see
``web_helpers.skip_unless_ci``).  No browser is downloaded from elsewhere.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, WebSocket, expect, sync_playwright
from web_helpers import (
    check_wire,
    nginx_or_skip,
    postgres_database,
    postgres_url_or_skip,
    routed_requests,
    running_nginx,
    skip_unless_ci,
    sqlite_database,
)

from conquian.bots import LEVEL_RATINGS
from conquian.bots.simple import neighbour_count
from conquian.cards import NUM_RANKS, iter_card_tokens
from conquian.tools.load import start_server, whole_lists

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
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One server for a module's tests.  Its rate limits are off: every browser of these
    tests comes from one address, which the limits count as one person (more than 20 new
    guests a minute were refused, at random, by the module's pace); they are tested in
    tests/test_web_hardening.py."""
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    proc, base = start_server(f"sqlite:///{db}", bot_delay=0.0, args=["--rate-limit", "off"])
    yield base, db
    proc.terminate()
    proc.wait(10)


CSP_WATCH = """window.__cspViolations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));"""
"""Collects what the content security policy blocked (an init script, which the CSP allows)."""

STILL: dict[str, Any] = {"reduced_motion": "reduce"}
"""For the pages of the tests that play whole matches between browsers: no card flies, so a
click on a card does not wait for it to land (the full game against the computer, and
tests/test_web_browser_play.py, play with the cards moving)."""

SHARE_STUB = "navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };"
"""The phone's sharing (the Web Share API), kept to look at what was shared."""

ASK_ME = 'localStorage.setItem("conquian.autoplay", "off");'
"""These tests make every move themselves: the page is not to decline or play for them
(tests/test_web_browser_play.py tests that it does)."""


def listen(page: Page, seat: int | None, frames: list[tuple[int | None, str]]) -> None:
    """Keep every websocket message the page receives, to check it against the true game.

    The page's websockets carry no seat token in their URL (it goes in the first message),
    and everything the content security policy blocks on the page is kept for
    :func:`csp_violations`.
    """

    def on_socket(ws: WebSocket) -> None:
        assert "token" not in ws.url, ws.url
        ws.on("framereceived", lambda payload: frames.append((seat, str(payload))))

    page.on("websocket", on_socket)
    page.add_init_script(CSP_WATCH)
    page.add_init_script(ASK_ME)


def csp_violations(page: Page) -> list[str]:
    """What the content security policy blocked on the page since it was loaded."""
    found: list[str] = page.evaluate("window.__cspViolations || []")
    return found


def install_chromium() -> None:
    """Install Debian's chromium package when it is missing and we may (root, apt)."""
    if Path(CHROMIUM).exists():
        return
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        skip_unless_ci(
            f"{CHROMIUM} is missing: install Debian's chromium package "
            "(apt-get install chromium; .ci/run installs it), or run the tests as root so "
            "that they install it"
        )
    for args in (
        ["update", "-qq"],
        ["install", "-y", "-qq", "--no-install-recommends", "chromium"],
    ):
        subprocess.run([apt, *args], stdout=subprocess.DEVNULL, check=True, timeout=900)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    install_chromium()
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def game_over(page: Page) -> bool:
    """The end-of-deal dialog says the match is over (in any language)."""
    over: bool = page.evaluate(
        "() => document.getElementById('summary-title')?.dataset.over === 'true'"
    )
    return over


PAGE_NOW_JS = """() => {
    const has = (selector) => document.querySelector(selector) !== null;
    return {
        summary: has("#summary"),
        over: document.getElementById("summary-title")?.dataset.over === "true",
        free: has("#actions button:not([disabled])"),
        seq: document.getElementById("app").dataset.seq ?? null,
        take: has("#btn-take"),
        force: has("#btn-force"),
        discard: has("#btn-discard"),
        exchange: has("#btn-exchange"),
        decline: has("#btn-decline, #btn-pass"),
        hand: Array.from(document.querySelectorAll("#hand .card-btn"), (el) => el.dataset.card),
    };
}"""
"""What the page offers now, read in one go (one round trip to the browser, not one a button)."""

CHOICE_SIZES_JS = "els => els.map((el) => el.querySelectorAll('[data-card]').length)"


def loosest(hand: list[str]) -> int:
    """Where in the hand is the card to discard: the one the ``greedy`` bot discards (the
    fewest neighbours, then the highest rank), so that the test's players go out, and a
    match between them lasts about half as many deals as one between players who discard
    any card."""
    cards = list(iter_card_tokens(" ".join(hand)))
    mask = sum(1 << card for card in cards)
    return min(
        range(len(cards)), key=lambda i: (neighbour_count(cards[i], mask), -(cards[i] % NUM_RANKS))
    )


def move(page: Page, use_keys: bool) -> bool:
    """Make one move if this page may move now; True if it moved.

    It plays as the ``greedy`` bot does: it takes whenever it can (laying the most cards),
    forces whenever it may, and discards the card with the fewest neighbours.
    """
    now = page.evaluate(PAGE_NOW_JS)
    if now["summary"]:
        if now["over"]:
            return False
        page.click("#btn-next")
        return True
    if not now["free"]:
        return False
    if now["take"]:
        page.click("#btn-take")
        choices = page.locator(".choice")
        if choices.count():
            sizes: list[int] = choices.evaluate_all(CHOICE_SIZES_JS)
            best = sizes.index(max(sizes))
            if use_keys and best < 9:
                page.keyboard.press(str(best + 1))
            else:
                choices.nth(best).click()
    elif now["force"]:
        page.keyboard.press(key_of(page, "#btn-force")) if use_keys else page.click("#btn-force")
    elif now["discard"]:
        pick = loosest(now["hand"])
        cards = page.locator("#hand .card-btn")
        if use_keys:  # from the card before it (the last, for the first), an arrow key to it
            cards.nth(pick - 1).focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Space")
            page.keyboard.press(key_of(page, "#btn-discard"))
        else:
            cards.nth(pick).click()
            page.click("#btn-discard")
    elif now["exchange"]:
        page.locator("#hand .card-btn").first.click()
        page.click("#btn-exchange")
    elif now["decline"]:
        if use_keys:
            page.keyboard.press(key_of(page, "#btn-decline, #btn-pass"))
        else:
            page.locator("#btn-decline, #btn-pass").first.click()
    else:
        return False
    # the move is shown once the server has stored it
    page.wait_for_function(
        "n => document.getElementById('app').dataset.seq !== n || document.getElementById('summary')",
        arg=now["seq"],
        timeout=WAIT_MS,
    )
    return True


def key_of(page: Page, button: str) -> str:
    """The key a button shows (the language's letter: in Spanish P pays, pagar)."""
    key = page.locator(button).first.get_attribute("data-key")
    assert key and len(key) == 1, key
    return key


NEWS_JS = """n => document.getElementById("app").dataset.seq !== n
    || document.querySelector("#actions button:not([disabled])")
    || document.getElementById("summary")"""


SEQ_AND_TURN_JS = """() => [document.getElementById("app").dataset.seq ?? "0",
    !!document.querySelector("#actions button:not([disabled])")
    || (!!document.getElementById("summary")
        && document.getElementById("summary-title")?.dataset.over !== "true")]"""
"""A page's move number, and whether it may move now (a button, or a deal's end to close)."""


def wait_for_news(pages: list[Page]) -> None:
    """Wait, on the page furthest behind, for its next state (a move, a turn, a summary).

    The caller found no page that may move; a state may have reached one of them since
    (a move number and a turn are read together, page by page), and then there is nothing to
    wait for.  When every page has caught up and none of them may move, it is the computer's
    turn: each page waits for its move.  No timed sleep: the wait ends on what the page draws.
    """
    seen = [p.evaluate(SEQ_AND_TURN_JS) for p in pages]
    if any(turn for _, turn in seen):
        return
    seqs = [int(seq) for seq, _ in seen]
    behind = pages[seqs.index(min(seqs))]
    behind.wait_for_function(NEWS_JS, arg=str(min(seqs)), timeout=WAIT_MS)


EMPTY_HAND_JS = """() => [
    !!document.getElementById("summary"),
    document.querySelectorAll("#hand .card-btn").length,
    document.querySelector("#hand .empty")?.textContent ?? null,
]"""


def test_full_game_against_the_computer(served: tuple[str, Path], browser: Browser) -> None:
    server, db = served
    page = browser.new_page(viewport={"width": 1200, "height": 850})
    frames: list[tuple[int | None, str]] = []
    listen(page, 0, frames)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    # each level with its rating, on the scale the page explains
    ratings = page.locator(".level").evaluate_all(
        "els => els.map(e => [e.querySelector('input').value, e.querySelector('.rating')?.textContent])"
    )
    assert ratings == [[level, str(rating)] for level, rating in LEVEL_RATINGS.items()]
    assert "1000" in page.locator("#ratings-note").inner_text()
    # they are two-player ratings: a table of three shows none
    page.select_option("#game-rules", "tercerilla")
    expect(page.locator(".level .rating").first).to_be_hidden()
    expect(page.locator("#ratings-note")).to_be_hidden()
    page.select_option("#game-rules", "standard")
    expect(page.locator(".level .rating").first).to_be_visible()
    page.fill("#name", "Ana")
    page.check("input[name=level][value=easy]")
    page.click("#play-bot")
    expect(page.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)
    expect(page.locator(".player.opp .name")).to_have_text("Computer (easy)")
    url = page.url
    # Spanish card faces are only a different drawing of the same cards
    first = page.locator("#hand .card-btn").first
    french = first.get_attribute("aria-label")
    page.select_option("#deck", "spanish")
    spanish = page.locator("#hand .card-btn").first.get_attribute("aria-label")
    assert " of " in str(french) and " de " in str(spanish)
    page.select_option("#deck", "french")
    moves = 0
    deadline = time.monotonic() + 150
    while not game_over(page):
        assert time.monotonic() < deadline, "the game did not finish"
        if move(page, use_keys=moves % 2 == 1):
            moves += 1
            # ten down with an empty hand, when a deal comes to it, is said in words
            summary_shown, cards, note = page.evaluate(EMPTY_HAND_JS)
            if not summary_shown and not cards:
                assert note == "Your hand is empty: the next card you take goes out."
            if moves == 6:  # a refresh resumes the same game
                hand = page.locator("#hand .card-btn").evaluate_all(
                    "els => els.map(e => e.dataset.card)"
                )
                page.reload()
                # the game is drawn again; the hand may be empty (ten down, waiting
                # for the eleventh card), so wait for the board, not for a card
                page.wait_for_selector("#app[data-seq]", timeout=WAIT_MS)
                assert page.url == url
                if not page.locator("#summary").count():
                    after = page.locator("#hand .card-btn").evaluate_all(
                        "els => els.map(e => e.dataset.card)"
                    )
                    assert after == hand
        else:
            wait_for_news([page])
    summary = page.locator("#summary").inner_text()
    assert re.search(r"wins? the deal|went out", summary), summary
    assert page.locator("#summary .over-buttons a[download]").count() >= 1
    assert page.locator("#summary .table.winning .card").count() >= 11
    # by now every card is drawn from its face's own image (made while the page was idle),
    # and each image loaded: the content security policy lets the page show its blob: images
    page.wait_for_function(  # the faces are made while the page is idle: wait for them
        "() => [...document.querySelectorAll('#summary .card')].every(e => {"
        " const i = e.querySelector('img.face'); return i && i.complete && i.naturalWidth > 0; })",
        timeout=WAIT_MS,
    )
    faces = page.locator("#summary .card").evaluate_all(
        "els => els.map(e => { const i = e.querySelector('img.face');"
        " return i ? i.complete && i.naturalWidth > 0 : 'inline'; })"
    )
    assert faces and all(face is True for face in faces), faces
    assert moves >= 3 and not errors
    assert not csp_violations(page)  # the page works under its content security policy
    # nothing the browser received held the computer's hand or the stock
    assert check_wire(sqlite_database(db), frames) >= moves
    # the page asked for deltas: most states brought only the log's new lines, and the page
    # put the log together as the server's messages say (each line shown once)
    states = [m for m in (json.loads(f) for _, f in frames) if m["type"] == "state"]
    assert sum(m["log_from"] > 0 for m in states) > len(states) // 2
    last: dict[str, Any] | None = None
    for m in states:
        whole_lists(m, last)
        last = m
    assert last is not None
    assert page.locator("#log li:not(.auto)").count() == len(last["log"]) > 3
    # the record downloads, and the deal replays in the browser
    with page.expect_download() as download:
        page.locator("#summary .over-buttons a[download]").first.click()
    assert "conquian-record/1" in Path(download.value.path()).read_text()
    page.locator("#summary .over-buttons a", has_text="Replay").first.click()
    expect(page.locator("#rp-step")).to_have_text(re.compile(r"^0 / \d+$"), timeout=WAIT_MS)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#rp-step")).to_have_text(re.compile(r"^1 / \d+$"))
    assert page.locator("#rp-words .chip").count() >= 1
    # the home page lists the finished game, as the server keeps it for this player (issue 40)
    page.goto(server + "/")
    finished = page.locator("#finished-list li a[href^='#/replay/']")
    expect(finished).to_have_count(1, timeout=WAIT_MS)
    assert finished.first.inner_text() == "Ana · Computer (easy)"
    finished.first.click()
    expect(page.locator("#rp-step")).to_have_text(re.compile(r"^0 / \d+$"), timeout=WAIT_MS)
    page.close()


def test_two_browsers_play_a_friend_game_with_a_spectator_and_a_rematch(
    served: tuple[str, Path], browser: Browser
) -> None:
    server, db = served
    ana_ctx = browser.new_context(viewport={"width": 1100, "height": 850}, **STILL)
    ben_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, **STILL)
    eve_ctx = browser.new_context(**STILL)
    ana, ben, eve = ana_ctx.new_page(), ben_ctx.new_page(), eve_ctx.new_page()
    frames: list[tuple[int | None, str]] = []
    for page, seat in ((ana, 0), (ben, 1), (eve, None)):
        listen(page, seat, frames)
    ana.goto(server + "/")
    ana.fill("#name", "Ana")
    ana.check("#public")  # listed in the lobby, so that Ben finds it there
    ana.check("#rated")  # and it counts for their ratings
    ana.click("#play-friend")
    invite = ana.locator("#invite-table")  # the table's link: Ben's seat, the one free
    expect(invite).to_have_value(re.compile(r"#/join/"), timeout=WAIT_MS)
    link = invite.input_value()
    game_id = link.split("#/join/")[1].split("/")[0]
    # the lobby lists the open game, with its free seat
    ben.goto(server + "/")
    expect(ben.locator(f"#lobby-list a[href='#/join/{game_id}']")).to_have_count(1)
    entry = ben.locator(f"#lobby-list li[data-game='{game_id}']")
    expect(entry.locator(".free-count")).to_have_text("1 of 2 seats free")
    ben.goto(link)
    ben.fill("#name", "Ben")
    ben.click("#join-btn")
    expect(ben.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)
    # a phone-sized screen: nothing wider than the screen
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390
    expect(ana.locator("#invite")).to_have_count(0, timeout=WAIT_MS)
    expect(ana.locator(".player.opp .name")).to_have_text("Ben")
    eve.goto(f"{server}/#/watch/{game_id}")
    expect(eve.locator(".banner")).to_contain_text("watching", timeout=WAIT_MS)
    assert eve.locator("#hand .card-btn").count() == 0
    assert eve.locator("#actions button").count() == 0

    deadline = time.monotonic() + 170
    turn = 0
    while not (game_over(ana) and game_over(ben)):
        assert time.monotonic() < deadline, "the friends' game did not finish"
        moved = False
        for page in (ana, ben):
            if move(page, use_keys=turn % 3 == 0):
                moved = True
                turn += 1
        if not moved:
            wait_for_news([ana, ben])
    # the spectator saw the same moves, still without any hand
    told = ana.locator("#log li", has_text="passed you").count()  # to her alone (F6)
    expect(eve.locator("#log li")).to_have_count(
        ana.locator("#log li").count() - told, timeout=WAIT_MS
    )
    assert eve.locator("#hand .card-btn").count() == 0
    # each browser checked the shuffle itself once the server seed was revealed: the seed
    # matches the commitment it was shown before the deal, its own seed was mixed in, and the
    # seeds deal the hand it was dealt
    for page in (ana, ben):
        check = page.locator("#fair-check")
        expect(check).to_have_attribute("data-ok", "true", timeout=WAIT_MS)
        expect(check).to_contain_text("your browser's seed was mixed into the shuffle")
        expect(check).to_contain_text("the seeds deal exactly the hand you were dealt")
    # the game was rated: the winner's skill estimate rose and the loser's fell (a draw: both
    # about where they were), and each page's home says its player's rating
    events = sqlite_database(db).query(
        "select e.place, r.mu from rating_events e join ratings r on r.player_id = e.player_id"
        " and r.form = e.form where e.game_id = %s order by e.place",
        game_id,
    )
    assert len(events) == 2, events
    if events[0][0] == events[1][0]:
        assert abs(events[0][1] - 25) < 1 and abs(events[1][1] - 25) < 1, events
    else:
        assert events[0][1] > 25 > events[1][1], events
    ratings_shown = [
        page.evaluate("() => fetch('/api/me').then((r) => r.json())")["ratings"]["classic"]
        for page in (ana, ben)
    ]
    assert all(r["games"] == 1 and r["provisional"] for r in ratings_shown), ratings_shown
    # rematch: Ana asks, both end up in the new game; it is dealt once Ben is there too, and
    # la cuenta (the count) goes on in it from this match's score
    scores = [ana.locator(f"#score-{p}").inner_text() for p in (0, 1)]
    expect(ana.locator("#summary .btn-rematch[data-count=reset]")).to_be_visible()
    ana.locator("#summary .btn-rematch[data-count=keep]").click()
    expect(ana).to_have_url(re.compile(r"#/g/(?!" + re.escape(game_id) + ")"), timeout=WAIT_MS)
    expect(ana.locator("#prompt")).to_contain_text("add a seed to the shuffle", timeout=WAIT_MS)
    ben.locator("#summary .go-rematch").click()
    expect(ana.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)
    expect(ben.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)
    assert ana.url.split("/")[-2] == ben.url.split("/")[-2] != game_id
    for page in (ana, ben):
        expect(page.locator("#cuenta-said")).to_have_text("The count over 2 matches")
        assert [page.locator(f"#cuenta-{p}").inner_text() for p in (0, 1)] == scores
    for page in (ana, ben, eve):
        assert not csp_violations(page)
    # every message the three browsers received, checked against the true game
    assert check_wire(sqlite_database(db), frames) >= turn
    for ctx in (ana_ctx, ben_ctx, eve_ctx):
        ctx.close()


def test_the_two_player_mexican_game_plays_its_exchange_in_the_browser(
    served: tuple[str, Path], browser: Browser
) -> None:
    server, _ = served
    page = browser.new_page(viewport={"width": 1200, "height": 850})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(CSP_WATCH)
    page.add_init_script(ASK_ME)
    page.goto(server + "/")
    made = page.evaluate(
        """() => fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
             body: JSON.stringify({mode: "bot", level: "easy", rules: "mexican,num_players=2"})})
           .then((r) => r.json())"""
    )
    page.goto(f"{server}/#/g/{made['id']}/{made['token']}")
    expect(page.locator("#hand .card-btn")).to_have_count(8, timeout=WAIT_MS)
    # the exchange: the prompt says what to do, a card is picked and passed on
    expect(page.locator("#btn-exchange")).to_be_visible(timeout=WAIT_MS)
    expect(page.locator("#prompt")).to_contain_text("pass face down")
    first = page.locator("#hand .card-btn").first
    card = first.get_attribute("data-card")
    first.click()
    page.click("#btn-exchange")
    expect(page.locator("#btn-exchange")).to_have_count(0, timeout=WAIT_MS)
    expect(page.locator("#log")).to_contain_text("to pass on")
    # the card went to the computer, and one came back: still eight cards, not that one
    expect(page.locator("#hand .card-btn")).to_have_count(8, timeout=WAIT_MS)
    expect(page.locator(f'#hand [data-card="{card}"]')).to_have_count(0, timeout=WAIT_MS)
    # the card received is marked in the hand and said in the log, with who passed it
    # (NEWCOMER-ES F6); only that one
    got = page.locator("#hand .card-btn.received")
    expect(got).to_have_count(1, timeout=WAIT_MS)
    received = str(got.get_attribute("data-card"))
    assert "received in the exchange" in str(got.get_attribute("aria-label"))
    said = page.locator("#log li", has_text="passed you")
    expect(said).to_have_count(1)
    assert said.locator(".chip").get_attribute("data-card") == received
    assert not errors and not csp_violations(page)
    page.close()


def test_three_browsers_play_a_tercerilla_between_friends(
    served: tuple[str, Path], browser: Browser
) -> None:
    server, db = served
    frames: list[tuple[int | None, str]] = []
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 800}, **STILL) for _ in range(3)
    ]
    pages = [ctx.new_page() for ctx in contexts]
    errors: list[str] = []
    for seat, page in enumerate(pages):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(CSP_WATCH)
        listen(page, seat, frames)
    ana, ben, cy = pages
    ana.add_init_script(SHARE_STUB)
    ana.goto(server + "/")
    ana.fill("#name", "Ana")
    ana.select_option("#game-rules", "tercerilla")
    expect(ana.locator("#play-friend")).to_have_text("Create a game for friends")
    ana.click("#play-friend")
    # one link for the whole table (NEWCOMER-ES F11), shared with a message ready, and a
    # link to watch; an invitation link for each seat as well, behind "one link per seat"
    table = ana.locator("#invite-table")
    expect(table).to_have_value(re.compile(r"#/join/[^/]+/1\.[^.]+\.2\.[^.]+$"), timeout=WAIT_MS)
    link = table.input_value()
    ana.click("#invite .share-link[data-for=invite-table]")
    shared = ana.wait_for_function("() => window.__shared").json_value()
    assert link in shared["text"] and "Ana invites you to play" in shared["text"]
    watch = ana.locator("#watch-link").input_value()
    assert re.search(r"#/watch/[^/]+$", watch) and watch.split("/")[-1] == link.split("/")[-2]
    expect(ana.locator("#invite .invite-link[data-seat]")).to_have_count(2)
    # Cy comes first and picks the second free seat; Ben, with the same link, gets the other
    cy.goto(link)
    expect(cy.locator("#seat-choice input[name=seat]")).to_have_count(2, timeout=WAIT_MS)
    cy.check("#seat-choice input[value='2']")
    cy.fill("#name", "Cy")
    cy.click("#join-btn")
    expect(cy).to_have_url(re.compile(r"#/g/"), timeout=WAIT_MS)
    ben.goto(link)
    expect(ben.locator("#join-seats")).to_contain_text("1 of 3 seats free", timeout=WAIT_MS)
    expect(ben.locator("#seat-choice")).to_be_hidden()
    ben.fill("#name", "Ben")
    ben.click("#join-btn")
    # all three are seated and dealt eight cards; each sees the two others' hands as backs
    for page in pages:
        expect(page.locator("#hand .card-btn")).to_have_count(8, timeout=WAIT_MS)
        expect(page.locator(".player.opp")).to_have_count(2)
    expect(ana.locator(".player.opp").first).to_contain_text("on your right")
    # each took the seat picked: Ben on Ana's right although Cy came first
    expect(ana.locator(".player.opp .name").first).to_have_text("Ben")
    # the watch link shows the table from no seat: no hand, no "on your right"
    eve_ctx = browser.new_context(viewport={"width": 1280, "height": 800}, **STILL)
    eve = eve_ctx.new_page()
    eve.goto(watch)
    expect(eve.locator(".player.opp")).to_have_count(2, timeout=WAIT_MS)
    assert eve.locator("#hand .card-btn").count() == 0
    assert "on your right" not in eve.locator("#game-view").inner_text()
    eve_ctx.close()
    deadline = time.monotonic() + 170
    while not all(game_over(p) for p in pages):
        assert time.monotonic() < deadline, "the three friends' game did not finish"
        if not any(move(p, use_keys=False) for p in pages):
            wait_for_news(pages)
    for page in pages:
        expect(page.locator("#fair-check")).to_have_attribute("data-ok", "true", timeout=WAIT_MS)
        assert not csp_violations(page)
    assert not errors
    assert check_wire(sqlite_database(db), frames) > 0  # no hand or stock card on the wire
    for ctx in contexts:
        ctx.close()


def test_two_people_and_a_computer_at_a_tercerilla_with_a_spectator(
    served: tuple[str, Path], browser: Browser
) -> None:
    server, db = served
    frames: list[tuple[int | None, str]] = []
    contexts = [
        browser.new_context(viewport={"width": 1280, "height": 800}, **STILL),
        browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, **STILL),
        browser.new_context(viewport={"width": 1280, "height": 800}, **STILL),
    ]
    ana, ben, eve = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    urls: list[str] = []
    for page, seat in ((ana, 0), (ben, 1), (eve, None)):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("request", lambda request: urls.append(request.url))
        listen(page, seat, frames)
    # Ana sets the table: a friend on her right, the computer (easy) on her left; public
    ana.goto(server + "/")
    ana.fill("#name", "Ana")
    ana.select_option("#game-rules", "tercerilla")
    expect(ana.locator("#seat-picks select")).to_have_count(2)
    ana.select_option("#seat-2", "bot:easy")
    expect(ana.locator("#pick-summary")).to_have_text(
        "1 invitation link to send, 1 computer player at the table."
    )
    expect(ana.locator("#play-friend")).to_have_text("Create the table")
    ana.check("#public")
    ana.click("#play-friend")
    expect(ana.locator("#invite-table")).to_have_count(1, timeout=WAIT_MS)
    link = ana.locator("#invite-table").input_value()
    game_id, code = link.split("#/join/")[1].split("/")
    expect(ana.locator("#seat-list li")).to_have_count(3)
    expect(ana.locator("#seat-list li[data-seat='2']")).to_contain_text("Computer (easy)")
    # the lobby shows the table: who sits, the computer and its level, one seat of three free
    eve.goto(server + "/")
    entry = eve.locator(f"#lobby-list li[data-game='{game_id}']")
    expect(entry.locator(".free-count")).to_have_text("1 of 3 seats free", timeout=WAIT_MS)
    expect(entry.locator(".seat-line")).to_have_text(
        "1 of 3 seats free Ana · free seat · Computer (easy)"
    )
    eve.goto(f"{server}/#/watch/{game_id}")
    expect(eve.locator("#prompt")).to_contain_text("Waiting for one more player", timeout=WAIT_MS)
    assert eve.locator("#invite").count() == 0  # a spectator is shown no invitation
    # Ben opens his invitation and takes his seat
    ben.goto(link)
    expect(ben.locator("#join-info")).to_contain_text("Ana invites you", timeout=WAIT_MS)
    ben.fill("#name", "Ben")
    ben.click("#join-btn")
    people = [ana, ben]
    for page in people:
        expect(page.locator("#hand .card-btn")).to_have_count(8, timeout=WAIT_MS)
        expect(page.locator(".player.opp")).to_have_count(2)
    expect(ana.locator(".player.opp .name")).to_have_text(["Ben", "Computer (easy)"])
    expect(ben.locator(".player.opp .name")).to_have_text(["Computer (easy)", "Ana"])
    expect(eve.locator(".player")).to_have_count(3, timeout=WAIT_MS)
    assert ben.evaluate("document.documentElement.scrollWidth") <= 390
    deadline = time.monotonic() + 170
    while not all(game_over(p) for p in people):
        assert time.monotonic() < deadline, "the table did not finish its deal"
        moved = [move(p, use_keys=False) for p in people if not game_over(p)]
        if not any(moved):
            wait_for_news(people)
    # the spectator saw every move, and never a hand
    told = ana.locator("#log li", has_text="passed you").count()  # to her alone (F6)
    expect(eve.locator("#log li")).to_have_count(
        ana.locator("#log li").count() - told, timeout=WAIT_MS
    )
    assert eve.locator("#hand .card-btn").count() == 0
    for page in people:
        expect(page.locator("#fair-check")).to_have_attribute("data-ok", "true", timeout=WAIT_MS)
    # the replay draws the three players
    replay = ana.locator("#summary .over-buttons a", has_text="Replay").last.get_attribute("href")
    eve.goto(f"{server}/{replay}")
    expect(eve.locator(".replay .player")).to_have_count(3, timeout=WAIT_MS)
    expect(eve.locator(".replay h2")).to_contain_text("Ana vs Ben vs Computer (easy)")
    eve.keyboard.press("End")
    expect(eve.locator("#rp-step")).to_have_text(re.compile(r"^(\d+) / \1$"))
    # a rematch at the same table: the two people and the computer at its level
    ana.locator("#summary .btn-rematch[data-count=keep]").click()
    expect(ana).to_have_url(re.compile(r"#/g/(?!" + re.escape(game_id) + ")"), timeout=WAIT_MS)
    ben.locator("#summary .go-rematch").click()
    for page in people:
        expect(page.locator("#hand .card-btn")).to_have_count(8, timeout=WAIT_MS)
    expect(ana.locator(".player.opp .name")).to_have_text(["Ben", "Computer (easy)"])
    for page in (ana, ben, eve):
        assert not csp_violations(page)
    assert not errors, errors
    # the invitation never went into a URL, and nothing the pages received held a hidden
    # card, a seed, a token or an invitation meant for someone else
    assert not [u for u in urls if code in u]
    assert check_wire(sqlite_database(db), frames) > 0
    for ctx in contexts:
        ctx.close()


WATCHED_TEXT_JS = """() => {
    const view = document.getElementById("game-view");
    const parts = [];
    for (const el of view.querySelectorAll(":scope > .board, :scope > .side"))
        parts.push(el.innerText);
    for (const el of view.querySelectorAll("[aria-label], [title]"))
        for (const name of ["aria-label", "title"])
            if (el.hasAttribute(name)) parts.push(el.getAttribute(name));
    return parts.join("\\n");
}"""
"""The words of the game's screen: what it shows and its labels."""


def test_a_spectator_is_never_told_of_a_seat_as_its_own(
    served: tuple[str, Path], browser: Browser
) -> None:
    """A spectator of a three-player game has no seat: the page names the seats it watches
    without "you" (it once told it, as it tells a player, that the seat on the right plays
    "after you", and called the hand it shows the backs of "your hand"), in English and in
    Spanish; the player's own page still says where the seat on her right is."""
    server, _ = served
    contexts = [browser.new_context(**STILL) for _ in range(3)]
    ana, eve, eva = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for page in (ana, eve, eva):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    ana.add_init_script(ASK_ME)
    ana.goto(server + "/")
    made = ana.evaluate(
        """() => fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
             body: JSON.stringify({mode: "bot", level: "easy", name: "Ana", rules: "tercerilla"})})
           .then(r => r.json())"""
    )
    ana.goto(f"{server}/#/g/{made['id']}/{made['token']}")
    expect(ana.locator("#hand .card-btn")).to_have_count(8, timeout=WAIT_MS)
    expect(ana.locator(".player.opp[data-seat='1'] .who")).to_contain_text(
        "on your right, plays after you"
    )
    expect(ana.locator("#hand")).to_have_attribute("aria-label", "Your hand")
    # the spectator's "you" words: English, and Mexican Spanish (tú and its forms, usted)
    for page, lang, you, hand in (
        (eve, "en", r"\byou(r|rs)?\b", "Ana's hand"),
        (eva, "es", r"\b(tú|tu|tus|ti|te|usted)\b", "Mano de Ana"),
    ):
        page.goto(f"{server}/?lang={lang}#/watch/{made['id']}")
        expect(page.locator(".player.opp")).to_have_count(2, timeout=WAIT_MS)
        expect(page.locator("#hand .card")).to_have_count(8)  # seat 0's hand, its backs
        expect(page.locator("#hand")).to_have_attribute("aria-label", hand)
        banner = page.locator(".banner").first.inner_text()  # "You are watching…": to it
        said = page.evaluate(WATCHED_TEXT_JS).replace(banner, "")
        assert not re.search(you, said, re.IGNORECASE), (lang, said)
        assert "Ana" in said and "derecha" not in said
    assert not errors, errors
    for ctx in contexts:
        ctx.close()


# ------------------------------------------------------------------ in Spanish

PAGE_TEXT_JS = """() => {
    const parts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]"))
        for (const name of ["aria-label", "title", "placeholder"])
            if (el.hasAttribute(name)) parts.push(el.getAttribute(name));
    return parts.join("\\n");
}"""
"""What a reader of the page sees: its visible text, its title, and the words of its labels."""

SPANISH_TOO = {
    "Ana",  # the player's name
    "standard",  # the rules' spec, which is code ("reglas standard")
}
"""Words of the English catalogues a Spanish page may show as they are (besides the ones the
Spanish catalogues themselves keep): names and codes.  Card labels and numbers are no words."""
_EDGE = " \n\t.,;:!?()[]{}\"'«»\u2039\u203a…—\u2013·-/|=+%<>"


def english_pieces() -> dict[str, str]:
    """Every piece of English in the two catalogues (``conquian`` and ``conquian-web``): the
    text of each message between its placeholders, without its bold and italic marks, each
    mapped to a message it is in.  A piece that every Spanish translation of its messages keeps
    as it is (a command such as ``no``, ``vs``) is left out, and so are pieces without a word
    of two letters."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import catalogues

    pieces: dict[str, str] = {}
    kept: dict[str, bool] = {}
    for domain in ("conquian", "conquian-web"):
        po = catalogues.read(catalogues.LOCALE / "es" / "LC_MESSAGES" / f"{domain}.po")
        for message in po:
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            spanish = " ".join(strings).replace("*", "")
            for text in ids:
                for piece in catalogues.PLACEHOLDER.split(text.replace("*", "")):
                    piece = " ".join(piece.split()).strip(_EDGE)
                    if re.search(r"[A-Za-z]{2}", piece):
                        pieces.setdefault(piece, text)
                        kept[piece] = kept.get(piece, True) and _has(spanish, piece)
    return {piece: text for piece, text in pieces.items() if not kept[piece]}


def _has(text: str, piece: str) -> bool:
    """``piece`` is in ``text`` as whole words (``forced_take``, a rule's name, is one word)."""
    return re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", text) is not None


def english_left(text: str, pieces: dict[str, str]) -> dict[str, str]:
    """The pieces of English (and their messages) found in a page's text."""
    text = " ".join(text.split())
    return {p: m for p, m in pieces.items() if p not in SPANISH_TOO and _has(text, p)}


def test_a_deal_in_spanish_has_no_english_left_and_the_menu_changes_the_language(
    served: tuple[str, Path], browser: Browser
) -> None:
    server, db = served
    # the browser asks for Mexican Spanish (Accept-Language: es-MX)
    ctx = browser.new_context(locale="es-MX", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    frames: list[tuple[int | None, str]] = []
    listen(page, 0, frames)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    pieces = english_pieces()
    assert {"Game over", "Play the computer", "cards in hand"} <= set(pieces)
    seen: list[str] = []

    def look(what: str) -> None:
        text = page.evaluate(PAGE_TEXT_JS)
        if what == "rules":  # the rules' flags, the last lines of the page, are code
            text = text.split("\nOpciones:\n")[0]
        found = english_left(text, pieces)
        assert not found, (what, found, text[:2000])
        seen.append(text)

    page.goto(server + "/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator("#play-bot")).to_have_text("Jugar contra la computadora")
    expect(page.locator("#lang")).to_have_value("es")
    expect(page.locator("#lobby-list h3").first).to_be_visible(timeout=WAIT_MS)
    look("home")
    # the browser picks the same plural forms as Python's gettext
    numbers = [0, 1, 2, 5, 21, 1_000_000, 2_000_000]
    picked = page.evaluate(
        "async (numbers) => { const w = await import('/static/words.js');"
        " return numbers.map((n) => w.pluralIndex(n)); }",
        numbers,
    )
    assert picked == [gettext_plural("es", n) for n in numbers]
    page.goto(server + "/#/rules")
    expect(page.locator("#rules-heading")).not_to_have_text("Todas las reglas", timeout=WAIT_MS)
    expect(page.locator("#rules-how h2").first).to_be_visible()
    look("rules")
    page.goto(server + "/#/")
    # their game first (issue 39): the tercerilla is offered first, and the page speaks of it
    expect(page.locator("#game-rules")).to_have_value("tercerilla")
    expect(page.locator("#pitch")).to_contain_text("México")
    expect(page.locator("#how-to-play")).to_have_attribute("href", "#/rules/mexican")
    page.select_option("#game-rules", "standard")  # this test plays the two-player game
    expect(page.locator("#pitch")).to_contain_text("11")
    expect(page.locator("#how-to-play")).to_have_attribute("href", "#/rules")
    page.fill("#name", "Ana")
    page.check("input[name=level][value=easy]")
    page.click("#play-bot")
    expect(page.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)
    expect(page.locator(".player.opp .name")).to_have_text("Computadora (fácil)")
    hinted = False
    moves = 0
    deadline = time.monotonic() + 150
    while not game_over(page):
        assert time.monotonic() < deadline, "the game did not finish"
        if not hinted and page.locator("#btn-hint:not([disabled])").count():
            page.click("#btn-hint")
            expect(page.locator(".hint")).to_contain_text("Pista:", timeout=WAIT_MS)
            look("hint")
            hinted = True
        if move(page, use_keys=moves % 2 == 1):
            moves += 1
            look(f"move {moves}")
        else:
            wait_for_news([page])
    expect(page.locator("#summary-title")).to_have_text("Fin de la partida")
    expect(page.locator("#fair-check")).to_have_attribute("data-ok", "true", timeout=WAIT_MS)
    expect(page.locator("#fair-check")).to_contain_text("Barajado justo")
    look("the end of the deal")
    assert hinted and moves >= 3 and not errors, errors
    words = " ".join(seen)
    assert "baceta" in words and "Jugadas" in words and "Cartas muertas" in words
    # the menu names each language in itself; English, and the server's words follow
    options = page.locator("#lang option").all_inner_texts()
    assert options == ["English", "Español (México)", "ಕನ್ನಡ", "Hrvatski", "Türkçe", "Русский"]
    spanish_log = " ".join(str(page.locator("#log").text_content()).split())
    page.select_option("#lang", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#summary-title")).to_have_text("Game over")
    expect(page.locator(".log h2")).to_have_text("Moves")
    expect(page.locator("#log")).not_to_have_text(spanish_log, timeout=WAIT_MS)  # the server's
    expect(page.locator("header nav a").first).to_have_text("Play")
    assert {"Game over", "Moves"} <= set(english_left(page.evaluate(PAGE_TEXT_JS), pieces))
    assert {"name": "conquian_lang", "value": "en"}.items() <= next(
        c for c in ctx.cookies() if c["name"] == "conquian_lang"
    ).items()
    page.reload()  # the cookie keeps the choice
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#summary-title")).to_have_text("Game over", timeout=WAIT_MS)
    expect(page.locator("#lang")).to_have_value("en")
    page.select_option("#lang", "es")
    expect(page.locator("#summary-title")).to_have_text("Fin de la partida")
    expect(page.locator("#log")).to_have_text(spanish_log, timeout=WAIT_MS)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.locator(".log h2")).to_have_text("Jugadas", timeout=WAIT_MS)
    expect(page.locator("#log")).to_have_text(spanish_log, timeout=WAIT_MS)
    look("after a reload")
    # the replay of the deal, a table waiting for a friend, and the friend's invitation
    page.locator("#summary .over-buttons a.replay-link").first.click()
    expect(page.locator("#rp-step")).to_have_text(re.compile(r"^0 / \d+$"), timeout=WAIT_MS)
    look("the replay")
    page.keyboard.press("End")
    expect(page.locator("#rp-step")).to_have_text(re.compile(r"^(\d+) / \1$"))
    look("the end of the replay")
    page.goto(server + "/#/")
    page.fill("#name", "Ana")
    expect(page.locator("#play-friend")).to_have_text("Crear una partida para amigos")  # tercerilla
    page.select_option("#game-rules", "standard")
    expect(page.locator("#play-friend")).to_have_text("Crear una partida para un amigo")
    page.click("#play-friend")
    expect(page.locator("#invite-table")).to_have_value(re.compile(r"#/join/"), timeout=WAIT_MS)
    expect(page.locator("#prompt")).to_have_text("Esperando a que se una un jugador más…")
    look("the waiting room")
    page.goto(page.locator("#invite-table").input_value())
    expect(page.locator("#join-info")).to_contain_text("Ana te invita", timeout=WAIT_MS)
    look("an invitation")
    assert not errors and not csp_violations(page), errors
    assert check_wire(sqlite_database(db), frames) >= moves
    ctx.close()


def gettext_plural(code: str, n: int) -> int:
    """The plural form Python's gettext picks for ``n`` in the web catalogue of ``code``."""
    import gettext

    from conquian.present.i18n import LOCALE_DIR

    found = gettext.translation("conquian-web", LOCALE_DIR, languages=[code])
    return int(found.plural(n))  # type: ignore[attr-defined]


def kannada_font_installed() -> bool:
    """Whether fontconfig knows a font with Kannada glyphs (Chromium draws with those)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    found = subprocess.run([fc_list, ":lang=kn"], capture_output=True, text=True, timeout=60)
    return bool(found.stdout.strip())


def test_every_language_is_shown_and_kannada_has_real_glyphs(
    served: tuple[str, Path], browser: Browser
) -> None:
    server, _ = served
    errors: list[str] = []
    fonts: list[dict[str, Any]] = []
    for code in ("kn", "hr", "tr", "ru"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(CSP_WATCH)
        words = page.request.get(f"{server}/api/words?lang={code}").json()["messages"]
        # a language asked for in the address: the page in it, and kept in the cookie
        page.goto(f"{server}/?lang={code}")
        expect(page.locator("html")).to_have_attribute("lang", code)
        expect(page.locator("#lang")).to_have_value(code)
        # the page's own words in that language (English only for a message not translated)
        expect(page.locator("#play-bot")).to_have_text(
            words.get("Play the computer", "Play the computer")
        )
        assert any(c["name"] == "conquian_lang" and c["value"] == code for c in ctx.cookies())
        page.goto(server + "/")
        expect(page.locator("html")).to_have_attribute("lang", code)
        if code == "kn":
            page.click("#play-bot")
            expect(page.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)
            # the menu shows ಕನ್ನಡ: drawn with a font that has Kannada glyphs, not as boxes
            cdp = ctx.new_cdp_session(page)
            cdp.send("DOM.enable")
            cdp.send("CSS.enable")
            root = cdp.send("DOM.getDocument")["root"]["nodeId"]
            node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#lang"})["nodeId"]
            fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        assert not errors and not csp_violations(page), (code, errors)
        ctx.close()
    if not any("Kannada" in f["familyName"] and f["glyphCount"] for f in fonts):
        if not kannada_font_installed():  # the machine's want, not the page's fault
            skip_unless_ci(
                "no font with Kannada glyphs is installed (apt-get install fonts-noto-core; "
                ".ci/run installs it): the other languages were checked"
            )
        pytest.fail(f"ಕನ್ನಡ is drawn with no font that has Kannada glyphs: {fonts}")


SEQ_JS = "() => document.getElementById('app').dataset.seq ?? null"


def test_two_browsers_through_nginx_and_two_processes_one_of_them_killed(
    browser: Browser, tmp_path: Path
) -> None:
    """Two server processes on one PostgreSQL database behind nginx configured as
    docs/deploy.md says serve a friend game to two browsers: the game's process is killed
    (SIGKILL) between two moves, both pages connect again by themselves, through nginx, to
    the other process, and the game is played to its end there, every move stored once."""
    nginx_or_skip()
    with postgres_database(postgres_url_or_skip()) as pg:
        servers = [
            start_server(pg.url, log=tmp_path / f"server-{n}.log", args=["--rate-limit", "off"])
            for n in ("a", "b")
        ]
        ports = [int(base.rsplit(":", 1)[1]) for _, base in servers]
        contexts = []
        try:
            folder = tmp_path / "nginx"
            with running_nginx(folder, ports) as proxy:
                ana_ctx = browser.new_context(**STILL)
                ben_ctx = browser.new_context(**STILL)
                contexts = [ana_ctx, ben_ctx]
                ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
                frames: list[tuple[int | None, str]] = []
                listen(ana, 0, frames)
                listen(ben, 1, frames)
                ana.goto(proxy + "/")
                ana.fill("#name", "Ana")
                ana.click("#play-friend")
                invite = ana.locator("#invite-table")
                expect(invite).to_have_value(re.compile(r"#/join/"), timeout=WAIT_MS)
                link = invite.input_value()
                game_id = link.split("#/join/")[1].split("/")[0]
                ben.goto(link)
                ben.fill("#name", "Ben")
                ben.click("#join-btn")
                expect(ben.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)

                def play_until(done: Callable[[], bool]) -> int:
                    moves = 0
                    deadline = time.monotonic() + 170
                    while not done():
                        assert time.monotonic() < deadline, "the game did not go on"
                        moved = False
                        for page in (ana, ben):
                            if not done() and move(page, use_keys=False):
                                moved = True
                                moves += 1
                        if not moved:
                            wait_for_news([ana, ben])
                    return moves

                play_until(lambda: int(ana.evaluate(SEQ_JS) or 0) >= 6)
                # between two moves: both pages have the last one, no move is on its way
                seq = ana.evaluate(SEQ_JS)
                ben.wait_for_function(f"() => {SEQ_JS}() === {json.dumps(seq)}", timeout=WAIT_MS)
                # the game's process: the one nginx sent Ben's join to (its websockets are
                # logged only once closed), as every request naming the game
                used = {u for path, u in routed_requests(folder) if f"/{game_id}" in path}
                assert len(used) == 1, used
                port = int(used.pop().rsplit(":", 1)[1])
                killed = servers[ports.index(port)][0]
                with (
                    ana.expect_websocket(timeout=WAIT_MS) as ana_again,
                    ben.expect_websocket(timeout=WAIT_MS) as ben_again,
                ):
                    killed.kill()
                    killed.wait(10)
                assert "token" not in ana_again.value.url + ben_again.value.url
                for page in (ana, ben):  # each page has its new socket's state drawn
                    page.wait_for_function(
                        "() => !document.querySelector('.banner.error')", timeout=WAIT_MS
                    )
                after = play_until(lambda: game_over(ana) and game_over(ben))
                # (the process that is left played the rest: the other one is dead)
                # every move shown was stored once (a page's number of moves is the game's)
                stored = len(pg.actions(game_id))
                assert after > 0 and stored == int(ana.evaluate(SEQ_JS)) > int(seq)
                assert check_wire(pg, frames) >= stored
                for page in (ana, ben):
                    assert not csp_violations(page)
        finally:
            for ctx in contexts:
                ctx.close()
            for proc, _ in servers:
                if proc.poll() is None:
                    proc.terminate()
                    proc.wait(15)


FREE_BUTTONS_JS = "() => document.querySelectorAll('#actions button:not([disabled])').length"


def test_the_moves_wait_while_the_page_reconnects(browser: Browser, tmp_path: Path) -> None:
    """While its connection is lost the page says so and offers no move (a move pressed then
    could not be sent); once the server is back (on the same port and database) the page
    connects again by itself, and the player moves as before."""
    db = tmp_path / "games.sqlite3"
    proc, base = start_server(f"sqlite:///{db}", bot_delay=0.0)
    port = int(base.rsplit(":", 1)[1])
    page = browser.new_page(**STILL)
    try:
        page.add_init_script(ASK_ME)
        page.goto(base + "/")
        page.fill("#name", "Ana")
        page.check("input[name=level][value=easy]")
        page.click("#play-bot")
        expect(page.locator("#hand .card-btn")).to_have_count(10, timeout=WAIT_MS)
        page.wait_for_function(f"() => ({FREE_BUTTONS_JS})() > 0", timeout=WAIT_MS)
        seq = page.evaluate(SEQ_JS)
        proc.kill()
        proc.wait(10)
        expect(page.locator(".banner.error")).to_contain_text("reconnecting", timeout=WAIT_MS)
        assert page.evaluate(FREE_BUTTONS_JS) == 0
        assert page.locator("#actions button").count() > 0  # shown, but not to be pressed
        proc, _ = start_server(f"sqlite:///{db}", port=port, bot_delay=0.0)
        expect(page.locator(".banner.error")).to_have_count(0, timeout=WAIT_MS)
        page.wait_for_function(f"() => ({FREE_BUTTONS_JS})() > 0", timeout=WAIT_MS)
        assert page.evaluate(SEQ_JS) == seq  # the same position, nothing lost
        assert move(page, use_keys=False)
    finally:
        page.close()
        proc.terminate()
        proc.wait(10)


def finish_a_game_against_the_computer(page: Page, server: str, seed: int) -> str:
    """A one-deal game against the easy computer, made with ``page``'s cookies (its player
    sits there) and played to its end at random over a websocket of its own."""
    import random

    from web_helpers import hello, play_to_the_end_of_deal
    from websockets.sync.client import connect

    rules = "standard,match=n_deals,match_target=1"
    made = page.request.post(
        server + "/api/games",
        data={"mode": "bot", "level": "easy", "rules": rules},
        headers={"Origin": server},
    ).json()

    class Socket:  # the websocket as play_to_the_end_of_deal reads and writes it
        def __init__(self, ws: Any) -> None:
            self.ws = ws

        def receive_text(self) -> str:
            return str(self.ws.recv(WAIT_MS / 1000))

        def send_text(self, text: str) -> None:
            time.sleep(0.06)  # under the server's 20 messages a second (a pace, not a wait)
            self.ws.send(text)

    address = server.replace("http://", "ws://") + f"/ws/{made['id']}"
    with connect(address, origin=server) as ws:  # type: ignore[arg-type]
        ws.send(hello(made["token"]))
        play_to_the_end_of_deal(Socket(ws), 1, random.Random(seed))
    return str(made["id"])


def test_erasing_an_account_and_signing_out_everywhere_go_home_as_a_new_guest(
    served: tuple[str, Path], browser: Browser
) -> None:
    """From *Your account*: *Delete my account* (confirmed) and *Sign out everywhere* each
    say what was done and go home, the browser a new guest."""
    server, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, **STILL)
    page = context.new_page()
    page.add_init_script(ASK_ME)
    page.on("dialog", lambda dialog: dialog.accept())
    me = lambda: page.evaluate("() => fetch('/api/me').then((r) => r.json())")  # noqa: E731
    for login, button, said in (
        ("erasable", "#erase", "Your account is deleted."),
        ("everywhere", "#sign-out-all", "Signed out."),
    ):
        page.goto(server + "/#/account")
        page.locator("#password-box summary").click()
        page.fill("#login", login)
        page.fill("#password", "bien-guardada")
        page.click("#password-form button[type=submit]")
        expect(page.locator("#sign-out")).to_be_visible(timeout=WAIT_MS)  # an account now
        account = me()
        assert account["guest"] is False
        page.click(button)
        expect(page).to_have_url(re.compile(r"#/$"), timeout=WAIT_MS)
        expect(page.locator("#toast")).to_have_text(said, timeout=WAIT_MS)
        now = me()
        assert now["id"] != account["id"] and now["guest"] is True
    context.close()


def test_two_people_rate_a_table_keep_their_players_and_see_them_from_any_browser(
    served: tuple[str, Path], browser: Browser
) -> None:
    """Issue 40: Ana makes a rated table from the home page (its *Rated* box) and Ben joins
    it; their games end rated (rated here straight in the store, ten times: playing a rated
    game to its end is tests/test_web_ratings.py's); each home page then says its player's
    rating, and the leaderboard lists them, the winner first.

    Then each keeps his player: Ana with a passkey (Chromium's virtual authenticator), signs
    out and in with it again; Ben with a password, and signs in on another browser, which
    shows his name, his rating and his games.  (On ``localhost``: a passkey needs a host
    name, not an address.)"""
    import asyncio

    from conquian.web.database import open_store

    server, db = served
    server = server.replace("127.0.0.1", "localhost")
    contexts = [
        browser.new_context(viewport={"width": 390, "height": 844}, **STILL) for _ in range(2)
    ]
    ana, ben = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for page in (ana, ben):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(ASK_ME)
    ana.goto(server + "/")
    ana.fill("#name", "Ana")
    ana.select_option("#game-rules", "tercerilla")
    ana.select_option("#seat-2", "bot:easy")  # a computer at the table: not rated
    expect(ana.locator("#rated")).to_be_disabled()
    ana.select_option("#seat-2", "person")
    ana.select_option("#game-rules", "standard")
    ana.check("#rated")
    ana.click("#play-friend")
    link = ana.locator("#invite-table")
    expect(link).to_have_value(re.compile(r"#/join/"), timeout=WAIT_MS)
    ben.goto(link.input_value())
    ben.fill("#name", "Ben")
    ben.click("#join-btn")
    expect(ben).to_have_url(re.compile(r"#/g/"), timeout=WAIT_MS)
    game_id = ana.url.split("/")[-2]
    facts = ana.evaluate(f"() => fetch('/api/games/{game_id}').then((r) => r.json())")
    assert facts["rated"] is True and facts["names"] == ["Ana", "Ben"], facts
    ids = [p.evaluate("() => fetch('/api/me').then((r) => r.json())")["id"] for p in (ana, ben)]

    async def ten_games() -> None:
        store = open_store(f"sqlite:///{db}")
        try:
            for number in range(10):  # Ana wins seven of them
                balances = [1, -1] if number < 7 else [-1, 1]
                await store.rate_match(
                    f"{game_id}-{number}", "classic", list(zip(ids, balances, strict=True))
                )
        finally:
            await store.close()

    with ThreadPoolExecutor(1) as apart:  # (this thread runs Playwright's event loop)
        apart.submit(asyncio.run, ten_games()).result()
    shown = []
    for page in (ana, ben):
        page.goto(server + "/")
        line = page.locator("#my-ratings")
        expect(line).to_be_visible(timeout=WAIT_MS)
        shown.append(int(re.findall(r"\d{3,4}", line.inner_text())[-1]))
    assert shown[0] > shown[1], shown  # (both rise as the model grows surer of them)
    ana.goto(server + "/#/leaderboard/classic/week")
    names = ana.locator(".leaders .name")
    expect(names).to_have_count(2, timeout=WAIT_MS)
    assert names.all_inner_texts() == ["Ana", "Ben"]
    assert ana.locator(".leaders .rating").all_inner_texts() == [str(s) for s in shown]
    for number, page in enumerate((ana, ben)):
        finish_a_game_against_the_computer(page, server, seed=number)

    # Ana keeps her player with a passkey, signs out, and signs in with it again
    cdp = contexts[0].new_cdp_session(ana)
    cdp.send("WebAuthn.enable")
    authenticator = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )["authenticatorId"]
    ana.goto(server + "/#/account")
    ana.click("#add-passkey")
    codes = ana.locator("#codes li")
    expect(codes).to_have_count(10, timeout=WAIT_MS)
    ana.click("#codes-done")
    expect(ana.locator("#passkey-list li")).to_have_count(1, timeout=WAIT_MS)
    kept = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(kept["credentials"]) == 1 and kept["credentials"][0]["isResidentCredential"]
    # signed out, the page asks who the browser is now; the server, busy, cannot say: the
    # page says so and goes home all the same (it stayed on the account it had left)
    busy = "Too many requests from your address (at most 20 per minute); try again in 9 s."

    def say_busy(route: Route) -> None:
        if route.request.method == "GET":
            route.fulfill(status=429, json={"error": busy}, headers={"Retry-After": "9"})
        else:
            route.fallback()

    ana.route("**/api/me", say_busy, times=1)
    ana.click("#sign-out")
    expect(ana).to_have_url(re.compile(r"#/$"), timeout=WAIT_MS)
    expect(ana.locator("#toast")).to_have_text(f"Signed out. {busy}", timeout=WAIT_MS)
    expect(ana.locator("#play-friend")).to_be_visible(timeout=WAIT_MS)
    me = lambda page: page.evaluate("() => fetch('/api/me').then((r) => r.json())")  # noqa: E731
    assert me(ana)["id"] != ids[0] and me(ana)["guest"] is True
    ana.goto(server + "/#/signin")
    ana.click("#passkey-sign-in")
    expect(ana.locator("#passkey-list li")).to_have_count(1, timeout=WAIT_MS)
    assert me(ana)["id"] == ids[0] and me(ana)["name"] == "Ana"

    # Ben keeps his with a password, and signs in on another browser (a phone of 360 px)
    ben.goto(server + "/#/account")
    ben.click("#password-box summary")
    ben.fill("#login", "ben.rios")
    ben.fill("#password", "conquian con la abuela")
    ben.click("#password-form button[type=submit]")
    expect(ben.locator("#codes li")).to_have_count(10, timeout=WAIT_MS)
    phone = browser.new_context(viewport={"width": 360, "height": 640}, **STILL)
    other = phone.new_page()
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    other.goto(server + "/#/signin")
    other.fill("#login", "Ben.Rios")
    other.fill("#password", "conquian con la abuela")
    other.click("#password-sign-in button[type=submit]")
    expect(other.locator("#me-name")).to_have_value("Ben", timeout=WAIT_MS)
    other.goto(server + "/")
    line = other.locator("#my-ratings")
    expect(line).to_be_visible(timeout=WAIT_MS)
    assert str(shown[1]) in line.inner_text()
    expect(other.locator("#finished-list li")).to_have_count(1, timeout=WAIT_MS)
    # his seat of that game, without its token (known by his cookie), and its review
    other.click("#finished-list a[href^='#/mine/']")
    other.click("#btn-review", timeout=WAIT_MS)
    expect(other.locator("#review[data-state=done] .review-moves li").first).to_be_visible(
        timeout=WAIT_MS
    )
    other.goto(server + f"/#/player/{ids[1]}")
    expect(other.locator("#profile h1")).to_have_text("Ben", timeout=WAIT_MS)
    expect(other.locator("#profile-games li")).to_have_count(1, timeout=WAIT_MS)
    assert str(shown[1]) in other.locator("table.ratings").inner_text()
    assert not errors and not csp_violations(ana) and not csp_violations(other)
    for ctx in [*contexts, phone]:
        ctx.close()


def test_play_now_seats_two_strangers_together_and_fills_a_tercerilla_with_computers(
    browser: Browser, tmp_path: Path
) -> None:
    """Issue 41: two strangers press *Jugar ahora* for the Mexican two-player game and sit at
    one table (the server waits an hour for people: no computer comes), its clock beside the
    name of the one who decides; a phrase one says reaches the other in his own language;
    when Ben closes his tab, Ana sees him disconnected, then may claim the match; at a
    tercerilla of people, a computer takes the seat of one who closes her tab until she
    opens the game again (a server whose grace is one second); one player alone at a
    tercerilla gets two computers, named as computers (a server that fills at once)."""
    contexts = [
        browser.new_context(viewport={"width": 390, "height": 844}, **STILL) for _ in range(3)
    ]
    ana, ben, lupe = (ctx.new_page() for ctx in contexts)
    errors: list[str] = []
    for page in (ana, ben, lupe):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.add_init_script(ASK_ME)
    waits, base = start_server(
        f"sqlite:///{tmp_path / 'people.sqlite3'}",
        args=["--quick-bots-after", "3600", "--grace", "1"],
    )
    try:
        for page, lang in ((ana, "es"), (ben, "en")):  # Ben reads English
            page.goto(base + f"/?lang={lang}")
            page.select_option("#quick-form", "mexican2")
            page.click("#play-now")
        expect(ana).to_have_url(re.compile(r"#/g/"), timeout=WAIT_MS)  # from the wait
        expect(ben).to_have_url(re.compile(r"#/g/"), timeout=WAIT_MS)
        assert ana.url.split("/")[-2] == ben.url.split("/")[-2]
        for page in (ana, ben):
            expect(page.locator("#hand .card-btn")).not_to_have_count(0, timeout=WAIT_MS)
            expect(page.locator(".player.opp .name")).not_to_contain_text("Comput")
            # the clock: beside the name of the one who decides, counting down
            expect(page.locator(".who .clock")).to_have_count(1, timeout=WAIT_MS)
            expect(page.locator(".who .clock")).to_have_text(re.compile(r"^\d:\d\d$"))
        # table talk: Ana says a set phrase; each reads it in his own language
        ana.click("#talk-btn")
        ana.click("#talk-palette [data-say=nice]")
        expect(ana.locator(".player.me .talk")).to_have_text("¡Buena!", timeout=WAIT_MS)
        expect(ben.locator(".player.opp .talk")).to_have_text("Nice one!", timeout=WAIT_MS)
        ben.click(".player.opp .talk")  # pressed: Ana is muted for Ben
        expect(ben.locator(".talk")).to_have_count(0)
        # Ben reports Ana from her name at the table (the page names her seat, not her id)
        ben.click(".player.opp button.name")
        ben.select_option("#conduct-reason", "abuse")
        ben.fill("#conduct-note", "too much ¡Buena!")
        with ben.expect_response(lambda r: r.url.endswith("/report")) as answer:
            ben.click("#conduct button[type=submit]")
        assert answer.value.ok, (answer.value.status, answer.value.text())
        expect(ben.locator("#conduct")).to_have_count(0, timeout=WAIT_MS)
        stored = sqlite_database(tmp_path / "people.sqlite3").query(
            "select reason, note from reports"
        )
        assert stored == [("abuse", "too much ¡Buena!")], stored
        # Ben closes his tab: Ana sees him disconnected, then may claim the match
        ben.close()
        expect(ana.locator(".player.opp .badge.gone")).to_have_count(1, timeout=WAIT_MS)
        expect(ana.locator("#claim-btn")).to_be_visible(timeout=WAIT_MS)
        ana.click("#claim-btn")
        expect(ana.locator("#prompt")).to_contain_text("reclamó la partida", timeout=WAIT_MS)
        expect(ana.locator("#claim-btn")).to_have_count(0)
        # a tercerilla of people: Lupe closes her tab, a computer plays for her until she
        # opens the game again
        # (a new player: Ben blocked Ana when he reported her, so they never meet again)
        cy_context = browser.new_context(viewport={"width": 390, "height": 844}, **STILL)
        contexts.append(cy_context)
        ben = cy_context.new_page()
        ben.on("pageerror", lambda exc: errors.append(str(exc)))
        ben.add_init_script(ASK_ME)
        for page in (ana, ben, lupe):
            page.goto(base + "/?lang=es")
            page.select_option("#quick-form", "tercerilla")
            page.click("#play-now")
        for page in (ana, ben, lupe):
            expect(page).to_have_url(re.compile(r"#/g/"), timeout=WAIT_MS)
            expect(page.locator("#hand .card-btn")).not_to_have_count(0, timeout=WAIT_MS)
        her_game = lupe.url
        lupe.close()
        away = ana.locator(".player.opp .badge.away:not(.gone)")
        expect(away).to_have_count(1, timeout=WAIT_MS)
        expect(ben.locator(".player.opp .badge.away:not(.gone)")).to_have_count(1)
        lupe = contexts[2].new_page()
        lupe.on("pageerror", lambda exc: errors.append(str(exc)))
        lupe.goto(her_game)  # she is back: her seat again
        expect(lupe.locator("#hand .card-btn")).not_to_have_count(0, timeout=WAIT_MS)
        expect(away).to_have_count(0, timeout=WAIT_MS)
    finally:
        waits.terminate()
        waits.wait(10)
    fills, base = start_server(
        f"sqlite:///{tmp_path / 'alone.sqlite3'}", args=["--quick-bots-after", "0"]
    )
    try:
        lupe.goto(base + "/?lang=es")
        lupe.fill("#name", "Lupe")
        lupe.select_option("#quick-form", "tercerilla")
        lupe.click("#play-now")
        expect(lupe).to_have_url(re.compile(r"#/g/"), timeout=WAIT_MS)
        others = lupe.locator(".player.opp .name")
        expect(others).to_have_count(2, timeout=WAIT_MS)
        assert all("Computadora" in name for name in others.all_inner_texts())
        expect(lupe.locator("#hand .card-btn")).not_to_have_count(0, timeout=WAIT_MS)
    finally:
        fills.terminate()
        fills.wait(10)
    assert not errors and not csp_violations(lupe)
    for ctx in contexts:
        ctx.close()
