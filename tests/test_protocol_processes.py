"""The engine side of the bot protocol against bot programs that abuse their process:
stderr floods (M3 of the reliability audit) and children left behind (L6).

Each test runs a real bot program, a small Python script written into ``tmp_path``, and
measures what it checks deterministically (memory with :mod:`tracemalloc`, processes
through ``/proc`` or signals), never by wall time.
"""

from __future__ import annotations

import sys
import textwrap
import tracemalloc
from pathlib import Path

from conquian.bots.protocol import STDERR_LINE_CHARS, STDERR_LINES, ExternalBot
from conquian.game import Game

# A bot script starts with this: answer hello, play the first legal action, stop at quit.
# ON_ACT runs before each action (``acts`` counts them).
BOT = """
import json, os, sys
acts = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": NAME}), flush=True)
    elif kind == "quit":
        break
    elif kind == "act":
        acts += 1
        ON_ACT
        print(json.dumps({"type": "action", "action": message["legal_actions"][0]}), flush=True)
"""


def write_bot(directory: Path, name: str, on_act: str) -> list[str]:
    """Write a bot script whose acts first run ``on_act``; its command line."""
    body = textwrap.indent(textwrap.dedent(on_act).strip(), " " * 8).lstrip()
    path = directory / f"{name}.py"
    path.write_text(f"NAME = {name!r}\n" + BOT.replace("ON_ACT", body), encoding="utf-8")
    return [sys.executable, str(path)]


def play_deal(bot: ExternalBot, seed: int = 3) -> Game:
    """One deal of the standard rules: ``bot`` in seat 0, the first legal action in seat 1."""
    game = Game("standard", seed=seed)
    bot.new_deal(0, game.rules)
    while not game.state.is_over:
        if game.state.to_act == 0:
            game.push(bot.act(game.observation(0)))
        else:
            game.push(game.legal_actions()[0])
    return game


# ---------------------------------------------------------------------- M3


FLOOD_MIB = 50


def test_m3_a_stderr_line_without_a_newline_is_read_in_bounded_pieces(tmp_path: Path) -> None:
    """M3: a bot writes 50 MiB to stderr without a newline, then a short line, then plays
    the deal out. The deal ends normally; what the engine kept of stderr is the bounded
    tail, and its memory never held the long line (tracemalloc's peak, all threads)."""
    command = write_bot(
        tmp_path,
        "flood",
        f"""
        if acts == 1:
            for _ in range({FLOOD_MIB}):
                sys.stderr.write("e" * (1 << 20))
            sys.stderr.write("\\nstill here\\n")
            sys.stderr.flush()
        """,
    )
    tracemalloc.start()
    try:
        with ExternalBot(command, time_limit_ms=60_000) as bot:
            game = play_deal(bot)
            process = bot._process
            assert process is not None
        process._stderr_reader.join()  # the program has exited: its stderr ends
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert game.state.is_over
    assert peak < 8 << 20, f"peak {peak:,} bytes while reading {FLOOD_MIB} MiB of stderr"
    tail = list(process.stderr_tail)
    assert tail == ["e" * STDERR_LINE_CHARS, "still here"]
    assert sum(map(len, tail)) <= STDERR_LINES * STDERR_LINE_CHARS
