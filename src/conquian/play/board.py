"""The table drawn as lines: both players' melds, hands, the centre, stock, dead and seen cards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import ActionKind
from ..cards import NUM_RANKS, NUM_SUITS, mask_indices
from ..observation import Observation
from ..present.spans import (
    BOLD,
    DIM,
    THEM,
    YOU,
    CardLook,
    Line,
    Span,
    card_span,
    cards_spans,
    hand_spans,
    melds_spans,
    plain,
)
from ..present.words import (
    Names,
    centre_origin,
    dealer_note,
    hand_count,
    last_moves_heading,
    to_play_note,
)
from ..state import Phase
from .terminal_words import (
    RECEIVED_STYLE,
    TURN_STYLE,
    dead_label,
    middle_labels,
    on_your_right_note,
    player_labels,
    stock_count,
)

__all__ = ["Board", "board_lines"]

DEAD_PER_LINE = 14


@dataclass(frozen=True, slots=True)
class Board:
    """What to draw: a position (any player's observation of it) and whose cards show."""

    obs: Observation
    names: Names
    labels: tuple[str, ...]
    """The players as headed on the table, e.g. ``("You", "Bot (hard)")``."""
    hands: tuple[int | None, ...]
    """Each player's hand to show, or None to show only its size."""
    bottom: int = 0
    """The player drawn at the bottom (the viewer)."""
    header: Sequence[Line] = ()
    log: Sequence[Line] = ()
    log_size: int = 6


def _seen_lines(obs: Observation, look: CardLook) -> list[Line]:
    """Every card that has been face up, by suit; dead ones dimmed."""
    seen = obs.seen_mask
    width = max(len(look.label(i)) - 1 for i in range(NUM_RANKS))
    label = middle_labels()[2]
    lines: list[Line] = []
    # the ranks above their columns, so that a missing one is read, not counted
    ranks = " ".join(look.label(r)[:-1].rjust(width) for r in range(NUM_RANKS))
    pad = " " * (len(look.suit_text(0)) + 1)
    lines.append([Span(" " * len(label) + pad + ranks + "    " + pad + ranks, DIM)])
    row: Line = []
    for suit in range(NUM_SUITS):
        if suit % 2 == 0:
            row = [Span(label if suit == 0 else " " * len(label))]
        else:
            row.append(Span("    "))
        row.append(Span(look.suit_text(suit) + " ", look.style(suit * NUM_RANKS)))
        for rank in range(NUM_RANKS):
            index = suit * NUM_RANKS + rank
            if rank:
                row.append(Span(" "))
            if seen >> index & 1:
                dead = obs.dead_mask >> index & 1
                rank_label = look.label(index)[:-1].rjust(width)
                row.append(Span(rank_label, DIM if dead else look.style(index)))
            else:
                row.append(Span(look.dot.rjust(width), DIM))
        if suit % 2 == 1:
            lines.append(row)
    return lines


def _player_lines(board: Board, p: int, look: CardLook) -> list[Line]:
    obs = board.obs
    style = YOU if p == board.names.me else THEM
    head: Line = [Span(board.labels[p], style)]
    notes: list[str] = []
    if obs.dealer == p:
        notes.append(dealer_note())
    hand = board.hands[p]
    count = obs.hand_counts[p]
    notes.append(hand_count(count))
    for note in notes:
        head += [Span(look.sep, DIM), Span(note)]
    if len(obs.tables) > 2 and p == (board.bottom + 1) % len(obs.tables):
        head += [Span(look.sep, DIM), Span(on_your_right_note(), DIM)]
    if obs.phase is not Phase.OVER and obs.to_act == p:
        head += [Span(look.sep, DIM), Span(to_play_note(p == board.names.me), TURN_STYLE)]
    table_label, hand_label = player_labels()
    lines = [head, [Span(table_label), *melds_spans(look, obs.tables[p])]]
    if hand is not None:
        shown = hand_spans(look, hand)
        new = _just_received(obs) if p == obs.viewer else -1
        if new >= 0:  # the card the exchange brought, marked until the player's first move
            shown = [
                span._replace(style=f"{span.style} {RECEIVED_STYLE}".strip())
                if span.card == new
                else span
                for span in shown
            ]
        lines.append([Span(hand_label), *shown])
    return lines


def _just_received(obs: Observation) -> int:
    """The card the viewer received in the exchange while he has not moved since (-1 else)."""
    if obs.received < 0 or not obs.hand_mask >> obs.received & 1:
        return -1
    for event in reversed(obs.history):
        if event.action.kind is ActionKind.EXCHANGE:
            return obs.received
        if event.player == obs.viewer:
            return -1
    return -1


def board_lines(board: Board, look: CardLook) -> list[Line]:
    """The lines of the table, the viewer's side at the bottom, the others above in play
    order from the one after him."""
    obs = board.obs
    n = len(obs.tables)
    centre_label, stock_label, _ = middle_labels()
    lines: list[Line] = [*board.header]
    if lines:
        lines.append([])
    for k in range(1, n):
        lines += _player_lines(board, (board.bottom + k) % n, look)
        lines.append([])
    if obs.centre >= 0:
        lines.append(
            [
                Span(centre_label),
                card_span(look, obs.centre),
                Span(f"   {centre_origin(obs, board.names)}", DIM),
            ]
        )
    else:
        lines.append([Span(centre_label), Span(look.dash, DIM)])
    stock = obs.stock_count
    first: Line = [
        Span(stock_label),
        Span(stock_count(stock), BOLD),
        Span(f"      {dead_label()} "),
    ]
    indent = len(plain(first))
    dead = mask_indices(obs.dead_mask)
    if not dead:
        lines.append([*first, Span(look.dash, DIM)])
    for start in range(0, len(dead), DEAD_PER_LINE):
        chunk = dead[start : start + DEAD_PER_LINE]
        head = first if start == 0 else [Span(" " * indent)]
        lines.append([*head, *cards_spans(look, sum(1 << i for i in chunk))])
    lines += _seen_lines(obs, look)
    lines.append([])
    lines += _player_lines(board, board.bottom, look)
    if board.log_size and board.log:
        lines.append([])
        lines.append([Span(last_moves_heading(), BOLD)])
        lines += [[Span("  "), *line] for line in board.log[-board.log_size :]]
    return lines
