"""Position strings and forgiving action input.

A *position string* is one line that sets up any position of a deal, with twelve
fields separated by spaces::

    rules phase player dealer hand0 hand1 table0 table1 centre dead stock stake

* ``rules``: a rules spec such as ``standard`` or ``standard,max_seq_len=10``;
* ``phase``: ``offer``, ``turn``, ``force``, ``forced``, ``discard`` or ``over``;
* ``player``: the player to act (0 or 1); in phase ``over`` the winner, or ``-`` for a draw;
* ``dealer``: 0 or 1;
* ``hand0``, ``hand1``: cards run together (``5h5dKs``), ``-`` if empty, or ``*``
  to fill the hand with the lowest cards not placed elsewhere;
* ``table0``, ``table1``: melds separated by ``/`` (``3c4c5c/KsKhKd``) or ``-``;
* ``centre``: ``-`` or a card and its source: ``7c:d`` (discarded by the opponent),
  ``7c:p`` (turned and passed by the opponent), ``7c:t`` (turned by the player it
  belongs to), ``7c:u`` (the initial upcard);
* ``dead``: the dead pile, or ``-``;
* ``stock``: the unturned stock, top card first, or ``-``; a trailing ``*`` adds every
  card not placed elsewhere, lowest first;
* ``stake``: what the deal is worth.

>>> text = "standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1"
>>> state = parse_position(text)
>>> [str(a) for a in state.legal_actions()]
['take 3s4s5s6s', 'decline']
>>> parse_position(format_position(state)).tables == state.tables
True
"""

from __future__ import annotations

from .actions import Action, ActionKind, parse_partition
from .cards import ALL_CARDS_MASK, CARDS, NUM_CARDS, DeckStyle, format_mask, iter_card_tokens
from .errors import (
    AmbiguousActionError,
    IllegalActionError,
    IllegalReason,
    InvalidNotationError,
    InvalidStateError,
)
from .melds import format_partition, partition_mask
from .rules import find_rules
from .state import GameState, Phase, Source, Termination

FIELDS = (
    "rules",
    "phase",
    "player",
    "dealer",
    "hand0",
    "hand1",
    "table0",
    "table1",
    "centre",
    "dead",
    "stock",
    "stake",
)


def format_position(state: GameState) -> str:
    """The position string of a state (always explicit, never ``*``)."""
    if state.phase is Phase.OVER:
        player = str(state.winner) if state.winner is not None else "-"
    else:
        player = str(state.to_act)
    centre = f"{CARDS[state.centre]}:{state.source.value}" if state.centre >= 0 else "-"
    stock = "".join(str(CARDS[i]) for i in state.stock[state.stock_pos :]) or "-"
    fields = [
        state.rules.to_spec(),
        state.phase.value,
        player,
        str(state.dealer),
        format_mask(state.hands[0], "") or "-",
        format_mask(state.hands[1], "") or "-",
        format_partition(state.tables[0]),
        format_partition(state.tables[1]),
        centre,
        format_mask(state.dead_mask, "") or "-",
        stock,
        str(state.stake),
    ]
    return " ".join(fields)


def _cards(field: str, name: str) -> list[int]:
    if field == "-":
        return []
    try:
        return list(iter_card_tokens(field))
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"In the {name} field: {exc}") from None


def _player(field: str, name: str) -> int:
    if field not in ("0", "1"):
        raise InvalidNotationError(f"The {name} field must be 0 or 1, got {field!r}.")
    return int(field)


def parse_position(text: str) -> GameState:
    """Set up the position a position string describes.

    :raises InvalidNotationError: for text that cannot be read.
    :raises InvalidStateError: for a position that cannot arise in a game.
    """
    fields = text.split()
    if len(fields) != len(FIELDS):
        raise InvalidNotationError(
            f"A position has {len(FIELDS)} fields ({' '.join(FIELDS)}); got {len(fields)}."
        )
    values = dict(zip(FIELDS, fields, strict=True))
    rules = find_rules(values["rules"])
    try:
        phase = Phase(values["phase"].lower())
    except ValueError:
        raise InvalidNotationError(
            f"Unknown phase {values['phase']!r}; phases are: {', '.join(p.value for p in Phase)}."
        ) from None
    winner: int | None = None
    termination: Termination | None = None
    if phase is Phase.OVER:
        player = 0
        if values["player"] != "-":
            winner = _player(values["player"], "player (winner)")
    else:
        player = _player(values["player"], "player")
    dealer = _player(values["dealer"], "dealer")
    try:
        stake = int(values["stake"])
    except ValueError:
        raise InvalidNotationError(
            f"The stake must be a whole number, got {values['stake']!r}."
        ) from None
    if stake < 1:
        raise InvalidNotationError(f"The stake must be at least 1, got {stake}.")

    placed = 0

    def place(indices: list[int], name: str) -> int:
        nonlocal placed
        mask = 0
        for index in indices:
            bit = 1 << index
            if (placed | mask) & bit:
                raise InvalidStateError(
                    f"{CARDS[index]} appears twice (again in the {name} field)."
                )
            mask |= bit
        placed |= mask
        return mask

    tables = []
    for p in (0, 1):
        name = f"table{p}"
        try:
            partition = parse_partition(values[name])
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"In the {name} field: {exc}") from None
        place([i for m in partition for i in _indices(m)], name)
        tables.append(partition)
    centre = -1
    source = Source.NONE
    if values["centre"] != "-":
        card_text, sep, source_text = values["centre"].partition(":")
        if not sep:
            raise InvalidNotationError(
                f"The centre field needs a source, e.g. '7c:d', got {values['centre']!r}."
            )
        found = _cards(card_text, "centre")
        if len(found) != 1:
            raise InvalidNotationError(f"The centre field holds one card, got {card_text!r}.")
        try:
            source = Source(source_text.lower())
        except ValueError:
            raise InvalidNotationError(
                f"Unknown centre source {source_text!r}; use d, p, t or u."
            ) from None
        if source is Source.NONE:
            raise InvalidNotationError("A centre card needs a source d, p, t or u.")
        centre = found[0]
        place(found, "centre")
    dead = place(_cards(values["dead"], "dead"), "dead")
    hand_fields: list[str | int] = []
    for p in (0, 1):
        name = f"hand{p}"
        if values[name] == "*":
            hand_fields.append("*")
        else:
            hand_fields.append(place(_cards(values[name], name), name))
    stock_text = values["stock"]
    fill_stock = stock_text.endswith("*")
    stock_text = stock_text[:-1] if fill_stock else stock_text
    stock_list = _cards(stock_text or "-", "stock")
    place(stock_list, "stock")
    hands = [0, 0]
    for p in (0, 1):
        value = hand_fields[p]
        if isinstance(value, int):
            hands[p] = value
            continue
        size = rules.hand_size - partition_mask(tables[p]).bit_count()
        if phase is Phase.DISCARD and p == player:
            size += 1
        if phase is Phase.OVER and p == winner:
            size = 0
        free = [i for i in range(NUM_CARDS) if not placed >> i & 1][: max(size, 0)]
        hands[p] = place(free, f"hand{p}")
    if fill_stock:
        rest = [i for i in range(NUM_CARDS) if not placed >> i & 1]
        place(rest, "stock")
        stock_list += rest
    if placed != ALL_CARDS_MASK:
        raise InvalidStateError(
            f"Cards missing from the position: {format_mask(~placed & ALL_CARDS_MASK)} "
            "(end the stock with * to put the rest there)."
        )
    if phase is Phase.OVER:
        termination = Termination.STOCK_EXHAUSTED
        if winner is not None and partition_mask(tables[winner]).bit_count() == rules.cards_to_win:
            termination = Termination.OUT
    return GameState(
        rules,
        dealer=dealer,
        phase=phase,
        to_act=player,
        hands=tuple(hands),
        tables=tuple(tables),
        centre=centre,
        source=source,
        dead_mask=dead,
        stock=tuple(stock_list),
        stock_pos=0,
        winner=winner,
        termination=termination,
        stake=stake,
    )


def _indices(mask: int) -> list[int]:
    return [i for i in range(NUM_CARDS) if mask >> i & 1]


def played_cards(state: GameState, action: Action) -> int:
    """The hand cards an action lays on the table (as a mask)."""
    if action.kind not in (ActionKind.TAKE, ActionKind.PASS) or not action.melds:
        return 0
    centre = 1 << state.centre if state.centre >= 0 else 0
    return partition_mask(action.melds) & ~state.table_masks[state.to_act] & ~centre


def parse_action(state: GameState, text: str, deck: DeckStyle | str = DeckStyle.FRENCH) -> Action:
    """Read an action as a person would type it, and check it is legal here.

    Accepts the canonical text, and also: ``take`` alone or ``take`` with the hand
    cards to lay (``take 6c 7c``) when that picks one legal take; ``pass`` and
    ``decline`` for each other; ``yes``/``no`` at a force decision; a bare card or
    ``discard Kh`` when discarding.

    >>> state = parse_position("standard offer 0 1 5h5d6c7c2d3dQsQhKcAd * - - 5c:p - * 1")
    >>> str(parse_action(state, "take 5h 5d"))
    'take 5h5d5c'
    >>> parse_action(state, "take")
    Traceback (most recent call last):
    ...
    conquian.errors.AmbiguousActionError: 'take' matches 4 legal takes: take Ad2d3d/5h5d5c, take Ad2d3d/5c6c7c, take 5h5d5c, take 5c6c7c. Name the hand cards to lay, e.g. 'take 5h Ad 2d 3d 5d'.

    :raises InvalidNotationError: for unreadable text.
    :raises IllegalActionError: for an action that is not legal here (with the reason).
    :raises AmbiguousActionError: when a short form matches several legal actions.
    """
    words = text.strip().lower().split(None, 1)
    if not words:
        raise InvalidNotationError("Empty action text.")
    word, rest = words[0], (words[1] if len(words) > 1 else "")
    phase = state.phase
    if phase is Phase.OVER:
        raise state.explain_illegal(Action(ActionKind.DECLINE))
    aliases = {
        "decline": "pass" if phase is Phase.TURN else "decline",
        "pass": "decline" if phase is Phase.OFFER else "pass",
        "yes": "force",
        "no": "noforce" if phase is Phase.FORCE else "decline",
        "no-force": "noforce",
    }
    if word in aliases and not rest:
        word = aliases[word]
    cards: list[int] = []
    if phase is Phase.DISCARD and word != "discard":
        try:
            cards = list(iter_card_tokens(text, deck))
        except InvalidNotationError:
            cards = []
        if len(cards) != 1:
            cards = []
    if word == "discard" and rest:
        cards = list(iter_card_tokens(rest, deck))
        if len(cards) != 1:
            raise InvalidNotationError(f"'discard' takes exactly one card, got {rest!r}.")
    if cards:
        action = Action.discard(cards[0])
        if not state.is_legal(action):
            raise state.explain_illegal(action)
        return action
    if word in ("take", "pass") and (word == "take" or rest):
        return _parse_take(state, word, rest, deck)
    action = Action.parse(f"{word} {rest}".strip())
    if not state.is_legal(action):
        raise state.explain_illegal(action)
    return action


def _parse_take(state: GameState, word: str, rest: str, deck: DeckStyle | str) -> Action:
    kind = ActionKind.TAKE if word == "take" else ActionKind.PASS
    strict_error: IllegalActionError | InvalidNotationError | None = None
    if rest and deck == DeckStyle.FRENCH:
        try:
            action = Action(kind, -1, parse_partition(rest))
        except InvalidNotationError as exc:
            strict_error = exc
        else:
            if state.is_legal(action):
                return action
            strict_error = state.explain_illegal(action)
    named = 0
    for index in iter_card_tokens(rest, deck):
        named |= 1 << index
    candidates = [a for a in state.legal_actions() if a.kind is kind and a.melds]
    if kind is ActionKind.TAKE and not candidates:
        if state.phase not in (Phase.OFFER, Phase.TURN, Phase.FORCED):
            raise state.explain_illegal(Action(kind, -1, ()))
        raise IllegalActionError(
            f"{CARDS[state.centre]} cannot be taken: it does not meld with player "
            f"{state.to_act}'s table or hand.",
            player=state.to_act,
            reason=IllegalReason.CANNOT_TAKE_CENTRE,
            card=state.centre,
        )
    if named:
        context = state.table_masks[state.to_act] | (1 << state.centre if state.centre >= 0 else 0)
        wanted = named & ~context
        stray = named & ~context & ~state.hands[state.to_act]
        if stray:
            raise IllegalActionError(
                f"{format_mask(stray)} {'is' if stray.bit_count() == 1 else 'are'} not in "
                f"player {state.to_act}'s hand.",
                player=state.to_act,
                reason=IllegalReason.CARDS_NOT_AVAILABLE,
                cards=stray,
            )
        candidates = [a for a in candidates if played_cards(state, a) == wanted]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        if isinstance(strict_error, IllegalActionError):
            raise strict_error
        raise IllegalActionError(
            f"No legal {word} lays exactly {format_mask(named) or 'no hand cards'}.",
            player=state.to_act,
            reason=IllegalReason.NO_MATCHING_LAY,
            text=word,
            cards=named,
        )
    shown = ", ".join(str(a) for a in candidates[:8])
    more = f" and {len(candidates) - 8} more" if len(candidates) > 8 else ""
    example = format_mask(played_cards(state, candidates[0])) or format_mask(named)
    raise AmbiguousActionError(
        f"'{word}{' ' + rest if rest else ''}' matches {len(candidates)} legal "
        f"{word}s: {shown}{more}. Name the hand cards to lay, e.g. '{word} {example}'.",
        tuple(candidates),
        player=state.to_act,
    )
