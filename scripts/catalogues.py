"""The translation catalogues: extract, update, compile, check (needs Babel: the 'i18n' extra).

    python scripts/catalogues.py update    # extract the messages, merge them into every .po
    python scripts/catalogues.py compile   # write the .mo files the package ships
    python scripts/catalogues.py check     # CI: up to date, complete, placeholders intact

Each domain is the words of one layer (see ``DOMAINS``); its template is
``src/conquian/locale/<domain>.pot`` and each language's catalogue
``src/conquian/locale/<code>/LC_MESSAGES/<domain>.po`` (compiled beside it as ``.mo``).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "conquian" / "locale"
DOMAINS: dict[str, list[str]] = {
    "conquian": ["src/conquian/present"],
}
"""Each catalogue and the source folders its messages come from."""
LANGUAGES = ["es", "kn", "hr", "tr", "ru"]
"""The languages translated (English is the source)."""
REQUIRED = ["es"]
"""Languages whose catalogues must be complete for the check to pass."""

PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


def extract(domain: str, output: Path) -> None:
    """Extract ``domain``'s messages from its sources into the template ``output``."""
    subprocess.run(
        [
            sys.executable, "-m", "babel.messages.frontend", "extract",
            "--no-location", "--sort-output", "--add-comments=Translators:",
            "--project=conquian", "--copyright-holder=the conquian authors",
            "-k", "_", "-k", "ngettext:1,2", "-k", "pgettext:1c,2", "-k", "npgettext:1c,2,3",
            "-o", str(output), *DOMAINS[domain],
        ],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def update() -> None:
    for domain in DOMAINS:
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


def compile_all() -> None:
    for domain in DOMAINS:
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
                f"{len(kept - wanted)} gone): run python scripts/catalogues.py update"
            )
        for code in LANGUAGES:
            po = LOCALE / code / "LC_MESSAGES" / f"{domain}.po"
            if not po.exists():
                if code in REQUIRED:
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
                    if code in REQUIRED:
                        problems.append(f"{code}: not translated: {ids_[0]!r}")
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
                problems.append(f"{mo.relative_to(ROOT)} is not compiled from its .po: run compile")
    return problems


def main(argv: list[str]) -> int:
    if argv == ["update"]:
        update()
    elif argv == ["compile"]:
        compile_all()
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
