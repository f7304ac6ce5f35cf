"""The language words are written in: gettext catalogues, chosen per thread or task.

Every sentence a person reads goes through a :class:`Domain` (one per layer: the
game's words, the terminal, the browser).  The language is a context variable, so
the terminal sets it once and the web server per connection, each in its own task.
Catalogues are compiled (``.mo``) and shipped in ``conquian/locale``; a language or a
message without a translation falls back to English, never to an error.

>>> from conquian.present.i18n import Domain, speaking
>>> words = Domain("conquian")
>>> words.gettext("Take it or decline it?")
'Take it or decline it?'
>>> with speaking("es"):
...     words.gettext("Take it or decline it?")
'¿La tomas o la pasas?'
>>> words.ngettext("{count} card in hand", "{count} cards in hand", 1).format(count=1)
'1 card in hand'
"""

from __future__ import annotations

import gettext
import os
import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path

from .spans import Line, Span

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the compiled catalogues live: ``locale/<code>/LC_MESSAGES/<domain>.mo``."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "es": "Español (México)",
    "kn": "ಕನ್ನಡ",
    "hr": "Hrvatski",
    "tr": "Türkçe",
    "ru": "Русский",
}
"""The languages offered, each named in itself; ``en`` is the source language."""

SOURCE_LANGUAGE = "en"

_language: ContextVar[str] = ContextVar("conquian_language", default=SOURCE_LANGUAGE)

__all__ = [
    "GAME_WORDS",
    "LANGUAGES",
    "LOCALE_DIR",
    "Domain",
    "Part",
    "choose_language",
    "current_language",
    "fill",
    "language_from_environment",
    "negotiate",
    "speaking",
    "use_language",
]


def current_language() -> str:
    """The code of the language words are written in now (``en`` unless chosen)."""
    return _language.get()


def use_language(code: str | None) -> str:
    """Write words in ``code`` from now on in this thread or task (an unknown or empty
    code means English); returns the code in use.

    >>> use_language("es-MX"), use_language("xx"), use_language(None)
    ('es', 'en', 'en')
    """
    chosen = negotiate([code] if code else [])
    _language.set(chosen)
    return chosen


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Write words in ``code`` inside the ``with`` block only."""
    token = _language.set(negotiate([code] if code else []))
    try:
        yield _language.get()
    finally:
        _language.reset(token)


def _base(code: str) -> str:
    """The language of a locale code: ``es`` for ``es-MX``, ``es_MX.UTF-8`` or ``ES``."""
    return code.strip().split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()


def negotiate(wanted: list[str]) -> str:
    """The first offered language among ``wanted`` (codes such as ``es-MX``, ``es_MX.UTF-8``
    or ``ru``, best first), or English.

    >>> negotiate(["fr-FR", "es_MX.UTF-8", "en"]), negotiate(["de"]), negotiate(["C"])
    ('es', 'en', 'en')
    """
    for code in wanted:
        base = _offered(code)
        if base is not None:
            return base
    return SOURCE_LANGUAGE


@cache
def _offered(code: str) -> str | None:
    """The offered language of a code, or None (codes come again and again: kept)."""
    base = _base(code)
    return base if base in LANGUAGES else None


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the POSIX environment asks for (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, in that order), or English.

    >>> language_from_environment({"LANG": "es_MX.UTF-8"})
    'es'
    >>> language_from_environment({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return negotiate(value.split(":"))
    return SOURCE_LANGUAGE


def choose_language(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The language of a command: ``--lang`` if given, else the environment's.

    :raises ValueError: naming the languages offered, for a ``--lang`` not among them.

    >>> choose_language("es-MX"), choose_language(None, {"LANG": "tr_TR.UTF-8"})
    ('es', 'tr')
    """
    if option:
        if _base(option) not in LANGUAGES:
            offered = ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
            raise ValueError(f"Unknown language {option!r}; the languages are {offered}.")
        return _base(option)
    return language_from_environment(environ)


@cache
def _catalogue(domain: str, code: str) -> gettext.NullTranslations:
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE_DIR, languages=[code], fallback=True)


class Domain:
    """The messages of one layer (one catalogue per language).

    Extraction finds the calls by these method names (``gettext``, ``ngettext``,
    ``pgettext``, ``npgettext``) and by the short aliases ``_``, ``n_``, ``p_``.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def _translations(self) -> gettext.NullTranslations:
        return _catalogue(self.name, _language.get())

    def gettext(self, message: str) -> str:
        return self._translations().gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self._translations().ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        return self._translations().pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, count: int) -> str:
        return self._translations().npgettext(context, singular, plural, count)


GAME_WORDS = Domain("conquian")
"""The game's words, the catalogue every front end shares (``conquian.present``)."""

_FORMATTER = string.Formatter()

Part = str | int | Span | Line
"""What :func:`fill` puts in a placeholder."""


@lru_cache(maxsize=2048)
def _parsed(template: str) -> tuple[tuple[str, str | None], ...]:
    """A template's literal text and placeholders, in order (each template read once)."""
    return tuple((literal, field) for literal, field, _spec, _conv in _FORMATTER.parse(template))


def fill(template: str, style: str = "", **parts: Part) -> Line:
    """A translated sentence as spans: ``{name}`` placeholders are replaced by text,
    a card span, or a whole line (cards and melds keep their own spans and styles).

    >>> from conquian.present.spans import plain
    >>> line = fill("{who} took {card}", who="Ana", card=Span("5h", "bold red", 21))
    >>> plain(line), line[-1].card
    ('Ana took 5h', 21)
    """
    line: Line = []
    for literal, field in _parsed(template):
        if literal:
            line.append(Span(literal, style))
        if field is None:
            continue
        value = parts[field]
        if isinstance(value, Span):
            line.append(value)
        elif isinstance(value, list):
            line.extend(value)
        else:
            line.append(Span(str(value), style))
    return line
