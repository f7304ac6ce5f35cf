"""A post-game review in words: each judged decision, the marks, the accuracy, a chart.

The review itself (:mod:`conquian.bots.review`) is data: actions, chances between 0 and
1 and the codes of its marks (``inaccuracy``, ``mistake``, ``blunder``).  Here are its
sentences, in the language in use, and its one-line chart of the winning chance.

>>> from conquian.actions import Action
>>> from conquian.cards import parse_cards_mask
>>> from conquian.present.spans import plain
>>> look = CardLook()
>>> played = move_words(Action.parse("decline"), (), parse_cards_mask("7h").bit_length() - 1, look)
>>> best = move_words(Action.parse("take 5h6h7h"), (), -1, look)
>>> plain(decision_line(12, played, 0.4, best, 0.9, "blunder"))
'  12. decline 7h: 40% to win; better take 5h6h7h: 90% (blunder)'
>>> chart([0.0, 0.5, 1.0])
'▁▅█'

Under a marked decision, the position the player saw (:func:`position_lines`) and, when
the card he gave away fits another player's meld, that danger (:func:`danger_line`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..actions import Action, ActionKind
from ..melds import Partition
from ..observation import Observation
from .hints import feed_words
from .i18n import GAME_WORDS, fill
from .spans import (
    BOLD,
    CMD,
    DIM,
    NOTE,
    CardLook,
    Line,
    Span,
    card_span,
    cards_spans,
    hand_spans,
    melds_spans,
)
from .words import action_text, command

__all__ = [
    "BLOCKS",
    "chart",
    "chart_line",
    "danger_line",
    "deal_heading",
    "decision_line",
    "decision_position",
    "mark_word",
    "move_words",
    "percent",
    "player_name",
    "position_lines",
    "progress_text",
    "review_heading",
    "review_lines",
    "summary_lines",
]

_ = GAME_WORDS.gettext
ngettext = GAME_WORDS.ngettext

BLOCKS = "▁▂▃▄▅▆▇█"
"""The chart's eight heights, from a chance of 0 to a chance of 1."""
ASCII_BLOCKS = "_.-:=+*#"
"""The same heights for a screen that cannot show the blocks."""
POSITION_INDENT = " " * 6
"""Before each line of a decision's position: under the move, past ``  12. ``."""


def mark_word(code: str) -> str:
    """The word of a mark's code."""
    return {
        # Translators: a review's mark of a decision that lost 10 to 20 points of winning chance
        "inaccuracy": _("inaccuracy"),
        # Translators: a review's mark of a decision that lost 20 to 30 points of winning chance
        "mistake": _("mistake"),
        # Translators: a review's mark of a decision that lost 30 points of winning chance or more
        "blunder": _("blunder"),
    }.get(code, code)


def percent(chance: float) -> str:
    """A chance between 0 and 1 as a whole percentage: ``40%``."""
    # Translators: a percentage, e.g. 40%; keep {percent}
    return _("{percent}%").format(percent=round(100 * chance))


def move_words(action: Action, table: Partition, centre: int, look: CardLook) -> Line:
    """A move as short as a person writes it: a take names the melds it makes or changes
    (``take 5h6h7h``, not the whole table), a refusal names the card (``decline 7h``); each
    card a span that carries it."""
    kind = action.kind
    if kind in (ActionKind.TAKE, ActionKind.PASS) and action.melds:
        word = command("take" if kind is ActionKind.TAKE else "pass")
        changed = [m for m in action.melds if m not in table] or list(action.melds)
        out: Line = [Span(f"{word} ")]
        for i, meld in enumerate(changed):
            if i:
                out.append(Span("/"))
            out.extend(cards_spans(look, meld, ""))
        return out
    if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        word = command("discard" if kind is ActionKind.DISCARD else "exchange")
        return [Span(f"{word} "), card_span(look, action.card)]
    if kind is ActionKind.LAYOFF and action.melds:  # the other player's meld it went on
        return [Span(f"{command('layoff')} "), *cards_spans(look, action.melds[0], "")]
    text = action_text(action, look)
    if centre < 0:
        return [Span(text)]
    # Translators: a move and the centre card it was about, e.g. "decline 7h"
    return fill(_("{move} {card}"), move=text, card=card_span(look, centre))


def review_heading(name: str, player: int, samples: int) -> Line:
    """The first line of a review."""
    return fill(
        ngettext(
            "Review of {name} (player {player}): each move against the best, "
            "{samples} sampled deal per decision",
            "Review of {name} (player {player}): each move against the best, "
            "{samples} sampled deals per decision",
            samples,
        ),
        BOLD,
        name=name,
        player=player,
        samples=samples,
    )


def deal_heading(deal: int, deals: int) -> Line:
    """Above the decisions of one deal of a match record (nothing for a single deal)."""
    if deals <= 1:
        return []
    return fill(_("Deal {deal} of {deals}"), BOLD, deal=deal, deals=deals)


def decision_line(
    move: int,
    played: Line,
    chance_played: float,
    best: Line | None,
    chance_best: float,
    mark: str | None,
) -> Line:
    """A judged decision: its number in the record, the move played and its chance; with a
    mark, the better move and its chance.  ``played`` and ``best`` are moves in words
    (:func:`move_words`)."""
    number = [Span(f"  {move:>2}. ")]
    if mark is None or best is None:
        return number + fill(
            # Translators: a decision of a review: the move played and its winning chance
            _("{played}: {chance} to win"),
            played=_command(played),
            chance=percent(chance_played),
        )
    return number + fill(
        # Translators: a decision of a review that lost winning chance: the move played,
        # its chance, the better move, its chance and the mark (inaccuracy, mistake, blunder)
        _("{played}: {chance} to win; better {best}: {best_chance} ({mark})"),
        played=_command(played),
        chance=percent(chance_played),
        best=_command(best),
        best_chance=percent(chance_best),
        mark=Span(mark_word(mark), NOTE),
    )


def _command(move: Line) -> Line:
    """A move in words, styled as something the player types."""
    return [span._replace(style=CMD) for span in move]


def player_name(names: Sequence[str], player: int) -> str:
    """A player's name, or ``player N`` when the names are not known.

    >>> player_name(("Ana", "Memo"), 1), player_name((), 1)
    ('Memo', 'player 1')
    """
    if 0 <= player < len(names) and names[player]:
        return names[player]
    # Translators: a player named by his seat number, when his name is not known
    return _("player {number}").format(number=player)


def position_lines(obs: Observation, look: CardLook, names: Sequence[str] = ()) -> list[Line]:
    """The position a player saw at a decision, indented under the decision's line: his
    hand, each table (named by the players' ``names``, with the cards each other player
    held), the centre card when there was one and the cards left in the stock.  Nothing
    of what he could not see: ``obs`` holds no other hand.

    >>> from conquian.notation import parse_position
    >>> from conquian.observation import observe
    >>> from conquian.present.spans import plain
    >>> state = parse_position("standard offer 1 0 5s6h5c JsJhJc 3h3d3c/KsKhKdKc "
    ...     "AhAdAc/7s7h7d7c 4d:d AsQs2h4h6dQd2c4c 2s3sQc4s5d5h6c6sQh2dJd 1")
    >>> for line in position_lines(observe(state, 1), CardLook(), ("Ana", "Memo")):
    ...     print(plain(line))
          Hand: Js  Jh  Jc
          Ana: 3h 3d 3c  |  Ks Kh Kd Kc (3 cards in hand)
          Memo: Ah Ad Ac  |  7s 7h 7d 7c
          Centre: 4d   Stock: 11 cards
    """
    lines: list[Line] = [
        # Translators: the hand of the reviewed player at a decision, under the decision
        fill(_("Hand: {cards}"), cards=hand_spans(look, obs.hand_mask))
    ]
    for player in range(len(obs.tables)):
        name = player_name(names, player)
        melds = melds_spans(look, obs.tables[player])
        if player == obs.viewer:
            # Translators: a player's table (his melds) in the position under a decision
            lines.append(fill(_("{name}: {melds}"), name=name, melds=melds))
            continue
        count = obs.hand_counts[player]
        lines.append(
            fill(
                ngettext(
                    # Translators: another player's table (his melds) in the position under a
                    # decision, and how many cards he held (not shown to the reviewed player)
                    "{name}: {melds} ({count} card in hand)",
                    "{name}: {melds} ({count} cards in hand)",
                    count,
                ),
                name=name,
                melds=melds,
                count=count,
            )
        )
    stock = obs.stock_count
    if obs.centre >= 0:
        middle = fill(
            ngettext(
                # Translators: the centre card and the cards left in the stock, in the
                # position under a decision
                "Centre: {card}   Stock: {count} card",
                "Centre: {card}   Stock: {count} cards",
                stock,
            ),
            card=card_span(look, obs.centre),
            count=stock,
        )
    else:
        middle = fill(
            ngettext(
                # Translators: the cards left in the stock, in the position under a decision
                # that had no centre card (a discard)
                "Stock: {count} card",
                "Stock: {count} cards",
                stock,
            ),
            count=stock,
        )
    lines.append(middle)
    return [[Span(POSITION_INDENT), *line] for line in lines]


def danger_line(
    card: int, fed: tuple[int, int, int], look: CardLook, names: Sequence[str] = ()
) -> Line:
    """Under a decision's position, the danger of the card the move gave away: it fits
    the meld of another player, who held so many cards (``fed``: his seat, the meld, his
    cards, as :attr:`conquian.bots.review.Decision.fed` gives them).

    >>> from conquian.cards import parse_cards_mask
    >>> from conquian.present.spans import plain
    >>> aces = parse_cards_mask("Ah Ad Ac")
    >>> plain(danger_line(0, (1, aces, 3), CardLook(), ("Ana", "Memo")))
    "      As fits Memo's Ah Ad Ac and he holds 3 cards: he may go out with it."
    """
    player, meld, count = fed
    return [Span(POSITION_INDENT), *feed_words(card, player_name(names, player), meld, count, look)]


def decision_position(
    decision: JudgedMove, look: CardLook, names: Sequence[str] = ()
) -> list[Line]:
    """What a review shows under a decision: for a marked one (an inaccuracy, a mistake, a
    blunder), the position the player saw (:func:`position_lines`) and, when the card his
    move gave away fits another player's meld, the danger (:func:`danger_line`); nothing
    for a decision without a mark or without its position.

    >>> from types import SimpleNamespace
    >>> from conquian.notation import parse_position
    >>> from conquian.observation import observe
    >>> from conquian.present.spans import plain
    >>> state = parse_position("standard discard 0 0 As5s6h5c JsJhJc 3h3d3c/KsKhKdKc "
    ...     "AhAdAc/7s7h7d7c - Qs2h4h6dQd2c4c 2s3sQc4s5d5h6c6s4dQh2dJd 1")
    >>> obs = observe(state, 0)
    >>> aces = state.tables[1][0]
    >>> d = SimpleNamespace(mark_code="blunder", observation=obs, fed=(1, aces, 3),
    ...     played=Action.parse("discard As"))
    >>> for line in decision_position(d, CardLook(), ("Ana", "Memo")):
    ...     print(plain(line))
          Hand: As 5s  6h  5c
          Ana: 3h 3d 3c  |  Ks Kh Kd Kc
          Memo: Ah Ad Ac  |  7s 7h 7d 7c (3 cards in hand)
          Stock: 12 cards
          As fits Memo's Ah Ad Ac and he holds 3 cards: he may go out with it.
    >>> decision_position(SimpleNamespace(mark_code=None, observation=obs), CardLook())
    []
    """
    obs = decision.observation
    if decision.mark_code is None or obs is None:
        return []
    lines = position_lines(obs, look, names)
    fed = decision.fed
    if fed is not None:
        card = decision.played.card if decision.played.card >= 0 else obs.centre
        if card >= 0:
            lines.append(danger_line(card, fed, look, names))
    return lines


def chart(chances: Sequence[float], unicode: bool = True) -> str:
    """The winning chances as one block each, low to high (``▁`` 0 to ``█`` 1)."""
    blocks = BLOCKS if unicode else ASCII_BLOCKS
    top = len(blocks) - 1
    return "".join(blocks[max(0, min(top, round(c * top)))] for c in chances)


def chart_line(chances: Sequence[float], unicode: bool = True) -> Line:
    """The chart of a deal with its words."""
    return fill(
        # Translators: before a row of blocks, one per decision, low for a small winning
        # chance and high for a large one
        _("Winning chance, move by move: {chart}"),
        chart=Span(chart(chances, unicode), NOTE),
    )


def summary_lines(
    judged: int,
    not_judged: int,
    inaccuracies: int,
    mistakes: int,
    blunders: int,
    accuracy: float | None,
) -> list[Line]:
    """The summary of a review: the accuracy, the marks, the decisions not judged."""
    lines: list[Line] = []
    if accuracy is None:
        lines.append(fill(_("No decision had a choice to judge."), BOLD))
    else:
        lines.append(
            fill(
                ngettext(
                    "Accuracy {accuracy} over {count} judged decision",
                    "Accuracy {accuracy} over {count} judged decisions",
                    judged,
                ),
                BOLD,
                accuracy=percent(accuracy),
                count=judged,
            )
        )
        lines.append(
            fill(
                # Translators: the counts of each mark in a review
                _("Inaccuracies: {inaccuracies}   Mistakes: {mistakes}   Blunders: {blunders}"),
                inaccuracies=inaccuracies,
                mistakes=mistakes,
                blunders=blunders,
            )
        )
    if not_judged:
        lines.append(
            fill(
                ngettext(
                    "{count} decision with a single legal action was not judged.",
                    "{count} decisions with a single legal action were not judged.",
                    not_judged,
                ),
                DIM,
                count=not_judged,
            )
        )
    lines.append(
        fill(
            _(
                "Accuracy is the mean of 100% minus the winning chance lost at each judged "
                "decision; a loss of 10, 20 or 30 points marks an inaccuracy, a mistake or "
                "a blunder."
            ),
            DIM,
        )
    )
    return lines


def progress_text(done: int, total: int) -> str:
    """Shown while a review is worked out."""
    return _("Reviewing decision {done} of {total}").format(done=done, total=total)


class JudgedMove(Protocol):
    """What the words of a review read of one decision (:class:`conquian.bots.review.Decision`)."""

    @property
    def move(self) -> int: ...
    @property
    def judged(self) -> bool: ...
    @property
    def played(self) -> Action: ...
    @property
    def best(self) -> Action: ...
    @property
    def table(self) -> Partition: ...
    @property
    def centre(self) -> int: ...
    @property
    def chance_played(self) -> float: ...
    @property
    def chance_best(self) -> float: ...
    @property
    def mark_code(self) -> str | None: ...
    @property
    def observation(self) -> Observation | None: ...
    @property
    def fed(self) -> tuple[int, int, int] | None: ...


class ReviewCounts(Protocol):
    """What the words of a review read of its summary."""

    @property
    def judged(self) -> int: ...
    @property
    def forced(self) -> int: ...
    @property
    def inaccuracies(self) -> int: ...
    @property
    def mistakes(self) -> int: ...
    @property
    def blunders(self) -> int: ...
    @property
    def accuracy(self) -> float | None: ...


def review_lines(
    deals: Sequence[Sequence[JudgedMove]],
    summary: ReviewCounts,
    look: CardLook,
    unicode: bool = True,
    names: Sequence[str] = (),
) -> list[Line]:
    """A review's decisions deal by deal (each judged one, under a marked one the position
    the player saw, then the deal's chart) and its summary, as ``conquian review`` prints it
    and the terminal game shows it.  ``names`` are the players' names as the screen shows
    them (``player N`` for one not known)."""
    lines: list[Line] = []
    for number, decisions in enumerate(deals, 1):
        heading = deal_heading(number, len(deals))
        if heading:
            lines += [[], heading]
        for d in decisions:
            if not d.judged:
                continue
            played = move_words(d.played, d.table, d.centre, look)
            best = move_words(d.best, d.table, d.centre, look)
            lines.append(
                decision_line(d.move, played, d.chance_played, best, d.chance_best, d.mark_code)
            )
            lines += decision_position(d, look, names)
        if decisions:
            lines.append(chart_line([d.chance_played for d in decisions], unicode))
    lines.append([])
    lines += summary_lines(
        summary.judged,
        summary.forced,
        summary.inaccuracies,
        summary.mistakes,
        summary.blunders,
        summary.accuracy,
    )
    return lines
