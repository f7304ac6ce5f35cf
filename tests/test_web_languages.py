"""The browser game in the reader's language: chosen per request and per connection.

In-process (Starlette's TestClient, on SQLite and PostgreSQL): a Spanish connection
(``Accept-Language: es-MX``, the ``conquian_lang`` cookie, the ``lang`` of its hello, or a
``lang`` message) is sent Spanish words while an English one at the same table is sent
English, and everything else the two are sent (cards, actions, counts, codes) is the same;
errors, hints, the rules and the page's own catalogue (``/api/words``) follow the language;
cards in words are named as the rules' deck names them.  The browser itself is tested in
``test_web_browser.py`` (a deal in Spanish, the language menu).
"""

from __future__ import annotations

import gettext
import json
import re
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import TestDatabase, assert_secret, hello

from conquian.cards import CARDS, Card, DeckStyle
from conquian.present.i18n import LANGUAGES, speaking
from conquian.present.rules_text import rules_heading
from conquian.present.spans import CardLook
from conquian.rules import find_rules
from conquian.web.app import create_app
from conquian.web.languages import accept_language, catalogue, plural_index, plural_tree
from conquian.web.live import LiveMatch
from conquian.web.views import Views

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import catalogues  # noqa: E402

ES = {"Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-US,en;q=0.9"}
WORD_FIELDS = ("log", "situation", "origin")
"""The fields of a state message that are words (the rest is data, the same in any language);
``game.names`` (a computer's name) and ``last.lines`` are words too."""
FRENCH_FACE = re.compile(r"(?<![A-Za-z0-9])[JQK][shdc](?![A-Za-z0-9])")
"""A French face card as text (``Kh``): never in the words of a Spanish-deck game."""


@pytest.fixture
def client(database: TestDatabase) -> Iterator[TestClient]:
    with TestClient(create_app(database.url, bot_delay=0)) as c:
        yield c


def receive(ws: Any) -> dict[str, Any]:
    raw = ws.receive_text()
    data: dict[str, Any] = json.loads(raw)
    data["_raw"] = raw
    return data


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = receive(ws)
        if msg["type"] == kind:
            return msg
        assert msg["type"] != "error", msg


def state_at(ws: Any, seq: int) -> dict[str, Any]:
    """Read states until the one after ``seq`` actions (with the deal dealt)."""
    while True:
        msg = next_of(ws, "state")
        if msg["seq"] == seq and msg["obs"] is not None:
            return msg


def rebuilt(client: TestClient, game_id: str, seq: int) -> LiveMatch:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    loaded = client.portal.call(hub.store.load, game_id)  # type: ignore[union-attr]
    assert loaded is not None
    row, actions, shuffles = loaded
    return LiveMatch(row, actions[:seq], shuffles)


def data_of(msg: dict[str, Any]) -> dict[str, Any]:
    """A state message without its words: what must be the same in every language."""
    out = {k: v for k, v in msg.items() if k not in (*WORD_FIELDS, "_raw", "ack")}
    out["game"] = {k: v for k, v in msg["game"].items() if k != "names"}
    if msg.get("last"):
        out["last"] = {k: v for k, v in msg["last"].items() if k != "lines"}
    return out


def words_of(msg: dict[str, Any]) -> dict[str, Any]:
    out = {k: msg[k] for k in WORD_FIELDS}
    out["names"] = msg["game"]["names"]
    out["lines"] = msg["last"]["lines"] if msg.get("last") else None
    return out


def plain(segments: list[Any]) -> str:
    return "".join(s if isinstance(s, str) else s["card"] for s in segments)


# ------------------------------------------------------------------ choosing the language


def test_the_language_of_a_request_is_lang_then_the_cookie_then_accept_language(
    client: TestClient,
) -> None:
    assert accept_language("fr;q=0.1, es-MX , en;q=0.8, *;q=0.5, de;q=0") == ["es-MX", "en", "fr"]
    page = client.get("/", headers=ES)
    assert page.status_code == 200 and '<html lang="es">' in page.text
    assert '<a href="#/" data-t="Play">Jugar</a>' in page.text
    assert 'aria-label="Baraja" data-t-aria-label="Card deck"' in page.text
    assert "Vary" in page.headers and "Accept-Language" in page.headers["Vary"]
    english = client.get("/")
    assert '<html lang="en">' in english.text and ">Play</a>" in english.text
    client.cookies.set("conquian_lang", "tr")
    assert '<html lang="tr">' in client.get("/", headers=ES).text  # the cookie wins
    assert '<html lang="es">' in client.get("/?lang=es-MX").text  # ?lang= wins over both
    client.cookies.set("conquian_lang", "xx")  # a language not offered: Accept-Language
    assert '<html lang="es">' in client.get("/", headers=ES).text
    client.cookies.clear()
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "de-DE"}).text


def test_the_page_words_are_served_per_language_with_their_plural_rule(client: TestClient) -> None:
    template = catalogues.read(catalogues.LOCALE / "conquian-web.pot")
    singulars = {m.id[0] if isinstance(m.id, tuple) else m.id for m in template if m.id}
    es = client.get("/api/words", headers=ES).json()
    assert es["lang"] == "es" and set(es["messages"]) == singulars  # complete
    assert es["messages"]["Play"] == "Jugar"
    assert es["messages"]["{count} card in hand"] == [
        "{count} carta en la mano",
        "{count} cartas en la mano",
        "{count} cartas en la mano",
    ]
    assert es["plural"]["nplurals"] == 3
    assert [c["code"] for c in es["languages"]] == list(LANGUAGES)
    assert {c["name"] for c in es["languages"]} >= {"English", "Español (México)", "ಕನ್ನಡ"}
    english = client.get("/api/words?lang=en", headers=ES).json()
    assert english["lang"] == "en" and english["messages"] == {}
    assert english["plural"]["rule"] == ["!=", "n", 1]
    assert client.get("/api/words?lang=xx").json()["lang"] == "en"
    for code in ("kn", "hr", "tr", "ru"):  # not translated yet: English, with their own plurals
        words = client.get(f"/api/words?lang={code}").json()
        assert words["lang"] == code and words["plural"]["rule"]


@pytest.mark.parametrize("code", catalogues.LANGUAGES)
def test_the_plural_tree_picks_the_form_gettext_picks(code: str) -> None:
    po = catalogues.LOCALE / code / "LC_MESSAGES" / "conquian-web.po"
    expression = catalogues.read(po).plural_expr
    tree = plural_tree(expression)
    assert catalogue(code)["plural"]["rule"] == tree
    gettext_picks = gettext.c2py(expression)
    numbers = [*range(0, 2500), 10**6, 2 * 10**6, 10**6 + 1, 10**9, 10**9 + 21]
    assert [plural_index(tree, n) for n in numbers] == [gettext_picks(n) for n in numbers]


def test_a_plural_expression_that_is_not_one_is_refused() -> None:
    for bad in ("n ==", "import os", "(n != 1", "n ? 1", "n = 1"):
        with pytest.raises(ValueError):
            plural_tree(bad)


# ------------------------------------------------------------------ one table, two languages


def test_each_connection_at_a_table_reads_its_own_language(
    client: TestClient, database: TestDatabase
) -> None:
    made = client.post("/api/games", json={"mode": "friend", "name": "Ana"}, headers=ES)
    assert made.status_code == 201, made.text
    game_id, ana = made.json()["id"], made.json()["token"]
    client.cookies.clear()  # another person: a player of his own, with no name yet
    ben = client.post(f"/api/games/{game_id}/join", json={}, headers=ES).json()["token"]
    with ExitStack() as stack:

        def socket(headers: dict[str, str], token: str | None, **extra: Any) -> Any:
            ws = stack.enter_context(client.websocket_connect(f"/ws/{game_id}", headers=headers))
            ws.send_text(json.dumps({**json.loads(hello(token)), **extra}))
            return ws

        # Ana in Spanish and in English (a second tab), Ben in English, spectators in
        # Spanish by the cookie and by their hello, and in English
        sockets = {
            ("es", 0): socket(ES, ana),
            ("en", 0): socket(EN, ana),
            ("en", 1): socket({}, ben),
            ("es", None): socket({"cookie": "conquian_lang=es"}, None),
            ("es-hello", None): socket(EN, None, lang="es-MX"),
            ("en", None): socket(EN, None),
        }
        seq = 0
        raw: list[str] = []
        while seq < 8:
            seen = {key: state_at(ws, seq) for key, ws in sockets.items()}
            raw += [msg["_raw"] for msg in seen.values()]
            game = rebuilt(client, game_id, seq)
            for (lang, seat), msg in seen.items():
                assert_secret(msg, game, seat)
                with speaking(lang.split("-")[0]):  # what the server says in that language
                    assert words_of(msg) == words_of(Views(game).state(seat)), (lang, seat)
            for seat in (0, None):
                spanish = seen["es", seat]
                english = seen["en", seat]
                assert data_of(spanish) == data_of(english)  # the same data...
                if seq:
                    assert spanish["log"] != english["log"]  # ...in other words
            assert words_of(seen["es-hello", None]) == words_of(seen["es", None])
            assert seen["en", 1]["game"]["names"] == ["Ana", "Player 2"]
            assert seen["es", 0]["game"]["names"] == ["Ana", "Jugador 2"]
            mover = seen["en", 0]["obs"]["to_act"]
            player = seen["en", mover]
            legal = player["obs"]["legal_actions"]
            # a move out of turn: refused in each connection's language
            waiting = 1 - mover
            if waiting == 0:
                sockets["es", 0].send_text(json.dumps({"type": "act", "action": legal[-1]}))
                sockets["en", 0].send_text(json.dumps({"type": "act", "action": legal[-1]}))
                refused_es = next_of(sockets["es", 0], "error")["message"]
                refused_en = next_of(sockets["en", 0], "error")["message"]
                assert refused_es.startswith("No es tu turno"), refused_es
                assert refused_en.startswith("It is not your turn"), refused_en
            sockets["en", mover].send_text(json.dumps({"type": "act", "action": legal[-1]}))
            seq += 1
        spanish_log = " ".join(plain(line) for line in seen["es", 0]["log"])
        assert "baceta" in spanish_log or "pasó" in spanish_log or "tomó" in spanish_log
        assert not any("\ue000" in text for text in raw)  # every card mark became a card


def test_hints_errors_and_a_change_of_language_on_one_connection(client: TestClient) -> None:
    made = client.post("/api/games", json={"mode": "bot", "level": "easy", "name": "Ana"}).json()
    game_id, token = made["id"], made["token"]
    with (
        client.websocket_connect(f"/ws/{game_id}", headers=ES) as es,
        client.websocket_connect(f"/ws/{game_id}", headers=EN) as en,
    ):
        es.send_text(hello(token))
        en.send_text(hello(token))
        # wait for Ana's turn (the computer may move first)
        while not (first := next_of(es, "state"))["obs"]["legal_actions"]:
            pass
        state_at(en, first["seq"])
        assert first["game"]["names"] == ["Ana", "Computadora (fácil)"]
        hints = {}
        for lang, ws in (("es", es), ("en", en)):
            ws.send_text(json.dumps({"type": "hint"}))
            hints[lang] = next_of(ws, "hint")
        assert hints["es"]["action"] == hints["en"]["action"]
        assert hints["es"]["reason"] == hints["en"]["reason"]  # the bot's reason as a code
        assert hints["es"]["why"] != hints["en"]["why"], hints
        assert hints["es"]["words"] != hints["en"]["words"] or hints["es"]["action"] == "pass"
        # a move that is not legal now (one of two takes of different centre cards)
        wrong = next(
            action
            for action in ("take 5h5d5c", "take 6h6d6c")
            if action not in first["obs"]["legal_actions"]
        )
        for ws in (es, en):
            ws.send_text(json.dumps({"type": "act", "action": wrong, "id": 1}))
        assert next_of(es, "error")["message"] != next_of(en, "error")["message"]
        # the English tab changes to Spanish: the game is sent again, in Spanish
        en.send_text(json.dumps({"type": "lang", "lang": "es-MX"}))
        again = next_of(en, "state")
        assert again["seq"] == first["seq"] and "ack" not in again
        assert again["log"] == first["log"] and again["situation"] == first["situation"]
        en.send_text(json.dumps({"type": "lang", "lang": "fr"}))
        refused = next_of(en, "error")["message"]
        assert refused.startswith("'lang' debe ser uno de los idiomas") and "kn" in refused
        en.send_text(json.dumps({"type": "lang", "lang": "en"}))
        assert next_of(en, "state")["game"]["names"] == ["Ana", "Computer (easy)"]


def test_http_errors_the_rules_and_the_lobby_are_in_the_request_language(
    client: TestClient,
) -> None:
    bad = {"mode": "nope"}
    assert client.post("/api/games", json=bad).json()["error"].startswith("Unknown mode 'nope'")
    spanish = client.post("/api/games", json=bad, headers=ES).json()["error"]
    assert spanish.startswith("Modo desconocido 'nope'"), spanish
    seats = {"rules": "tercerilla", "seats": [{"kind": "person"}]}
    said = client.post("/api/games", json=seats, headers=ES).json()["error"]
    assert said == (
        "Las reglas 'tercerilla' son para 3 jugadores: 'seats' debe listar 2 lugares después "
        "del tuyo, no 1."
    )
    body = client.post(
        "/api/games", content=b"{", headers={**ES, "Content-Type": "application/json"}
    )
    assert body.json()["error"] == "El cuerpo de la solicitud no es JSON válido."
    missing = client.get("/api/games/nosuchgame", headers=ES)
    assert (
        missing.status_code == 404
        and missing.json()["error"] == "No existe la partida 'nosuchgame'."
    )
    rules = client.get("/api/rules?rules=mexican", headers=ES).json()
    with speaking("es"):
        assert rules["heading"] == rules_heading(find_rules("mexican"))
    assert rules["rules"] == client.get("/api/rules?rules=mexican").json()["rules"]  # data
    assert rules["text"] != client.get("/api/rules?rules=mexican").json()["text"]
    made = client.post(
        "/api/games",
        json={
            "name": "Ana",
            "rules": "tercerilla",
            "seats": [{"kind": "bot", "level": "hard"}] * 2,
        },
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    lobby = client.get("/api/lobby", headers=ES).json()
    listed = next(g for g in lobby["playing"] if g["id"] == game_id)
    assert listed["players"] == ["Ana", "Computadora 1 (difícil)", "Computadora 2 (difícil)"]
    english = next(g for g in client.get("/api/lobby").json()["playing"] if g["id"] == game_id)
    assert english["players"] == ["Ana", "Computer 1 (hard)", "Computer 2 (hard)"]
    assert [s["level"] for s in listed["seats"]] == [s["level"] for s in english["seats"]]
    facts = client.get(f"/api/games/{game_id}", headers=ES).json()
    assert facts["names"][1] == "Computadora 1 (difícil)" and facts["kinds"][1] == "bot"


# ------------------------------------------------------------------ cards as the deck shows them


def test_a_spanish_deck_game_names_its_cards_in_errors_and_hints_with_its_deck(
    client: TestClient,
) -> None:
    spanish_deck = CardLook(deck=DeckStyle.SPANISH)
    made = client.post(
        "/api/games", json={"mode": "bot", "level": "easy", "rules": "mexican,num_players=2"}
    ).json()
    with client.websocket_connect(f"/ws/{made['id']}", headers=ES) as ws:
        ws.send_text(hello(made["token"]))
        while not (state := next_of(ws, "state"))["obs"]["legal_actions"]:
            pass
        assert state["game"]["deck"] == "spanish" and state["obs"]["phase"] == "exchange"
        hand = state["obs"]["hand"]
        missing = next(c for c in map(str, CARDS) if c[0] in "JQK" and c not in hand)
        index = Card.parse(missing).index
        ws.send_text(json.dumps({"type": "act", "action": f"exchange {missing}", "id": 2}))
        error = next_of(ws, "error")
        label = spanish_deck.text(index)
        assert error["message"] == f"No puedes pasar {label} en el cambio: no está en tu mano."
        assert {"card": missing} in error["words"] and not FRENCH_FACE.search(error["message"])
        ws.send_text(json.dumps({"type": "hint"}))
        hint = next_of(ws, "hint")
        assert hint["action"].startswith("exchange ")
        chosen = hint["action"].split()[1]
        # the hint's words hold the card as a card, so the browser draws it in its deck
        assert {"card": chosen} in hint["words"]
        assert not any(FRENCH_FACE.search(s) for s in hint["words"] if isinstance(s, str))
        assert not FRENCH_FACE.search(hint["why"]), hint
        for item in hint["why_words"]:  # the reason's cards: in the text as the deck names them
            if isinstance(item, dict):
                assert spanish_deck.text(Card.parse(item["card"]).index) in hint["why"]
