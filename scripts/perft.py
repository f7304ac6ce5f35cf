"""Legal-move counts ("perft") for a fixed list of Conquian positions.

For each position and each depth d (1 to the position's depth: 3 for the two-player positions,
more for the smaller trees of the Mexican game, to the end of the deal for two of them) this counts

* ``sequences``: the legal action sequences of length d (the sum over the game tree of the legal
  actions; a finished deal is a leaf without children), and
* ``positions``: the distinct positions reached by exactly d decisions, told apart by their
  position strings (``conquian.format_position``).

``python scripts/perft.py`` prints the table (and says where it differs from the stored file);
``python scripts/perft.py --write`` writes it to ``tests/core/data/perft.json``, which
``tests/core/test_perft.py`` checks.  Rewrite the file only when a change of the legal actions is
intended, and say why in the commit.

Positions come either from a position string (the worked examples of docs/rules.md and
tests/core/test_examples.py, sometimes followed by a few actions) or from a seeded deal played on with
seeded random legal actions: two-player deals of the four two-player presets, and deals of the
Mexican game (docs/rules.md section 14) with two, three and four players, for the exchange, a card
offered round the table, forcing by the player who turned or paid the card, and a deal's last
moves.  Only public, stable interfaces are used: ``parse_position``, ``format_position``,
``legal_actions``, ``copy``/``child``, ``is_over``, ``stock_count``, ``table``/``hand``,
``is_forceable`` and ``Game``/``push``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import conquian

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "core" / "data" / "perft.json"


# ------------------------------------------------------------------------------------ counting


def perft(state: conquian.GameState, depth: int) -> list[dict[str, int]]:
    """``[{"depth": d, "sequences": S, "positions": P}, ...]`` for d = 1 .. depth.

    The tree is walked level by level; nodes with the same position string are merged, with the
    number of sequences that reach them as their weight (the subtree below a position depends
    only on the position).
    """
    level: dict[str, tuple[conquian.GameState, int]] = {conquian.format_position(state): (state, 1)}
    counts = []
    for d in range(1, depth + 1):
        following: dict[str, tuple[conquian.GameState, int]] = {}
        for node, weight in level.values():
            if node.is_over:
                continue
            for action in node.legal_actions():
                child = node.child(action)
                text = conquian.format_position(child)
                seen = following.get(text)
                following[text] = (child, weight + (seen[1] if seen else 0))
        counts.append(
            {
                "depth": d,
                "sequences": sum(weight for _, weight in following.values()),
                "positions": len(following),
            }
        )
        level = following
    return counts


# ----------------------------------------------------------------------------------- positions


def fields(state: conquian.GameState) -> list[str]:
    return conquian.format_position(state).split()


def phase(state: conquian.GameState) -> str:
    return fields(state)[1]


def stock_count(state: conquian.GameState) -> int:
    return state.stock_count


def tables_laid(state: conquian.GameState) -> bool:
    """Every player has melded something."""
    return all(state.table(p) for p in range(state.num_players))


def centre_owner(state: conquian.GameState) -> int:
    """The player who turned or paid the centre card, from the position string's centre field
    (``Kd:p2``, ``As:d2>1``); only positions with more than two players name him."""
    centre = fields(state)[4 + 2 * state.num_players]
    return int(centre.split(":")[1][1:].split(">")[0])


def choices_made(state: conquian.GameState) -> int:
    """How many players have chosen their exchange card (the last field, e.g. ``Kh,5c,-,-``)."""
    return sum(pick != "-" for pick in fields(state)[-1].split(","))


def after(text: str, *actions: str) -> conquian.GameState:
    """The position ``text`` after the actions given in canonical text."""
    state = conquian.parse_position(text)
    for wanted in actions:
        legal = {str(action): action for action in state.legal_actions()}
        if wanted not in legal:
            raise SystemExit(f"{wanted!r} is not legal in {conquian.format_position(state)!r}")
        state.apply(legal[wanted])
    return state


def played(
    rules: str,
    seed: int,
    dealer: int,
    stop: Callable[[conquian.GameState], bool],
) -> conquian.GameState:
    """A seeded deal played on with seeded random legal actions until ``stop`` holds.

    Actions are chosen from the legal ones sorted by their text, so that the position does not
    depend on the engine's order of the legal actions.  The deal must not end before ``stop`` holds.
    """
    game = conquian.Game(rules, seed=seed, dealer=dealer)
    rng = random.Random(seed)
    while not stop(game.state):
        if game.state.is_over:
            raise SystemExit(f"{rules} seed {seed}: the deal ended before the position was reached")
        game.push(rng.choice(sorted(game.state.legal_actions(), key=str)))
    return game.state.copy()


def mid_deal(state: conquian.GameState) -> bool:
    """8 to 12 cards in stock, both tables laid, a take-or-refuse decision."""
    return (
        8 <= stock_count(state) <= 12 and tables_laid(state) and phase(state) in ("offer", "turn")
    )


def near_end(state: conquian.GameState) -> bool:
    """At most one card in stock, a take-or-refuse decision."""
    return stock_count(state) <= 1 and phase(state) in ("offer", "turn")


def discarding(state: conquian.GameState) -> bool:
    """A discard after a take, with both tables laid and 6 to 14 cards in stock."""
    return phase(state) == "discard" and tables_laid(state) and 6 <= stock_count(state) <= 14


def choosing_with(chosen: int) -> Callable[[conquian.GameState], bool]:
    """An exchange decision after ``chosen`` players have chosen their card."""
    return lambda state: phase(state) == "exchange" and choices_made(state) == chosen


def round_from_the_start(source: str) -> Callable[[conquian.GameState], bool]:
    """A card of ``source`` (``p`` turned and passed, ``d`` paid) offered to the seat after its
    owner, with a choice, every table laid and 3 to 10 cards in stock: the whole offer round,
    each player declining in turn until the card comes back to its owner, lies within a few
    decisions."""

    def stop(state: conquian.GameState) -> bool:
        return (
            phase(state) == "offer"
            and fields(state)[4 + 2 * state.num_players].split(":")[1][0] == source
            and state.to_act == (centre_owner(state) + 1) % state.num_players
            and len(state.legal_actions()) >= 2
            and tables_laid(state)
            and 3 <= stock_count(state) <= 10
        )

    return stop


def paying(state: conquian.GameState) -> bool:
    """A discard (paying a card) from at least five hand cards, every table laid."""
    return phase(state) == "discard" and tables_laid(state) and len(state.legal_actions()) >= 5


def force_decision(state: conquian.GameState) -> bool:
    """Whether to force a player who refused a card that fits his table."""
    return phase(state) == "force"


def forced_choice(state: conquian.GameState) -> bool:
    """A forced take with more than one way to meld the card."""
    return phase(state) == "forced" and len(state.legal_actions()) >= 2


def forced_out(state: conquian.GameState) -> bool:
    """A forced take by a player with an empty hand: it puts him out."""
    return phase(state) == "forced" and not state.hand(state.to_act)


def last_stock_card(state: conquian.GameState) -> bool:
    """The last stock card just turned, with a choice."""
    return phase(state) == "turn" and stock_count(state) == 0 and len(state.legal_actions()) >= 2


def own_card_fits(state: conquian.GameState) -> bool:
    """A stock card just turned that fits the turner's table as it stands (a passed card that
    the two-player rules let the opponent force), with at least two ways to take it."""
    return (
        phase(state) == "turn"
        and state.is_forceable(state.to_act, state.centre, offered=False)
        and len(state.legal_actions()) >= 3
    )


# E4/D10 of docs/rules.md and tests/core/test_examples.py: 5c onto 6c 7c Jc, the Bicycle rearrangement.
BICYCLE_EXAMPLE = "{} offer 0 1 JhJd2s2h4dQdKs * 6c7cJc - 5c:d - * 1"
# E7/D16: 7c discarded onto a player holding 3c 4c 5c 6c.
FORCE_EXAMPLE = "{} offer 0 1 KhKd2s2dJhQs * 3c4c5c6c - 7c:d - Ah* 1"
# E10/D20: the same with three Kings in hand (full versus minimal forced take).
FORCED_EXAMPLE = "{} offer 0 1 KhKdKs2d2hJd * 3c4c5c6c - 7c:d - * 1"

# (name, note, depth, how to build the position)
POSITIONS: list[tuple[str, str, int, Callable[[], conquian.GameState]]] = [
    (
        "standard-start",
        "start of a deal: Game('standard', seed=1, dealer=0), non-dealer's first stock card",
        3,
        lambda: conquian.Game("standard", seed=1, dealer=0).state,
    ),
    (
        "bicycle-start",
        "start of a deal: Game('bicycle', seed=1, dealer=0); passing may lay cards (meld_without_take)",
        3,
        lambda: conquian.Game("bicycle", seed=1, dealer=0).state,
    ),
    (
        "foster-start",
        "start of a deal: Game('foster', seed=2, dealer=1)",
        3,
        lambda: conquian.Game("foster", seed=2, dealer=1).state,
    ),
    (
        "wikipedia-upcard",
        "start of a deal: Game('wikipedia', seed=2, dealer=0), the initial upcard offered (source u)",
        3,
        lambda: conquian.Game("wikipedia", seed=2, dealer=0).state,
    ),
    (
        "standard-mid-deal",
        "Game('standard', seed=127, dealer=0) played on at random to 8-12 stock cards, both tables laid",
        3,
        lambda: played("standard", 127, 0, mid_deal),
    ),
    (
        "standard-discard",
        "Game('standard', seed=61, dealer=0) played on at random to a discard, both tables laid",
        3,
        lambda: played("standard", 61, 0, discarding),
    ),
    (
        "standard-near-end",
        "Game('standard', seed=95, dealer=0) played on at random to a decision with one card left in the stock",
        3,
        lambda: played("standard", 95, 0, near_end),
    ),
    (
        "foster-mid-deal",
        "Game('foster', seed=202, dealer=0) played on at random to 8-12 stock cards, both tables laid",
        3,
        lambda: played("foster", 202, 0, mid_deal),
    ),
    (
        "rearrange-free",
        "E4/D10: 5c offered to 6c 7c Jc with Jh Jd in hand; free rearrangement",
        3,
        lambda: after(BICYCLE_EXAMPLE.format("standard")),
    ),
    (
        "rearrange-none",
        "E4/D10 with rearrange_mode=none: only the lay-off 5c 6c 7c Jc",
        3,
        lambda: after(BICYCLE_EXAMPLE.format("standard,rearrange_mode=none")),
    ),
    (
        "foster-borrow-four-set",
        "E5/D11 under foster (foster_borrow): 5h offered to 4h 4s 4d 4c with 2h 3h in hand",
        3,
        lambda: after("foster offer 0 1 2h3hKcQsJd7s * 4h4s4d4c - 5h:d - * 1"),
    ),
    (
        "force-decision",
        "E7/D16 after 'decline': the opponent decides whether to force 7c (phase force)",
        3,
        lambda: after(FORCE_EXAMPLE.format("standard"), "decline"),
    ),
    (
        "forcing-off",
        "E7/D16 with forcing=off: a declined 7c goes dead and the stock card is turned",
        3,
        lambda: after(FORCE_EXAMPLE.format("standard,forcing=off")),
    ),
    (
        "forced-minimal",
        "E10/D20 with forced_take=minimal after 'decline', 'force' (phase forced)",
        3,
        lambda: after(FORCED_EXAMPLE.format("standard,forced_take=minimal"), "decline", "force"),
    ),
    (
        "own-card-force",
        "E9/D18 after 'decline': 6h turned onto two four-card runs; passing it can be forced",
        3,
        lambda: after("standard offer 0 1 KsKd * 2h3h4h5h/2c3c4c5c - Qd:d - 6h* 1", "decline"),
    ),
    (
        "empty-hand-rearrange",
        "E15: ten down, empty hand, Kh offered; the take wins (a finished deal is a leaf)",
        3,
        lambda: after("standard offer 0 1 - * QsQhQdQc/3h4h5h6h7hJh - Kh:d - * 1"),
    ),
    # The Mexican game (docs/rules.md section 14): three and four players, and two.
    (
        "mexican-exchange",
        "start of a deal: Game('tercerilla', seed=26, dealer=2), three players each choose a card to "
        "pass (8 x 8 x 8), then seat 0 turns the first stock card",
        5,
        lambda: conquian.Game("tercerilla", seed=26, dealer=2).state,
    ),
    (
        "mexican4-exchange",
        "start of a deal: Game('mexican,num_players=4', seed=1, dealer=0), the whole exchange (8^4)",
        5,
        lambda: conquian.Game("mexican,num_players=4", seed=1, dealer=0).state,
    ),
    (
        "mexican4-exchange-end",
        "Game('mexican,num_players=4', seed=0, dealer=0) played on at random until two players have "
        "chosen: the last two choices, the cards moving and the first stock card",
        5,
        lambda: played("mexican,num_players=4", 0, 0, choosing_with(2)),
    ),
    (
        "mexican2-exchange",
        "start of a deal: Game('mexican,num_players=2', seed=10, dealer=0), the exchange as a swap",
        5,
        lambda: conquian.Game("mexican,num_players=2", seed=10, dealer=0).state,
    ),
    (
        "mexican-passed-round",
        "Game('mexican', seed=13, dealer=1) played on at random to a passed stock card offered to the "
        "seat after its turner; it goes round, dead when it comes back, and seat 2 turns",
        6,
        lambda: played("mexican", 13, 1, round_from_the_start("p")),
    ),
    (
        "mexican-paid-round",
        "Game('mexican', seed=4, dealer=1) played on at random to a discard; the paid card is "
        "offered to seats 2 and 0, never back to the payer",
        6,
        lambda: played("mexican", 4, 1, paying),
    ),
    (
        "mexican4-passed-round",
        "Game('mexican,num_players=4', seed=153, dealer=1) played on at random to a passed stock "
        "card offered to the seat after its turner, three players to decline it",
        6,
        lambda: played("mexican,num_players=4", 153, 1, round_from_the_start("p")),
    ),
    (
        "mexican4-paid-round",
        "Game('mexican,num_players=4', seed=18, dealer=2) played on at random to a discard, "
        "offered to the three other seats in turn",
        6,
        lambda: played("mexican,num_players=4", 18, 2, paying),
    ),
    (
        "mexican-force",
        "Game('mexican', seed=5, dealer=2) played on at random to a force decision: the payer "
        "decides whether to force the player who refused his card (force_by offerer)",
        6,
        lambda: played("mexican", 5, 2, force_decision),
    ),
    (
        "mexican4-force",
        "Game('mexican,num_players=4', seed=32, dealer=0) played on at random to a force decision "
        "on a passed stock card: its turner decides",
        6,
        lambda: played("mexican,num_players=4", 32, 0, force_decision),
    ),
    (
        "mexican-forced",
        "Game('mexican', seed=11, dealer=2) played on at random to a forced take with a choice",
        6,
        lambda: played("mexican", 11, 2, forced_choice),
    ),
    (
        "mexican-forced-out",
        "Game('mexican', seed=46, dealer=1) played on at random to a forced take by a player with "
        "an empty hand: every take puts him out (a finished deal is a leaf)",
        3,
        lambda: played("mexican", 46, 1, forced_out),
    ),
    (
        "mexican4-forced",
        "Game('mexican,num_players=4', seed=240, dealer=0) played on at random to a forced take "
        "with a choice",
        6,
        lambda: played("mexican,num_players=4", 240, 0, forced_choice),
    ),
    (
        "mexican-last-card",
        "Game('mexican', seed=35, dealer=2) played on at random to the last stock card, just turned: "
        "the whole rest of the deal, 10 draws and 4 wins (the last count, 0, says every line ended)",
        13,
        lambda: played("mexican", 35, 2, last_stock_card),
    ),
    (
        "mexican4-last-card",
        "Game('mexican,num_players=4', seed=200, dealer=0) played on at random to the last stock "
        "card, just turned: the whole rest of the deal, 73 draws and 4 wins",
        17,
        lambda: played("mexican,num_players=4", 200, 0, last_stock_card),
    ),
    (
        "mexican2-own-card",
        "Game('mexican,num_players=2', seed=21, dealer=1) played on at random to a turned card that "
        "fits the turner's table: under force_by offerer passing it cannot be forced",
        6,
        lambda: played("mexican,num_players=2", 21, 1, own_card_fits),
    ),
]


def compute() -> list[dict[str, Any]]:
    entries = []
    for name, note, depth, build in POSITIONS:
        state = build()
        if depth < 3:
            note = f"{note}; depth {depth} only (deeper is too slow for the test)"
        entries.append(
            {
                "name": name,
                "note": note,
                "position": conquian.format_position(state),
                "counts": perft(state, depth),
            }
        )
    return entries


def dumps(entries: list[dict[str, Any]]) -> str:
    """The JSON text of the entries, one count to a line."""
    blocks = []
    for entry in entries:
        lines = [
            f"    {json.dumps(key)}: {json.dumps(entry[key])},"
            for key in ("name", "note", "position")
        ]
        counts = ",\n".join(f"      {json.dumps(count)}" for count in entry["counts"])
        blocks.append("  {\n" + "\n".join(lines) + '\n    "counts": [\n' + counts + "\n    ]\n  }")
    text = "[\n" + ",\n".join(blocks) + "\n]\n"
    assert json.loads(text) == entries
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Legal-move counts of fixed Conquian positions.")
    parser.add_argument("--write", action="store_true", help=f"write {OUT.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    entries = compute()
    seconds = time.perf_counter() - start
    if args.write:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(dumps(entries), encoding="utf-8")
        print(f"wrote {len(entries)} positions to {OUT.relative_to(ROOT)} ({seconds:.1f} s)")
        return 0
    stored: dict[str, dict[str, Any]] = {}
    if OUT.exists():
        stored = {e["name"]: e for e in json.loads(OUT.read_text(encoding="utf-8"))}
    print(f"{'name':24} {'depth':>5} {'sequences':>10} {'positions':>10}")
    differs = False
    for entry in entries:
        old = stored.get(entry["name"], {})
        same = (old.get("position"), old.get("counts")) == (entry["position"], entry["counts"])
        differs = differs or not same
        for c in entry["counts"]:
            print(f"{entry['name']:24} {c['depth']:>5} {c['sequences']:>10} {c['positions']:>10}")
        mark = "" if same or not stored else "   (differs from the stored file)"
        print(f"  {entry['position']}{mark}")
    print(f"{len(entries)} positions in {seconds:.1f} s")
    if differs and stored:
        print("Run with --write to store these counts, if the change is intended.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
