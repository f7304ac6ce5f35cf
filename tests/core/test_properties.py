"""Property tests over seeded random games under several rule sets.

Each test plays whole deals (a seed, a rules spec and a "greed" level choose the
moves) and checks an invariant at every step.  Greedy play takes the biggest
take on offer, so games also reach wins, forces and long tables; random play
reaches refusals and exhausted stocks.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian.actions import Action, ActionKind
from conquian.cards import ALL_CARDS_MASK, NUM_CARDS, format_mask
from conquian.errors import GameOverError, IllegalActionError
from conquian.melds import is_rearrangement_allowed, partition_mask
from conquian.notation import format_position, parse_position
from conquian.observation import observe
from conquian.rules import (
    Exhaustion,
    ForcedTake,
    ForceScope,
    Forcing,
    MeldWithoutTake,
    RearrangeMode,
    Rules,
    find_rules,
)
from conquian.state import GameState, Phase, Source, Termination

MAX_ACTIONS = 200

RULE_SPECS = [
    "standard",
    "bicycle",
    "foster",
    "wikipedia",
    "standard,forcing=automatic",
    "standard,rearrange_mode=none",
    "standard,exhaustion=fewest_hand_cards",
    "standard,forcing=off",
    "standard,force_fit=with_rearrangement",
    "bicycle,forcing=automatic,exhaustion=fewest_hand_cards",
    "foster,rearrange_mode=none,force_fit=direct",
    "wikipedia,forced_take=minimal,force_fit=with_rearrangement",
    "standard,hand_size=6,deal_packet=2,max_seq_len=3",
]

SEEDS = st.integers(0, 2**32 - 1)
SPECS = st.sampled_from(RULE_SPECS)
GREED = st.sampled_from([0.0, 0.7, 1.0])


# --------------------------------------------------------------------------- play


def choose(state: GameState, rng: random.Random, greed: float) -> Action:
    legal = state.legal_actions()
    if rng.random() >= greed:
        return rng.choice(legal)
    takes = [a for a in legal if a.kind is ActionKind.TAKE]
    if takes:
        best = max(partition_mask(a.melds).bit_count() for a in takes)
        return rng.choice([a for a in takes if partition_mask(a.melds).bit_count() == best])
    if state.phase is Phase.FORCE:
        return Action(ActionKind.FORCE)
    return rng.choice(legal)


def play(spec: str, seed: int, greed: float) -> tuple[list[GameState], list[Action]]:
    """Every state of one deal (copies) and the actions between them."""
    rules = find_rules(spec)
    rng = random.Random(seed)
    state = GameState.deal(
        rules, seed=rng.randrange(2**32), dealer=rng.randrange(2), stake=rng.randint(1, 4)
    )
    states = [state.copy()]
    actions: list[Action] = []
    while not state.is_over and len(actions) < MAX_ACTIONS:
        action = choose(state, rng, greed)
        state.apply(action)
        actions.append(action)
        states.append(state.copy())
    return states, actions


def unturned_mask(state: GameState) -> int:
    mask = 0
    for index in state.stock[state.stock_pos :]:
        mask |= 1 << index
    return mask


def snapshot(state: GameState) -> tuple[str, tuple[Action, ...]]:
    return format_position(state), state.legal_actions()


# --------------------------------------------------------------------------- invariants


def check_conservation(state: GameState) -> None:
    places = [
        state.hands[0],
        state.hands[1],
        state.table_masks[0],
        state.table_masks[1],
        1 << state.centre if state.centre >= 0 else 0,
        state.dead_mask,
        unturned_mask(state),
    ]
    seen = 0
    for mask in places:
        assert not mask & seen, f"{format_mask(mask & seen)} is in two places: {state!r}"
        seen |= mask
    assert seen == ALL_CARDS_MASK, f"lost {format_mask(~seen & ALL_CARDS_MASK)}: {state!r}"
    assert sum(mask.bit_count() for mask in places) == NUM_CARDS
    assert len(state.stock) - state.stock_pos == state.stock_count >= 0


def check_counts(state: GameState) -> None:
    rules = state.rules
    for p in (0, 1):
        count = state.hands[p].bit_count() + state.table_masks[p].bit_count()
        if state.phase is Phase.OVER and state.winner == p and state.termination is Termination.OUT:
            assert count == rules.cards_to_win == rules.hand_size + 1
            assert state.hands[p] == 0
        elif state.phase is Phase.DISCARD and p == state.to_act:
            assert count == rules.hand_size + 1
        else:
            assert count == rules.hand_size, (p, state)


def check_tables(state: GameState) -> None:
    for p in (0, 1):
        union = 0
        table = state.tables[p]
        assert table == tuple(sorted(table))
        for meld in table:
            assert meld in state.melds.valid, (p, format_mask(meld))
            assert not meld & union
            union |= meld
        assert union == state.table_masks[p]


def check_phase(state: GameState) -> None:
    legal = state.legal_actions()
    assert (len(legal) == 0) == state.is_over
    assert len(set(legal)) == len(legal), "duplicate legal actions"
    if state.phase in (Phase.OFFER, Phase.TURN, Phase.FORCE, Phase.FORCED):
        assert state.centre >= 0 and state.source is not Source.NONE
    else:
        assert state.centre == -1 and state.source is Source.NONE
    if state.phase is Phase.TURN:
        assert state.source is Source.TURNED
    if state.phase is Phase.OVER:
        outcome = state.outcome()
        assert outcome is not None
        if outcome.termination is Termination.OUT:
            assert outcome.winner is not None
            assert state.table_masks[outcome.winner].bit_count() == state.rules.cards_to_win
        else:
            assert state.stock_count == 0
            a, b = state.hands[0].bit_count(), state.hands[1].bit_count()
            if state.rules.exhaustion is Exhaustion.DRAW or a == b:
                assert outcome.winner is None
            else:
                assert outcome.winner == (0 if a < b else 1)
    else:
        assert state.outcome() is None


@given(SEEDS, SPECS, GREED)
@settings(max_examples=500, deadline=None)
def test_invariants_at_every_step(seed: int, spec: str, greed: float) -> None:
    states, actions = play(spec, seed, greed)
    assert states[-1].is_over, f"no end within {MAX_ACTIONS} actions"
    assert len(actions) <= MAX_ACTIONS
    for state in states:
        check_conservation(state)
        check_counts(state)
        check_tables(state)
        check_phase(state)
    for before, after in itertools.pairwise(states):
        # Table cards never leave a table; the dead pile only grows.
        for p in (0, 1):
            assert before.table_masks[p] & ~after.table_masks[p] == 0
        assert before.dead_mask & ~after.dead_mask == 0
        assert after.stock_pos >= before.stock_pos


@pytest.mark.parametrize("spec", RULE_SPECS)
def test_games_end_both_ways(spec: str) -> None:
    outcomes = set()
    for seed in range(20):
        states, _ = play(spec, seed, 1.0 if seed % 2 else 0.0)
        final = states[-1]
        assert final.is_over
        outcome = final.outcome()
        assert outcome is not None
        outcomes.add(outcome.termination)
    assert outcomes == {Termination.STOCK_EXHAUSTED, Termination.OUT}


def test_greedy_play_reaches_wins_and_forces() -> None:
    wins = forces = 0
    for seed in range(40):
        states, _ = play("standard", seed, 1.0)
        wins += states[-1].termination is Termination.OUT
        _, actions = play("standard", seed, 0.6)
        forces += any(a.kind is ActionKind.FORCE for a in actions)
    assert wins > 0 and forces > 0


# --------------------------------------------------------------------------- legal actions


def check_take(state: GameState, action: Action, after: GameState) -> None:
    p = state.to_act
    rules = state.rules
    old = state.table_masks[p]
    centre = 1 << state.centre
    new = partition_mask(action.melds)
    assert new & (old | centre) == old | centre, "a take keeps the table and melds the centre"
    assert not new & ~(old | centre | state.hands[p]), "only own hand cards may be laid"
    assert after.table_masks[p] == new
    assert after.hands[p] == state.hands[p] & ~new
    if state.phase is Phase.FORCED and rules.forced_take is ForcedTake.MINIMAL:
        assert new == old | centre, "a minimal forced take adds only the forced card"
    if rules.rearrange_mode is not RearrangeMode.FREE:
        assert is_rearrangement_allowed(state.tables[p], action.melds, rules.rearrange_mode)
    if rules.rearrange_mode is RearrangeMode.NONE:
        for meld in state.tables[p]:
            assert any(not meld & ~x for x in action.melds), "old melds stay whole"


def check_kinds(state: GameState) -> None:
    rules: Rules = state.rules
    kinds = {a.kind for a in state.legal_actions()}
    lays = [a for a in state.legal_actions() if a.kind is ActionKind.PASS and a.melds]
    if state.phase is Phase.OFFER:
        assert ActionKind.DECLINE in kinds and kinds <= {ActionKind.TAKE, ActionKind.DECLINE}
    elif state.phase is Phase.TURN:
        assert ActionKind.PASS in kinds and kinds <= {ActionKind.TAKE, ActionKind.PASS}
        if rules.meld_without_take is MeldWithoutTake.NEVER:
            assert not lays
    elif state.phase is Phase.FORCE:
        assert kinds == {ActionKind.FORCE, ActionKind.NO_FORCE}
        assert rules.forcing is Forcing.OPTIONAL
    elif state.phase is Phase.FORCED:
        assert kinds == {ActionKind.TAKE}
        assert rules.forcing is not Forcing.OFF
    elif state.phase is Phase.DISCARD:
        assert kinds == {ActionKind.DISCARD}
        assert {a.card for a in state.legal_actions()} == {
            i for i in range(NUM_CARDS) if state.hands[state.to_act] >> i & 1
        }


@given(SEEDS, SPECS, GREED)
@settings(max_examples=300, deadline=None)
def test_every_legal_action_applies_on_a_copy(seed: int, spec: str, greed: float) -> None:
    states, _ = play(spec, seed, greed)
    for state in states:
        before = snapshot(state)
        check_kinds(state)
        for action in state.legal_actions():
            child = state.copy()
            child.apply(action)
            assert snapshot(state) == before, "applying to a copy changed the original"
            check_conservation(child)
            check_counts(child)
            check_tables(child)
            if action.kind is ActionKind.TAKE:
                check_take(state, action, child)
            if action.kind is ActionKind.DISCARD:
                assert child.centre == action.card and child.source is Source.DISCARD
                assert child.to_act == 1 - state.to_act and child.phase is Phase.OFFER
            if (
                action.kind is ActionKind.DECLINE
                and state.source is not Source.UPCARD
                and child.phase is Phase.FORCE
            ):
                assert state.rules.forcing is Forcing.OPTIONAL
            if action.kind is ActionKind.PASS and child.phase in (Phase.FORCE, Phase.FORCED):
                assert state.rules.force_scope is ForceScope.ANY_DECLINED


# --------------------------------------------------------------------------- illegal actions


def illegal_candidates(state: GameState, rng: random.Random) -> list[Action]:
    p = state.to_act
    melds = state.melds.melds
    out: list[Action] = []
    not_in_hand = [i for i in range(NUM_CARDS) if not state.hands[p] >> i & 1]
    for card in rng.sample(not_in_hand, 3):
        out.append(Action.discard(card))
    out.append(Action.take(state.tables[p]))  # the old table, without the centre card
    out.append(Action.take(()))
    out.append(Action.take((rng.choice(melds),)))
    out.append(Action.take(tuple(sorted({rng.choice(melds), rng.choice(melds)}))))
    out.append(Action(ActionKind.TAKE, -1, ((1 << rng.randrange(40)) | (1 << rng.randrange(40)),)))
    for legal in state.legal_actions():
        if legal.kind is ActionKind.TAKE and len(legal.melds) > 1:
            out.append(Action.take(legal.melds[1:]))  # drops cards the take must hold
            break
    out.append(Action(ActionKind.PASS, -1, (rng.choice(melds),)))
    for kind in (ActionKind.DECLINE, ActionKind.PASS, ActionKind.FORCE, ActionKind.NO_FORCE):
        out.append(Action(kind))
    return out


@given(SEEDS, SPECS, GREED)
@settings(max_examples=150, deadline=None)
def test_illegal_actions_rejected_and_state_unchanged(seed: int, spec: str, greed: float) -> None:
    states, _ = play(spec, seed, greed)
    rng = random.Random(seed)
    rejected = 0
    for state in states:
        before = snapshot(state)
        legal = set(state.legal_actions())
        for action in illegal_candidates(state, rng):
            if action in legal:
                continue
            with pytest.raises(IllegalActionError) as info:
                state.apply(action)
            assert str(info.value), "the error explains itself"
            assert info.value.action == action
            if state.is_over:
                assert isinstance(info.value, GameOverError)
            assert snapshot(state) == before, f"rejected {action} changed the state"
            rejected += 1
    assert rejected > 0


@given(SEEDS, SPECS)
@settings(max_examples=50, deadline=None)
def test_no_action_after_game_over(seed: int, spec: str) -> None:
    states, actions = play(spec, seed, 0.5)
    final = states[-1]
    assert final.is_over and final.legal_actions() == ()
    before = format_position(final)
    tried = [*set(actions), *illegal_candidates(final, random.Random(seed))]
    for action in tried:
        with pytest.raises(GameOverError):
            final.apply(action)
    assert format_position(final) == before


# --------------------------------------------------------------------------- hidden information


@given(SEEDS, SPECS, GREED)
@settings(max_examples=100, deadline=None)
def test_observation_unchanged_by_redeal(seed: int, spec: str, greed: float) -> None:
    states, _ = play(spec, seed, greed)
    rng = random.Random(seed ^ 0x5EED)
    changed = 0
    for state in states:
        position = format_position(state)
        for player in (0, 1):
            obs = observe(state, player)
            other = 1 - player
            data = obs.to_dict()
            text = str(obs)
            hidden = state.hands[other] | unturned_mask(state)
            assert not obs.seen_mask & hidden
            assert obs.unknown_mask == hidden
            for _ in range(2):
                redealt = state.redeal(player, rng)
                changed += redealt.hands[other] != state.hands[other]
                assert redealt.hands[player] == state.hands[player]
                assert redealt.hands[other].bit_count() == state.hands[other].bit_count()
                assert redealt.hands[other] | unturned_mask(redealt) == hidden
                check_conservation(redealt)
                new_obs = observe(redealt, player)
                assert new_obs.to_dict() == data
                assert str(new_obs) == text
                assert new_obs == obs
        assert format_position(state) == position, "redeal changed the original"
    assert changed > 0, "redeal never changed a hand"


# --------------------------------------------------------------------------- notation


@given(SEEDS, SPECS, GREED)
@settings(max_examples=300, deadline=None)
def test_action_text_round_trips(seed: int, spec: str, greed: float) -> None:
    states, _ = play(spec, seed, greed)
    for state in states:
        for action in state.legal_actions():
            text = str(action)
            assert Action.parse(text) == action, text
            assert Action.parse(f"  {text.upper()}  ") == action, text


@given(SEEDS, SPECS, GREED)
@settings(max_examples=150, deadline=None)
def test_position_string_round_trips(seed: int, spec: str, greed: float) -> None:
    states, _ = play(spec, seed, greed)
    for state in states:
        text = format_position(state)
        assert len(text.split()) == 12
        parsed = parse_position(text)
        assert format_position(parsed) == text
        assert parsed.legal_actions() == state.legal_actions(), text
        assert parsed.outcome() == state.outcome(), text
        assert parsed.rules == state.rules
        assert (parsed.hands, parsed.tables, parsed.dead_mask) == (
            state.hands,
            state.tables,
            state.dead_mask,
        )
        assert (parsed.centre, parsed.source, parsed.stake) == (
            state.centre,
            state.source,
            state.stake,
        )
        assert parsed.stock_count == state.stock_count
        if not state.is_over:
            assert parsed.to_act == state.to_act


@given(SEEDS, SPECS, GREED)
@settings(max_examples=80, deadline=None)
def test_parsed_position_plays_on_like_the_original(seed: int, spec: str, greed: float) -> None:
    states, actions = play(spec, seed, greed)
    rng = random.Random(seed)
    index = rng.randrange(len(states))
    parsed = parse_position(format_position(states[index]))
    for action in actions[index:]:
        parsed.apply(action)
    assert format_position(parsed) == format_position(states[-1])


# --------------------------------------------------------------------------- copies


@given(SEEDS, SPECS, GREED)
@settings(max_examples=100, deadline=None)
def test_copy_is_independent(seed: int, spec: str, greed: float) -> None:
    rules = find_rules(spec)
    rng = random.Random(seed)
    state = GameState.deal(rules, seed=seed, dealer=seed % 2)
    steps = 0
    while not state.is_over and steps < MAX_ACTIONS:
        original = snapshot(state)
        duplicate = state.copy()
        assert snapshot(duplicate) == original
        action = choose(state, rng, greed)
        duplicate.apply(action)
        assert snapshot(state) == original, "applying to the copy changed the original"
        again = state.copy()
        state.apply(action)
        assert snapshot(again) == original, "applying to the original changed the copy"
        assert format_position(state) == format_position(duplicate)
        child = again.child(action)
        assert snapshot(again) == original
        assert format_position(child) == format_position(state)
        steps += 1
    assert state.is_over


# --------------------------------------------------------------------------- validate


@pytest.mark.parametrize("spec", ["standard", "wikipedia"])
def test_validate_accepts_positions_reached_in_play(spec: str) -> None:
    """``GameState.validate`` must accept every position that legal play reaches."""
    for seed in range(5):
        states, _ = play(spec, seed, 0.7)
        for state in states:
            state.validate()
