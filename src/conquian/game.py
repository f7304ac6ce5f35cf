"""A deal with its history: push, pop, and the record it makes.

>>> game = Game(seed=5, dealer=0)
>>> while not game.state.is_over:
...     game.push(game.legal_actions()[-1])   # always refuse / discard the highest card
>>> game.state.outcome().winner is None, len(game.history) > 20
(True, True)
>>> game.pop() is not None and not game.state.is_over
True
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action
from .cards import DeckStyle
from .errors import IllegalActionError
from .fair import FairShuffle
from .notation import parse_action
from .observation import Observation, PublicEvent, PublicView, observe, observe_public, public_event
from .rules import Rules, find_rules
from .state import GameState, shuffled_deck


class Game:
    """A deal in progress together with every action played so far."""

    def __init__(
        self,
        rules: Rules | str = "standard",
        *,
        seed: int | None = None,
        deck: Sequence[int] | None = None,
        dealer: int = 0,
        stake: int = 1,
        players: Sequence[str] | None = None,
    ) -> None:
        self.rules = find_rules(rules)
        if players is None:
            players = [f"player {p}" for p in range(self.rules.num_players)]
        if deck is None:
            deck = shuffled_deck(seed)
        self.seed = seed
        self.deck: tuple[int, ...] = tuple(deck)
        self.dealer = dealer
        self.stake = stake
        self.players: tuple[str, ...] = tuple(players)
        self.state = GameState.deal(self.rules, deck=self.deck, dealer=dealer, stake=stake)
        self.fair: FairShuffle | None = None
        """How the deck was shuffled, when whoever dealt it did so provably fairly."""
        self.history: list[PublicEvent] = []
        """Every action played, with the player and the card it concerned."""
        self._before: list[GameState] = []

    def legal_actions(self) -> tuple[Action, ...]:
        return self.state.legal_actions()

    def observation(self, player: int) -> Observation:
        """What ``player`` may know now, including the public history of the deal."""
        return observe(self.state, player, tuple(self.history))

    def public_view(self) -> PublicView:
        """What everyone at the table may know now (a spectator's view), with the public
        history of the deal."""
        return observe_public(self.state, tuple(self.history))

    def push(self, action: Action) -> None:
        """Play a legal action.

        :raises IllegalActionError: with the reason; nothing changes.
        """
        before = self.state.copy()
        event = public_event(self.state, action)
        self.state.apply(action)
        self._before.append(before)
        self.history.append(event)

    def push_text(self, text: str, deck: DeckStyle | str = DeckStyle.FRENCH) -> Action:
        """Read an action as typed (see :func:`conquian.notation.parse_action`) and play it."""
        action = parse_action(self.state, text, deck)
        self.push(action)
        return action

    def pop(self) -> Action | None:
        """Take back the last action (None if there is none)."""
        if not self.history:
            return None
        self.state = self._before.pop()
        return self.history.pop().action

    def peek(self) -> Action | None:
        return self.history[-1].action if self.history else None

    def states(self) -> list[GameState]:
        """Every position of the deal so far, the current one last."""
        return [s.copy() for s in self._before] + [self.state.copy()]

    def check_player(self, player: int) -> None:
        """:raises IllegalActionError: if it is not ``player``'s turn."""
        if self.state.to_act != player and not self.state.is_over:
            raise IllegalActionError.not_your_turn(player, self.state.to_act)
