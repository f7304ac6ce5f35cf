"""Conquian, the two-player, 40-card ancestor of rummy: a faithful rules engine.

>>> import conquian
>>> game = conquian.Game(seed=1)
>>> game.state.phase
<Phase.TURN: 'turn'>
"""

from __future__ import annotations

from .actions import Action, ActionKind, parse_partition
from .cards import CARDS, Card, CardSet, DeckStyle, Rank, Suit
from .errors import (
    AmbiguousActionError,
    ConquianError,
    GameOverError,
    IllegalActionError,
    IllegalReason,
    InvalidMeldError,
    InvalidNotationError,
    InvalidRulesError,
    InvalidStateError,
    RecordError,
)
from .game import Game
from .match import Match
from .melds import Meld, MeldKind, meld_table
from .notation import format_position, parse_action, parse_position
from .observation import Observation, PublicView, observe, observe_public
from .records import GameRecord, MatchRecord, load_match_record, load_record
from .rules import PRESETS, Rules, find_rules
from .state import GameState, Outcome, Phase, Source, Termination, shuffled_deck

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "PRESETS",
    "Action",
    "ActionKind",
    "AmbiguousActionError",
    "Card",
    "CardSet",
    "ConquianError",
    "DeckStyle",
    "Game",
    "GameOverError",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "IllegalReason",
    "InvalidMeldError",
    "InvalidNotationError",
    "InvalidRulesError",
    "InvalidStateError",
    "Match",
    "MatchRecord",
    "Meld",
    "MeldKind",
    "Observation",
    "Outcome",
    "Phase",
    "PublicView",
    "Rank",
    "RecordError",
    "Rules",
    "Source",
    "Suit",
    "Termination",
    "__version__",
    "find_rules",
    "format_position",
    "load_match_record",
    "load_record",
    "meld_table",
    "observe",
    "observe_public",
    "parse_action",
    "parse_partition",
    "parse_position",
    "shuffled_deck",
]
