"""``python -m conquian.play``: play in the terminal (``replay FILE --step`` to watch a record)."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
