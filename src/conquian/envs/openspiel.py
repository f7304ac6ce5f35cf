"""OpenSpiel game ``python_conquian``, registered on import.

One deal of Conquian for two to four players as a sequential, zero-sum,
imperfect-information game with explicit chance: the first 40 moves are chance
nodes that deal the deck card by card (the first ``N * hand_size`` to the hands,
the rest form the stock order).  Player moves are the action ids of
:mod:`conquian.envs.spaces`.  Returns come at the end only: each loser pays the
winner one unit (+1 and -1 with two players; ``N - 1`` to the winner and -1 to each
loser at a table of ``N``), 0 to everyone for a draw.

>>> import pyspiel
>>> import conquian.envs.openspiel
>>> game = pyspiel.load_game("python_conquian")
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])   # deal in card order
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
(0, ['take', 'pass'])

Game parameters: ``rules`` (a preset name or rules spec, default ``standard``),
``num_players`` (2 to 4; the default 0 means as many as the rules say, and a preset's
number gives way to it, see :func:`~conquian.envs.episode.rules_for`) and ``dealer``
(a seat; the default -1 means the last seat, so that player 0 moves first: seat 1
with two players, as before).

>>> game = pyspiel.load_game("python_conquian", {"rules": "mexican", "num_players": 4})
>>> game.num_players(), game.get_type().max_num_players
(4, 4)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..actions import ActionKind
from ..cards import CARDS, NUM_CARDS, format_mask, mask_indices
from ..errors import ConquianError
from ..melds import format_partition
from ..observation import Observation, PublicEvent
from ..rules import MAX_PLAYERS
from ..sample import determinize
from ..state import GameState, Phase
from .episode import Episode, rules_for
from .spaces import (
    TensorLayout,
    bits_to_array,
    dealt_hand,
    info_state_bits,
)

_DEFAULTS: dict[str, Any] = {"rules": "standard", "num_players": 0, "dealer": -1}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_conquian",
    long_name="Python Conquian",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


def _game_info(layout: TensorLayout) -> pyspiel.GameInfo:
    rules = layout.space.rules
    n = rules.num_players
    takes = n * rules.hand_size + 1
    # Each take or lay adds at most 4 steps (start, up to 3 new melds, finish) to its event.
    sub_steps = 4 * (takes + layout.max_stock + 1)
    return pyspiel.GameInfo(
        num_distinct_actions=layout.space.size,
        max_chance_outcomes=NUM_CARDS,
        num_players=n,
        min_utility=-1.0,
        max_utility=float(n - 1),
        utility_sum=0.0,
        max_game_length=NUM_CARDS + layout.history_rows + sub_steps,
    )


class ConquianGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game object."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        num_players = int(merged["num_players"])
        if num_players and not 2 <= num_players <= MAX_PLAYERS:
            raise ValueError(
                f"python_conquian parameter 'num_players' must be 2 to {MAX_PLAYERS} "
                f"(or 0: as the rules say), got {num_players}."
            )
        try:
            self.rules = rules_for(str(merged["rules"]), num_players)
        except ConquianError as exc:
            raise ValueError(
                f"python_conquian parameters 'rules' and 'num_players': {exc}"
            ) from None
        n = self.rules.num_players
        self.dealer = int(merged["dealer"])
        if self.dealer == -1:
            self.dealer = n - 1
        elif not 0 <= self.dealer < n:
            seats = "0 or 1" if n == 2 else f"0 to {n - 1}"
            raise ValueError(
                f"python_conquian parameter 'dealer' must be {seats} (or -1: the last seat), "
                f"got {self.dealer}."
            )
        self.layout = TensorLayout(self.rules)
        super().__init__(_GAME_TYPE, _game_info(self.layout), merged)

    def new_initial_state(self) -> ConquianState:
        return ConquianState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ConquianObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "python_conquian observes public and single-player private information only."
            )
        if params:
            raise ValueError(f"python_conquian observers take no parameters, got {params}.")
        return ConquianObserver(self.layout, perfect_recall)


class ConquianState(pyspiel.State):  # type: ignore[misc]
    """A state: the cards dealt so far, then the deal being played."""

    def __init__(self, game: ConquianGame) -> None:
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying these attributes; the layout
        # and the episode copy themselves cheaply (see their ``__deepcopy__``).
        self.layout = game.layout
        self.dealer = game.dealer
        self.deck: list[int] = []
        self.episode: Episode | None = None

    def current_player(self) -> int:
        episode = self.episode
        if episode is None:
            return int(pyspiel.PlayerId.CHANCE)
        if episode.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return episode.player

    def _legal_actions(self, player: int) -> list[int]:
        episode = self.episode
        if episode is None or episode.over or player != episode.player:
            return []
        return list(episode.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self.deck)
        left = [card for card in range(NUM_CARDS) if card not in dealt]
        p = 1.0 / len(left)
        return [(card, p) for card in left]

    def _apply_action(self, action: int) -> None:
        if self.episode is None:
            if action in self.deck or not 0 <= action < NUM_CARDS:
                raise ValueError(f"Chance action {action} is not a card still to be dealt.")
            self.deck.append(action)
            if len(self.deck) == NUM_CARDS:
                layout = self.layout
                state = GameState.deal(layout.space.rules, deck=self.deck, dealer=self.dealer)
                self.episode = Episode(state, layout)
            return
        self.episode.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        return self.layout.space.describe(action)

    def is_terminal(self) -> bool:
        return self.episode is not None and self.episode.over

    def returns(self) -> list[float]:
        if self.episode is None:
            return [0.0] * self.layout.num_players
        return list(self.episode.returns())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ConquianState:
        """A state with the same information state for ``player_id``, the hidden cards
        (the other hands, the stock order and other players' exchange choices not yet
        shown) dealt again at random (:meth:`~conquian.state.GameState.redeal`).

        :raises ValueError: during the deal, or while another player is half-way through
            choosing the melds of a take (his choices so far depend on his hand).
        """
        episode = self.episode
        if episode is None:
            raise ValueError("Cannot resample during the deal (chance nodes).")
        if episode.player != player_id and episode.pending(episode.player) is not None:
            raise ValueError(
                "Cannot resample while another player is choosing the melds of a take."
            )
        seed = int(probability_sampler() * 2**53)
        new: ConquianState = self.clone()
        copy = episode.copy()
        copy.state = episode.state.redeal(player_id, random.Random(seed))
        new.episode = copy
        return new

    def __str__(self) -> str:
        if self.episode is None:
            return f"dealing: {format_mask(sum(1 << c for c in self.deck)) or '-'}"
        return self.episode.state.summary()


def state_from_observation(
    game: ConquianGame, obs: Observation, rng: random.Random
) -> ConquianState:
    """A state that ``obs.viewer`` cannot tell from the real one: the cards hidden from him
    (the other hands, the stock order, other players' exchange choices) are dealt at random.

    This lets an OpenSpiel search bot act on an :class:`~conquian.observation.Observation`,
    e.g. behind the bot protocol.  The game's rules must be the observation's.

    :raises ValueError: if the rules differ or it is not the observer's turn.
    """
    if game.rules != obs.rules:
        raise ValueError("The game's rules are not the observation's.")
    if not obs.my_turn:
        raise ValueError("A state is rebuilt only when the observer is to act.")
    count = obs.hand_counts[obs.opponent]
    opp_hand = 0
    if obs.passed >= 0 and obs.phase is not Phase.EXCHANGE:
        bit = 1 << obs.passed
        if not (obs.seen_mask | obs.hand_mask) & bit:  # still in the hand of its receiver
            opp_hand = bit
            count -= 1
    unknown = mask_indices(obs.unknown_mask)
    opp_hand |= sum(1 << card for card in rng.sample(unknown, count))
    engine = determinize(obs, opp_hand, rng)
    engine.validate()
    episode = Episode(engine, game.layout, list(obs.history))
    state = ConquianState(game)
    state.deck = list(range(NUM_CARDS))  # the deal is over; the order no longer matters
    state.episode = episode
    return state


class ConquianObserver:
    """Observation or perfect-recall information-state tensors and strings (PyObserver)."""

    def __init__(self, layout: TensorLayout, perfect_recall: bool) -> None:
        self.layout = layout
        self.perfect_recall = perfect_recall
        size = layout.info_size if perfect_recall else layout.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        for name, start, stop in layout.slices(perfect_recall):
            self.dict[name] = self.tensor[start:stop]
        if perfect_recall:
            self.dict["history"] = self.dict["history"].reshape(
                layout.history_rows, layout.row_width
            )

    def _dealt_so_far(self, state: ConquianState, player: int) -> int:
        """The cards dealt to ``player`` so far (packets go round from the dealer's next seat)."""
        rules = self.layout.space.rules
        n = rules.num_players
        first = state.dealer + 1
        hand = 0
        packet = rules.deal_packet
        for pos, card in enumerate(state.deck[: n * rules.hand_size]):
            if (first + pos // packet) % n == player:
                hand |= 1 << card
        return hand

    def set_from(self, state: ConquianState, player: int) -> None:
        episode = state.episode
        layout = self.layout
        if episode is None:
            bits = self._dealt_so_far(state, player)
        elif self.perfect_recall:
            bits = info_state_bits(layout, episode.observation(player), episode.pending(player))
        else:
            self.tensor[:] = episode.tracker(player).view
            return
        self.tensor[:] = bits_to_array(bits, self.tensor.size)

    def string_from(self, state: ConquianState, player: int) -> str:
        episode = state.episode
        if episode is None:
            return f"p{player} dealt {format_mask(self._dealt_so_far(state, player)) or '-'}"
        obs = episode.observation(player)
        pending = episode.pending(player)
        chosen = ""
        if pending is not None:
            space = self.layout.space
            chosen = " | choosing " + " ".join(
                space.describe(i) for i in (pending.mode, *pending.chosen)
            )
        extra = _table_words(obs)
        if not self.perfect_recall:
            return f"{obs}{extra}{chosen}".replace("\n", " | ")
        events = " ".join(_event_words(e) for e in obs.history)
        tables = " ".join(format_partition(t) for t in obs.tables)
        centre = f"{CARDS[obs.centre]}:{obs.source.value}" if obs.centre >= 0 else "-"
        return (
            f"p{player} dealt {format_mask(dealt_hand(obs))} | history {events} | "
            f"hand {format_mask(obs.hand_mask)} | tables {tables} | centre {centre} | "
            f"{obs.phase.value} p{obs.to_act}{extra}{chosen}"
        )


def _event_words(event: PublicEvent) -> str:
    """One event of an information-state string (``p1:take 5c6c7c:7c``, ``p2:exchange ?``)."""
    kind = event.action.kind
    if kind is ActionKind.EXCHANGE:
        return f"p{event.player}:exchange {CARDS[event.card] if event.card >= 0 else '?'}"
    card = "" if kind is ActionKind.DISCARD else f":{CARDS[event.card]}"
    return f"p{event.player}:{event.action}{card}"


def _table_words(obs: Observation) -> str:
    """What the strings add beyond the two-player game: with more players who turned or
    paid the centre card and whom it is offered to; with the exchange, the viewer's two
    cards.  Empty for the two-player game without the exchange."""
    words = ""
    if len(obs.tables) > 2 and obs.owner >= 0:
        words += f" | centre owner p{obs.owner} offeree p{obs.offeree}"
    if obs.rules.exchange_one_card:
        passed = CARDS[obs.passed] if obs.passed >= 0 else "-"
        received = CARDS[obs.received] if obs.received >= 0 else "-"
        words += f" | exchange passed {passed} received {received}"
    return words


pyspiel.register_game(_GAME_TYPE, ConquianGame)
