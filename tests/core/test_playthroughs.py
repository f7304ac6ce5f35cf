"""Golden playthroughs: one seeded deal of each preset, every decision written out as text.

``tests/core/data/playthroughs/*.txt`` hold, for each deal listed in ``scripts/playthroughs.py``,
every decision's position string, the player to act and the phase, the legal actions, the action a
seeded random chooser took and its public event, and the end of the deal.  The test plays each
deal again and compares the text; a difference fails with the first lines of a unified diff, so
a reviewer sees the decision where the behaviour changed (a legal action more or fewer, another
position, another event) and the moves that followed from it.  If the change is intended,
regenerate the files with ``python scripts/playthroughs.py --write`` and say in the commit why the
moves changed.

How this relates to ``tests/core/data/two_player_before.json``
(``test_mexican.py::test_two_player_games_play_as_before``): those 49 sha256 digests pin 49 seeded
two-player games to the engine of commit 71969ac, positions, legal actions, every observation and
the records included, and are never regenerated; they are the stronger guard but a failure only
says "changed".  The playthroughs cover all five presets and two, three and four players, are
regenerated after an intended change, and say what changed.  A change that breaks a digest of a
two-player game will usually show here too, as a readable diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conquian import PRESETS, find_rules

sys.path.insert(0, str(Path(__file__).parents[2] / "scripts"))
from playthroughs import OUT, PLAYTHROUGHS, REGENERATE, difference, playthrough


@pytest.mark.parametrize(
    ("name", "rules", "seed", "dealer", "note"),
    PLAYTHROUGHS,
    ids=[name for name, *_ in PLAYTHROUGHS],
)
def test_playthrough_as_stored(name: str, rules: str, seed: int, dealer: int, note: str) -> None:
    stored = (OUT / f"{name}.txt").read_text(encoding="utf-8")
    fresh = playthrough(rules, seed, dealer, note)
    if fresh != stored:
        pytest.fail(difference(f"{name}.txt", stored, fresh), pytrace=False)


def test_the_files_are_the_listed_playthroughs() -> None:
    """No stored file without its deal (a renamed one would otherwise be left unchecked)."""
    assert sorted(path.name for path in OUT.iterdir()) == sorted(
        f"{name}.txt" for name, *_ in PLAYTHROUGHS
    )


def test_every_preset_and_player_count_is_played() -> None:
    """The five presets (``tercerilla`` is ``mexican``), the Mexican one with 2, 3 and 4 players."""
    rules = [find_rules(spec) for _, spec, *_ in PLAYTHROUGHS]
    assert {r.to_spec().split(",")[0] for r in rules} == set(PRESETS)
    assert sorted(r.num_players for r in rules if r.exchange_one_card) == [2, 3, 4]


def test_the_files_show_every_decision_and_the_end() -> None:
    """Each file has one numbered decision per action of its deal, and the deal's end."""
    for name, *_ in PLAYTHROUGHS:
        lines = (OUT / f"{name}.txt").read_text(encoding="utf-8").splitlines()
        decisions = [line for line in lines if line[:1].isdigit()]
        chosen = [line for line in lines if line.startswith("   chosen: ")]
        assert len(decisions) == len(chosen) > 20, name
        assert lines[-3].startswith(f"end after {len(decisions)} decisions: "), name
        assert lines[-1].startswith("   record result: p"), name


def test_a_difference_shows_the_first_changed_lines_and_the_command() -> None:
    stored = "".join(f"line {i}\n" for i in range(1, 201))
    fresh = stored.replace("line 7\n", "line 7 changed\n")
    lines = difference("x.txt", stored, fresh).splitlines()
    assert lines[0] == "x.txt differs from the deal played now from line 7 on (- stored, + now):"
    assert lines[1:4] == ["--- stored/x.txt", "+++ now/x.txt", "@@ -4,7 +4,7 @@"]
    assert lines[4:11] == [
        " line 4",
        " line 5",
        " line 6",
        "-line 7",
        "+line 7 changed",
        " line 8",
        " line 9",
    ]
    assert lines[-1] == f"If the change of behaviour is intended, regenerate with: {REGENERATE}"
    assert len(lines) == 13

    # a deal that goes another way from line 30 on: both sides of the first lines, not the rest
    fresh = "".join(f"line {i}{' changed' if i >= 30 else ''}\n" for i in range(1, 201))
    lines = difference("x.txt", stored, fresh).splitlines()
    assert lines[0].endswith("from line 30 on (- stored, + now):")
    assert "-line 30" in lines and "+line 30 changed" in lines
    assert "-line 45" in lines and "+line 45 changed" in lines and "-line 46" not in lines
    assert lines[-2] == "... (and they differ after line 45)"

    # a file cut short
    lines = difference("x.txt", stored, stored[: stored.index("line 190")]).splitlines()
    assert lines[0].endswith("from line 190 on (- stored, + now):") and "-line 190" in lines
