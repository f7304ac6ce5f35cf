"""Where games are kept: the saved match (after every action) and the records of finished deals.

The saved match is a small JSON file holding what is needed to rebuild it by
replaying: the rules, the match and bot seeds, the opponent, the records of the
deals already finished and the record of the deal in play.  The dealer, balance
and draw count are stored too, and checked against the replay on resume.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConquianError, RecordError
from ..records import GameRecord, MatchRecord
from ..userdata import default_data_dir

__all__ = ["SAVE_FORMAT", "SavedMatch", "Store", "default_data_dir"]

SAVE_FORMAT = "conquian-play/2"
_SAVE_FORMAT_1 = "conquian-play/1"
SAVE_NAME = "saved-game.json"
RECORDS_DIR = "records"


class PlayError(ConquianError):
    """A problem with the play command's files or options."""


@dataclass
class SavedMatch:
    """Everything needed to continue a match exactly where it stopped."""

    rules: str
    match_seed: int
    bot_seed: int
    opponent: str | None
    """Bot name or level; None when two people play (hot seat)."""
    names: tuple[str, str]
    """The players' names in records, player 0 first."""
    humans: tuple[int, ...]
    """The seats people play."""
    match: str | None = None
    """The match so far as a match record (TOML text); None for a match not started."""
    records: list[str] = field(default_factory=list)
    """Where the finished deals' records were written."""
    saved_at: str = ""

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "saved_at": self.saved_at,
            "rules": self.rules,
            "match_seed": self.match_seed,
            "bot_seed": self.bot_seed,
            "opponent": self.opponent,
            "names": list(self.names),
            "humans": list(self.humans),
            "records": self.records,
            "match": self.match,
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> SavedMatch:
        """Read a saved match (this version's, or the first version's, which kept the deals'
        records apart).

        :raises PlayError: if the text is not one.
        """
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") not in (
                SAVE_FORMAT,
                _SAVE_FORMAT_1,
            ):
                raise ValueError(f"format must be {SAVE_FORMAT!r}")
            names = tuple(str(n) for n in data["names"])
            if len(names) != 2:
                raise ValueError("two names are needed")
            opponent = data.get("opponent")
            saved = cls(
                rules=str(data["rules"]),
                match_seed=int(data["match_seed"]),
                bot_seed=int(data["bot_seed"]),
                opponent=None if opponent is None else str(opponent),
                names=(names[0], names[1]),
                humans=tuple(int(h) for h in data["humans"]),
                records=[str(r) for r in data.get("records", [])],
                saved_at=str(data.get("saved_at", "")),
            )
            if data["format"] == _SAVE_FORMAT_1:
                saved.match = _match_from_first_format(saved, data)
            elif data.get("match") is not None:
                saved.match = str(data["match"])
            return saved
        except (ValueError, KeyError, TypeError, RecordError) as exc:
            raise PlayError(f"The saved game cannot be read: {exc}.") from None


def _match_from_first_format(saved: SavedMatch, data: dict[str, Any]) -> str | None:
    """The match record of a first-version save (finished deals and the deal in play)."""
    texts = [str(r) for r in data.get("finished", [])]
    if data.get("current") is not None:
        texts.append(str(data["current"]))
    if not texts:
        return None
    balance = tuple(int(b) for b in data["balance"])
    record = MatchRecord(
        rules=saved.rules,
        players=saved.names,
        seed=saved.match_seed,
        deals=tuple(GameRecord.loads(t) for t in texts),
        balance=balance,
    )
    return record.dumps()


class Store:
    """The data directory: one saved match and a folder of records."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root if root is not None else default_data_dir()

    @property
    def save_path(self) -> Path:
        return self.root / SAVE_NAME

    @property
    def records_dir(self) -> Path:
        return self.root / RECORDS_DIR

    def has_save(self) -> bool:
        return self.save_path.is_file()

    def load(self) -> SavedMatch:
        """:raises PlayError: if there is no readable save."""
        try:
            text = self.save_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PlayError(f"Cannot read {self.save_path}: {exc.strerror}.") from None
        return SavedMatch.from_json(text)

    def save(self, saved: SavedMatch) -> None:
        """Write the save atomically (a crash leaves the previous save whole)."""
        saved.saved_at = _dt.datetime.now().isoformat(timespec="seconds")
        _write_atomic(self.save_path, saved.to_json())

    def delete(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.save_path.unlink()

    def write_record(self, record: GameRecord, deal: int) -> Path:
        """Write a finished deal's record; returns its path."""
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.records_dir.mkdir(parents=True, exist_ok=True)
        path = self.records_dir / f"{stamp}-deal{deal}.toml"
        n = 1
        while path.exists():
            n += 1
            path = self.records_dir / f"{stamp}-deal{deal}-{n}.toml"
        _write_atomic(path, record.dumps())
        return path


def _write_atomic(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise PlayError(f"Cannot write {path}: {exc.strerror or exc}.") from None
