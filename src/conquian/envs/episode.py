"""One deal driven by action ids: the engine behind every adapter (two to four players).

>>> from conquian.rules import Rules
>>> episode = Episode.deal(Rules(), seed=4, dealer=0)
>>> episode.player, [episode.space.describe(i) for i in episode.legal_ids()]
(1, ['pass'])
>>> episode.step(PASS) is not None
True
"""

from __future__ import annotations

import numpy as np

from ..actions import Action
from ..errors import GameOverError, IllegalActionError, InvalidRulesError
from ..observation import Observation, PublicEvent, observe, public_event
from ..rules import Rules, find_rules
from ..state import GameState, Phase
from .spaces import (
    PASS,
    ActionSpace,
    Decision,
    Mask,
    Pending,
    Tensor,
    TensorLayout,
    bits_to_array,
    info_state_bits,
)
from .tracker import ObservationTracker

__all__ = ["PASS", "Episode", "rules_for"]


def rules_for(rules: Rules | str, num_players: int | None = None) -> Rules:
    """The rules named by ``rules`` (a preset name, spec or :class:`Rules`), seated for
    ``num_players`` players (None or 0: as many as the rules say).

    A preset's number of players gives way to ``num_players`` (``mexican`` is for three,
    ``rules_for("mexican", 4)`` for four); a spec that sets ``num_players`` itself, or a
    :class:`Rules` object, must agree with it.

    >>> rules_for("tercerilla").num_players, rules_for("mexican", 4).num_players
    (3, 4)
    >>> rules_for("mexican,num_players=3", 4)
    Traceback (most recent call last):
    ...
    conquian.errors.InvalidRulesError: The rules 'mexican,num_players=3' seat 3 players, not num_players=4.

    :raises InvalidRulesError: for bad rules, a conflict, or rules that cannot seat that many.
    """
    found = find_rules(rules)
    if not num_players or num_players == found.num_players:
        return found
    explicit = isinstance(rules, Rules) or any(
        part.partition("=")[0].strip().lower().replace("-", "_") == "num_players"
        for part in rules.split(",")[1:]
    )
    name = rules.to_spec() if isinstance(rules, Rules) else rules
    if explicit:
        raise InvalidRulesError(
            f"The rules {name!r} seat {found.num_players} players, not num_players={num_players}."
        )
    try:
        return found.with_flags(num_players=num_players)
    except InvalidRulesError as exc:
        raise InvalidRulesError(
            f"The rules {name!r} with num_players={num_players}: {exc}"
        ) from None


class Episode:
    """A deal, its public history and the acting player's unfinished decision.

    ``history`` is the public history so far; the list given is kept, not copied.  An
    episode can so follow a :class:`~conquian.game.Game` (``Episode(game.state, layout,
    game.history)``): the actions pushed on the game, not taken back, are the episode's
    too, and the acting player's ids are chosen here (:meth:`choose`) and pushed there.
    """

    def __new__(cls, *args: object, **kwargs: object) -> Episode:
        return object.__new__(cls)  # for mypyc, as GameState.__new__

    def __init__(
        self,
        state: GameState,
        layout: TensorLayout | None = None,
        history: list[PublicEvent] | None = None,
    ) -> None:
        self.state = state
        self.layout = layout if layout is not None else TensorLayout(state.rules)
        self.space: ActionSpace = self.layout.space
        self.history: list[PublicEvent] = [] if history is None else history
        self._history: tuple[PublicEvent, ...] | None = ()
        self._decision: Decision | None = None
        self._decision_at = 0
        """The length of the history when :attr:`_decision` was begun."""
        self._trackers: list[ObservationTracker | None] = [None] * len(state.hands)

    @classmethod
    def deal(
        cls,
        rules: Rules,
        *,
        seed: int | None = None,
        deck: list[int] | None = None,
        dealer: int = 0,
        layout: TensorLayout | None = None,
    ) -> Episode:
        """A new deal from a seed or an explicit deck (top card first)."""
        return cls(GameState.deal(rules, seed=seed, deck=deck, dealer=dealer), layout)

    def copy(self) -> Episode:
        """An independent copy (the unfinished decision included)."""
        new = Episode.__new__(Episode)
        new.state = self.state.copy()
        new.layout = self.layout
        new.space = self.space
        new.history = list(self.history)
        new._history = self._history
        new._trackers = [None if t is None else t.copy() for t in self._trackers]
        new._decision = None if self._decision is None else self._decision.copy()
        new._decision_at = self._decision_at
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Episode:
        return self.copy()

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    @property
    def player(self) -> int:
        """The player to act."""
        return self.state.to_act

    @property
    def decision(self) -> Decision:
        """The acting player's current decision (built on first use)."""
        decision = self._begun()
        if decision is None:
            state = self.state
            decision = self._decision = Decision(
                self.space, state.legal_actions(), state.tables[state.to_act], state.phase
            )
            self._decision_at = len(self.history)
        return decision

    def _begun(self) -> Decision | None:
        """The decision begun in this position, if any (not one begun before an action
        pushed on the game this episode follows)."""
        decision = self._decision
        if decision is not None and self._decision_at != len(self.history):
            decision = self._decision = None
        return decision

    def legal_ids(self) -> list[int]:
        """The ids the acting player may play now (empty once the deal is over)."""
        if self.over:
            return []
        return self.decision.legal_ids()

    def mask(self) -> Mask:
        """The legal ids as an int8 0/1 vector of the action space's size (a fresh array)."""
        if self.over:
            return np.zeros(self.space.size, dtype=np.int8)
        return self.decision.mask().copy()

    def choose(self, action_id: object) -> Action | None:
        """Take one id of the acting player's decision without playing anything: the
        engine action once the id completes one (for the caller to play, e.g. on the game
        this episode follows), else None.

        :raises IllegalActionError: for an id that is not legal now; nothing changes.
        """
        if self.state.phase is Phase.OVER:
            raise GameOverError(f"The deal is over; action id {action_id!r} cannot be played.")
        action = self.decision.step(action_id)
        if action is not None:
            self._decision = None
        return action

    def step(self, action_id: object) -> Action | None:
        """Play one id; returns the engine action when it completes one.

        :raises IllegalActionError: for an id that is not legal now; nothing changes.
        """
        action = self.choose(action_id)
        if action is not None:
            state = self.state
            self.history.append(public_event(state, action))
            state.apply_unchecked(action)
        return action

    def play(self, action: Action) -> None:
        """Play a whole engine action (checked), e.g. one chosen by a bot."""
        decision = self._begun()
        if decision is not None and (
            decision.chosen or (decision.mode >= 0 and self.state.phase is not Phase.FORCED)
        ):
            raise IllegalActionError(
                "A take or lay is half chosen; finish it with action ids first."
            )
        state = self.state
        event = public_event(state, action)
        state.apply(action)
        self.history.append(event)

    def observation(self, player: int) -> Observation:
        """``player``'s observation, with the public history."""
        history = self._history
        if history is None or len(history) != len(self.history):  # actions played since
            history = self._history = tuple(self.history)
        return observe(self.state, player, history)

    def pending(self, player: int) -> Pending | None:
        """The melds ``player`` has chosen so far in an unfinished take (only he sees them)."""
        decision = self._begun()
        if decision is None or decision.mode < 0 or player != self.state.to_act or self.over:
            return None
        return Pending(decision.mode, decision.chosen)

    def tracker(self, player: int) -> ObservationTracker:
        """``player``'s observation tracker, brought up to date (see :mod:`.tracker`)."""
        tracker = self._trackers[player]
        if tracker is None:
            tracker = self._trackers[player] = ObservationTracker(self.layout, player)
        tracker.update(self.state, self.history, self.pending(player))
        return tracker

    def observation_tensor(self, player: int) -> Tensor:
        """The current-observation tensor of ``player`` (float32, a fresh array)."""
        return self.tracker(player).view.astype(np.float32)

    def observation_and_mask(self, player: int) -> tuple[Mask, Mask]:
        """``player``'s observation tensor (int8 0/1) and action mask (zeros unless he acts).

        Both are fresh arrays that the caller owns: later steps do not change them.
        """
        state = self.state
        if state.phase is Phase.OVER or player != state.to_act:
            pending = None
            mask = np.zeros(self.space.size, dtype=np.int8)
        else:
            decision = self.decision
            pending = None if decision.mode < 0 else Pending(decision.mode, decision.chosen)
            mask = decision.mask().copy()
        tracker = self._trackers[player]
        if tracker is None:
            tracker = self._trackers[player] = ObservationTracker(self.layout, player)
        tracker.update(state, self.history, pending)
        return tracker.view.copy(), mask

    def info_state_tensor(self, player: int) -> Tensor:
        """The perfect-recall information-state tensor of ``player``."""
        layout = self.layout
        bits = info_state_bits(layout, self.observation(player), self.pending(player))
        return bits_to_array(bits, layout.info_size)

    def returns(self) -> tuple[float, ...]:
        """One value per player: each loser of a finished deal pays the winner one unit, so
        -1 to every loser and ``N - 1`` to the winner (+1 / -1 with two players); all 0 for
        a drawn deal and while the deal goes on.

        >>> episode = Episode.deal(Rules(), seed=4, dealer=0)
        >>> episode.returns()
        (0.0, 0.0)
        """
        n = len(self.state.hands)
        winner = self.state.winner if self.over else None
        if winner is None:
            return (0.0,) * n
        return tuple(float(n - 1) if p == winner else -1.0 for p in range(n))
