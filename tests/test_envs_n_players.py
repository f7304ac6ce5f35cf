"""The research adapters with two to four players: the N-player tensors and action ids, the
PettingZoo, Gymnasium and OpenSpiel interfaces for three and four players run through their
libraries' own conformance tests, the hidden cards (other hands, other players' exchange
choices, the stock order) never reaching an agent's outputs, and the two-player outputs
unchanged by the N-player work (digests of the outputs of the code before it)."""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from conquian.actions import Action, ActionKind
from conquian.envs.episode import Episode, rules_for
from conquian.envs.spaces import (
    MELD_BASE,
    TAKE,
    ActionSpace,
    Decision,
    TensorLayout,
    dealt_hand,
    encode_info_state,
    encode_observation,
    mask_array,
    observation_bits,
)
from conquian.errors import InvalidRulesError
from conquian.rules import find_rules
from conquian.state import GameState, Phase

MEX = "mexican"  # three players, the exchange, forcing by the offerer
MEX4 = "mexican,num_players=4"
MEX2 = "mexican,num_players=2"
# Random play mostly runs the stock out; with fewest_hand_cards most deals have a winner.
MEX_WINS = "mexican,exhaustion=fewest_hand_cards"
N_RULES = [
    MEX,
    MEX4,
    MEX2,
    "mexican,exchange_one_card=false,forcing=automatic",
    "mexican,num_players=4,hand_size=9,meld_without_take=before_rejecting_stock_card",
    "mexican,forced_take=minimal,force_fit=with_rearrangement,deal_packet=2",
]


def random_positions(rules: str, deals: int, seed: int) -> Iterator[Episode]:
    """Every decision of some random deals (engine actions chosen uniformly)."""
    rng = random.Random(seed)
    layout = TensorLayout(find_rules(rules))
    n = layout.num_players
    for deal in range(deals):
        episode = Episode.deal(
            layout.space.rules, seed=rng.randrange(2**32), dealer=deal % n, layout=layout
        )
        while not episode.over:
            yield episode
            episode.play(rng.choice(episode.state.legal_actions()))


def walk(decision: Decision, found: list[Action]) -> None:
    """Follow every id the masks allow; every path must end in an engine action."""
    ids = decision.legal_ids()
    assert ids and ids == sorted(set(ids))
    for action_id in ids:
        branch = decision.copy()
        action = branch.step(action_id)
        if action is None:
            walk(branch, found)
        else:
            found.append(action)


def core_ids(space: ActionSpace, state: GameState, chosen: tuple[int, ...]) -> list[int]:
    """The ids the mask must show after ``chosen`` ids of this decision, from the core's
    legal actions and their id sequences (not from :class:`Decision`)."""
    table = state.tables[state.to_act]
    k = len(chosen)
    sequences = [space.ids_of(a, table, state.phase) for a in state.legal_actions()]
    return sorted({s[k] for s in sequences if s[:k] == chosen and len(s) > k})


# ------------------------------------------------------------ ids and layout


@pytest.mark.parametrize("rules", N_RULES)
def test_masks_reach_exactly_the_legal_actions_once_each(rules: str) -> None:
    checked = takes = exchanges = 0
    for n, episode in enumerate(random_positions(rules, deals=12, seed=11)):
        state = episode.state
        if n % 2 and state.phase is not Phase.EXCHANGE:
            continue
        decision = Decision(
            episode.space, state.legal_actions(), state.tables[state.to_act], state.phase
        )
        found: list[Action] = []
        walk(decision, found)
        assert sorted(found) == sorted(state.legal_actions())
        assert len(found) == len(set(found))
        checked += 1
        takes += len(found) > 2 and state.phase is not Phase.EXCHANGE
        exchanges += state.phase is Phase.EXCHANGE
    assert checked > 100 and takes > 5
    assert exchanges == (12 * find_rules(rules).num_players if "exchange_one" not in rules else 0)


def test_exchange_ids_follow_the_meld_ids_and_exist_only_with_the_exchange() -> None:
    plain = ActionSpace(find_rules("mexican,exchange_one_card=false"))
    assert plain.size == 229 and plain.exchange_base == -1
    with pytest.raises(ValueError, match="no exchange"):
        plain.exchange_id(0)
    space = ActionSpace(find_rules(MEX))
    assert space.exchange_base == MELD_BASE + space.num_melds == 229 and space.size == 269
    episode = Episode.deal(space.rules, seed=3, dealer=2)
    state = episode.state
    assert state.phase is Phase.EXCHANGE and episode.player == 0
    hand = cards_of(state.hands[0])
    assert episode.legal_ids() == [space.exchange_id(c) for c in hand]
    assert space.describe(space.exchange_id(hand[0])).startswith("exchange ")
    action = Action(ActionKind.EXCHANGE, hand[0])
    assert space.ids_of(action, (), Phase.EXCHANGE) == (229 + hand[0],)
    assert episode.step(229 + hand[0]) == action and episode.player == 1
    assert ActionSpace(find_rules(MEX2)).size == ActionSpace(find_rules(MEX4)).size == 269


def test_the_layout_for_n_players() -> None:
    two = TensorLayout(find_rules("standard"))
    assert (two.observation_size, two.info_size, two.row_width) == (1033, 39848, 235)
    for spec, n in [(MEX, 3), (MEX4, 4), (MEX2, 2), ("mexican,exchange_one_card=false", 3)]:
        layout = TensorLayout(find_rules(spec))
        exchange = "exchange_one_card=false" not in spec
        names = [name for name, _, _ in layout.slices(info_state=True)]
        assert len(names) == len(set(names))
        stops = [(start, stop) for _, start, stop in layout.slices(info_state=True)]
        assert stops[0][0] == 0 and stops[-1][1] == layout.info_size
        assert all(a[1] == b[0] for a, b in itertools.pairwise(stops))
        prefixes = [layout.seat_prefix(k) for k in range(1, n)]
        assert prefixes == (["opp"] if n == 2 else [f"opp{k}" for k in range(1, n)])
        for prefix in prefixes:
            for what in ("table", "melds", "taken", "declined", "passed", "discarded", "forced"):
                assert f"{prefix}_{what}" in names
            assert f"{prefix}_hand_count" in names
        for name in ("to_act_seat", "dealer_seat", "centre_owner", "offeree"):
            assert (name in names) == (n > 2)
        for name in ("exchange_passed", "exchange_received"):
            assert (name in names) == exchange
        where = {name: stop - start for name, start, stop in layout.slices()}
        assert where["phase"] == (7 if exchange else 6)
        assert where["stock_count"] == 40 - n * layout.space.rules.hand_size + 1
        assert layout.actor_width == (1 if n == 2 else n)
        assert layout.row_width == layout.actor_width + (8 if exchange else 7) + 45 + 182


def slice_of(layout: TensorLayout, vector: np.ndarray, name: str) -> list[int]:
    start, stop = {n: (a, b) for n, a, b in layout.slices(info_state=True)}[name]
    return [int(i) for i in np.flatnonzero(vector[start:stop])]


def cards_of(mask: int) -> list[int]:
    return [i for i in range(40) if mask >> i & 1]


@pytest.mark.parametrize("rules", [MEX, MEX4])
def test_named_slices_hold_what_they_say_relative_to_the_viewer(rules: str) -> None:
    rules += ",forcing=automatic"
    layout = TensorLayout(find_rules(rules))
    n = layout.num_players
    checked = taken_seen = 0
    for episode in random_positions(rules, deals=3, seed=8):
        state = episode.state
        for me in range(n):
            obs = episode.observation(me)
            vector = encode_info_state(layout, obs)
            assert np.array_equal(
                vector[: layout.observation_size], encode_observation(layout, obs)
            )
            assert slice_of(layout, vector, "hand") == cards_of(state.hands[me])
            for k in range(1, n):
                seat = (me + k) % n
                prefix = layout.seat_prefix(k)
                table = state.table_masks[seat]
                assert slice_of(layout, vector, f"{prefix}_table") == cards_of(table)
                assert slice_of(layout, vector, f"{prefix}_hand_count") == [
                    state.hands[seat].bit_count()
                ]
                taken = [
                    e.card
                    for e in obs.history
                    if e.player == seat and e.action.kind is ActionKind.TAKE
                ]
                assert slice_of(layout, vector, f"{prefix}_taken") == sorted(set(taken))
                taken_seen += bool(taken)
            assert slice_of(layout, vector, "to_act_seat") == [(state.to_act - me) % n]
            assert slice_of(layout, vector, "dealer_seat") == [(state.dealer - me) % n]
            owner = [] if state.owner < 0 else [(state.owner - me) % n]
            offeree = [] if state.offeree < 0 else [(state.offeree - me) % n]
            assert slice_of(layout, vector, "centre_owner") == owner
            assert slice_of(layout, vector, "offeree") == offeree
            passed = state.exchange[me] if state.exchange else -1
            assert slice_of(layout, vector, "exchange_passed") == ([passed] if passed >= 0 else [])
            received = state.received(me)
            assert slice_of(layout, vector, "exchange_received") == (
                [received] if received >= 0 else []
            )
            rows = slice_of(layout, vector, "history")
            assert len({r // layout.row_width for r in rows}) == len(obs.history)
            checked += 1
    assert checked > 300 and taken_seen > 20


def test_the_observer_forced_cards_go_to_the_refusers_slice() -> None:
    seen = 0
    for episode in random_positions("mexican,exhaustion=fewest_hand_cards", deals=40, seed=4):
        history = episode.history
        if not history or history[-1].action.kind is not ActionKind.FORCE:
            continue
        forcer = history[-1].player
        refuser = history[-2].player
        layout = episode.layout
        vector = episode.observation_tensor(forcer)
        prefix = layout.seat_prefix((refuser - forcer) % 3)
        assert history[-1].card in slice_of(layout, vector, f"{prefix}_forced")
        seen += 1
    assert seen > 3


@pytest.mark.parametrize("rules", [MEX, MEX4, MEX2])
def test_the_dealt_hand_is_recovered_from_the_history(rules: str) -> None:
    layout = TensorLayout(find_rules(rules))
    n = layout.num_players
    for deal_seed in range(3):
        episode = Episode.deal(
            layout.space.rules, seed=deal_seed, dealer=deal_seed % n, layout=layout
        )
        dealt = episode.state.hands
        rng = random.Random(deal_seed)
        while not episode.over:
            episode.play(rng.choice(episode.state.legal_actions()))
            for p in range(n):
                assert dealt_hand(episode.observation(p)) == dealt[p]
                vector = episode.info_state_tensor(p)
                assert slice_of(layout, vector, "dealt_hand") == cards_of(dealt[p])


def reference_tensor(episode: Episode, player: int) -> np.ndarray:
    layout = episode.layout
    bits = observation_bits(layout, episode.observation(player), episode.pending(player))
    return mask_array(bits, layout.observation_size)


@pytest.mark.parametrize("rules", N_RULES)
def test_incremental_tensors_equal_the_from_scratch_ones_at_every_step(rules: str) -> None:
    rng = random.Random(21)
    layout = TensorLayout(find_rules(rules))
    n = layout.num_players
    checked = pending = 0
    for deal in range(8):
        episode = Episode.deal(
            layout.space.rules, seed=rng.randrange(2**32), dealer=deal % n, layout=layout
        )
        while True:
            for player in range(n):
                if rng.random() < 0.6:
                    observation, mask = episode.observation_and_mask(player)
                    assert np.array_equal(observation, reference_tensor(episode, player))
                    assert mask.any() == (player == episode.player and not episode.over)
                    checked += 1
                    pending += episode.pending(player) is not None
            if episode.over:
                break
            if deal % 3 == 0 and rng.random() < 0.1:
                episode = episode.copy()
            if rng.random() < 0.2 and episode.pending(episode.player) is None:
                episode.play(rng.choice(episode.state.legal_actions()))
            else:
                episode.step(rng.choice(episode.legal_ids()))
    assert checked > 300 and pending > 3


# ------------------------------------------------------------ hidden information


def _openspiel_strings(episode: Episode, player: int) -> tuple[str, str]:
    """The OpenSpiel observation and information-state strings of ``player``."""
    from conquian.envs.openspiel import ConquianObserver

    layout = episode.layout
    state: Any = type("S", (), {"episode": episode, "deck": list(range(40)), "dealer": 0})()
    return (
        ConquianObserver(layout, False).string_from(state, player),
        ConquianObserver(layout, True).string_from(state, player),
    )


@pytest.mark.parametrize("rules", [MEX, MEX4, MEX2])
def test_no_agent_output_depends_on_cards_hidden_from_it(rules: str) -> None:
    """Re-deal every card hidden from a player (other hands, their exchange choices still
    unseen, the stock order) and check that nothing he is given changes: observation and
    information-state tensors, mask, OpenSpiel strings; during the exchange too."""
    rng = random.Random(9)
    n = find_rules(rules).num_players
    checked = in_exchange = differ = 0
    for i, start in enumerate(random_positions(rules, deals=5, seed=2)):
        exchange = start.state.phase is Phase.EXCHANGE
        if i % 3 and not exchange:
            continue
        episode = start
        if TAKE in start.legal_ids():  # half-way through choosing a take's melds
            episode = start.copy()
            episode.step(TAKE)
            episode.step(episode.legal_ids()[0])
        for player in range(n):
            for _ in range(2):
                other = episode.copy()
                other.state = episode.state.redeal(player, rng)
                other.state.validate()
                assert np.array_equal(
                    episode.observation_and_mask(player)[0], other.observation_and_mask(player)[0]
                )
                assert np.array_equal(
                    reference_tensor(episode, player), reference_tensor(other, player)
                )
                assert np.array_equal(
                    episode.info_state_tensor(player), other.info_state_tensor(player)
                )
                if player == episode.player:
                    assert episode.legal_ids() == other.legal_ids()
                assert _openspiel_strings(episode, player) == _openspiel_strings(other, player)
                differ += any(
                    not np.array_equal(episode.observation_tensor(q), other.observation_tensor(q))
                    for q in range(n)
                    if q != player
                )
                checked += 1
                in_exchange += exchange
    assert checked > 100 and in_exchange == 5 * n * n * 2 and differ > checked // 2


def test_the_exchange_choice_of_another_player_stays_hidden() -> None:
    """During the exchange, a choice made by one player changes what the others see only in
    the public part (whose turn it is), whatever the card; after it, only the receiver
    learns the card, as the card he received."""
    rules = find_rules(MEX)
    for seed in range(4):
        base = Episode.deal(rules, seed=seed, dealer=2)
        first = base.player  # player 0 chooses first
        outputs = []
        for card in cards_of(base.state.hands[first])[:4]:
            episode = base.copy()
            episode.step(episode.space.exchange_id(card))
            outputs.append(
                [episode.observation_tensor(p).tobytes() for p in (1, 2)]
                + [episode.info_state_tensor(p).tobytes() for p in (1, 2)]
                + [_openspiel_strings(episode, p) for p in (1, 2)]
            )
        assert all(o == outputs[0] for o in outputs)
        # once every card has moved, player 1 (the receiver) knows it; player 2 does not
        after = []
        for card in cards_of(base.state.hands[first])[:4]:
            episode = base.copy()
            episode.step(episode.space.exchange_id(card))
            episode.step(episode.legal_ids()[0])
            episode.step(episode.legal_ids()[0])
            assert episode.state.phase is not Phase.EXCHANGE
            assert episode.observation(1).received == card
            after.append(
                (episode.observation_tensor(2).tobytes(), episode.info_state_tensor(2).tobytes())
            )
        # player 2 passed the same card and received the same one (from player 1) each time,
        # and player 0's pass is none of his business
        assert all(a == after[0] for a in after)


# ------------------------------------------------------------ PettingZoo


@pytest.mark.parametrize("rules", [MEX, MEX4, MEX2])
def test_pettingzoo_api_and_seed_tests_for_more_players(rules: str) -> None:
    from pettingzoo.test import api_test, seed_test

    from conquian.envs import pettingzoo_env

    api_test(pettingzoo_env.env(rules=rules), num_cycles=200)
    seed_test(lambda: pettingzoo_env.env(rules=rules), num_cycles=200)


def test_pettingzoo_seats_as_many_agents_as_the_rules() -> None:
    from conquian.envs import pettingzoo_env

    assert pettingzoo_env.env(rules="tercerilla").possible_agents == [
        "player_0",
        "player_1",
        "player_2",
    ]
    four = pettingzoo_env.env(rules="mexican", num_players=4)
    assert len(four.possible_agents) == 4 and four.unwrapped.rules.num_players == 4
    assert pettingzoo_env.env().possible_agents == list(pettingzoo_env.AGENTS)
    with pytest.raises(InvalidRulesError, match="seat 3 players, not num_players=4"):
        pettingzoo_env.env(rules="mexican,num_players=3", num_players=4)


@pytest.mark.parametrize(
    ("rules", "deals"), [(MEX_WINS, 4), (MEX_WINS + ",num_players=4", 3), (MEX, 2)]
)
def test_pettingzoo_random_deals_with_masks_and_rewards(rules: str, deals: int) -> None:
    from conquian.envs import pettingzoo_env

    env = pettingzoo_env.env(rules=rules)
    raw = env.unwrapped
    space = raw.layout.space
    n = raw.rules.num_players
    rng = random.Random(5)
    decided = 0
    for deal in range(deals):
        env.reset(seed=deal)
        total = dict.fromkeys(env.possible_agents, 0.0)
        chosen: tuple[int, ...] = ()
        steps = 0
        for name in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            assert info == {}
            total[name] += reward
            if termination or truncation:
                env.step(None)
                continue
            state = raw.episode.state
            assert name == f"player_{state.to_act}"
            mask = observation["action_mask"]
            assert list(np.flatnonzero(mask)) == core_ids(space, state, chosen)
            for other in env.possible_agents:  # no one else may act
                if other != name:
                    assert not env.observe(other)["action_mask"].any()
            before = len(raw.episode.history)
            action = int(rng.choice(np.flatnonzero(mask)))
            env.step(action)
            chosen = () if len(raw.episode.history) > before else (*chosen, action)
            steps += 1
        assert raw.episode.over and steps > 20
        assert sum(total.values()) == 0.0
        winner = raw.episode.state.winner
        if winner is None:
            assert set(total.values()) == {0.0}
        else:
            decided += 1
            assert total[f"player_{winner}"] == n - 1
            assert sorted(total.values()) == [-1.0] * (n - 1) + [float(n - 1)]
    assert decided or rules == MEX


# ------------------------------------------------------------ Gymnasium


def test_gymnasium_check_env_with_more_players() -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import conquian.envs

    check_env(gymnasium.make(conquian.envs.GYM_ID, rules="tercerilla", opponent="random").unwrapped)
    check_env(
        gymnasium.make(
            conquian.envs.GYM_ID, rules=MEX4, opponent=("random", "greedy", "heuristic")
        ).unwrapped
    )


@pytest.mark.parametrize(
    ("rules", "opponent"),
    [(MEX_WINS, "greedy"), (MEX_WINS + ",num_players=4", ["random", "greedy", "random"])],
)
def test_gymnasium_deals_against_bots_in_every_other_seat(rules: str, opponent: Any) -> None:
    import gymnasium

    import conquian.envs  # noqa: F401

    env = gymnasium.make(
        "conquian/Conquian-v0", rules=rules, opponent=opponent, illegal_action="raise"
    )
    raw = env.unwrapped
    n = raw.rules.num_players
    names = [opponent] * (n - 1) if isinstance(opponent, str) else opponent
    rng = np.random.default_rng(0)
    rewards = []
    for deal in range(2 * n):
        observation, info = env.reset(seed=deal, options={"seat": deal % n})
        seat = info["seat"]
        assert seat == deal % n and raw.seat == seat
        assert [bot.name for bot in raw.bots] == names
        assert [bot.player for bot in raw.bots] == [(seat + k) % n for k in range(1, n)]
        terminated = False
        while not terminated:
            state = raw.episode.state
            assert state.to_act == seat
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            assert not truncated and info == {"seat": seat}
        rewards.append(reward)
        winner = raw.episode.state.winner
        assert reward == (0.0 if winner is None else n - 1 if winner == seat else -1.0)
        assert not observation["action_mask"].any()
    assert -1.0 in rewards


def test_gymnasium_checks_the_opponents_and_the_seat() -> None:
    import gymnasium

    import conquian.envs  # noqa: F401

    with pytest.raises(ValueError, match="one bot, or 2 bots"):
        gymnasium.make("conquian/Conquian-v0", rules=MEX, opponent=["random"])
    with pytest.raises(ValueError, match="a bot name or a list"):
        gymnasium.make("conquian/Conquian-v0", rules=MEX, opponent=3)
    with pytest.raises(Exception, match="Unknown bot"):
        gymnasium.make("conquian/Conquian-v0", rules=MEX, opponent=["random", "nobody"])
    with pytest.raises(ValueError, match="seat must be 0 to 2 or None"):
        gymnasium.make("conquian/Conquian-v0", rules=MEX, seat=3)
    env = gymnasium.make("conquian/Conquian-v0", rules=MEX, opponent="random")
    with pytest.raises(ValueError, match="seat must be 0 to 2"):
        env.reset(options={"seat": 3})
    _, info = env.reset(seed=1, options={"seat": 2})
    assert info["seat"] == 2


# ------------------------------------------------------------ OpenSpiel


def _load(params: dict[str, Any]) -> Any:
    import pyspiel

    import conquian.envs.openspiel  # noqa: F401

    return pyspiel.load_game("python_conquian", params)


def test_openspiel_random_simulation_test_for_more_players() -> None:
    import pyspiel

    sims = {3: 3, 4: 2, 2: 2}
    for n in (3, 4, 2):
        game = _load({"rules": MEX, "num_players": n})
        assert game.num_players() == n
        assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, n - 1.0, 0.0)
        assert game.num_distinct_actions() == 269
        # serialize: OpenSpiel rebuilds each state from the game string and the history
        pyspiel.random_sim_test(game, num_sims=sims[n], serialize=True, verbose=False)
    game_type = _load({}).get_type()
    assert (game_type.min_num_players, game_type.max_num_players) == (2, 4)


@pytest.mark.parametrize("n", [3, 4])
def test_openspiel_random_deals_with_legal_actions_and_returns(n: int) -> None:
    game = _load({"rules": MEX_WINS, "num_players": n})
    space = ActionSpace(game.rules)
    rng = random.Random(n)
    decided = 0
    for seed in range(4):
        state = _dealt_state({"rules": MEX_WINS, "num_players": n}, seed)
        chosen: tuple[int, ...] = ()
        while not state.is_terminal():
            engine = state.episode.state
            player = state.current_player()
            assert player == engine.to_act
            assert state.legal_actions() == core_ids(space, engine, chosen)
            assert all(not state.legal_actions(q) for q in range(n) if q != player)
            before = len(state.episode.history)
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            chosen = () if len(state.episode.history) > before else (*chosen, action)
        returns = state.returns()
        winner = state.episode.state.winner
        if winner is None:
            assert returns == [0.0] * n
        else:
            decided += 1
            assert returns == [n - 1.0 if p == winner else -1.0 for p in range(n)]
    assert decided


def test_openspiel_num_players_combines_with_the_rules() -> None:
    assert _load({"rules": "tercerilla"}).num_players() == 3
    assert _load({"rules": "mexican", "num_players": 4}).num_players() == 4
    assert _load({"rules": "mexican", "num_players": 2}).num_players() == 2
    assert _load({"rules": "mexican,num_players=4", "num_players": 4}).num_players() == 4
    assert _load({"rules": "mexican,num_players=4"}).num_players() == 4
    assert _load({}).num_players() == 2 and _load({"num_players": 2}).num_players() == 2
    with pytest.raises(
        Exception, match=r"'mexican,num_players=3' seat 3 players, not num_players=4"
    ):
        _load({"rules": "mexican,num_players=3", "num_players": 4})
    with pytest.raises(Exception, match="force_by=opponent is the two-player rule"):
        _load({"rules": "standard", "num_players": 3})
    with pytest.raises(Exception, match="'num_players' must be 2 to 4"):
        _load({"rules": "mexican", "num_players": 5})
    with pytest.raises(Exception, match="'dealer' must be 0 to 2"):
        _load({"rules": "mexican", "dealer": 3})
    assert rules_for("mexican", 3) is find_rules("mexican")


def _dealt_state(params: dict[str, Any], seed: int) -> Any:
    state = _load(params).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def test_openspiel_first_player_and_the_deal_for_three() -> None:
    game = _load({"rules": MEX})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    assert state.current_player() == 0  # the default dealer is the last seat
    engine = state.episode.state
    assert engine.phase is Phase.EXCHANGE and engine.dealer == 2
    for p in range(3):  # what the chance phase showed each player is his dealt hand
        partial = game.new_initial_state()
        for card in state.deck[:24]:
            partial.apply_action(card)
        tensor = np.array(partial.observation_tensor(p))
        assert cards_of(sum(1 << int(i) for i in np.flatnonzero(tensor[:40]))) == cards_of(
            engine.hands[p]
        )
    dealt = _load({"rules": MEX, "dealer": 0}).new_initial_state()
    while dealt.is_chance_node():
        dealt.apply_action(dealt.chance_outcomes()[0][0])
    assert dealt.current_player() == 1


@pytest.mark.parametrize("params", [{"rules": MEX}, {"rules": MEX4}])
def test_openspiel_resample_keeps_the_information_state(params: dict[str, Any]) -> None:
    import pyspiel

    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(1)
    changed = checked = 0
    for seed in range(2):
        state = _dealt_state(params, seed)
        n = state.num_players()
        moves = 0
        while not state.is_terminal():
            player = state.current_player()
            if moves % 2 == 0 or state.episode.state.phase is Phase.EXCHANGE:
                resampled = state.resample_from_infostate(player, sampler)
                for name in (
                    "information_state_string",
                    "information_state_tensor",
                    "observation_string",
                    "observation_tensor",
                ):
                    assert getattr(resampled, name)(player) == getattr(state, name)(player)
                assert resampled.legal_actions() == state.legal_actions()
                changed += any(
                    resampled.information_state_string(q) != state.information_state_string(q)
                    for q in range(n)
                    if q != player
                )
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        returns = state.returns()
        assert sum(returns) == 0.0 and len(returns) == n
    assert checked > 50 and changed > checked // 2


def test_openspiel_ismcts_and_mcts_play_a_three_player_deal() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    state = _dealt_state({"rules": MEX_WINS}, 7)
    game = state.get_game()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1)),
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(2)),
        ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(3)),
    ]
    moves = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 10 and sum(state.returns()) == 0.0


@pytest.mark.parametrize("rules", [MEX, MEX4, MEX2])
def test_a_state_rebuilt_from_an_observation_has_the_same_information_state(rules: str) -> None:
    from conquian.envs.openspiel import state_from_observation

    rng = random.Random(4)
    checked = 0
    for seed in range(2):
        state = _dealt_state({"rules": rules}, seed)
        game = state.get_game()
        moves = 0
        while not state.is_terminal():
            player = state.current_player()
            if state.episode.pending(player) is None and (moves % 2 == 0 or moves < 5):
                obs = state.episode.observation(player)
                rebuilt = state_from_observation(game, obs, rng)
                assert rebuilt.information_state_string(player) == state.information_state_string(
                    player
                )
                assert rebuilt.information_state_tensor(player) == state.information_state_tensor(
                    player
                )
                assert rebuilt.observation_tensor(player) == state.observation_tensor(player)
                assert rebuilt.legal_actions() == state.legal_actions()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    assert checked > 30


def test_openspiel_strings_show_the_viewers_exchange_and_hide_the_others() -> None:
    state = _dealt_state({"rules": MEX}, 5)
    engine = state.episode.state
    state.apply_action(state.legal_actions()[0])  # player 0 chooses
    passed = engine.exchange[0]
    from conquian.cards import CARDS

    text = state.information_state_string(0)
    assert f"p0:exchange {CARDS[passed]}" in text and f"passed {CARDS[passed]}" in text
    for p in (1, 2):
        other = state.information_state_string(p)
        assert "p0:exchange ?" in other and "passed -" in other
    while state.episode.state.phase is Phase.EXCHANGE:
        state.apply_action(state.legal_actions()[0])
    assert f"received {CARDS[passed]}" in state.information_state_string(1)
    assert f"received {CARDS[passed]}" in state.observation_string(1)


def test_an_id_policy_bot_plays_the_exchange_and_n_player_deals() -> None:
    from conquian.bots import make_bot
    from conquian.envs.agents import IdPolicyBot
    from conquian.game import Game

    class LastId(IdPolicyBot):
        def choose(self, obs: Any, pending: Any, legal_ids: list[int], layout: Any) -> int:
            return legal_ids[-1]

    for rules in (MEX, MEX4):
        game = Game(find_rules(rules), seed=2)
        bots = [LastId(), *[make_bot("random", rng=random.Random(i)) for i in range(3)]]
        kinds = set()
        while not game.state.is_over:
            player = game.state.to_act
            obs = game.observation(player)
            action = bots[player].act(obs)
            assert action in obs.legal_actions
            if player == 0:
                kinds.add(action.kind)
            game.push(action)
        assert ActionKind.EXCHANGE in kinds and len(kinds) > 2


# ------------------------------------------------------- two players unchanged


def _feed(h: Any, *items: Any) -> None:
    for item in items:
        if isinstance(item, np.ndarray):
            h.update(str(item.dtype).encode() + str(item.shape).encode())
            h.update(np.ascontiguousarray(item).tobytes())
        else:
            h.update(repr(item).encode())
        h.update(b"|")


def _episode_digest(rules: str) -> str:
    h = hashlib.sha256()
    layout = TensorLayout(find_rules(rules))
    _feed(
        h,
        layout.space.size,
        layout.observation_size,
        layout.info_size,
        layout.history_rows,
        layout.row_width,
        layout.slices(True),
    )
    rng = random.Random(17)
    for deal in range(3):
        episode = Episode.deal(
            layout.space.rules, seed=rng.randrange(2**32), dealer=deal % 2, layout=layout
        )
        while True:
            for p in (0, 1):
                obs, mask = episode.observation_and_mask(p)
                info = episode.info_state_tensor(p)
                _feed(h, p, obs, mask, np.packbits(info.astype(np.uint8)))
            if episode.over:
                break
            ids = episode.legal_ids()
            _feed(h, episode.player, ids, [episode.space.describe(i) for i in ids])
            episode.step(rng.choice(ids))
        _feed(h, episode.returns())
    return h.hexdigest()


def _pettingzoo_digest() -> str:
    from conquian.envs import pettingzoo_env

    h = hashlib.sha256()
    env = pettingzoo_env.env()
    agents = env.possible_agents
    _feed(
        h, agents, [env.observation_space(a) for a in agents], [env.action_space(a) for a in agents]
    )
    rng = random.Random(3)
    for seed in (5, None):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            _feed(
                h,
                agent,
                observation["observation"],
                observation["action_mask"],
                reward,
                termination,
                truncation,
                sorted(info.items()),
            )
            for other in agents:
                o = env.observe(other)
                _feed(h, o["observation"], o["action_mask"])
            legal = np.flatnonzero(observation["action_mask"])
            env.step(None if termination or truncation else int(rng.choice(legal)))
    return h.hexdigest()


def _gymnasium_digest() -> str:
    import gymnasium

    import conquian.envs  # noqa: F401

    h = hashlib.sha256()
    env = gymnasium.make("conquian/Conquian-v0", opponent="greedy")
    _feed(h, env.observation_space, env.action_space)
    rng = np.random.default_rng(4)
    for seed in (1, 2, 3):
        observation, info = env.reset(seed=seed)
        _feed(h, observation["observation"], observation["action_mask"], sorted(info.items()))
        terminated = False
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            _feed(
                h,
                observation["observation"],
                observation["action_mask"],
                reward,
                terminated,
                truncated,
                sorted(info.items()),
            )
    return h.hexdigest()


def _openspiel_digest() -> str:
    """Game sizes, strings, tensors, legal actions and returns (not the parameter list,
    which gained ``num_players`` and the default ``dealer=-1``, the last seat)."""
    h = hashlib.sha256()
    for params in ({}, {"rules": "bicycle", "dealer": 0}):
        game = _load(params)
        _feed(
            h,
            game.num_distinct_actions(),
            game.max_chance_outcomes(),
            game.num_players(),
            game.min_utility(),
            game.max_utility(),
            game.utility_sum(),
            game.max_game_length(),
            game.observation_tensor_shape(),
            game.information_state_tensor_shape(),
        )
        rng = random.Random(8)
        for _ in range(2):
            state = game.new_initial_state()
            step = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = rng.choice(outcomes)[0]
                    if step % 13 == 0:
                        for p in (0, 1):
                            _feed(
                                h,
                                state.observation_string(p),
                                state.information_state_string(p),
                                np.array(state.observation_tensor(p), np.float32),
                                np.array(state.information_state_tensor(p), np.float32),
                            )
                    _feed(h, len(outcomes), state.action_to_string(action), str(state))
                else:
                    player = state.current_player()
                    legal = state.legal_actions()
                    for p in (0, 1):
                        _feed(
                            h,
                            state.observation_string(p),
                            state.information_state_string(p),
                            np.array(state.observation_tensor(p), np.float32),
                        )
                        if step % 7 == 0:
                            info = np.array(state.information_state_tensor(p))
                            _feed(h, np.packbits(info.astype(np.uint8)))
                    action = rng.choice(legal)
                    _feed(
                        h,
                        player,
                        legal,
                        state.legal_actions_mask(player),
                        state.action_to_string(player, action),
                        str(state),
                    )
                state.apply_action(action)
                step += 1
            _feed(h, state.returns(), str(state))
    return h.hexdigest()


# Computed with the two-player code before the N-player change (commit af47105).
TWO_PLAYER_DIGESTS = {
    "standard": "1ef75d7aa26059714d8b7bee9724be2f614cf70bb6c0e6275df2f9c3154b02aa",
    "bicycle": "00db4d8d0b46a640669250d8a309842b17dde68aeeb8f57033a63e7f099b6b6e",
    "foster": "cd553c649ec5919b13b851cdfef7ad6b7e0ee0df0a9365a9733983a24111acd0",
    "wikipedia": "1cd3227726281b2b1d01c6faa06226ac218b81691eb2d88ef36dd92954e6d85a",
    "standard,forcing=automatic": "0e84ef359092a39e82965bd4ed51e87b958349a4a177cdbd36e449998f9023dd",
    "pettingzoo": "328dc433e74ef7a4831b082587069263f0f9e77d8b46241eff5bb8d729e573e7",
    "gymnasium": "ff090d89f6b0b826a115438a518bdeacc2eed860c7d9fc9fa349f5ac50a34076",
    "openspiel": "843246c665ba0bad872712895009de24f2c9bb72bcf464689d906919b0ddc4c8",
}


@pytest.mark.parametrize("what", list(TWO_PLAYER_DIGESTS))
def test_two_player_outputs_are_unchanged(what: str) -> None:
    """Every two-player tensor, mask, action id, string and reward, step by step through
    random deals of each interface, hashes as it did before the N-player change."""
    digest = {
        "pettingzoo": _pettingzoo_digest,
        "gymnasium": _gymnasium_digest,
        "openspiel": _openspiel_digest,
    }.get(what)
    found = digest() if digest is not None else _episode_digest(what)
    assert found == TWO_PLAYER_DIGESTS[what]


# ------------------------------------ Gymnasium opponents through the seat driver


def _opponents_digest(rules: str, opponent: Any, seat: int | None) -> str:
    """Every output of three deals against bots (observations, masks, rewards, infos) and,
    at the end of each, the whole public history and each bot's seat and random state."""
    import gymnasium

    import conquian.envs  # noqa: F401

    env = gymnasium.make("conquian/Conquian-v0", rules=rules, opponent=opponent, seat=seat)
    raw = env.unwrapped
    h = hashlib.sha256()
    rng = np.random.default_rng(5)
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        _feed(h, observation["observation"], observation["action_mask"], sorted(info.items()))
        terminated = False
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            _feed(
                h,
                observation["observation"],
                observation["action_mask"],
                reward,
                terminated,
                truncated,
                sorted(info.items()),
            )
        _feed(
            h,
            [str(event) for event in raw.episode.history],
            [(bot.player, bot.rng.getstate()) for bot in raw.bots],
        )
    return h.hexdigest()


# Computed with the environment's own bot loop, before it played its opponents through the
# seat driver (commit bff96a2).
OPPONENTS_DIGESTS = {
    ("standard", "medium", 1): "94534f03a2fe209472ea95cd608362a95cfff73f44f9cd024d7eac4ba5186fd0",
    (MEX, ("random", "heuristic"), None): (
        "bba9abc2f06fdf95ff0dfd4a73970dfa0fc405fdc2baa868241b20a06162ea2c"
    ),
    (MEX4, ("greedy", "random", "medium"), 2): (
        "38789a08be8cec5e447db66dcf7cbde3ef924563b3d946b446d587cc32299a51"
    ),
}


@pytest.mark.parametrize(("rules", "opponent", "seat"), list(OPPONENTS_DIGESTS))
def test_gymnasium_opponents_play_as_before(rules: str, opponent: Any, seat: int | None) -> None:
    found = _opponents_digest(rules, opponent, seat)
    assert found == OPPONENTS_DIGESTS[rules, opponent, seat]
