"""Where the front ends keep a user's files (saved games, records, the browser game's database).

A leaf module: it imports nothing of the package, so the terminal and the web server
can share it without importing each other.

>>> default_data_dir().name
'conquian'
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["default_data_dir"]


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/conquian``, else ``~/.local/share/conquian`` (``%LOCALAPPDATA%`` on Windows)."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "conquian"
    if os.name == "nt":
        local = os.environ.get("LOCALAPPDATA")
        if local:
            return Path(local) / "conquian"
    return Path.home() / ".local" / "share" / "conquian"
