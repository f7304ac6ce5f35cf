"""Legal-move counts ("perft") of fixed positions, checked against tests/core/data/perft.json.

For each stored position and depth d the test recounts the legal action sequences of length d
(a finished deal is a leaf) and the distinct positions (by position string) reached by exactly d
decisions.  A change in any count means the legal actions changed somewhere in the tree.  If
that is intended, regenerate the file with ``python scripts/perft.py --write`` and say why in the
commit; otherwise it is a bug.

The positions are two-player positions of the four two-player presets and positions of the
Mexican game with two, three and four players (the exchange, the offer round, forcing by the
offerer, and two trees followed to the end of the deal: their last stored count is 0).

The counting is written out here, independently of scripts/perft.py, so that this test stands
alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conquian import GameState, format_position, parse_position

DATA = Path(__file__).parent / "data" / "perft.json"
ENTRIES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))
REGENERATE = "python scripts/perft.py --write"


def count(state: GameState, depth: int) -> list[tuple[int, int]]:
    """``(sequences, positions)`` for each depth 1 .. ``depth``."""
    level = {format_position(state): (state, 1)}  # position string -> (state, sequences to it)
    counts = []
    for _ in range(depth):
        following: dict[str, tuple[GameState, int]] = {}
        for node, weight in level.values():
            if node.is_over:
                continue
            for action in node.legal_actions():
                child = node.copy()
                child.apply(action)
                text = format_position(child)
                before = following[text][1] if text in following else 0
                following[text] = (child, before + weight)
        counts.append((sum(weight for _, weight in following.values()), len(following)))
        level = following
    return counts


PLAY_PHASES = {"offer", "turn", "force", "forced", "discard"}


def test_the_file_covers_every_phase_and_preset() -> None:
    positions = [entry["position"] for entry in ENTRIES]
    phases = {text.split()[1] for text in positions}
    assert PLAY_PHASES | {"exchange"} <= phases
    presets = {text.split()[0].split(",")[0] for text in positions}
    assert {"standard", "bicycle", "foster", "wikipedia", "mexican"} <= presets
    assert any("," in text.split()[0] for text in positions), "no rules spec with flags"
    names = [entry["name"] for entry in ENTRIES]
    assert len(names) == len(set(names)), "position names must be unique"


def test_the_file_covers_three_and_four_players() -> None:
    """Every phase with three and with four players (a discard: a paid card goes round), the
    exchange with two, a turned card and a passed one going round, the forcing of a paid and
    of a passed card, and trees followed until every line has ended the deal."""
    phases: dict[int, set[str]] = {2: set(), 3: set(), 4: set()}
    centres: dict[int, set[str]] = {3: set(), 4: set()}
    to_the_end = set()
    for entry in ENTRIES:
        state = parse_position(entry["position"])
        n = state.num_players
        fields = entry["position"].split()
        phases[n].add(fields[1])
        if n > 2 and fields[4 + 2 * n] != "-":
            owner = fields[4 + 2 * n].split(":")[1]  # source, owner and refuser: "d2>1"
            centres[n].add(owner[0] + (">" if ">" in owner else ""))
        if entry["counts"][-1]["sequences"] == 0:
            to_the_end.add(n)
    assert "exchange" in phases[2]
    for n in (3, 4):
        assert PLAY_PHASES | {"exchange"} <= phases[n], f"{n} players: {sorted(phases[n])}"
        assert {"p", "t"} <= centres[n], f"{n} players: centre sources {sorted(centres[n])}"
        assert {"p>", "d>"} & centres[n], f"{n} players: no force decision"
        assert n in to_the_end, f"no {n}-player tree followed until every line ends"
    assert {"p>", "d>"} <= centres[3] | centres[4]


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_position_string_round_trips(entry: dict[str, Any]) -> None:
    text = entry["position"]
    assert format_position(parse_position(text)) == text, f"{entry['name']}: {text!r}"


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_perft_counts(entry: dict[str, Any]) -> None:
    stored = entry["counts"]
    assert [c["depth"] for c in stored] == list(range(1, len(stored) + 1))
    computed = count(parse_position(entry["position"]), len(stored))
    for c, (sequences, positions) in zip(stored, computed, strict=True):
        assert (sequences, positions) == (c["sequences"], c["positions"]), (
            f"perft of {entry['name']!r} ({entry['position']}) at depth {c['depth']}: "
            f"{sequences} sequences and {positions} positions, "
            f"but {c['sequences']} and {c['positions']} are stored in {DATA.name}. "
            f"If this change of the legal actions is intended, regenerate the file with "
            f"'{REGENERATE}'; otherwise the legal actions changed by mistake."
        )
