"""Where games are kept: the saved match (after every action) and the records of finished deals.

The saved match is a small JSON file holding what is needed to rebuild it by
replaying: the rules, the opponent and the names in plain text, and, sealed, the
match and bot seeds and the match record (every deal's deck and actions), which
would show the computer's hand and the stock order.  The seal is an HMAC-SHA256
keystream and tag under a random key kept in a file of its own, readable only by
its owner (``.save-key`` beside the save): the save cannot be read, nor changed
without the change being noticed, without that key.  It keeps a player from
cheating by opening a file, not one who reads the key and the program's memory.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as _dt
import hmac
import json
import os
import secrets
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConquianError, RecordError
from ..present.i18n import LANGUAGES, current_language
from ..records import GameRecord, MatchRecord
from ..userdata import default_data_dir

__all__ = ["SAVE_FORMAT", "SavedMatch", "Store", "default_data_dir"]

SAVE_FORMAT = "conquian-play/2"
_SAVE_FORMAT_1 = "conquian-play/1"
SAVE_NAME = "saved-game.json"
KEY_NAME = ".save-key"
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
    names: tuple[str, ...]
    """The players' names in records, player 0 first."""
    humans: tuple[int, ...]
    """The seats people play."""
    match: str | None = None
    """The match so far as a match record (TOML text); None for a match not started."""
    records: list[str] = field(default_factory=list)
    """Where the finished deals' records were written."""
    saved_at: str = ""
    lang: str = ""
    """The language the game is played in (``es``); ``--resume`` goes on in it."""
    count: tuple[int, ...] = ()
    """La cuenta: each seat's total over the matches finished before this one, played one
    after another (a new match keeps it unless the players start it from zero)."""
    matches: int = 0
    """How many matches that count holds."""

    def to_json(self, key: bytes) -> str:
        """The save as JSON, its secrets sealed under ``key``."""
        secret = {"match_seed": self.match_seed, "bot_seed": self.bot_seed, "match": self.match}
        data: dict[str, Any] = {
            "format": SAVE_FORMAT,
            "saved_at": self.saved_at,
            "lang": self.lang,
            "rules": self.rules,
            "opponent": self.opponent,
            "names": list(self.names),
            "humans": list(self.humans),
            "records": self.records,
            "count": list(self.count),
            "matches": self.matches,
            "sealed": seal(key, json.dumps(secret).encode()),
        }
        return json.dumps(data, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str, key: bytes | None = None) -> SavedMatch:
        """Read a saved match (this version's, unsealed with ``key``, or the first version's,
        which was not sealed and kept the deals' records apart).

        :raises PlayError: if the text is not one, or its seal does not open with ``key``.
        """
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("format") not in (
                SAVE_FORMAT,
                _SAVE_FORMAT_1,
            ):
                raise ValueError(f"format must be {SAVE_FORMAT!r}")
            if data["format"] == SAVE_FORMAT:
                if key is None:
                    raise ValueError("its key is needed to read it")
                secret = json.loads(unseal(key, data["sealed"]))
                if not isinstance(secret, dict):
                    raise ValueError("its sealed part is not an object")
                data.update(secret)
            names = tuple(str(n) for n in data["names"])
            if not 2 <= len(names) <= 4:
                raise ValueError("two to four names are needed")
            opponent = data.get("opponent")
            saved = cls(
                rules=str(data["rules"]),
                match_seed=int(data["match_seed"]),
                bot_seed=int(data["bot_seed"]),
                opponent=None if opponent is None else str(opponent),
                names=names,
                humans=tuple(int(h) for h in data["humans"]),
                records=[str(r) for r in data.get("records", [])],
                saved_at=str(data.get("saved_at", "")),
                lang=_known_language(data.get("lang")),
                count=tuple(int(c) for c in data.get("count", ())),
                matches=int(data.get("matches", 0)),
            )
            if saved.count and len(saved.count) != len(names):
                raise ValueError("the count must have one total for each player")
            if data["format"] == _SAVE_FORMAT_1:
                saved.match = _match_from_first_format(saved, data)
            elif data.get("match") is not None:
                saved.match = str(data["match"])
            return saved
        except (ValueError, KeyError, TypeError, RecordError, RecursionError) as exc:
            raise PlayError(f"The saved game cannot be read: {exc}.") from None


def _known_language(code: Any) -> str:
    """A save's language if it is one the program speaks, else "" (the environment's)."""
    return code if isinstance(code, str) and code in LANGUAGES else ""


def _keystream(key: bytes, nonce: bytes, size: int) -> bytes:
    blocks = (size + 31) // 32
    return b"".join(
        hmac.digest(key, b"stream" + nonce + n.to_bytes(8, "big"), "sha256") for n in range(blocks)
    )[:size]


def seal(key: bytes, plain: bytes) -> dict[str, str]:
    """``plain`` enciphered and tagged under ``key`` (a fresh nonce each time).

    >>> key = bytes(32)
    >>> unseal(key, seal(key, b"secret")) == b"secret"
    True
    """
    nonce = secrets.token_bytes(16)
    data = bytes(a ^ b for a, b in zip(plain, _keystream(key, nonce, len(plain)), strict=True))
    tag = hmac.digest(key, b"tag" + nonce + data, "sha256")
    return {"nonce": nonce.hex(), "data": base64.b64encode(data).decode(), "tag": tag.hex()}


def unseal(key: bytes, sealed: Any) -> bytes:
    """The text :func:`seal` sealed.

    :raises ValueError: if it was changed, or sealed under another key.
    """
    fields = ("nonce", "data", "tag")
    if not isinstance(sealed, dict) or not all(isinstance(sealed.get(k), str) for k in fields):
        raise ValueError("its sealed part is missing")
    nonce = bytes.fromhex(sealed["nonce"])
    data = base64.b64decode(sealed["data"], validate=True)
    tag = hmac.digest(key, b"tag" + nonce + data, "sha256")
    if not hmac.compare_digest(tag.hex(), sealed["tag"]):
        raise ValueError("it was changed, or sealed with another key than this one")
    return bytes(a ^ b for a, b in zip(data, _keystream(key, nonce, len(data)), strict=True))


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

    @property
    def key_path(self) -> Path:
        return self.root / KEY_NAME

    def has_save(self) -> bool:
        return self.save_path.is_file()

    def key(self) -> bytes:
        """The key that seals the save, made (readable by its owner only) when there is none.

        :raises PlayError: if it cannot be read or made.
        """
        path = self.key_path
        try:
            text = path.read_text(encoding="ascii").strip()
            if len(text) != 64:
                raise ValueError("it is not a save key; delete it to start afresh")
            return bytes.fromhex(text)
        except FileNotFoundError:
            pass
        except (OSError, ValueError) as exc:
            raise PlayError(f"Cannot read the save key {path}: {exc}.") from None
        key = secrets.token_bytes(32)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(key.hex() + "\n")
        except FileExistsError:  # made by another process meanwhile
            return self.key()
        except OSError as exc:
            raise PlayError(f"Cannot write the save key {path}: {exc.strerror or exc}.") from None
        return key

    def load(self) -> SavedMatch:
        """:raises PlayError: if there is no readable save."""
        try:
            text = self.save_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PlayError(f"Cannot read {self.save_path}: {exc.strerror}.") from None
        return SavedMatch.from_json(text, self.key() if self.key_path.exists() else None)

    def save(self, saved: SavedMatch) -> None:
        """Write the save atomically (a crash leaves the previous save whole)."""
        saved.saved_at = _dt.datetime.now().isoformat(timespec="seconds")
        saved.lang = current_language()
        _write_atomic(self.save_path, saved.to_json(self.key()))

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
