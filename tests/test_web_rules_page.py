"""The browser's rules page shows the rules of the game being played, from the server.

Headless Chromium against a real ``conquian serve`` process (see test_web_browser.py).
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect, sync_playwright
from test_web_browser import ARGS, CHROMIUM, WAIT_MS, install_chromium

from conquian.present.rules_text import describe
from conquian.rules import find_rules
from conquian.tools.load import start_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    proc, base = start_server(f"sqlite:///{db}", bot_delay=0.0)
    yield base
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    install_chromium()
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def _new_game(server: str, rules: str) -> tuple[str, str]:
    body = json.dumps({"mode": "bot", "level": "easy", "name": "Ana", "rules": rules}).encode()
    request = urllib.request.Request(
        server + "/api/games", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        made = json.loads(answer.read())
    return made["id"], made["token"]


def test_the_rules_page_of_a_foster_game(server: str, browser: Browser) -> None:
    game_id, token = _new_game(server, "foster,hand_size=6")
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/#/g/{game_id}/{token}")
    link = page.locator("#rules-link")
    expect(link).to_have_text("foster,hand_size=6 rules", timeout=WAIT_MS)
    href = link.get_attribute("href")
    assert href == "#/rules/foster%2Chand_size%3D6"
    with page.context.expect_page() as opened:
        link.click()
    rules_page = opened.value
    rules_page.on("pageerror", lambda exc: errors.append(str(exc)))
    expect(rules_page.locator("#rules-heading")).to_have_text(
        "Every rule of this game (foster,hand_size=6 rules)", timeout=WAIT_MS
    )
    text = rules_page.locator("section.rules").inner_text()
    assert "Be the first to have 7 cards" in text
    assert "Your six hand cards plus one card taken from the centre make the seven." in text
    assert "Each player is dealt 6 cards, two at a time; the other 28 form the stock" in text
    assert "ace to 10" in text and "borrow one card of a set into a run" in text
    for standard in ("11 cards", "ten hand cards", "dealt 10 cards", "rearrange your own melds"):
        assert standard not in text
    # every rule in words; the flags (for a game of one's own) behind a details
    pre = rules_page.locator("#rules-text").inner_text()
    assert pre.strip() == describe(find_rules("foster,hand_size=6"), flags=False).strip()
    flags = rules_page.locator("#rules-flags").text_content() or ""
    assert flags.startswith("Flags:") and re.search(r"^  hand_size +6$", flags, re.MULTILINE)
    expect(rules_page.locator("#rules-flags")).to_be_hidden()  # until opened
    assert not errors


def test_the_standard_rules_page(server: str, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{server}/#/rules")
    expect(page.locator("#rules-heading")).to_have_text(
        "Every rule of the standard game", timeout=WAIT_MS
    )
    text = page.locator("section.rules").inner_text()
    assert "Be the first to have 11 cards face up on your own table in melds" in text
    assert "Each player is dealt 10 cards; the other 20 form the stock, face down." in text
    assert "your opponent may force you to take it" in text
    assert page.locator("section.rules strong", has_text="11 cards").count() == 1
    assert page.locator("section.rules ol li").count() == 6
    assert "In this game" in text  # the page's own keys and buttons, written by the client


def test_a_bad_spec_says_so(server: str, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{server}/#/rules/nonsense")
    expect(page.locator("#rules-text")).to_contain_text("Bad rules", timeout=WAIT_MS)
