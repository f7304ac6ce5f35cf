"""Exceptions raised by the conquian library.

Every error the library raises on bad input derives from :class:`ConquianError`;
the ones a caller would expect to be ``ValueError`` also derive from it.
"""

from __future__ import annotations

from enum import StrEnum


class ConquianError(Exception):
    """Root of every error raised by the library."""


class InvalidNotationError(ConquianError, ValueError):
    """Text that cannot be read: a bad card token, action, position or record line.

    ``fault`` names what was wrong where a front end words it itself (``not_a_card``,
    ``one_card``, ``needs_card``, ``nothing_after``, ``written_twice``, ``not_a_meld``),
    with ``token`` the text or card at fault and ``word`` the command; "" otherwise.
    """

    def __init__(self, message: str, fault: str = "", token: str = "", word: str = "") -> None:
        super().__init__(message)
        self.fault = fault
        self.token = token
        self.word = word


class InvalidMeldError(ConquianError, ValueError):
    """Cards that do not form a valid meld (set or run)."""


class InvalidRulesError(ConquianError, ValueError):
    """An unknown preset, an unknown flag, a bad flag value or an invalid combination of flags."""


class InvalidStateError(ConquianError, ValueError):
    """A position that cannot arise in a game (lost or duplicated cards, bad partition, ...)."""


class IllegalReason(StrEnum):
    """Why an action is not allowed: a code a front end can word in its own way.

    Each code names the fields of :class:`IllegalActionError` that it fills (besides
    ``player``, the player who tried the action).
    """

    NOT_REAL_CARDS = "not_real_cards"
    """An :class:`~conquian.actions.Action` naming no real cards (``text``: the action as a tuple)."""
    GAME_OVER = "game_over"
    """The deal has ended (``text``); ``player`` is None."""
    NOT_YOUR_TURN = "not_your_turn"
    """``player`` tried to act while ``to_act`` is to act."""
    NOT_POSSIBLE_NOW = "not_possible_now"
    """The wrong kind of action for the phase (``text``, ``phase``, ``expected``)."""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    """A discard of ``card``, which is not in the player's hand."""
    LAYING_NOT_ALLOWED = "laying_not_allowed"
    """Laying cards down before passing, under ``meld_without_take never``."""
    NOT_A_LEGAL_LAY = "not_a_legal_lay"
    """Cards laid before passing in a way the rules do not allow (``text``)."""
    WOULD_NEED_REARRANGING = "would_need_rearranging"
    """The centre ``card`` fits only by rearranging the table (``rearrange_mode``)."""
    CANNOT_MELD_CENTRE = "cannot_meld_centre"
    """A take of the centre ``card``, which the player cannot meld at all.

    A safeguard: in a valid position a take that passes the table checks always melds.
    """
    CANNOT_TAKE_CENTRE = "cannot_take_centre"
    """The same, for a short form ``take`` read by ``parse_action`` (``card``)."""
    FORCED_ADD_ONLY = "forced_add_only"
    """A forced player may only add the forced ``card`` to his table (``forced_take minimal``)."""
    REARRANGE_NOT_ALLOWED = "rearrange_not_allowed"
    """A take that rearranges the table in a way ``rearrange_mode`` forbids (``text``)."""
    CARDS_IN_TWO_MELDS = "cards_in_two_melds"
    """The ``cards`` are in two melds of the new table."""
    RUN_TOO_LONG = "run_too_long"
    """The ``cards`` are a run longer than ``max_seq_len``."""
    NOT_A_MELD = "not_a_meld"
    """The ``cards`` are not a set or run."""
    CENTRE_NOT_MELDED = "centre_not_melded"
    """A take whose new table leaves out the centre ``card``."""
    TABLE_CARDS_MISSING = "table_cards_missing"
    """A new table without the table ``cards``."""
    CARDS_NOT_AVAILABLE = "cards_not_available"
    """The ``cards`` are not in the hand (``card``: the centre card, when taking)."""
    NO_MATCHING_LAY = "no_matching_lay"
    """No legal ``text`` (``take`` or ``pass``) lays exactly the named ``cards``."""
    LAYOFF_NOT_ALLOWED = "layoff_not_allowed"
    """A layoff under rules without ``layoff_on_opponent``."""
    LAYOFF_NO_SUCH_PLAYER = "layoff_no_such_player"
    """A layoff of the centre ``card`` on the meld of ``seat``, a player who is not at the
    table."""
    LAYOFF_OWN_TABLE = "layoff_own_table"
    """A layoff of the centre ``card`` on the player's own table (``seat``): that is a take."""
    LAYOFF_NOT_THEIR_MELD = "layoff_not_their_meld"
    """A layoff on ``cards``, which are not a meld of player ``seat``'s table."""
    LAYOFF_DOES_NOT_FIT = "layoff_does_not_fit"
    """A layoff of the centre ``card`` on player ``seat``'s meld ``cards``, which it does not
    extend (as the meld lies, within ``max_seq_len``)."""
    LAYOFF_EMPTY_HAND = "layoff_empty_hand"
    """A layoff of the centre ``card`` by a player with no hand card to pay with after it."""
    CANNOT_LAY_OFF_CENTRE = "cannot_lay_off_centre"
    """A short form ``layoff`` read by ``parse_action`` while the centre ``card`` extends no
    meld of another player."""
    NO_MATCHING_LAYOFF = "no_matching_layoff"
    """No legal layoff of the centre ``card`` goes on a meld with the named ``cards`` (or, with
    no card named, on a meld of player ``seat``)."""
    NOT_LEGAL = "not_legal"
    """Any other action that is not legal here (``text``)."""


class IllegalActionError(ConquianError, ValueError):
    """A well-formed action that is not allowed in the current position.

    The state it was applied to is left unchanged.  ``str(exc)`` is the reason in
    English; ``reason`` and the fields below let a front end word it itself:

    * ``player``: the player who tried the action (None when unknown);
    * ``reason``: an :class:`IllegalReason` (None for an error raised with a message only);
    * ``text``: the action (or the word ``take`` / ``pass``) as the message quotes it;
    * ``card``: the one card concerned (a card index), ``cards``: the cards concerned (a mask);
    * ``phase`` and ``expected``: the phase (its value) and the action kinds it wants;
    * ``rearrange_mode``, ``max_seq_len``: the rule value the action breaks;
    * ``to_act``: the player who is to act;
    * ``seat``: the player whose meld a layoff names.
    """

    def __init__(
        self,
        message: str,
        action: object = None,
        *,
        player: int | None = None,
        reason: IllegalReason | None = None,
        text: str = "",
        card: int | None = None,
        cards: int = 0,
        phase: str | None = None,
        expected: tuple[str, ...] = (),
        rearrange_mode: str | None = None,
        max_seq_len: int | None = None,
        to_act: int | None = None,
        seat: int | None = None,
    ) -> None:
        super().__init__(message)
        self.action = action
        self.player = player
        self.reason = reason
        self.text = text
        self.card = card
        self.cards = cards
        self.phase = phase
        self.expected = expected
        self.rearrange_mode = rearrange_mode
        self.max_seq_len = max_seq_len
        self.to_act = to_act
        self.seat = seat

    @classmethod
    def not_your_turn(cls, player: int, to_act: int) -> IllegalActionError:
        """The error for ``player`` trying to act while ``to_act`` is to act."""
        return cls(
            f"It is player {to_act}'s turn, not player {player}'s.",
            player=player,
            reason=IllegalReason.NOT_YOUR_TURN,
            to_act=to_act,
        )


class AmbiguousActionError(ConquianError, ValueError):
    """A short form of an action that matches more than one legal action.

    ``player`` is the player who typed it (None when unknown).
    """

    def __init__(
        self, message: str, candidates: tuple[object, ...] = (), *, player: int | None = None
    ) -> None:
        super().__init__(message)
        self.candidates = candidates
        self.player = player


class GameOverError(IllegalActionError):
    """An action applied to a deal that has already ended."""


class RecordError(ConquianError, ValueError):
    """A game record that is malformed or does not replay.

    ``action_number`` is the 1-based number of the offending action, when there is one.
    """

    def __init__(self, message: str, action_number: int | None = None) -> None:
        super().__init__(message)
        self.action_number = action_number
