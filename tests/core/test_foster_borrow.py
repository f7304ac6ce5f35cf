"""Foster's borrowing (``rearrange_mode foster_borrow``), docs/rules.md §10.1.

Besides laying cards off onto his combinations and laying down new ones, a player may in a take
only (a) move one card of a four-card set into a run, the other three staying a set, and
(b) move end cards of a run into sets, one at a time, each from a run of four or more, so that
the rest stays one run.  A lay-off made in the same take counts first: a three-card set that
the take refills may give a card, and a run of three that the take lengthens may give an end
card.  Runs are never split in the middle, broken up into sets, or merged.

Positions are written as position strings (see docs/rules.md and ``conquian.parse_position``);
player 0 is to act and player 1 dealt.
"""

from __future__ import annotations

import random

import pytest

from conquian import parse_position
from conquian.actions import Action, ActionKind
from conquian.melds import partition_mask
from conquian.rules import find_rules
from conquian.state import GameState, Phase

FOSTER = "foster"
FOSTER_STANDARD_DECK = "standard,rearrange_mode=foster_borrow"
FOSTER_REARRANGED_FORCING = "foster,force_fit=with_rearrangement"
FREE = "standard"


def pos(rules: str, hand0: str, table0: str, centre: str, *, hand1: str = "*") -> GameState:
    """An offer to player 0 (player 1 dealt) of ``centre`` (a discard unless marked)."""
    if ":" not in centre:
        centre += ":d"
    return parse_position(f"{rules} offer 0 1 {hand0} {hand1} {table0} - {centre} - * 1")


def canon(*texts: str) -> set[str]:
    """The canonical texts of actions written in any meld or card order."""
    return {str(Action.parse(t)) for t in texts}


def legal(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def takes(state: GameState) -> set[str]:
    return {str(a) for a in state.legal_actions() if a.kind is ActionKind.TAKE}


# ------------------------------------------------------------ a run is not broken up into sets


def test_run_of_three_is_not_broken_up_into_sets() -> None:
    """The fuzzing report: 5c 6c 7c must not become the clubs of three sets."""
    state = parse_position("foster offer 0 1 5h5d6h6d7h7dKc * 5c6c7c - 7s:d - * 1")
    assert legal(state) == canon("take 7s7h7d/5c6c7c", "decline")
    # The same breakups are fine when rearranging is free.
    free = parse_position("standard offer 0 1 5h5d6h6d7h7dKc * 5c6c7c - 7s:d - * 1")
    assert canon(
        "take 5h5d5c/6h6d6c/7s7h7c",
        "take 5h5d5c/6h6d6c/7s7d7c",
        "take 5h5d5c/6h6d6c/7s7h7d7c",
        "take 7s7h7d/5c6c7c",
    ) <= takes(free)


def test_run_of_three_gives_no_card_and_does_not_merge() -> None:
    # 5c could join 5h 5d only if 6c 7c went into the other run: a merge.
    base = ("5h2s3s4d", "5c6c7c/JcQcKc", "5d")
    state = pos(FOSTER_STANDARD_DECK, *base)
    assert legal(state) == {"decline"}
    assert "take 5h5d5c/6c7cJcQcKc" in takes(pos(FREE, *base))


def test_run_of_three_lengthened_by_the_take_may_give_an_end_card() -> None:
    # docs/rules.md E4: 5c makes 5c 6c 7c Jc, a run of four, whose Jc may then go to a set.
    state = pos(FOSTER, "JhJd2s2h4dQdKs", "6c7cJc", "5c")
    assert legal(state) == canon("take 5c6c7cJc", "take 5c6c7c/JhJdJc", "decline")


def test_run_of_three_never_gives_a_card_when_runs_are_three_long() -> None:
    # With max_seq_len 3 no run of four ever exists, so there is nothing to borrow from.
    base = ("JhJd2s2h4dQdKs", "6c7cJc", "5c")
    assert legal(pos(FOSTER_STANDARD_DECK + ",max_seq_len=3", *base)) == {"decline"}
    assert takes(pos("standard,max_seq_len=3", *base)) == canon("take 5c6c7c/JhJdJc")


def test_run_of_four_gives_an_end_card_into_a_set() -> None:
    state = pos(FOSTER, "7h7dKdQs2d2s", "4c5c6c7c", "7s")
    assert legal(state) == canon(
        "take 4c5c6c7c/7s7h7d", "take 4c5c6c/7s7h7d7c", "take 4c5c6c/7s7h7c",
        "take 4c5c6c/7s7d7c", "decline",
    )  # fmt: skip
    low = pos(FOSTER, "4h4dKdQs2d2s", "4c5c6c7c", "4s")
    assert "take 4s4h4d4c/5c6c7c" in takes(low)


def test_run_of_five_gives_both_low_end_cards() -> None:
    # Repeatable: 3c from a run of five, then 4c from the run of four that is left.
    state = pos(FOSTER, "3h3d4h4dKs", "3c4c5c6c7c", "3s")
    assert "take 3s3h3d3c/4h4d4c/5c6c7c" in takes(state)
    assert "take 3s3h3d/3c4c5c6c7c" in takes(state)


def test_run_of_five_does_not_give_its_middle_card() -> None:
    # Even though Ac and 7c would make both halves runs of three again (fine under free).
    base = ("Ac7c4h4dKs", "2c3c4c5c6c", "4s")
    state = pos(FOSTER_STANDARD_DECK, *base)
    assert legal(state) == canon(
        "take 2c3c4c5c6c/4s4h4d", "take Ac2c3c4c5c6c/4s4h4d",
        "take 2c3c4c5c6c7c/4s4h4d", "take Ac2c3c4c5c6c7c/4s4h4d", "decline",
    )  # fmt: skip
    assert canon("take Ac2c3c/5c6c7c/4s4h4d4c") <= takes(pos(FREE, *base))


def test_run_of_seven_is_not_split_into_two_runs_of_three() -> None:
    base = ("4h4dKc", "As2s3s4s5s6s7s", "4c")
    split = canon("take As2s3s/5s6s7s/4s4h4d4c")
    assert split <= takes(pos(FREE, *base))
    assert not split & takes(pos(FOSTER_STANDARD_DECK, *base))


# ------------------------------------------------------------------------------------- sets


def test_set_of_four_gives_one_card_into_a_run() -> None:
    # docs/rules.md E5 under the foster preset.
    state = pos(FOSTER, "2h3hKcQsJd7s", "4h4s4d4c", "5h")
    assert legal(state) == canon("take 2h3h4h5h/4s4d4c", "take 3h4h5h/4s4d4c", "decline")


def test_set_of_four_gives_no_more_than_one_card() -> None:
    # 4h and 4d cannot both go into runs (2h 3h 4h 5h, 2d 3d 4d 5d): 4s 4c would be left.
    state = pos(FOSTER, "2h3h2d3d5dKc", "4h4s4d4c", "5h")
    assert takes(state) == canon("take 2h3h4h5h/4s4d4c", "take 3h4h5h/4s4d4c")


def test_set_of_three_gives_no_card() -> None:
    # docs/rules.md E6: 2h 3h 4h 5h would leave 4s 4d.
    state = pos(FOSTER, "2h3hKcQsJd7s6c", "4h4s4d", "5h")
    assert legal(state) == {"decline"}
    state.apply(Action.parse("decline"))
    assert state.phase is Phase.TURN  # not forceable


def test_set_of_three_refilled_from_the_hand_may_give_a_card() -> None:
    # Laying 4c off first makes a set of four, which may then give 4h to a run (§10.1, C9).
    state = pos(FOSTER, "4c2h3hKcQsJd7s", "4h4s4d", "5h")
    assert legal(state) == canon("take 2h3h4h5h/4s4d4c", "take 3h4h5h/4s4d4c", "decline")


def test_set_of_three_refilled_by_the_taken_card_may_give_a_card() -> None:
    state = pos(FOSTER, "2h3hKcQsJd7s6c", "4h4s4d", "4c")
    assert legal(state) == canon("take 4h4s4d4c", "take 2h3h4h/4s4d4c", "decline")


# ------------------------------------------------------------------------------- forcing


def declined_is_forceable(state: GameState) -> bool:
    state = state.copy()
    state.apply(Action.parse("decline"))
    return state.phase is Phase.FORCE


def takes_without_hand_cards(state: GameState) -> set[str]:
    whole = state.table_masks[0] | 1 << state.centre
    return {
        str(a)
        for a in state.legal_actions()
        if a.kind is ActionKind.TAKE and partition_mask(a.melds) == whole
    }


def test_forcing_breaking_runs_into_sets_is_not_allowed() -> None:
    # 5s fits only if the three runs become three sets: no take, so no force.
    base = ("Ks", "5c6c7c/5h6h7h/5d6d7d", "5s")
    state = pos(FOSTER_REARRANGED_FORCING, *base)
    assert legal(state) == {"decline"}
    assert not declined_is_forceable(state)
    free = pos("standard,force_fit=with_rearrangement", *base)
    assert takes_without_hand_cards(free) == canon("take 5s5h5d5c/6h6d6c/7h7d7c")
    assert declined_is_forceable(free)


def test_forcing_borrowing_end_cards_of_runs_of_four() -> None:
    state = pos(FOSTER_REARRANGED_FORCING, "KsQd", "4c5c6c7c/4h5h6h7h", "4s")
    assert takes_without_hand_cards(state) == canon("take 4s4h4c/5c6c7c/5h6h7h")
    assert declined_is_forceable(state)
    state.apply(Action.parse("decline"))
    state.apply(Action.parse("force"))
    assert legal(state) == canon("take 4s4h4c/5c6c7c/5h6h7h")


def test_forcing_borrowing_from_a_run_of_three_is_not_allowed() -> None:
    # 4h may leave its run of four, but 4c would leave 5c 6c, which only a merge could save.
    base = ("-", "4c5c6c/7cJcQc/4h5h6h7h", "4s")
    state = pos(FOSTER_REARRANGED_FORCING, *base)
    assert takes_without_hand_cards(state) == set()
    assert not declined_is_forceable(state)
    assert declined_is_forceable(pos("standard,force_fit=with_rearrangement", *base))


def test_forcing_needs_a_run_of_four_to_borrow_from() -> None:
    # 5c would make 5c 6c 7c Jc, too long under max_seq_len 3, so Jc cannot be borrowed.
    base = ("2s3d4hQd", "6c7cJc/JhJdJs", "5c")
    cap3 = "max_seq_len=3,force_fit=with_rearrangement"
    state = pos(f"{FOSTER_STANDARD_DECK},{cap3}", *base)
    assert legal(state) == {"decline"}
    assert not declined_is_forceable(state)
    free = pos(f"standard,{cap3}", *base)
    assert takes_without_hand_cards(free) == canon("take 5c6c7c/JhJdJsJc")
    assert declined_is_forceable(free)
    # With room for a run of four the borrow is allowed, and so is the force.
    state = pos(f"{FOSTER_STANDARD_DECK},force_fit=with_rearrangement", *base)
    assert takes_without_hand_cards(state) == canon("take 5c6c7cJc/JhJdJs", "take 5c6c7c/JhJdJsJc")
    assert declined_is_forceable(state)


@pytest.mark.parametrize("spec", [FOSTER_REARRANGED_FORCING, FOSTER_STANDARD_DECK])
def test_forceability_agrees_with_takes_in_random_games(spec: str) -> None:
    """With force_fit with_rearrangement a refused card may be forced exactly when it could be
    taken without hand cards; with direct fits, only if it could (and fits as it stands)."""
    rules = find_rules(spec)
    rearranged = spec == FOSTER_REARRANGED_FORCING
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        state = GameState.deal(rules, seed=seed, dealer=seed % 2)
        while not state.is_over:
            if state.phase is Phase.OFFER and state.table_masks[state.to_act]:
                p = state.to_act
                whole = state.table_masks[p] | 1 << state.centre
                bare = any(
                    a.kind is ActionKind.TAKE and partition_mask(a.melds) == whole
                    for a in state.legal_actions()
                )
                forceable = state.is_forceable(p, state.centre, offered=True)
                if rearranged:
                    assert forceable == bare, state
                else:
                    assert not forceable or bare, state
                checked += 1
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
    assert checked > 100
