"""The language of each browser, request and connection, and the page's catalogue as JSON.

A request's language is, first found: the ``lang`` query parameter, the ``conquian_lang``
cookie (the page's language menu sets it), the ``Accept-Language`` header, English; each
negotiated among :data:`~conquian.present.i18n.LANGUAGES`.  :class:`Speaking` (middleware)
writes every answer's words in it; a websocket connection starts in its handshake's language
and may change it (``{"type": "lang"}``, see :mod:`.hub`).

The page's own sentences (``static/*.js``, ``index.html``) are the ``conquian-web``
catalogue, sent to the browser by ``GET /api/words`` (:func:`catalogue`) and read there by
``static/words.js``.  The plural rule of a language is its catalogue's ``Plural-Forms``
expression, sent as a tree (:func:`plural_tree`) that ``words.js`` evaluates without ``eval``
(which the content security policy forbids), so the browser picks the same form as
Python's gettext.

>>> accept_language("es-MX,es;q=0.9,en;q=0.8")
['es-MX', 'es', 'en']
>>> request_language({"accept-language": "ru;q=0.5, hr"}, "")
'hr'
>>> request_language({"accept-language": "es-MX", "cookie": "conquian_lang=tr"}, "")
'tr'
>>> plural_tree("(n != 1)")
['!=', 'n', 1]
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from ..present.i18n import LANGUAGES, LOCALE_DIR, SOURCE_LANGUAGE, Domain, negotiate, speaking

WEB_WORDS = Domain("conquian-web")
"""The browser's words: the server's sentences (errors, names of computer seats) and the
page's own (served as JSON to ``static/words.js``)."""
COOKIE = "conquian_lang"
"""The cookie that keeps a browser's choice of language (set by the page's menu)."""
SCOPE_KEY = "conquian.lang"
"""Where :class:`Speaking` leaves the language of a request or websocket in its ASGI scope."""

__all__ = [
    "COOKIE",
    "WEB_WORDS",
    "Speaking",
    "accept_language",
    "catalogue",
    "plural_index",
    "plural_tree",
    "request_language",
]


def accept_language(header: str) -> list[str]:
    """The codes of an ``Accept-Language`` header, most wanted first (``q=0``: not wanted)."""
    ranked: list[tuple[float, int, str]] = []
    for at, part in enumerate(header.split(",")[:40]):
        code, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = code.strip()
        if code and code != "*" and weight > 0:
            ranked.append((-weight, at, code))
    return [code for _, _, code in sorted(ranked)]


def request_language(headers: Mapping[str, str], query: str) -> str:
    """The language of a request: ``?lang=``, else the cookie, else ``Accept-Language``."""
    wanted = parse_qs(query).get("lang", [])[:1]
    chosen = cookie_parser(headers.get("cookie", "")).get(COOKIE, "")
    if chosen:
        wanted.append(chosen)
    wanted += accept_language(headers.get("accept-language", ""))
    return negotiate([code[:40] for code in wanted if code.strip()])


class Speaking:
    """ASGI middleware: every HTTP request and websocket is answered in its language
    (:func:`request_language`, left in the scope under :data:`SCOPE_KEY`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {
            name.decode("latin-1").lower(): value.decode("latin-1")
            for name, value in scope.get("headers", [])
        }
        code = request_language(headers, scope.get("query_string", b"").decode("latin-1"))
        scope[SCOPE_KEY] = code
        with speaking(code):
            await self.app(scope, receive, send)


# ---------------------------------------------------------------- the catalogue as JSON


def _read_mo(path: Path) -> dict[str, str]:
    """The messages of a compiled catalogue: msgid (``singular\\0plural`` for a plural) ->
    msgstr (its forms joined by ``\\0``)."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    out: dict[str, str] = {}
    for i in range(count):
        length, offset = struct.unpack(
            order + "2I", data[originals + 8 * i : originals + 8 * i + 8]
        )
        key = data[offset : offset + length].decode("utf-8")
        length, offset = struct.unpack(
            order + "2I", data[translations + 8 * i : translations + 8 * i + 8]
        )
        out[key] = data[offset : offset + length].decode("utf-8")
    return out


_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()]))")


def plural_tree(expression: str) -> Any:
    """A ``Plural-Forms`` expression (C syntax) as a JSON tree: a number, ``"n"``,
    ``[op, a, b]``, ``["!", a]`` or ``["?", test, then, otherwise]``.

    :raises ValueError: for anything else than gettext's plural expressions.

    >>> plural_tree("n%10==1 && n%100!=11 ? 0 : 1")
    ['?', ['&&', ['==', ['%', 'n', 10], 1], ['!=', ['%', 'n', 100], 11]], 0, 1]
    """
    tokens: list[str | int] = []
    at = 0
    text = expression.strip().rstrip(";")
    while at < len(text):
        match = _TOKEN.match(text, at)
        if match is None or match.end() == at:
            raise ValueError(f"not a plural expression: {expression!r}")
        at = match.end()
        number, n, op = match.groups()
        tokens.append(int(number) if number else n or op)
    pos = 0

    def peek() -> str | int | None:
        return tokens[pos] if pos < len(tokens) else None

    def take(*ops: str) -> str | None:
        nonlocal pos
        token = peek()
        if isinstance(token, str) and token in ops:
            pos += 1
            return token
        return None

    levels = [("||",), ("&&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*", "/", "%")]

    def binary(level: int) -> Any:
        if level == len(levels):
            return unary()
        left = binary(level + 1)
        while (op := take(*levels[level])) is not None:
            left = [op, left, binary(level + 1)]
        return left

    def unary() -> Any:
        nonlocal pos
        if take("!"):
            return ["!", unary()]
        if take("("):
            inner = ternary()
            if not take(")"):
                raise ValueError(f"unbalanced parentheses: {expression!r}")
            return inner
        token = peek()
        if isinstance(token, int) or token == "n":
            pos += 1
            return token
        raise ValueError(f"not a plural expression: {expression!r}")

    def ternary() -> Any:
        test = binary(0)
        if take("?"):
            then = ternary()
            if not take(":"):
                raise ValueError(f"a '?' without its ':': {expression!r}")
            return ["?", test, then, ternary()]
        return test

    tree = ternary()
    if pos != len(tokens):
        raise ValueError(f"not a plural expression: {expression!r}")
    return tree


def plural_index(tree: Any, n: int) -> int:
    """The form a tree of :func:`plural_tree` picks for ``n`` (as ``words.js`` evaluates it).

    >>> [plural_index(plural_tree("(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2)"), n)
    ...  for n in (0, 1, 2, 1000000)]
    [2, 0, 2, 1]
    """
    if isinstance(tree, int):
        return tree
    if tree == "n":
        return n
    op, *args = tree
    value = [plural_index(a, n) for a in args] if op != "?" else []
    if op == "?":
        return plural_index(tree[2] if plural_index(tree[1], n) else tree[3], n)
    if op == "!":
        return int(not value[0])
    a, b = value
    results = {
        "||": lambda: int(bool(a or b)),
        "&&": lambda: int(bool(a and b)),
        "==": lambda: int(a == b),
        "!=": lambda: int(a != b),
        "<": lambda: int(a < b),
        "<=": lambda: int(a <= b),
        ">": lambda: int(a > b),
        ">=": lambda: int(a >= b),
        "+": lambda: a + b,
        "-": lambda: a - b,
        "*": lambda: a * b,
        "/": lambda: int(a / b),
        "%": lambda: a % b,
    }
    return results[op]()


ENGLISH_PLURAL = "(n != 1)"


@cache
def catalogue(code: str) -> dict[str, Any]:
    """The page's words in language ``code`` (English: none, the page's own are English):
    ``{"lang", "languages": [{"code", "name"}], "plural": {"nplurals", "rule"},
    "messages": {msgid: msgstr, singular: [forms...]}}``.  Untranslated messages are left out
    (the page falls back to English)."""
    code = negotiate([code])
    messages: dict[str, Any] = {}
    header = ""
    mo = LOCALE_DIR / code / "LC_MESSAGES" / f"{WEB_WORDS.name}.mo"
    if code != SOURCE_LANGUAGE and mo.exists():
        for key, value in _read_mo(mo).items():
            if not key:
                header = value
            elif "\x04" in key:  # a message with a context: the page has none
                continue
            elif "\x00" in key:
                forms = value.split("\x00")
                if all(forms):
                    messages[key.split("\x00")[0]] = forms
            elif value:
                messages[key] = value
    nplurals, rule = 2, ENGLISH_PLURAL
    found = re.search(r"Plural-Forms:\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;\n]+)", header)
    if found:
        nplurals, rule = int(found[1]), found[2]
    return {
        "lang": code,
        "languages": [{"code": c, "name": name} for c, name in LANGUAGES.items()],
        "plural": {"nplurals": nplurals, "expression": rule.strip(), "rule": plural_tree(rule)},
        "messages": messages,
    }
