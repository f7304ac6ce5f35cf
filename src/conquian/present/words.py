"""The game in words: what each move did, where the centre card came from, what you may do.

Everything here reads observations, public events and legal actions; none of it
knows a rule of the game.

>>> from conquian.game import Game
>>> from conquian.present.spans import plain
>>> game = Game(seed=3, dealer=0)
>>> names = Names(("You", "Bot"), me=1)
>>> game.push(game.legal_actions()[-1])
>>> [plain(line) for line in describe_events(game.history, names, CardLook())]
['You turned Ad and passed it']
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from ..actions import Action, ActionKind
from ..cards import DeckStyle
from ..melds import Partition, partition_mask
from ..observation import Observation, PublicEvent
from ..rules import Forcing, MatchKind, MeldWithoutTake, Rules, Scoring
from ..state import Outcome, Phase, Source, Termination
from .rules_text import help_summary
from .spans import (
    BOLD,
    CMD,
    DIM,
    GOOD,
    CardLook,
    Line,
    Span,
    card_span,
    cards_spans,
    melds_spans,
)

__all__ = [
    "DEALER_NOTE",
    "LAST_MOVES",
    "TO_PLAY_NOTE",
    "Names",
    "centre_origin",
    "deal_heading",
    "describe_action",
    "describe_events",
    "hand_count",
    "help_text",
    "match_line",
    "match_result_line",
    "options_line",
    "outcome_lines",
    "payment_lines",
    "score_text",
    "signed",
    "situation",
    "take_forms",
    "take_short_forms",
]


@dataclass(frozen=True, slots=True)
class Names:
    """The players' names as one viewer reads them: the viewer is "you"."""

    names: tuple[str, ...]
    me: int | None = None

    def subj(self, p: int) -> str:
        """At the start of a sentence: ``You`` or the name."""
        return "You" if p == self.me else self.names[p]

    def obj(self, p: int) -> str:
        return "you" if p == self.me else self.names[p]

    def poss(self, p: int) -> str:
        return "your" if p == self.me else f"{self.names[p]}'s"

    def cap_poss(self, p: int) -> str:
        return "Your" if p == self.me else f"{self.names[p]}'s"


def _played(melds: Partition, old: Partition, centre: int) -> int:
    """The hand cards a new table holds that the old table and the centre did not."""
    centre_bit = 1 << centre if centre >= 0 else 0
    return partition_mask(melds) & ~partition_mask(old) & ~centre_bit


def _take_line(
    names: Names, look: CardLook, event: PublicEvent, old: Partition, forced: bool, out_at: int
) -> Line:
    p, card, new = event.player, event.card, event.action.melds
    who = names.subj(p)
    if event.source is Source.TURNED and not forced:
        line: Line = [Span(f"{who} turned "), card_span(look, card), Span(" and took it")]
        turned = True
    elif event.source is Source.UPCARD:
        line = [Span(f"{who} took the upcard "), card_span(look, card)]
        turned = False
    else:
        line = [Span(f"{who} took "), card_span(look, card)]
        turned = False
        if forced:
            line.append(Span(" (forced)"))
    laid = _played(new, old, card)
    changed = [m for m in new if m not in old]
    if turned:
        line.append(Span(", laying " if laid else ", making "))
    else:
        line.append(Span(" and laid " if laid else ", making "))
    line.extend(melds_spans(look, changed))
    if any(not any(m & ~n == 0 for n in new) for m in old):
        line.append(Span(", rearranging the table"))
    if partition_mask(new).bit_count() >= out_at:
        line.append(Span(" and went out!", BOLD))
    return line


def describe_events(
    history: Sequence[PublicEvent], names: Names, look: CardLook, out_at: int = 11
) -> list[Line]:
    """The moves of a deal in words, a take and its discard on one line.

    ``out_at`` is the number of table cards that ends the deal (``rules.cards_to_win``).
    """
    lines: list[Line] = []
    tables: list[Partition] = [()] * len(names.names)
    last: PublicEvent | None = None
    for event in history:
        p, action, card = event.player, event.action, event.card
        kind = action.kind
        who = names.subj(p)
        merge = bool(lines) and last is not None and last.player == p
        if kind is ActionKind.DISCARD:
            if merge and last is not None and last.action.kind is ActionKind.TAKE:
                lines[-1] += [Span(", discarded "), card_span(look, card)]
            else:
                lines.append([Span(f"{who} discarded "), card_span(look, card)])
        elif kind is ActionKind.TAKE:
            forced = last is not None and last.action.kind is ActionKind.FORCE
            line = _take_line(names, look, event, tables[p], forced, out_at)
            tables[p] = action.melds
            after_decline = last is not None and last.action.kind is ActionKind.DECLINE
            _add_line(lines, line, who, merge and after_decline)
        elif kind is ActionKind.DECLINE:
            lines.append([Span(f"{who} declined "), card_span(look, card)])
        elif kind is ActionKind.PASS:
            line = [Span(f"{who} turned "), card_span(look, card)]
            if action.melds:
                line += [Span(", laid "), *melds_spans(look, action.melds)]
                tables[p] = action.melds
            line.append(Span(" and passed it"))
            after_decline = last is not None and last.action.kind is ActionKind.DECLINE
            _add_line(lines, line, who, merge and after_decline)
        elif kind is ActionKind.EXCHANGE:
            if action.card >= 0:  # the viewer's own choice (others' stay hidden)
                lines.append([Span(f"{who} chose "), card_span(look, card), Span(" to pass on")])
            else:
                lines.append([Span(f"{who} chose a card to pass on")])
        elif kind is ActionKind.FORCE:
            refuser = _refuser(last, p, len(names.names))
            lines.append(
                [Span(f"{who} forced {names.obj(refuser)} to take "), card_span(look, card)]
            )
        else:
            refuser = _refuser(last, p, len(names.names))
            lines.append(
                [
                    Span(f"{who} did not force "),
                    card_span(look, card),
                    Span(f" on {names.obj(refuser)}"),
                ]
            )
        last = event
    return lines


def _refuser(last: PublicEvent | None, forcer: int, n: int) -> int:
    """Who refused the card a force decision is about: the player of the move before."""
    return last.player if last is not None else (forcer + 1) % n


def _owner(obs: Observation) -> int:
    """Who turned or paid the centre card (with two players, the one not offered it)."""
    if obs.owner >= 0:
        return obs.owner
    return (obs.to_act + 1) % len(obs.tables)


def _forcer(obs: Observation) -> int:
    """In a forced take: who forced the player to act."""
    if obs.source is Source.TURNED:  # the turner passed his own card: the next seat forced
        return (obs.to_act + 1) % len(obs.tables)
    return _owner(obs)


def _lower_first(line: Line, who: str) -> Line:
    """Drop the subject from a line that continues a sentence by the same player."""
    first = line[0]
    if first.text.startswith(who + " "):
        return [Span(first.text[len(who) + 1 :], first.style), *line[1:]]
    return line


def centre_origin(obs: Observation, names: Names) -> str:
    """Where the centre card came from, e.g. ``discarded by Bot``."""
    actor = obs.to_act
    source, phase = obs.source, obs.phase
    if source is Source.UPCARD:
        return "the upcard, turned after the deal"
    if phase is Phase.TURN:
        return f"turned from the stock by {names.obj(actor)}"
    owner = _owner(obs)
    if phase is Phase.OFFER:
        if source is Source.DISCARD:
            return f"discarded by {names.obj(owner)}"
        return f"turned by {names.obj(owner)} and passed to {names.obj(actor)}"
    if phase is Phase.FORCE:  # the player to act decides about the refuser
        refuser = obs.offeree if obs.offeree >= 0 else (actor + 1) % len(obs.tables)
        if source is Source.TURNED:
            return f"turned and passed by {names.obj(refuser)}"
        if source is Source.DISCARD:
            return f"discarded by {names.obj(owner)}, declined by {names.obj(refuser)}"
        return f"turned by {names.obj(owner)}, declined by {names.obj(refuser)}"
    if phase is Phase.FORCED:
        return f"{names.obj(_forcer(obs))} forces {names.obj(actor)} to take it"
    return ""


def _going_out(obs: Observation, names: Names) -> Line:
    """With an empty hand every legal take (forced or not) is the winning one; say so."""
    if obs.hand_mask:
        return []
    return [Span(f"{names.cap_poss(obs.viewer)} hand is empty, so taking it goes out. ")]


def situation(obs: Observation, names: Names, look: CardLook) -> Line:
    """What the player to act must decide, in one sentence (``obs`` is his view)."""
    me = obs.viewer
    other = _owner(obs) if obs.centre >= 0 else (me + 1) % len(obs.tables)
    centre = card_span(look, obs.centre) if obs.centre >= 0 else Span("")
    phase = obs.phase
    has_take = any(a.kind is ActionKind.TAKE for a in obs.legal_actions)
    if phase is Phase.OFFER:
        if obs.source is Source.DISCARD:
            line: Line = [Span(f"{names.subj(other)} discarded "), centre, Span(". ")]
        elif obs.source is Source.PASSED:
            line = [Span(f"{names.subj(other)} turned "), centre, Span(" and passed it. ")]
        else:
            line = [Span("The upcard is "), centre, Span(". ")]
        if has_take:
            return [*line, *_going_out(obs, names), Span("Take it or decline it?")]
        return [*line, Span("It does not fit anything of yours: decline it.")]
    if phase is Phase.TURN:
        line = [Span(f"{names.subj(me)} turned "), centre, Span(" from the stock. ")]
        if has_take:
            return [*line, *_going_out(obs, names), Span("Take it or pass it?")]
        return [*line, Span("It does not fit anything of yours: pass it.")]
    if phase is Phase.FORCE:
        refuser = obs.offeree if obs.offeree >= 0 else (me + 1) % len(obs.tables)
        return [
            Span(f"{names.subj(refuser)} refused "),
            centre,
            Span(
                f", which fits {names.poss(refuser)} table. Force {names.obj(refuser)} to take it?"
            ),
        ]
    if phase is Phase.FORCED:
        return [
            Span(f"{names.subj(_forcer(obs))} forces {names.obj(me)} to take "),
            centre,
            Span(". "),
            *_going_out(obs, names),
            Span("Choose how to lay it."),
        ]
    if phase is Phase.DISCARD:
        return [Span("Discard a card from your hand.")]
    if phase is Phase.EXCHANGE:
        receiver = (obs.viewer + 1) % len(obs.tables)
        return [
            Span(
                f"The exchange: choose a card of your hand to pass face down to "
                f"{names.obj(receiver)}; you will receive one in turn."
            )
        ]
    return []


def take_forms(
    obs: Observation, kind: ActionKind = ActionKind.TAKE
) -> list[tuple[int, list[Action]]]:
    """The legal takes grouped by the hand cards they lay (a mask), in the order of
    the legal actions; with ``kind`` PASS, the ways to lay cards and pass."""
    old = obs.tables[obs.viewer]
    forms: dict[int, list[Action]] = {}
    for action in obs.legal_actions:
        if action.kind is not kind or (kind is ActionKind.PASS and not action.melds):
            continue
        centre = obs.centre if kind is ActionKind.TAKE else -1
        forms.setdefault(_played(action.melds, old, centre), []).append(action)
    return list(forms.items())


def take_short_forms(
    obs: Observation, look: CardLook, kind: ActionKind = ActionKind.TAKE
) -> list[tuple[str, list[Action]]]:
    """Each distinct way to type a legal take (``take 6c 7c``: the hand cards it lays)
    with the takes it matches; with ``kind`` PASS, the ways to lay cards and pass."""
    word = "take" if kind is ActionKind.TAKE else "pass"
    return [
        (f"{word} {look.typed(played)}" if played else word, actions)
        for played, actions in take_forms(obs, kind)
    ]


MAX_SHORT_FORMS = 3


def options_line(obs: Observation, look: CardLook) -> Line:
    """The choices open now, written as they are typed (only legal choices)."""
    kinds = {a.kind for a in obs.legal_actions}
    out: list[Line] = []
    if ActionKind.TAKE in kinds:
        forms = take_short_forms(obs, look)
        takes = sum(len(actions) for _, actions in forms)
        shown = [text for text, _ in forms if text != "take" or takes == 1]
        out += [[Span(text, CMD)] for text in shown[:MAX_SHORT_FORMS]]
        if takes > 1:  # plain 'take' lists every way
            out.append([Span("take", CMD), Span(f" (list all {takes} ways)")])
    if ActionKind.DECLINE in kinds:
        out.append([Span("decline", CMD)])
    if ActionKind.PASS in kinds:
        lays = take_short_forms(obs, look, ActionKind.PASS)
        out.append([Span("pass", CMD)])
        out += [
            [Span(text, CMD), Span(" (lay them, then pass)" if i == 0 else "")]
            for i, (text, _) in enumerate(lays[:MAX_SHORT_FORMS])
        ]
    if ActionKind.FORCE in kinds:
        out.append([Span("force", CMD)])
    if ActionKind.NO_FORCE in kinds:
        out.append([Span("no", CMD)])
    if ActionKind.DISCARD in kinds:
        example = max(a.card for a in obs.legal_actions if a.kind is ActionKind.DISCARD)
        out.append(
            [
                Span("discard", CMD),
                Span(" any card of your hand, e.g. "),
                Span(look.label(example), CMD),
            ]
        )
    if ActionKind.EXCHANGE in kinds:
        example = max(a.card for a in obs.legal_actions if a.kind is ActionKind.EXCHANGE)
        out.append(
            [
                Span("exchange", CMD),
                Span(" any card of your hand to pass it to the next player, e.g. "),
                Span(look.label(example), CMD),
            ]
        )
    line: Line = [Span("You can: ")]
    for i, option in enumerate(out):
        if i:
            line.append(Span(" | ", DIM))
        line += option
    return line


def describe_action(action: Action, obs: Observation, look: CardLook) -> Line:
    """An action of the viewer as he would type it, with the table it makes."""
    kind = action.kind
    if kind is ActionKind.TAKE:
        played = _played(action.melds, obs.tables[obs.viewer], obs.centre)
        text = f"take {look.typed(played)}" if played else "take"
        return [
            Span(text, CMD),
            Span(" (your table: "),
            *melds_spans(look, action.melds),
            Span(")"),
        ]
    if kind is ActionKind.DISCARD:
        return [Span(f"discard {look.label(action.card)}", CMD)]
    if kind is ActionKind.EXCHANGE:
        return [Span(f"exchange {look.label(action.card)}", CMD)]
    if kind is ActionKind.NO_FORCE:
        return [Span("no", CMD), Span(" (do not force)")]
    return [Span(str(action), CMD)]


def outcome_lines(
    outcome: Outcome,
    tables: Sequence[Partition],
    hands: Sequence[int],
    names: Names,
    look: CardLook,
) -> list[Line]:
    """Who won and how (the winning melds), or why the deal was drawn."""
    winner = outcome.winner
    lines: list[Line] = []
    if winner is None:
        lines.append([Span("Drawn: the stock ran out before anyone went out.", BOLD)])
    elif outcome.termination is Termination.OUT:
        verb = "win" if winner == names.me else "wins"
        count = partition_mask(tables[winner]).bit_count()
        lines.append([Span(f"{names.subj(winner)} went out and {verb} the deal!", BOLD)])
        lines.append([Span(f"  {count} cards melded: "), *melds_spans(look, tables[winner])])
    else:
        verb = "win" if winner == names.me else "wins"
        lines.append(
            [
                Span(
                    f"The stock ran out; {names.subj(winner)} held fewer cards and {verb} the deal.",
                    BOLD,
                )
            ]
        )
    for p in range(len(hands)):
        if hands[p]:
            lines.append(
                [Span(f"  {names.cap_poss(p)} hand still held: "), *cards_spans(look, hands[p])]
            )
    return lines


def payment_lines(
    outcome: Outcome,
    value: int,
    scoring: Scoring,
    names: Names,
    *,
    match_over: bool,
    next_value: int,
) -> list[Line]:
    """Who pays whom after a deal, who scored, or (after a draw) what the next deal is worth.

    ``value`` is what the deal paid (:attr:`~conquian.match.DealResult.value`) and
    ``next_value`` the stake of the next deal; a drawn deal that ends the match says nothing.

    >>> from conquian.present.spans import plain
    >>> from conquian.state import Outcome, Termination
    >>> won = Outcome(1, Termination.OUT)
    >>> names = Names(("Ana", "Ben"), me=0)
    >>> [plain(line) for line in payment_lines(
    ...     won, 2, Scoring.STAKE, names, match_over=False, next_value=1)]
    ['You pay Ben 2.']
    """
    winner = outcome.winner
    if winner is None:
        if match_over:
            return []
        return [[Span(f"Nobody pays; the next deal is worth {next_value}.")]]
    if scoring is Scoring.POINTS:
        return [[Span(f"{names.subj(winner)} scored {value} points.")]]
    lines: list[Line] = []
    for loser in range(len(names.names)):  # every other player pays the winner
        if loser != winner:
            verb = "pay" if loser == names.me else "pays"
            lines.append([Span(f"{names.subj(loser)} {verb} {names.obj(winner)} {value}.")])
    return lines


def signed(value: int) -> str:
    """A balance as shown: ``+2``, ``-1`` or ``0``."""
    return f"{value:+d}" if value else "0"


def score_text(names: Names, p: int, balance: Sequence[int]) -> str:
    """``You +1``, or ``Player 2 (-1)`` where the name ends in a number."""
    name, score = names.subj(p), signed(balance[p])
    return f"{name} ({score})" if name[-1:].isdigit() else f"{name} {score}"


def deal_heading(
    rules: Rules,
    deal: int,
    stake: int,
    draws: int,
    balance: Sequence[int],
    names: Names,
    look: CardLook,
) -> Line:
    """The deal being played, what it is worth, and the match so far, in one line.

    ``draws`` is the number of drawn deals just before this one.
    """
    worth = f"worth {stake}"
    if rules.scoring is Scoring.POINTS:
        worth = "scored in points"
    elif draws:
        worth += f" ({draws} drawn deal{'s' if draws > 1 else ''} carried over)"
    kind = {
        MatchKind.SINGLE_DEAL: "",
        MatchKind.N_DEALS: f" of {rules.match_target}",
        MatchKind.FIRST_TO: f" (first to {rules.match_target})",
    }[rules.match]
    dot = look.sep
    line: Line = [
        Span(f"Deal {deal}{kind}", BOLD),
        Span(dot, DIM),
        Span(worth),
        Span(dot, DIM),
        Span("Match: "),
    ]
    for p in range(len(balance)):
        if p:
            line.append(Span(", "))
        line.append(Span(score_text(names, p, balance), BOLD))
    return line


def match_line(names: Names, balance: Sequence[int]) -> Line:
    """The match after a deal: ``Match: You +1, Bot -1``."""
    text = ", ".join(score_text(names, p, balance) for p in range(len(balance)))
    return [Span("Match: ", BOLD), Span(text)]


DEALER_NOTE = "dealer"
"""Beside the dealer's name on the table."""
TO_PLAY_NOTE = "to play"
"""Beside the name of the player to act."""
LAST_MOVES = "Last moves"
"""The heading of the last few moves under the table."""


def hand_count(count: int) -> str:
    """How many cards a player holds, beside his name: ``10 cards in hand``."""
    return f"{count} card{'s' if count != 1 else ''} in hand"


def match_result_line(leader: int | None, names: Names) -> Line:
    """Who won the match that just ended (``leader``: the player ahead, None if level)."""
    if leader is None:
        text = "The match is over, level."
    elif leader == names.me:
        text = "You win the match!"
    else:
        text = f"{names.subj(leader)} wins the match."
    return [Span(text, GOOD)]


def _command_rows(rules: Rules, look: CardLook) -> list[tuple[str, str]]:
    """The commands of the terminal, with example cards in the game's own labels."""
    six, seven, king = look.label(35), look.label(36), look.label(19)
    rows = [
        (
            f"take {six} {seven}",
            f"take the centre card, laying {six} and {seven} from your hand with it",
        ),
        ("take", "take it; if there are several ways, choose from a numbered list"),
        ("decline, pass", "refuse the centre card        (no also works)"),
    ]
    if rules.meld_without_take is MeldWithoutTake.BEFORE_REJECTING_STOCK_CARD:
        rows.append(
            (
                f"pass {six} {seven}",
                f"lay {six} and {seven} from your hand, then pass the turned card",
            )
        )
    rows.append((king, f"discard {king} after a take        (or: discard {king})"))
    if rules.forcing is Forcing.OPTIONAL:
        rows.append(("force, no", "force your opponent to take the card he refused, or let it go"))
    rows += [
        ("hint", "what the strongest bot would do, and why"),
        ("log", "every move of this deal      table   show the table again"),
        ("rules", "the rules in full             quit    save and stop (play --resume)"),
    ]
    return rows


_TYPING = {
    DeckStyle.A_TO_10: "Cards are typed rank then suit: A 2 3 4 5 6 7 8 9 10 and s h d c. "
    "Upper or lower case; suit symbols work too.",
}
_TYPING_FRENCH = """\
  Cards are typed rank then suit: A 2 3 4 5 6 7 J Q K and s h d c (Spanish deck:
  1-7 10 11 12 and e c o b). Upper or lower case; suit symbols work too."""

HELP_WIDTH = 89
"""The widest line of :func:`help_text`."""


def help_text(rules: Rules, look: CardLook) -> str:
    """How to play these rules and the terminal's commands (with suit symbols only where
    the screen shows them)."""
    lines = ["How to play Conquian"]
    for paragraph in help_summary(rules):
        lines += textwrap.wrap(paragraph, HELP_WIDTH, initial_indent="  ", subsequent_indent="  ")
    lines += ["", "Commands"]
    lines += [f"  {command.ljust(13)}  {what}" for command, what in _command_rows(rules, look)]
    typing = _TYPING.get(rules.deck_style)
    if typing is None:
        lines.append(_TYPING_FRENCH)
    else:
        lines += textwrap.wrap(typing, HELP_WIDTH, initial_indent="  ", subsequent_indent="  ")
    text = "\n".join(lines)
    if look.symbols:
        return text.replace("suit symbols work", "suit symbols such as 7\u2665 work")
    return text


def _add_line(lines: list[list[Span]], line: list[Span], who: str, join: bool) -> None:
    """Append a move's words, or join them to the previous line ("..., then ...")."""
    if join:
        lines[-1] += [Span(", then "), *_lower_first(line, who)]
    else:
        lines.append(line)
