"""``conquian play``: Conquian in the terminal, and the move-by-move replay viewer.

The front end holds no rules of its own: it reads observations and legal actions,
reads what people type with :func:`conquian.notation.parse_action`, and plays
through :class:`conquian.game.Game` and :class:`conquian.match.Match`.  Rich is
optional (``pip install 'conquian[play]'``); without it the game runs in plain text.
"""

from __future__ import annotations

from .cli import (
    add_play_arguments,
    add_play_parser,
    add_replay_step_options,
    cmd_play,
    main,
    run_replay_step,
    wants_replay_step,
)
from .replay import step_replay

__all__ = [
    "add_play_arguments",
    "add_play_parser",
    "add_replay_step_options",
    "cmd_play",
    "main",
    "run_replay_step",
    "step_replay",
    "wants_replay_step",
]
