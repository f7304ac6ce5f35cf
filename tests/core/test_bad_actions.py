"""Malformed Action objects (not reachable through text) are refused cleanly."""

from __future__ import annotations

import pytest

from conquian import Action, ActionKind, Game, IllegalActionError, format_position


@pytest.mark.parametrize(
    "action",
    [
        Action(ActionKind.DISCARD, 40),
        Action(ActionKind.DISCARD, -1),
        Action(ActionKind.DISCARD, -7),
        Action(ActionKind.TAKE, -1, (-1,)),
        Action(ActionKind.TAKE, -1, (0,)),
        Action(ActionKind.TAKE, -1, (1 << 45,)),
        Action(ActionKind.PASS, 99),
    ],
)
def test_malformed_action_objects_are_illegal_and_change_nothing(action: Action) -> None:
    state = Game(seed=1).state
    before = format_position(state)
    with pytest.raises(IllegalActionError, match="does not name real cards"):
        state.apply(action)
    assert format_position(state) == before
