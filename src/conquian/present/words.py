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

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..actions import KIND_WORDS, Action, ActionKind
from ..cards import mask_indices
from ..melds import Partition, partition_mask
from ..observation import Observation, PublicEvent, PublicView
from ..rules import MatchKind, Rules, Scoring
from ..state import Outcome, Phase, Source, Termination
from .i18n import GAME_WORDS, Part, fill
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
    "COMMANDS",
    "DealLog",
    "Names",
    "action_spans",
    "action_text",
    "centre_origin",
    "command",
    "deal_heading",
    "dealer_note",
    "describe_action",
    "describe_events",
    "hand_count",
    "last_moves_heading",
    "layoff_short_forms",
    "level_word",
    "match_line",
    "match_result_line",
    "outcome_lines",
    "payment_lines",
    "read_command",
    "score_text",
    "signed",
    "situation",
    "take_forms",
    "take_short_forms",
    "to_play_note",
    "typed_card",
    "you",
]


_ = GAME_WORDS.gettext
ngettext = GAME_WORDS.ngettext
pgettext = GAME_WORDS.pgettext


@dataclass(frozen=True, slots=True)
class Names:
    """The players' names as one viewer reads them: the viewer is "you"."""

    names: tuple[str, ...]
    me: int | None = None

    def subj(self, p: int) -> str:
        """At the start of a sentence: ``You`` or the name."""
        return you() if p == self.me else self.names[p]

    def obj(self, p: int) -> str:
        return pgettext("object", "you") if p == self.me else self.names[p]

    def poss(self, p: int) -> str:
        return _("your") if p == self.me else _("{player}'s").format(player=self.names[p])

    def cap_poss(self, p: int) -> str:
        return _("Your") if p == self.me else _("{player}'s").format(player=self.names[p])

    def told(self, p: int, mine: str, theirs: str, style: str = "", **parts: Part) -> Line:
        """The rest of a sentence about player ``p`` (no subject): ``mine`` if he is the
        viewer, else ``theirs`` (both translated; they differ where verbs agree)."""
        return fill(mine if p == self.me else theirs, style, **parts)

    def said(self, p: int, mine: str, theirs: str, style: str = "", **parts: Part) -> Line:
        """A sentence about player ``p``: ``mine`` (already translated) if he is the viewer,
        else ``theirs`` with ``{player}`` his name."""
        if p == self.me:
            return fill(mine, style, **parts)
        return fill(theirs, style, player=self.names[p], **parts)


def you() -> str:
    """The viewer named as a player: ``You`` (a sentence's subject, a heading on the table)."""
    return _("You")


def _played(melds: Partition, old: Partition, centre: int) -> int:
    """The hand cards a new table holds that the old table and the centre did not."""
    centre_bit = 1 << centre if centre >= 0 else 0
    return partition_mask(melds) & ~partition_mask(old) & ~centre_bit


def _take_line(
    names: Names,
    look: CardLook,
    event: PublicEvent,
    old: Partition,
    forced: bool,
    out_at: int,
    then: bool,
) -> Line:
    """A take in words; ``then``: it goes on a sentence by the same player, no subject."""
    p, card, new = event.player, event.card, event.action.melds
    c = card_span(look, card)
    if event.source is Source.TURNED and not forced:
        line = (
            names.told(
                p,
                pgettext("you", "turned {card} and took it"),
                _("turned {card} and took it"),
                card=c,
            )
            if then
            else names.said(
                p,
                _("You turned {card} and took it"),
                _("{player} turned {card} and took it"),
                card=c,
            )
        )
        turned = True
    elif event.source is Source.UPCARD:
        line = names.said(
            p, _("You took the upcard {card}"), _("{player} took the upcard {card}"), card=c
        )
        turned = False
    else:
        if then:
            line = names.told(p, pgettext("you", "took {card}"), _("took {card}"), card=c)
        else:
            line = names.said(p, _("You took {card}"), _("{player} took {card}"), card=c)
        turned = False
        if forced:
            line += names.told(p, pgettext("you", " (forced)"), _(" (forced)"))
    laid = _played(new, old, card)
    changed = melds_spans(look, [m for m in new if m not in old])
    if turned and laid:
        line += names.told(
            p, pgettext("you", ", laying {melds}"), _(", laying {melds}"), melds=changed
        )
    elif laid:
        line += names.told(
            p, pgettext("you", " and laid {melds}"), _(" and laid {melds}"), melds=changed
        )
    else:
        line += names.told(
            p, pgettext("you", ", making {melds}"), _(", making {melds}"), melds=changed
        )
    if any(not any(m & ~n == 0 for n in new) for m in old):
        line += names.told(
            p, pgettext("you", ", rearranging the table"), _(", rearranging the table")
        )
    if partition_mask(new).bit_count() >= out_at:
        line += names.told(p, pgettext("you", " and went out!"), _(" and went out!"), BOLD)
    return line


def _layoff_line(names: Names, look: CardLook, event: PublicEvent, then: bool) -> Line:
    """A layoff in words (``layoff_on_opponent``): who laid the centre card on whose meld (as
    it lay); ``then``: it goes on a sentence by the same player, no subject."""
    p, q = event.player, event.action.seat
    card = card_span(look, event.card)
    meld = melds_spans(look, event.action.melds)
    other = names.obj(q)
    if then:  # only the card the player turned follows his own decline
        if q == names.me:
            return fill(_("turned {card} and laid it on your meld {meld}"), card=card, meld=meld)
        return names.told(
            p,
            # Translators: {other} is the player whose meld it is; {meld} its cards before
            pgettext("you", "turned {card} and laid it on {other}'s meld {meld}"),
            _("turned {card} and laid it on {other}'s meld {meld}"),
            card=card,
            meld=meld,
            other=other,
        )
    if event.source is Source.TURNED:
        return names.said(
            p,
            # Translators: {other} is the player whose meld it is; {meld} its cards before
            _("You turned {card} and laid it on {other}'s meld {meld}"),
            _("{player} turned {card} and laid it on your meld {meld}")
            if q == names.me
            else _("{player} turned {card} and laid it on {other}'s meld {meld}"),
            card=card,
            meld=meld,
            other=other,
        )
    return names.said(
        p,
        # Translators: a layoff: the centre card {card} put on another player's meld (as in
        # "le pusiste el 5 de copas a la corrida de Ana"); {meld} is that meld before it
        _("You laid {card} on {other}'s meld {meld}"),
        _("{player} laid {card} on your meld {meld}")
        if q == names.me
        else _("{player} laid {card} on {other}'s meld {meld}"),
        card=card,
        meld=meld,
        other=other,
    )


def describe_events(
    history: Sequence[PublicEvent],
    names: Names,
    look: CardLook,
    out_at: int = 11,
    received: int = -1,
) -> list[Line]:
    """The moves of a deal in words, a take and its discard on one line.

    ``out_at`` is the number of table cards that ends the deal (``rules.cards_to_win``);
    ``received``: the card the viewer (``names.me``) received in the exchange
    (:attr:`.Observation.received`), told once every player has chosen, with who passed it.
    """
    log = DealLog(names, look, out_at, received)
    log.extend(history)
    return log.lines


class DealLog:
    """The moves of a deal in words (see :func:`describe_events`), kept up to date one move
    at a time: a move may add lines, or change the last one (a discard goes on its take's
    line), and :meth:`extend` says from which line on they changed.

    >>> from conquian.game import Game
    >>> from conquian.present.spans import plain
    >>> game = Game(seed=3, dealer=0)
    >>> log = DealLog(Names(("You", "Bot"), me=1), CardLook())
    >>> game.push(game.legal_actions()[-1])
    >>> log.extend(game.history)
    0
    >>> [plain(line) for line in log.lines], log.count
    (['You turned Ad and passed it'], 1)
    """

    def __init__(self, names: Names, look: CardLook, out_at: int = 11, received: int = -1) -> None:
        self.names = names
        self.look = look
        self.out_at = out_at
        self.received = received
        """The card the viewer received in the exchange (-1: none, or not yet)."""
        self._exchanged = 0
        self.lines: list[Line] = []
        self.count = 0
        """The number of moves described."""
        self._tables: list[Partition] = [()] * len(names.names)
        self._laid_off: list[int] = [0] * len(names.names)
        """Cards laid on each player's melds by others, less those he laid on theirs
        (``layoff_on_opponent``): a table that goes out holds as many more."""
        self._last: PublicEvent | None = None

    def extend(self, events: Iterable[PublicEvent]) -> int:
        """Describe the moves that followed; returns the first line they changed or added
        (the lines before it are as they were)."""
        first = max(len(self.lines) - 1, 0)
        for event in events:
            self._add(event)
        return first

    def _add(self, event: PublicEvent) -> None:
        lines, tables, last = self.lines, self._tables, self._last
        names, look, out_at = self.names, self.look, self.out_at
        p, action, card = event.player, event.action, event.card
        kind = action.kind
        merge = bool(lines) and last is not None and last.player == p
        after_decline = merge and last is not None and last.action.kind is ActionKind.DECLINE
        c = card_span(look, card) if card >= 0 else Span("")
        if kind is ActionKind.DISCARD:
            taken = (ActionKind.TAKE, ActionKind.LAYOFF)
            if merge and last is not None and last.action.kind in taken:
                lines[-1] += names.told(
                    p, pgettext("you", ", discarded {card}"), _(", discarded {card}"), card=c
                )
            else:
                lines.append(
                    names.said(p, _("You discarded {card}"), _("{player} discarded {card}"), card=c)
                )
        elif kind is ActionKind.TAKE:
            forced = last is not None and last.action.kind is ActionKind.FORCE
            out = out_at + self._laid_off[p]
            line = _take_line(names, look, event, tables[p], forced, out, after_decline)
            tables[p] = action.melds
            _add_line(lines, line, after_decline)
        elif kind is ActionKind.LAYOFF:
            q, meld = action.seat, action.melds[0] if action.melds else 0
            if 0 <= q < len(tables):
                tables[q] = tuple(sorted(m | 1 << card if m == meld else m for m in tables[q]))
                self._laid_off[q] += 1
                self._laid_off[p] -= 1
                joined = after_decline and event.source is Source.TURNED
                _add_line(lines, _layoff_line(names, look, event, joined), joined)
        elif kind is ActionKind.DECLINE:
            lines.append(
                names.said(p, _("You declined {card}"), _("{player} declined {card}"), card=c)
            )
        elif kind is ActionKind.PASS:
            if action.melds:
                laid = melds_spans(look, action.melds)
                tables[p] = action.melds
                if after_decline:
                    line = names.told(
                        p,
                        pgettext("you", "turned {card}, laid {melds} and passed it"),
                        _("turned {card}, laid {melds} and passed it"),
                        card=c,
                        melds=laid,
                    )
                else:
                    line = names.said(
                        p,
                        _("You turned {card}, laid {melds} and passed it"),
                        _("{player} turned {card}, laid {melds} and passed it"),
                        card=c,
                        melds=laid,
                    )
            elif after_decline:
                line = names.told(
                    p,
                    pgettext("you", "turned {card} and passed it"),
                    _("turned {card} and passed it"),
                    card=c,
                )
            else:
                line = names.said(
                    p,
                    _("You turned {card} and passed it"),
                    _("{player} turned {card} and passed it"),
                    card=c,
                )
            _add_line(lines, line, after_decline)
        elif kind is ActionKind.EXCHANGE:
            if action.card >= 0:  # the viewer's own choice (others' stay hidden)
                lines.append(
                    names.said(
                        p,
                        _("You chose {card} to pass on"),
                        _("{player} chose {card} to pass on"),
                        card=c,
                    )
                )
            else:
                lines.append(
                    names.said(
                        p, _("You chose a card to pass on"), _("{player} chose a card to pass on")
                    )
                )
            self._exchanged += 1
            me = names.me
            if self._exchanged == len(names.names) and self.received >= 0 and me is not None:
                giver = (me - 1) % len(names.names)  # each passes to the player after him
                lines.append(
                    fill(
                        _("{player} passed you {card}"),
                        player=names.names[giver],
                        card=card_span(look, self.received),
                    )
                )
        elif kind is ActionKind.FORCE:
            refuser = _refuser(last, p, len(names.names))
            lines.append(
                names.said(
                    p,
                    _("You forced {other} to take {card}"),
                    _("{player} forced you to take {card}")
                    if refuser == names.me
                    else _("{player} forced {other} to take {card}"),
                    other=names.obj(refuser),
                    card=c,
                )
            )
        else:
            refuser = _refuser(last, p, len(names.names))
            lines.append(
                names.said(
                    p,
                    _("You did not force {card} on {other}"),
                    _("{player} did not force {card} on you")
                    if refuser == names.me
                    else _("{player} did not force {card} on {other}"),
                    other=names.obj(refuser),
                    card=c,
                )
            )
        self._last = event
        self.count += 1


def _refuser(last: PublicEvent | None, forcer: int, n: int) -> int:
    """Who refused the card a force decision is about: the player of the move before."""
    return last.player if last is not None else (forcer + 1) % n


def _owner(obs: Observation | PublicView) -> int:
    """Who turned or paid the centre card (with two players, the one not offered it)."""
    if obs.owner >= 0:
        return obs.owner
    return (obs.to_act + 1) % len(obs.tables)


def _forcer(obs: Observation | PublicView) -> int:
    """In a forced take: who forced the player to act."""
    if obs.source is Source.TURNED:  # the turner passed his own card: the next seat forced
        return (obs.to_act + 1) % len(obs.tables)
    return _owner(obs)


def centre_origin(obs: Observation | PublicView, names: Names) -> str:
    """Where the centre card came from, e.g. ``discarded by Bot`` (for a spectator too: a
    public view)."""
    actor = obs.to_act
    source, phase = obs.source, obs.phase
    if source is Source.UPCARD:
        return _("the upcard, turned after the deal")
    if phase is Phase.TURN:
        return _("turned from the stock by {player}").format(player=names.obj(actor))
    owner = _owner(obs)
    if phase is Phase.OFFER:
        if source is Source.DISCARD:
            return _("discarded by {player}").format(player=names.obj(owner))
        return _("turned by {owner} and passed to {player}").format(
            owner=names.obj(owner), player=names.obj(actor)
        )
    if phase is Phase.FORCE:  # the player to act decides about the refuser
        refuser = obs.offeree if obs.offeree >= 0 else (actor + 1) % len(obs.tables)
        if source is Source.TURNED:
            return _("turned and passed by {player}").format(player=names.obj(refuser))
        if source is Source.DISCARD:
            return _("discarded by {owner}, declined by {player}").format(
                owner=names.obj(owner), player=names.obj(refuser)
            )
        return _("turned by {owner}, declined by {player}").format(
            owner=names.obj(owner), player=names.obj(refuser)
        )
    if phase is Phase.FORCED:
        forcer = _forcer(obs)
        if actor == names.me:
            return _("{forcer} forces you to take it").format(forcer=names.names[forcer])
        if forcer == names.me:
            return _("you force {player} to take it").format(player=names.names[actor])
        return _("{forcer} forces {player} to take it").format(
            forcer=names.names[forcer], player=names.names[actor]
        )
    return ""


def _going_out(obs: Observation, names: Names) -> Line:
    """With an empty hand every legal take (forced or not) is the winning one; say so."""
    if obs.hand_mask:
        return []
    return names.said(
        obs.viewer,
        _("Your hand is empty, so taking it goes out. "),
        _("{player}'s hand is empty, so taking it goes out. "),
    )


def situation(obs: Observation, names: Names, look: CardLook) -> Line:
    """What the player to act must decide, in one sentence (``obs`` is his view)."""
    me = obs.viewer
    other = _owner(obs) if obs.centre >= 0 else (me + 1) % len(obs.tables)
    centre = card_span(look, obs.centre) if obs.centre >= 0 else Span("")
    phase = obs.phase
    has_take = any(a.kind is ActionKind.TAKE for a in obs.legal_actions)
    has_layoff = any(a.kind is ActionKind.LAYOFF for a in obs.legal_actions)
    if phase is Phase.OFFER:
        if obs.source is Source.DISCARD:
            line = names.said(
                other, _("You discarded {card}. "), _("{player} discarded {card}. "), card=centre
            )
        elif obs.source is Source.PASSED:
            line = names.said(
                other,
                _("You turned {card} and passed it. "),
                _("{player} turned {card} and passed it. "),
                card=centre,
            )
        else:
            line = fill(_("The upcard is {card}. "), card=centre)
        if has_take and has_layoff:
            return [
                *line,
                *_going_out(obs, names),
                *fill(_("Take it, lay it on another player's meld, or decline it?")),
            ]
        if has_layoff:
            return [
                *line,
                *fill(
                    _(
                        "It does not fit anything of yours: lay it on another player's meld, "
                        "or decline it?"
                    )
                ),
            ]
        if has_take:
            return [*line, *_going_out(obs, names), *fill(_("Take it or decline it?"))]
        return [*line, *fill(_("It does not fit anything of yours: decline it."))]
    if phase is Phase.TURN:
        line = names.said(
            me,
            _("You turned {card} from the stock. "),
            _("{player} turned {card} from the stock. "),
            card=centre,
        )
        if has_take and has_layoff:
            return [
                *line,
                *_going_out(obs, names),
                *fill(_("Take it, lay it on another player's meld, or pass it?")),
            ]
        if has_layoff:
            return [
                *line,
                *fill(
                    _(
                        "It does not fit anything of yours: lay it on another player's meld, "
                        "or pass it?"
                    )
                ),
            ]
        if has_take:
            return [*line, *_going_out(obs, names), *fill(_("Take it or pass it?"))]
        return [*line, *fill(_("It does not fit anything of yours: pass it."))]
    if phase is Phase.FORCE:
        refuser = obs.offeree if obs.offeree >= 0 else (me + 1) % len(obs.tables)
        return fill(
            _("{player} refused {card}, which fits {player}'s table. Force {player} to take it?"),
            player=names.names[refuser],
            card=centre,
        )
    if phase is Phase.FORCED:
        return [
            *names.said(
                me,
                _("{forcer} forces you to take {card}. "),
                _("{forcer} forces {player} to take {card}. "),
                forcer=names.names[_forcer(obs)],
                card=centre,
            ),
            *_going_out(obs, names),
            *fill(_("Choose how to lay it.")),
        ]
    if phase is Phase.DISCARD:
        return fill(_("Discard a card from your hand."))
    if phase is Phase.EXCHANGE:
        receiver = (obs.viewer + 1) % len(obs.tables)
        return fill(
            _(
                "The exchange: choose a card of your hand to pass face down to {player}; "
                "you will receive one in turn."
            ),
            player=names.names[receiver],
        )
    return []


COMMANDS = (
    "take", "pass", "decline", "force", "no", "yes", "discard", "exchange",
    "hint", "help", "log", "table", "rules", "quit", "layoff",
)  # fmt: skip
"""The commands a person types, by their English names (which always work too)."""


def command(name: str) -> str:
    """A command as shown and typed in the language in use (``take``; ``toma`` in Spanish,
    ``ತೆಗೆ`` in Kannada); :func:`read_command` reads it, and the English word as well.

    >>> command("take")
    'take'
    """
    return {
        # Translators: a command the player types: take the centre card.
        # Commands are short words; the terminal's prompts show the same ones.
        "take": pgettext("command", "take"),
        # Translators: a command: pass the card turned from the stock (refuse it)
        "pass": pgettext("command", "pass"),
        # Translators: a command: decline the card offered (may be the same word as pass)
        "decline": pgettext("command", "decline"),
        # Translators: a command: force the opponent to take the card he refused
        "force": pgettext("command", "force"),
        # Translators: a command: the answer no (do not force)
        "no": pgettext("command", "no"),
        # Translators: a command: the answer yes (force)
        "yes": pgettext("command", "yes"),
        # Translators: a command: discard a hand card after a take
        "discard": pgettext("command", "discard"),
        # Translators: a command: choose the card passed in the exchange
        "exchange": pgettext("command", "exchange"),
        # Translators: a command: lay the centre card on another player's meld instead of
        # taking it (rule layoff_on_opponent); one word, unlike the other commands
        "layoff": pgettext("command", "layoff"),
        # Translators: a command: ask what the strongest bot would play
        "hint": pgettext("command", "hint"),
        "help": pgettext("command", "help"),
        # Translators: a command: list every move of the deal
        "log": pgettext("command", "log"),
        # Translators: a command: draw the table again
        "table": pgettext("command", "table"),
        "rules": pgettext("command", "rules"),
        # Translators: a command: save the game and stop
        "quit": pgettext("command", "quit"),
    }[name]


def _folded(word: str) -> str:
    """A word as compared with the commands: composed (NFC), without the zero-width joiners
    some keyboards put between the letters of an Indic script, in lower case, and with the
    dotless i as i (Turkish ``HAYIR`` and ``hayir`` are read as the command for no)."""
    composed = unicodedata.normalize("NFC", word).replace("\u200c", "").replace("\u200d", "")
    return composed.lower().replace("\u0131", "i")


def read_command(word: str) -> str | None:
    """The English name of a typed command word (English, always, or the language in use),
    or None.

    >>> read_command("TAKE"), read_command("nonsense")
    ('take', None)
    """
    low = _folded(word)
    if low in COMMANDS:
        return low
    for name in COMMANDS:  # "pass" before "decline": one word may stand for both
        if _folded(command(name)) == low:
            return name
    return None


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
    word = command("take") if kind is ActionKind.TAKE else command("pass")
    return [
        (f"{word} {look.typed(played)}" if played else word, actions)
        for played, actions in take_forms(obs, kind)
    ]


def layoff_short_forms(obs: Observation, look: CardLook) -> list[tuple[str, Action]]:
    """Each legal layoff as it is typed (``layoff 5c 6c 7c``: the meld it goes on, as it
    lies), in the order of the legal actions."""
    word = command("layoff")
    return [
        (f"{word} {look.typed(action.melds[0])}", action)
        for action in obs.legal_actions
        if action.kind is ActionKind.LAYOFF
    ]


def action_text(action: Action, look: CardLook) -> str:
    """An action written with the commands and the card labels in use: ``take 5h5d5c``,
    ``take 5h5d5c/6c7cJc``, ``discard Kh``, ``no``.

    >>> from conquian.actions import Action
    >>> action_text(Action.parse("take 5h5d5c"), CardLook())
    'take 5h5d5c'
    """
    kind = action.kind
    if kind in (ActionKind.TAKE, ActionKind.PASS):
        word = command("take" if kind is ActionKind.TAKE else "pass")
        melds = "/".join(look.typed(m).replace(" ", "") for m in action.melds)
        return f"{word} {melds}" if melds else word
    if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        word = command("discard" if kind is ActionKind.DISCARD else "exchange")
        return f"{word} {look.label(action.card)}" if action.card >= 0 else word
    if kind is ActionKind.LAYOFF:
        melds = "/".join(look.typed(m).replace(" ", "") for m in action.melds)
        return f"{command('layoff')} {melds}" if melds else command("layoff")
    if kind is ActionKind.NO_FORCE:
        return command("no")
    return command("force" if kind is ActionKind.FORCE else "decline")


def typed_card(look: CardLook, index: int, style: str = "") -> Span:
    """A card as the player types it (``look``'s label, never a suit symbol), carrying the card."""
    return Span(look.label(index), style or look.style(index), index)


def _typed_cards(look: CardLook, mask: int, sep: str, style: str = "") -> Line:
    out: Line = []
    for i, index in enumerate(mask_indices(mask)):
        if i and sep:
            out.append(Span(sep, style))
        out.append(typed_card(look, index, style))
    return out


def action_spans(action: Action, look: CardLook) -> Line:
    """An action in the engine's own text (``take 5h5d5c/6c7cJc``, ``discard Kh``), each card a
    span that carries it, written with ``look``'s labels.

    >>> from conquian.actions import Action
    >>> from conquian.present.spans import plain
    >>> line = action_spans(Action.parse("take 5h5d5c/6c7cJc"), CardLook())
    >>> plain(line), sum(span.card is not None for span in line)
    ('take 5h5d5c/6c7cJc', 6)
    """
    kind = action.kind
    word = KIND_WORDS[kind]
    if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        return [Span(f"{word} "), typed_card(look, action.card)]
    if not action.melds:
        return [Span(word)]
    if kind is ActionKind.LAYOFF:
        word = f"{word} {action.seat}"
    out: Line = [Span(f"{word} ")]
    for i, meld in enumerate(action.melds):
        if i:
            out.append(Span("/"))
        out.extend(_typed_cards(look, meld, ""))
    return out


def describe_action(action: Action, obs: Observation, look: CardLook) -> Line:
    """An action of the viewer as he would type it, with the table it makes; each card a
    span that carries it (written as typed)."""
    kind = action.kind
    if kind is ActionKind.TAKE:
        played = _played(action.melds, obs.tables[obs.viewer], obs.centre)
        word = command("take")
        typed = (
            [Span(f"{word} ", CMD), *_typed_cards(look, played, " ", CMD)]
            if played
            else [Span(word, CMD)]
        )
        return [
            *typed,
            *fill(_(" (your table: {melds})"), melds=melds_spans(look, action.melds)),
        ]
    if kind in (ActionKind.DISCARD, ActionKind.EXCHANGE):
        word = command("discard" if kind is ActionKind.DISCARD else "exchange")
        return [Span(f"{word} ", CMD), typed_card(look, action.card, CMD)]
    if kind is ActionKind.NO_FORCE:
        return [Span(command("no"), CMD), Span(_(" (do not force)"))]
    if kind is ActionKind.LAYOFF and action.melds and obs.centre >= 0:
        meld = action.melds[0]
        return [
            Span(f"{command('layoff')} ", CMD),
            *_typed_cards(look, meld, " ", CMD),
            *fill(
                # Translators: after a layoff as typed: the other player's meld it goes on
                _(" (that meld becomes {meld})"),
                meld=melds_spans(look, (meld | 1 << obs.centre,)),
            ),
        ]
    return [Span(action_text(action, look), CMD)]


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
        lines.append(fill(_("Drawn: the stock ran out before anyone went out."), BOLD))
    elif outcome.termination is Termination.OUT:
        count = partition_mask(tables[winner]).bit_count()
        lines.append(
            names.said(
                winner,
                _("You went out and win the deal!"),
                _("{player} went out and wins the deal!"),
                BOLD,
            )
        )
        lines.append(
            fill(
                ngettext(
                    "  {count} card melded: {melds}", "  {count} cards melded: {melds}", count
                ),
                count=count,
                melds=melds_spans(look, tables[winner]),
            )
        )
    else:
        lines.append(
            names.said(
                winner,
                _("The stock ran out; you held fewer cards and win the deal."),
                _("The stock ran out; {player} held fewer cards and wins the deal."),
                BOLD,
            )
        )
    for p in range(len(hands)):
        if hands[p]:
            lines.append(
                names.said(
                    p,
                    _("  Your hand still held: {cards}"),
                    _("  {player}'s hand still held: {cards}"),
                    cards=cards_spans(look, hands[p]),
                )
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
        return [fill(_("Nobody pays; the next deal is worth {stake}."), stake=next_value)]
    if scoring is Scoring.POINTS:
        return [
            names.said(
                winner,
                ngettext("You scored {points} point.", "You scored {points} points.", value),
                ngettext(
                    "{player} scored {points} point.", "{player} scored {points} points.", value
                ),
                points=value,
            )
        ]
    lines: list[Line] = []
    for loser in range(len(names.names)):  # every other player pays the winner
        if loser != winner:
            lines.append(
                names.said(
                    loser,
                    _("You pay {winner} {stake}."),
                    _("{player} pays you {stake}.")
                    if winner == names.me
                    else _("{player} pays {winner} {stake}."),
                    winner=names.obj(winner),
                    stake=value,
                )
            )
    return lines


def signed(value: int) -> str:
    """A balance as shown: ``+2``, ``-1`` or ``0``."""
    return f"{value:+d}" if value else "0"


def score_text(names: Names, p: int, balance: Sequence[int]) -> str:
    """``You +1``, or ``Player 2: -1`` where the name ends in a number (the score is no
    part of it).

    >>> score_text(Names(("You", "Bot 1")), 1, [1, -1])
    'Bot 1: -1'
    """
    name, score = names.subj(p), signed(balance[p])
    return f"{name}: {score}" if name[-1:].isdigit() else f"{name} {score}"


def deal_heading(
    rules: Rules,
    deal: int,
    stake: int,
    draws: int,
    balance: Sequence[int],
    names: Names,
    look: CardLook,
    count: Sequence[int] = (),
) -> Line:
    """The deal being played, what it is worth, and the match so far, in one line (and
    la cuenta, ``count``, where matches were played before this one).

    ``draws`` is the number of drawn deals just before this one.
    """
    worth = _("worth {stake}").format(stake=stake)
    if rules.scoring is Scoring.POINTS:
        worth = _("scored in points")
    elif draws:
        worth = ngettext(
            "worth {stake} ({count} drawn deal carried over)",
            "worth {stake} ({count} drawn deals carried over)",
            draws,
        ).format(stake=stake, count=draws)
    deal_words = {
        MatchKind.SINGLE_DEAL: _("Deal {deal}"),
        MatchKind.N_DEALS: _("Deal {deal} of {target}"),
        MatchKind.FIRST_TO: _("Deal {deal} (first to {target})"),
    }[rules.match].format(deal=deal, target=rules.match_target)
    dot = look.sep
    line: Line = [
        Span(deal_words, BOLD),
        Span(dot, DIM),
        Span(worth),
        Span(dot, DIM),
        Span(_("Match: ")),
    ]
    for totals, heading in ((balance, ""), (count, _("Count: "))):
        if heading and totals:
            line += [Span(dot, DIM), Span(heading)]
        for p in range(len(totals)):
            if p:
                line.append(Span(", "))
            line.append(Span(score_text(names, p, totals), BOLD))
    return line


def match_line(names: Names, balance: Sequence[int]) -> Line:
    """The match after a deal: ``Match: You +1, Bot -1``."""
    text = ", ".join(score_text(names, p, balance) for p in range(len(balance)))
    return [Span(_("Match: "), BOLD), Span(text)]


def count_line(names: Names, count: Sequence[int], matches: int) -> Line:
    """La cuenta: each player's total over the ``matches`` matches played one after another.

    >>> from conquian.present.spans import plain
    >>> plain(count_line(Names(("You", "Bot"), me=0), [3, -3], 2))
    'The count over 2 matches: You +3, Bot -3'
    """
    text = ", ".join(score_text(names, p, count) for p in range(len(count)))
    heading = ngettext(
        # Translators: la cuenta, the running count of a sitting; {count} is a number of matches
        "The count over {count} match: ",
        "The count over {count} matches: ",
        matches,
    ).format(count=matches)
    return [Span(heading, BOLD), Span(text)]


def dealer_note() -> str:
    """Beside the dealer's name on the table."""
    return _("dealer")


def to_play_note(mine: bool = False) -> str:
    """Beside the name of the player to act (``mine``: the viewer)."""
    # Translators: beside your own name on the table when you are to act ("te toca")
    return _("your turn") if mine else _("to play")


def last_moves_heading() -> str:
    """The heading of the last few moves under the table."""
    return _("Last moves")


def hand_count(count: int) -> str:
    """How many cards a player holds, beside his name: ``10 cards in hand``."""
    return ngettext("{count} card in hand", "{count} cards in hand", count).format(count=count)


def level_word(level: str) -> str:
    """A computer player's level, as every front end names it (``hard``); an unknown level
    as it is.

    >>> level_word("expert"), level_word("cmd:./mybot")
    ('expert', 'cmd:./mybot')
    """
    return {
        # Translators: the levels of the computer player, in the level menu and in a
        # computer seat's name ("Computer (easy)").
        "beginner": _("beginner"),
        "easy": _("easy"),
        "medium": _("medium"),
        "hard": _("hard"),
        "expert": _("expert"),
    }.get(level, level)


def match_result_line(leader: int | None, names: Names) -> Line:
    """Who won the match that just ended (``leader``: the player ahead, None if level)."""
    if leader is None:
        return fill(_("The match is over, level."), GOOD)
    return names.said(leader, _("You win the match!"), _("{player} wins the match."), GOOD)


def _add_line(lines: list[Line], line: Line, join: bool) -> None:
    """Append a move's words, or join them to the previous line ("..., then ...")."""
    if join:
        lines[-1] = fill(_("{before}, then {after}"), before=lines[-1], after=line)
    else:
        lines.append(line)
