"""The research adapters: action ids, tensors, and the PettingZoo, Gymnasium and OpenSpiel
environments run through their libraries' own conformance tests."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from conquian.actions import Action
from conquian.cards import parse_cards_mask
from conquian.envs.episode import Episode
from conquian.envs.spaces import (
    FINISH,
    MELD_BASE,
    TAKE,
    ActionSpace,
    Decision,
    TensorLayout,
    encode_info_state,
    encode_observation,
    mask_array,
    observation_bits,
)
from conquian.errors import GameOverError, IllegalActionError
from conquian.game import Game
from conquian.rules import find_rules
from conquian.state import Phase
from conquian.tools.arena import run_match

RULES = ["standard", "bicycle", "foster", "wikipedia", "standard,forcing=automatic"]


def random_positions(rules: str, deals: int, seed: int) -> Iterator[Episode]:
    """Every decision of some random deals (engine actions chosen uniformly)."""
    rng = random.Random(seed)
    layout = TensorLayout(find_rules(rules))
    for _ in range(deals):
        episode = Episode.deal(layout.space.rules, seed=rng.randrange(2**32), layout=layout)
        while not episode.over:
            yield episode
            episode.play(rng.choice(episode.state.legal_actions()))


def walk(decision: Decision, found: list[Action]) -> None:
    """Follow every id the masks allow; every path must end in an engine action."""
    ids = decision.legal_ids()
    assert ids, "a mask with no legal id is a dead end"
    assert ids == sorted(set(ids))
    for action_id in ids:
        branch = decision.copy()
        action = branch.step(action_id)
        if action is None:
            walk(branch, found)
        else:
            found.append(action)


@pytest.mark.parametrize("rules", RULES)
def test_masks_reach_exactly_the_legal_actions_once_each(rules: str) -> None:
    checked = takes = 0
    for episode in random_positions(rules, deals=150, seed=11):
        state = episode.state
        decision = Decision(
            episode.space, state.legal_actions(), state.tables[state.to_act], state.phase
        )
        found: list[Action] = []
        walk(decision, found)
        assert sorted(found) == sorted(state.legal_actions())
        assert len(found) == len(set(found)), "an action is reachable by two id sequences"
        checked += 1
        takes += len(found) > 2
    assert checked > 100 and takes > 10


@pytest.mark.parametrize("rules", RULES)
def test_ids_round_trip_with_engine_actions(rules: str) -> None:
    space = ActionSpace(find_rules(rules))
    count = 0
    for episode in random_positions(rules, deals=30, seed=5):
        state = episode.state
        table = state.tables[state.to_act]
        sequences = set()
        for action in state.legal_actions():
            ids = space.ids_of(action, table, state.phase)
            sequences.add(ids)
            decision = Decision(space, state.legal_actions(), table, state.phase)
            results = [decision.step(i) for i in ids]
            assert results[-1] == action and all(r is None for r in results[:-1])
            count += 1
            if len(ids) > 1:  # a take: only melds not already on the table, ascending
                melds = [i for i in ids if i >= MELD_BASE]
                assert melds == sorted(melds)
                assert ids[-1] == FINISH
                old = set(table)
                assert all(space.melds.melds[i - MELD_BASE] not in old for i in melds)
        assert len(sequences) == len(state.legal_actions())
    assert count > 300


def test_a_forced_take_starts_with_the_melds() -> None:
    for episode in random_positions("standard,forcing=automatic", deals=40, seed=3):
        if episode.state.phase is Phase.FORCED:
            assert TAKE not in episode.legal_ids()
            assert all(i >= MELD_BASE for i in episode.legal_ids())
            return
    pytest.fail("no forced take in 40 random deals")


def test_an_illegal_id_is_refused_with_a_reason_and_changes_nothing() -> None:
    episode = Episode.deal(find_rules("standard"), seed=4, dealer=0)
    before = episode.observation_tensor(episode.player).copy()
    legal = episode.legal_ids()
    for bad, words in [
        (TAKE, "not legal at this step"),
        (999, "outside the action space"),
        (-1, "outside the action space"),
        ("take", "must be an integer"),
        (True, "must be an integer"),
    ]:
        with pytest.raises(IllegalActionError, match=words):
            episode.step(bad)
        assert episode.legal_ids() == legal
        assert np.array_equal(episode.observation_tensor(episode.player), before)
    with pytest.raises(IllegalActionError, match=r"legal ids are: 42 \(pass\)"):
        episode.step(3)


def test_a_finished_deal_refuses_more_ids() -> None:
    episode = Episode.deal(find_rules("standard"), seed=4, dealer=0)
    rng = random.Random(0)
    while not episode.over:
        episode.step(rng.choice(episode.legal_ids()))
    assert episode.legal_ids() == [] and not episode.mask().any()
    with pytest.raises(GameOverError):
        episode.step(FINISH)


# ------------------------------------------------------------------- tensors


@pytest.mark.parametrize("rules", ["standard", "wikipedia"])
def test_tensors_do_not_depend_on_hidden_cards(rules: str) -> None:
    rng = random.Random(9)
    differ = 0
    for n, start in enumerate(random_positions(rules, deals=8, seed=2)):
        if n % 3:
            continue
        episode = start
        if TAKE in start.legal_ids():  # half-way through choosing a take's melds
            episode = start.copy()
            episode.step(TAKE)
            episode.step(episode.legal_ids()[0])
        for player in (0, 1):
            other = episode.copy()
            other.state = episode.state.redeal(player, rng)
            assert np.array_equal(
                episode.observation_tensor(player), other.observation_tensor(player)
            )
            assert np.array_equal(
                episode.info_state_tensor(player), other.info_state_tensor(player)
            )
            # ...while the opponent, whose hand was dealt again, usually sees a change.
            differ += not np.array_equal(
                episode.observation_tensor(1 - player), other.observation_tensor(1 - player)
            )
    assert differ > 10


def reference_tensor(episode: Episode, player: int) -> np.ndarray:
    """The observation tensor built from scratch from the player's observation."""
    layout = episode.layout
    bits = observation_bits(layout, episode.observation(player), episode.pending(player))
    return mask_array(bits, layout.observation_size)


@pytest.mark.parametrize("rules", RULES)
def test_incremental_tensors_equal_the_from_scratch_ones_at_every_step(rules: str) -> None:
    rng = random.Random(21)
    layout = TensorLayout(find_rules(rules))
    checked = pending = 0
    for deal in range(25):
        episode = Episode.deal(layout.space.rules, seed=rng.randrange(2**32), layout=layout)
        while True:
            for player in (0, 1):
                # Players look at irregular intervals, so an update may cover several steps.
                if rng.random() < 0.6:
                    observation, mask = episode.observation_and_mask(player)
                    assert np.array_equal(observation, reference_tensor(episode, player))
                    assert mask.any() == (player == episode.player and not episode.over)
                    checked += 1
                    pending += episode.pending(player) is not None
            if episode.over:
                break
            if deal % 5 == 0 and rng.random() < 0.1:
                episode = episode.copy()  # the copy goes on with copies of the tensors
            if rng.random() < 0.2 and episode.pending(episode.player) is None:
                episode.play(rng.choice(episode.state.legal_actions()))
            else:
                episode.step(rng.choice(episode.legal_ids()))
    assert checked > 1000 and pending > 20


def test_a_replaced_history_rewrites_the_whole_tensor() -> None:
    rules = find_rules("standard")
    first = Episode.deal(rules, seed=1, dealer=0)
    second = Episode.deal(rules, seed=2, dealer=1)
    rng = random.Random(3)
    for episode in (first, second):
        for _ in range(12):
            episode.step(rng.choice(episode.legal_ids()))
    for player in (0, 1):
        first.observation_and_mask(player)
    first.state = second.state.copy()
    first.history = list(second.history)
    first._history = None
    for player in (0, 1):
        assert np.array_equal(
            first.observation_and_mask(player)[0], reference_tensor(second, player)
        )


def test_an_episode_follows_the_game_whose_history_it_shares() -> None:
    """Actions pushed on the game are the episode's too; ids chosen here play nothing until
    their action is pushed there; a decision begun before a push is not kept after it."""
    rng = random.Random(6)
    game = Game("standard", seed=6, dealer=0)
    episode = Episode(game.state, history=game.history)
    chosen_here = pushed_there = 0
    while not game.state.is_over:
        episode.legal_ids()  # a decision begun in this position
        if rng.random() < 0.5:  # a move pushed on the game alone, as a bot's
            game.push(rng.choice(game.legal_actions()))
            pushed_there += 1
        else:
            before = len(game.history)
            while (action := episode.choose(rng.choice(episode.legal_ids()))) is None:
                pass
            assert len(game.history) == before and action in game.legal_actions()
            game.push(action)
            chosen_here += 1
        fresh = Episode(game.state.copy(), history=list(game.history))
        assert episode.legal_ids() == fresh.legal_ids()
        for player in (0, 1):
            assert episode.observation(player) == fresh.observation(player)
            assert np.array_equal(
                episode.observation_and_mask(player)[0], reference_tensor(fresh, player)
            )
    assert chosen_here > 10 and pushed_there > 10
    with pytest.raises(GameOverError):
        episode.choose(episode.space.size - 1)


def test_observations_and_masks_belong_to_the_caller() -> None:
    episode = Episode.deal(find_rules("standard"), seed=5, dealer=0)
    rng = random.Random(5)
    kept = []
    for _ in range(30):
        player = episode.player
        observation, mask = episode.observation_and_mask(player)
        kept.append((observation, observation.copy(), mask, mask.copy(), player))
        observation[:] = 1  # a learner may scribble on what it was given...
        mask[:] = 0
        assert np.array_equal(
            episode.observation_and_mask(player)[0], reference_tensor(episode, player)
        )
        assert episode.observation_and_mask(player)[1].any()
        observation[:] = kept[-1][1]
        mask[:] = kept[-1][3]
        episode.step(rng.choice(episode.legal_ids()))
    # ...and later steps leave what it kept alone.
    assert all(np.array_equal(o, o0) and np.array_equal(m, m0) for o, o0, m, m0, _ in kept)
    assert len({o.tobytes() for o, *_ in kept}) > 20


def test_named_slices_hold_what_they_say() -> None:
    layout = TensorLayout(find_rules("standard"))
    names = [name for name, _, _ in layout.slices(info_state=True)]
    assert len(names) == len(set(names))
    stops = [(start, stop) for _, start, stop in layout.slices(info_state=True)]
    assert stops[0][0] == 0 and stops[-1][1] == layout.info_size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(stops))
    where = {name: (start, stop) for name, start, stop in layout.slices(info_state=True)}
    for episode in random_positions("standard", deals=3, seed=8):
        obs = episode.observation(episode.player)
        vector = encode_info_state(layout, obs)
        assert np.array_equal(vector[: layout.observation_size], encode_observation(layout, obs))

        def cards(name: str, v: np.ndarray = vector) -> int:
            start, stop = where[name]
            return sum(1 << i for i in np.flatnonzero(v[start:stop]))

        assert cards("hand") == obs.hand_mask
        assert cards("dead") == obs.dead_mask
        assert cards("centre") == (1 << obs.centre if obs.centre >= 0 else 0)
        start, stop = where["stock_count"]
        assert list(np.flatnonzero(vector[start:stop])) == [obs.stock_count]
        start, stop = where["own_melds"]
        melds = {layout.space.melds.melds[i] for i in np.flatnonzero(vector[start:stop])}
        assert melds == set(obs.tables[obs.viewer])
        start, stop = where["history"]
        rows = vector[start:stop].reshape(layout.history_rows, layout.row_width)
        assert int(rows.any(axis=1).sum()) == len(obs.history)


def test_the_dealt_hand_is_recovered_from_the_history() -> None:
    layout = TensorLayout(find_rules("standard"))
    start = dict((n, s) for n, s, _ in layout.slices(True))["dealt_hand"]
    for deal_seed in range(3):
        episode = Episode.deal(layout.space.rules, seed=deal_seed, dealer=0, layout=layout)
        dealt = episode.state.hands
        rng = random.Random(deal_seed)
        while not episode.over:
            episode.play(rng.choice(episode.state.legal_actions()))
            for p in (0, 1):
                bits = episode.info_state_tensor(p)[start : start + 40]
                assert sum(1 << int(i) for i in np.flatnonzero(bits)) == dealt[p]


# ---------------------------------------------------------------- PettingZoo


def test_pettingzoo_api_and_seed_tests() -> None:
    from pettingzoo.test import api_test, seed_test

    from conquian.envs import pettingzoo_env

    api_test(pettingzoo_env.env(), num_cycles=200)
    seed_test(pettingzoo_env.env, num_cycles=200)
    api_test(pettingzoo_env.env(rules="bicycle"), num_cycles=200)


def test_pettingzoo_reset_seed_and_illegal_ids() -> None:
    from conquian.envs import pettingzoo_env

    env = pettingzoo_env.env()
    firsts = []
    for seed in (1, 1, 2):
        env.reset(seed=seed)
        firsts.append(env.observe(env.agent_selection)["observation"])
    assert np.array_equal(firsts[0], firsts[1]) and not np.array_equal(firsts[0], firsts[2])
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=f"Action id {bad} "):
        env.step(bad)
    assert env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["observation"], firsts[2])
    # A whole deal, with rewards that sum to zero.
    rng = random.Random(0)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for name in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        total[name] += reward
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if termination or truncation else int(rng.choice(legal)))
    assert sum(total.values()) == 0.0


# ----------------------------------------------------------------- Gymnasium


def test_gymnasium_registration_and_check_env() -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import conquian.envs

    assert conquian.envs.GYM_ID in gymnasium.registry
    check_env(gymnasium.make(conquian.envs.GYM_ID).unwrapped)
    check_env(gymnasium.make(conquian.envs.GYM_ID, opponent="heuristic", rules="bicycle").unwrapped)


def test_gymnasium_deals_against_a_bot() -> None:
    import gymnasium

    import conquian.envs  # noqa: F401

    env = gymnasium.make("conquian/Conquian-v0", opponent="greedy", illegal_action="raise")
    rng = np.random.default_rng(0)
    rewards = []
    for seed in range(6):
        observation, info = env.reset(seed=seed, options={"seat": seed % 2})
        assert info["seat"] == seed % 2
        terminated = False
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            assert not truncated
        rewards.append(reward)
        assert not observation["action_mask"].any()
    assert set(rewards) <= {-1.0, 0.0, 1.0} and -1.0 in rewards  # random play loses to greedy
    observation, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    refusing = gymnasium.make("conquian/Conquian-v0", opponent="random")
    observation, _ = refusing.reset(seed=1)
    again, reward, terminated, _, info = refusing.step(bad)
    assert "not legal" in info["illegal_action"] and reward == 0.0 and not terminated
    assert np.array_equal(again["observation"], observation["observation"])
    with pytest.raises(IllegalActionError, match="outside the action space"):
        refusing.step(10_000)
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        refusing.reset(options={"seat": 2})


# ------------------------------------------------------------------ OpenSpiel


def test_openspiel_random_simulation_test() -> None:
    import pyspiel

    import conquian.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_conquian")
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    variant = pyspiel.load_game("python_conquian", {"rules": "bicycle", "dealer": 0})
    pyspiel.random_sim_test(variant, num_sims=5, serialize=False, verbose=False)
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_distinct_actions() == 229


def _dealt_state(seed: int, rules: str = "standard") -> object:
    import pyspiel

    import conquian.envs.openspiel  # noqa: F401

    game = pyspiel.load_game("python_conquian", {"rules": rules})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


def test_openspiel_resample_keeps_the_information_state() -> None:
    import pyspiel

    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(1)
    changed = 0
    for seed in range(3):
        state = _dealt_state(seed)
        while not state.is_terminal():
            player = state.current_player()
            resampled = state.resample_from_infostate(player, sampler)
            assert resampled.information_state_string(player) == state.information_state_string(
                player
            )
            assert resampled.information_state_tensor(player) == state.information_state_tensor(
                player
            )
            assert resampled.legal_actions() == state.legal_actions()
            changed += resampled.information_state_string(
                1 - player
            ) != state.information_state_string(1 - player)
            state.apply_action(rng.choice(state.legal_actions()))
    assert changed > 20


def test_openspiel_ismcts_and_mcts_play_a_deal() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    state = _dealt_state(7)
    game = state.get_game()
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(1)),
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(2)),
    ]
    moves = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 10 and sum(state.returns()) == 0.0


def test_openspiel_rejects_bad_parameters_and_chance_actions() -> None:
    import pyspiel

    import conquian.envs.openspiel  # noqa: F401

    with pytest.raises(Exception, match="dealer"):
        pyspiel.load_game("python_conquian", {"dealer": 3})
    state = pyspiel.load_game("python_conquian").new_initial_state()
    state.apply_action(5)
    with pytest.raises(Exception, match="not a card still to be dealt"):
        state.apply_action(5)


def test_observation_strings_name_the_cards() -> None:
    state = _dealt_state(2)
    player = state.current_player()
    text = state.information_state_string(player)
    hand = text.split("| hand ")[1].split(" |")[0]
    assert parse_cards_mask(hand) == state.episode.state.hands[player]


@pytest.mark.parametrize("rules", ["standard", "wikipedia", "bicycle"])
def test_a_state_rebuilt_from_an_observation_has_the_same_information_state(rules: str) -> None:
    from conquian.envs.openspiel import state_from_observation

    rng = random.Random(4)
    checked = 0
    for seed in range(3):
        state = _dealt_state(seed, rules)
        game = state.get_game()
        while not state.is_terminal():
            player = state.current_player()
            if state.episode.pending(player) is None:
                obs = state.episode.observation(player)
                rebuilt = state_from_observation(game, obs, rng)
                assert rebuilt.information_state_string(player) == state.information_state_string(
                    player
                )
                assert rebuilt.information_state_tensor(player) == state.information_state_tensor(
                    player
                )
                assert rebuilt.legal_actions() == state.legal_actions()
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50


# ------------------------------------------------------------------- examples

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_the_learning_example_trains_and_plays_through_the_match_runner(tmp_path: Path) -> None:
    policy = tmp_path / "policy.npz"
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / "learn_numpy.py"),
            "train",
            "--episodes",
            "30",
            "--report",
            "10",
            "--out",
            str(policy),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "30 deals" in done.stderr and policy.exists()
    result = run_match(
        f"cmd:{sys.executable} {EXAMPLES / 'learn_numpy.py'} play {policy}", "random", 2, seed=1
    )
    assert result.deals == 2 and not result.failures
    assert result.bot_a.name.endswith("numpy-linear-policy")


def test_the_ismcts_example_plays_through_the_match_runner() -> None:
    command = f"cmd:{sys.executable} {EXAMPLES / 'openspiel_ismcts.py'} --simulations 4"
    result = run_match(command, "greedy", 1, seed=3, time_limit_ms=60_000)
    assert result.deals == 1 and not result.failures
    assert result.bot_a.name.endswith("openspiel-ismcts")
