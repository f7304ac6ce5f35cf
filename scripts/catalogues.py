"""The translation catalogues: extract, update, compile, check (needs Babel: the 'i18n' extra).

    python scripts/catalogues.py update [DOMAIN]    # extract the messages, merge them into the .po
    python scripts/catalogues.py compile [DOMAIN]   # write the .mo files the package ships
    python scripts/catalogues.py check              # CI: up to date, complete, placeholders intact

Each domain is the words of one layer (see ``DOMAINS``): ``conquian``, the game's words
that every front end shares (``conquian.present``: cards, moves, the situation, hints,
rules, errors, the commands as typed); ``conquian-terminal``, what only the terminal and
the command line say (``conquian.play``, its words in ``terminal_words``: prompts, notes,
the choices open, the help, ``--help`` and argparse's words); ``conquian-web``, the
browser's.  Its template is ``src/conquian/locale/<domain>.pot`` and each language's catalogue
``src/conquian/locale/<code>/LC_MESSAGES/<domain>.po`` (compiled beside it as ``.mo``).
Without a ``DOMAIN``, ``update`` and ``compile`` work on every domain; with one
(``update conquian-web``), on that domain's files only.

The browser's domain, ``conquian-web``, is extracted from the server's Python (``_``,
``ngettext``), from the page's JavaScript (``t("…", {…})``, ``th("…", {…})`` for HTML and
``tn("one", "many", n, {…})``) and from ``index.html``, whose words are marked ``data-t="…"`` (an element's text: the
attribute holds the English, the server puts the translation in the element) and
``data-t-ATTR="…"`` (the attribute ``ATTR``), see :func:`extract_html`.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "conquian" / "locale"
DOMAINS: dict[str, list[str]] = {
    "conquian": ["src/conquian/present"],
    "conquian-terminal": ["src/conquian/play", "src/conquian/cli.py"],
    "conquian-web": ["src/conquian/web"],
}
"""Each catalogue and the source folders (or files) its messages come from: the game's
words, shared by every front end; the terminal's and the command line's; the browser's."""
MAPPINGS: dict[str, str] = {
    # the server's sentences, the page's scripts and its HTML
    "conquian-web": (
        "[python: **.py]\n"
        "[javascript: **.js]\n"
        "jsx = false\n"
        "parse_template_string = true\n"
        "[html: **.html]\n"
        "[extractors]\n"
        "html = catalogues:extract_html\n"
    ),
}
"""How a domain's files are read (a Babel method map), where Python alone is not enough."""
KEYWORDS: dict[str, list[str]] = {
    "conquian": ["-k", "N_"],
    "conquian-terminal": ["-k", "N_"],
    "conquian-web": ["-k", "t", "-k", "th", "-k", "tn:1,2"],
}
"""Extra keywords of a domain (``N_``, which marks a message without translating it; the
JavaScript's ``t``, ``th`` and ``tn``)."""
LANGUAGES = ["es", "kn", "hr", "tr", "ru"]
"""The languages translated (English is the source)."""
REQUIRED: dict[str, list[str]] = {
    "conquian": LANGUAGES,
    "conquian-terminal": LANGUAGES,
    "conquian-web": LANGUAGES,
}
"""For each domain, the languages whose catalogues must be complete for the check to pass."""

PLACEHOLDER = re.compile(r"\{[a-z_]*\}|%\([a-z_]+\)[sr]|%[sr]")
_JS_CALL = re.compile(r'\bt[hn]?\(\s*"((?:[^"\\]|\\.)*)"')
"""A ``t("…")``, ``th("…")`` or ``tn("…", …)`` call in the page's JavaScript, to check the extraction."""
_HTML_WORD = re.compile(r'\sdata-t(?:-[a-z-]+)?="([^"]*)"')


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor for ``index.html``: the English of every ``data-t="…"`` (an
    element's text) and ``data-t-ATTR="…"`` (its attribute ``ATTR``, such as
    ``data-t-aria-label``)."""
    text = fileobj.read().decode("utf-8")
    for match in _HTML_WORD.finditer(text):
        yield text.count("\n", 0, match.start()) + 1, "gettext", _unescape(match[1]), []


def _unescape(text: str) -> str:
    return (
        text.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    )


def extract(domain: str, output: Path) -> None:
    """Extract ``domain``'s messages from its sources into the template ``output``."""
    env = dict(os.environ)
    mapping: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        if domain in MAPPINGS:
            cfg = Path(tmp) / "mapping.cfg"
            cfg.write_text(MAPPINGS[domain])
            mapping = ["-F", str(cfg)]
            # the HTML extractor is this module's extract_html
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(ROOT / "scripts"), env.get("PYTHONPATH")])
            )
        subprocess.run(
            [
                sys.executable, "-m", "babel.messages.frontend", "extract",
                "--no-location", "--sort-output", "--add-comments=Translators:",
                "--project=conquian", "--copyright-holder=the conquian authors",
                "-k", "_", "-k", "ngettext:1,2", "-k", "pgettext:1c,2", "-k", "npgettext:1c,2,3",
                *KEYWORDS.get(domain, []), *mapping,
                "-o", str(output), *DOMAINS[domain],
            ],
            cwd=ROOT, check=True, capture_output=True, env=env,
        )  # fmt: skip


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def _domains(only: str | None) -> list[str]:
    if only is None:
        return list(DOMAINS)
    if only not in DOMAINS:
        raise SystemExit(f"Unknown domain {only!r}; the domains are {', '.join(DOMAINS)}.")
    return [only]


def update(only: str | None = None) -> None:
    """Extract each domain's template (or ``only`` that domain's) and merge it into its .po files."""
    for domain in _domains(only):
        template = LOCALE / f"{domain}.pot"
        extract(domain, template)
        for code in LANGUAGES:
            po = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
            po.parent.mkdir(parents=True, exist_ok=True)
            command = "update" if po.exists() else "init"
            args = [sys.executable, "-m", "babel.messages.frontend", command,
                    "-i", str(template), "-o", str(po), "-l", code, "-D", domain]  # fmt: skip
            if command == "update":
                args.append("--no-fuzzy-matching")
            subprocess.run(args, cwd=ROOT, check=True, capture_output=True)
            print(f"{po.relative_to(ROOT)}: {command}d")


def compile_all(only: str | None = None) -> None:
    for domain in _domains(only):
        for code in LANGUAGES:
            po = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
            if not po.exists():
                continue
            catalog = read(po)
            buffer = io.BytesIO()
            write_mo(buffer, catalog, use_fuzzy=False)
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.read_bytes() != buffer.getvalue():
                mo.write_bytes(buffer.getvalue())
                print(f"{mo.relative_to(ROOT)}: written")


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _js_calls(domain: str) -> set[str]:
    """The messages of the ``t(…)``/``tn(…)`` calls in a domain's JavaScript, found by a plain
    pattern: each must be in the template (Babel's lexer could miss one in odd code)."""
    found: set[str] = set()
    for folder in DOMAINS[domain]:
        if not (ROOT / folder).is_dir():
            continue
        for path in sorted((ROOT / folder).rglob("*.js")):
            for match in _JS_CALL.finditer(path.read_text(encoding="utf-8")):
                try:
                    found.add(json.loads(f'"{match[1]}"'))
                except ValueError:  # an escape that JSON does not have
                    found.add(match[1])
    return found


def check() -> list[str]:
    """Every problem found, as sentences; empty when all is well."""
    problems: list[str] = []
    for domain in DOMAINS:
        template = LOCALE / f"{domain}.pot"
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / "fresh.pot"
            extract(domain, fresh)
            wanted = {m.id for m in read(fresh) if m.id}
        kept = {m.id for m in read(template) if m.id} if template.exists() else set()
        if wanted != kept:
            problems.append(
                f"{template.relative_to(ROOT)} is out of date ({len(wanted - kept)} new, "
                f"{len(kept - wanted)} gone): run python scripts/catalogues.py update {domain}"
            )
        singulars = {i[0] if isinstance(i, tuple) else i for i in wanted}
        for missed in sorted(_js_calls(domain) - singulars):
            problems.append(f"{domain}: the extraction missed the JavaScript message {missed!r}")
        required = REQUIRED.get(domain, [])
        for code in LANGUAGES:
            po = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
            if not po.exists():
                if code in required:
                    problems.append(f"{po.relative_to(ROOT)} is missing")
                continue
            catalog = read(po)
            ids = {m.id for m in catalog if m.id}
            if ids != wanted:
                problems.append(f"{po.relative_to(ROOT)} does not hold the template's messages")
            for message in catalog:
                if not message.id:
                    continue
                ids_ = message.id if isinstance(message.id, tuple) else (message.id,)
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                source = set().union(*(_placeholders(i) for i in ids_))
                untranslated = not all(strings) or message.fuzzy
                if untranslated:
                    if code in required:
                        problems.append(f"{code}: {domain}: not translated: {ids_[0]!r}")
                    continue
                for string in strings:
                    found = _placeholders(string)
                    if found != source and not (len(ids_) > 1 and found <= source):
                        problems.append(
                            f"{code}: {ids_[0]!r}: placeholders {sorted(found)} instead of {sorted(source)}"
                        )
            mo = po.with_suffix(".mo")
            buffer = io.BytesIO()
            write_mo(buffer, catalog, use_fuzzy=False)
            if not mo.exists() or mo.read_bytes() != buffer.getvalue():
                problems.append(
                    f"{mo.relative_to(ROOT)} is not compiled from its .po: run compile {domain}"
                )
    return problems


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"] and len(argv) <= 2:
        update(argv[1] if len(argv) == 2 else None)
    elif argv[:1] == ["compile"] and len(argv) <= 2:
        compile_all(argv[1] if len(argv) == 2 else None)
    elif argv == ["check"]:
        problems = check()
        for problem in problems:
            print(problem)
        if problems:
            print(f"{len(problems)} problems in the catalogues.")
            return 1
        print("The catalogues are up to date, complete and consistent.")
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
