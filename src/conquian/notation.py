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

With ``n`` players (rules with ``num_players`` 3 or 4) there is a hand and a table field
for each: ``rules phase player dealer hand0 … hand{n-1} table0 … table{n-1} centre dead
stock stake``, players numbered 0 to n-1 in play order, and the centre card names the
player who turned or paid it: ``7c:d2`` (paid by player 2), ``7c:p1`` (turned and passed
by player 1), ``7c:t0`` (turned by player 0, who is to act); in phase ``force`` the player
who refused it follows a ``>``: ``7c:d2>0``.  Rules with ``exchange_one_card`` add a last
field, ``exchange``: the card each player passes to the next seat, comma-separated in seat
order, ``-`` for one not chosen yet (``Kh,5c,-``), or a single ``-`` when not recorded.
Two-player positions without the exchange keep their twelve fields, as above.

Under ``layoff_on_opponent`` a table may hold cards that other players laid on it, so a hand
written ``*`` is filled as if nobody had laid off, and a finished deal (phase ``over``) with
a winner was won by going out when the hands and tables hold one card more than was dealt.

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
from .melds import format_partition, meld_kind, partition_mask
from .observation import Observation
from .rules import MAX_STAKE, MAX_STAKE_DIGITS, find_rules
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


def field_names(num_players: int, exchange: bool = False) -> tuple[str, ...]:
    """The fields of a position string for ``num_players`` players."""
    names = ["rules", "phase", "player", "dealer"]
    names += [f"hand{p}" for p in range(num_players)]
    names += [f"table{p}" for p in range(num_players)]
    names += ["centre", "dead", "stock", "stake"]
    if exchange:
        names.append("exchange")
    return tuple(names)


def _centre_field(
    card: int, source: Source, owner: int | None, offeree: int | None, phase: Phase, n: int
) -> str:
    """The centre field of a position string: ``-``, ``7c:d``, or with more than two players
    ``7c:d2`` (who paid it) and, in phase force, ``7c:d2>0`` (who refused it)."""
    if card < 0:
        return "-"
    field = f"{CARDS[card]}:{source.value}"
    if n > 2 and source is not Source.UPCARD:
        field += str(owner)
        if phase is Phase.FORCE:
            field += f">{offeree}"
    return field


def format_position(state: GameState) -> str:
    """The position string of a state (always explicit, never ``*``)."""
    n = state.num_players
    if state.phase is Phase.OVER:
        player = str(state.winner) if state.winner is not None else "-"
    else:
        player = str(state.to_act)
    centre = _centre_field(state.centre, state.source, state.owner, state.offeree, state.phase, n)
    stock = "".join(str(CARDS[i]) for i in state.stock[state.stock_pos :]) or "-"
    fields = [state.rules.to_spec(), state.phase.value, player, str(state.dealer)]
    fields += [format_mask(h, "") or "-" for h in state.hands]
    fields += [format_partition(t) for t in state.tables]
    fields += [centre, format_mask(state.dead_mask, "") or "-", stock, str(state.stake)]
    if state.rules.exchange_one_card:
        picks = state.exchange
        fields.append(",".join(str(CARDS[c]) if c >= 0 else "-" for c in picks) or "-")
    return " ".join(fields)


def format_seen_position(obs: Observation) -> str:
    """The position string of what ``obs.viewer`` sees: his own hand, every table, the
    centre and the dead pile as they are, and the cards he cannot see written ``*`` (the
    other hands and the stock), so that it sets up his decision and shows nothing hidden.

    >>> state = parse_position("standard offer 0 1 KhKd2c7hJdQcAh * 3s4s5s - 6s:d - * 1")
    >>> from conquian.observation import observe
    >>> format_seen_position(observe(state, 0))
    'standard offer 0 1 Ah7hKhJdKd2cQc * 3s4s5s - 6s:d - * 1'
    >>> parse_position(_).legal_actions() == state.legal_actions()
    True
    """
    n = len(obs.tables)
    if obs.phase is Phase.OVER:
        winner = obs.outcome.winner if obs.outcome is not None else None
        player = "-" if winner is None else str(winner)
    else:
        player = str(obs.to_act)
    centre = _centre_field(obs.centre, obs.source, obs.owner, obs.offeree, obs.phase, n)
    hands = ["*"] * n
    hands[obs.viewer] = format_mask(obs.hand_mask, "") or "-"
    fields = [obs.rules.to_spec(), obs.phase.value, player, str(obs.dealer), *hands]
    fields += [format_partition(t) for t in obs.tables]
    fields += [centre, format_mask(obs.dead_mask, "") or "-", "*", str(obs.stake)]
    if obs.rules.exchange_one_card:
        picks = ["-"] * n
        if obs.passed >= 0:
            picks[obs.viewer] = str(CARDS[obs.passed])
        fields.append(",".join(picks))
    return " ".join(fields)


def _cards(field: str, name: str) -> list[int]:
    if field == "-":
        return []
    try:
        return list(iter_card_tokens(field))
    except InvalidNotationError as exc:
        raise InvalidNotationError(f"In the {name} field: {exc}") from None


def small_number(text: str) -> int | None:
    r"""``text`` read as a whole number of at most 9 ASCII digits (a seat, a deal, a choice
    typed at a prompt); None for anything else.

    ``str.isdigit`` alone is not enough: it takes ``²`` and ``➋``, which ``int`` refuses,
    and ``int`` refuses more than 4,300 digits.

    >>> small_number("12"), small_number("²"), small_number("\uff11"), small_number("9" * 10)
    (12, None, None, None)
    """
    if text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    return None


def _player(field: str, name: str, n: int = 2) -> int:
    player = small_number(field)
    if player is None or player >= n or str(player) != field:
        seats = "0 or 1" if n == 2 else f"0 to {n - 1}"
        raise InvalidNotationError(f"The {name} field must be {seats}, got {field[:20]!r}.")
    return player


def _exchange(field: str, n: int) -> tuple[int, ...]:
    """The exchange field: a card (or ``-``) per player, or ``-`` when not recorded."""
    if field == "-":
        return ()
    parts = field.split(",")
    if len(parts) != n:
        raise InvalidNotationError(
            f"The exchange field names a card (or -) for each of {n} players, got {field!r}."
        )
    picks = []
    for p, part in enumerate(parts):
        if part == "-":
            picks.append(-1)
            continue
        found = _cards(part, f"exchange (player {p})")
        if len(found) != 1:
            raise InvalidNotationError(
                f"The exchange field holds one card per player, got {part!r}."
            )
        picks.append(found[0])
    return tuple(picks)


def parse_position(text: str) -> GameState:
    """Set up the position a position string describes.

    :raises InvalidNotationError: for text that cannot be read.
    :raises InvalidStateError: for a position that cannot arise in a game.
    """
    fields = text.split()
    if not fields:
        raise InvalidNotationError(
            f"A position has {len(FIELDS)} fields ({' '.join(FIELDS)}); got 0."
        )
    rules = find_rules(fields[0])
    n = rules.num_players
    names = field_names(n, rules.exchange_one_card)
    if len(fields) != len(names):
        raise InvalidNotationError(
            f"A position has {len(names)} fields ({' '.join(names)}); got {len(fields)}."
        )
    values = dict(zip(names, fields, strict=True))
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
            winner = _player(values["player"], "player (winner)", n)
    else:
        player = _player(values["player"], "player", n)
    dealer = _player(values["dealer"], "dealer", n)
    stake_text = values["stake"]
    if not (stake_text.isascii() and stake_text.isdigit() and len(stake_text) <= MAX_STAKE_DIGITS):
        raise InvalidNotationError(f"The stake must be a whole number, got {stake_text[:30]!r}.")
    stake = int(stake_text)
    if not 1 <= stake <= MAX_STAKE:
        raise InvalidNotationError(f"The stake must be from 1 to {MAX_STAKE}, got {stake}.")

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
    for p in range(n):
        name = f"table{p}"
        try:
            partition = parse_partition(values[name])
        except InvalidNotationError as exc:
            raise InvalidNotationError(f"In the {name} field: {exc}") from None
        place([i for m in partition for i in _indices(m)], name)
        tables.append(partition)
    centre = -1
    source = Source.NONE
    owner: int | None = None
    offeree: int | None = None
    if values["centre"] != "-":
        card_text, sep, source_text = values["centre"].partition(":")
        if not sep:
            raise InvalidNotationError(
                f"The centre field needs a source, e.g. '7c:d', got {values['centre']!r}."
            )
        source_text, arrow, refuser_text = source_text.partition(">")
        if len(source_text) > 1 and source_text[0].lower() != "u":
            owner = _player(source_text[1:], "centre card's owner", n)
            source_text = source_text[0]
        if arrow:
            if phase is not Phase.FORCE:
                raise InvalidNotationError(
                    "Only in phase force does the centre field name who refused the card (>p)."
                )
            offeree = _player(refuser_text, "centre card's refuser", n)
        if n > 2 and source_text.lower() != "u" and owner is None:
            raise InvalidNotationError(
                f"With {n} players the centre field names who turned or paid the card, "
                f"e.g. '7c:d2', got {values['centre']!r}."
            )
        if n > 2 and phase is Phase.FORCE and offeree is None:
            raise InvalidNotationError(
                "In phase force the centre field names who refused the card, e.g. '7c:d2>0'."
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
    for p in range(n):
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
    hands = [0] * n
    for p in range(n):
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
        if winner is not None and rules.layoff_on_opponent:
            # layoffs change how many cards a table holds when its player goes out; the
            # hands and tables together hold one card more than was dealt when a take went out
            held = sum(h.bit_count() for h in hands)
            held += sum(partition_mask(t).bit_count() for t in tables)
            out = held == n * rules.hand_size + 1
            termination = Termination.OUT if out else Termination.STOCK_EXHAUSTED
    exchange: tuple[int, ...] = ()
    if rules.exchange_one_card:
        exchange = _exchange(values["exchange"], n)
    if owner is not None and offeree is None:
        offeree = player
    if centre < 0 or source is Source.UPCARD:
        owner = offeree = None if n == 2 else -1
        if source is Source.UPCARD:
            offeree = player
    return GameState(
        rules,
        dealer=dealer,
        phase=phase,
        to_act=player,
        hands=tuple(hands),
        tables=tuple(tables),
        centre=centre,
        source=source,
        owner=owner,
        offeree=offeree,
        exchange=exchange,
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
        "no": "noforce" if phase is Phase.FORCE else "pass" if phase is Phase.TURN else "decline",
        "no-force": "noforce",
    }
    if word in aliases and not rest:
        word = aliases[word]
    cards: list[int] = []
    one_card = "exchange" if phase is Phase.EXCHANGE else "discard"
    if phase in (Phase.DISCARD, Phase.EXCHANGE) and word != one_card:
        try:
            cards = list(iter_card_tokens(text, deck))
        except InvalidNotationError:
            cards = []
        if len(cards) != 1:
            cards = []
    if word in ("discard", "exchange") and rest:
        cards = list(iter_card_tokens(rest, deck))
        if len(cards) != 1:
            raise InvalidNotationError(
                f"'{word}' takes exactly one card, got {rest!r}.", "one_card", rest, word
            )
        one_card = word
    if cards:
        kind = ActionKind.EXCHANGE if one_card == "exchange" else ActionKind.DISCARD
        action = Action(kind, cards[0])
        if not state.is_legal(action):
            raise state.explain_illegal(action)
        return action
    if word in ("take", "pass") and (word == "take" or rest):
        return _parse_take(state, word, rest, deck)
    if word == "layoff":
        return _parse_layoff(state, rest, deck)
    action = Action.parse(f"{word} {rest}".strip())
    if not state.is_legal(action):
        raise state.explain_illegal(action)
    return action


def _parse_layoff(state: GameState, rest: str, deck: DeckStyle | str) -> Action:
    """``layoff`` alone, with cards of the meld it goes on (``layoff 6c``: the meld with the
    6c), with a player's seat first, or in full (``layoff 2 5c6c7c``)."""
    seat = -1
    first, _sep, remainder = rest.strip().partition(" ")
    if len(first) == 1 and first.isascii() and first.isdigit():
        seat, rest = int(first), remainder
    named = 0
    for index in iter_card_tokens(rest, deck):
        named |= 1 << index
    if seat >= 0 and named and meld_kind(named) is not None:
        action = Action.layoff(seat, named)
        if state.is_legal(action):
            return action
        raise state.explain_illegal(action)
    candidates = [a for a in state.legal_actions() if a.kind is ActionKind.LAYOFF]
    p = state.to_act
    if not candidates or seat == p or seat >= state.num_players:
        if (
            state.phase not in (Phase.OFFER, Phase.TURN)
            or not state.rules.layoff_on_opponent
            or not state.hands[p]
            or seat == p
            or seat >= state.num_players
        ):
            raise state.explain_illegal(Action(ActionKind.LAYOFF, -1, (), seat))
        raise IllegalActionError(
            f"{CARDS[state.centre]} cannot be laid off: it extends no meld of another player.",
            player=p,
            reason=IllegalReason.CANNOT_LAY_OFF_CENTRE,
            card=state.centre,
        )
    centre = 1 << state.centre
    found = [
        a for a in candidates if (seat < 0 or a.seat == seat) and not named & ~(a.melds[0] | centre)
    ]
    if len(found) == 1:
        return found[0]
    if not found:
        where = f" of player {seat}" if seat >= 0 and not named else ""
        holds = f" that holds {format_mask(named)}" if named else ""
        raise IllegalActionError(
            f"{CARDS[state.centre]} extends no meld{where or ' of another player'}{holds}.",
            player=p,
            reason=IllegalReason.NO_MATCHING_LAYOFF,
            card=state.centre,
            cards=named,
            seat=seat if seat >= 0 and not named else None,
        )
    shown = ", ".join(str(a) for a in found[:8])
    more = f" and {len(found) - 8} more" if len(found) > 8 else ""
    raise AmbiguousActionError(
        f"'layoff{' ' + rest.strip() if rest.strip() else ''}' matches {len(found)} legal "
        f"layoffs: {shown}{more}. Name a card of the meld, e.g. "
        f"'layoff {format_mask(found[0].melds[0] & -found[0].melds[0])}'.",
        tuple(found),
        player=state.to_act,
    )


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
