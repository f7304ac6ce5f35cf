"""The engine side of the bot protocol against bot programs that abuse their process:
stderr floods (M3 of the reliability audit), children left behind (L6), and stdout written
far ahead of the engine's reading (found with them, the audit's section 5).

Each test runs a real bot program, a small Python script written into ``tmp_path``, and
measures what it checks deterministically (memory with :mod:`tracemalloc`, processes
through ``/proc`` or signals), never by wall time.
"""

from __future__ import annotations

import json
import shlex
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from conquian.bots.protocol import (
    AHEAD_LINES,
    MAX_LINE,
    STDERR_LINE_CHARS,
    STDERR_LINES,
    ExternalBot,
)
from conquian.game import Game
from conquian.tools.arena import run_match

# A bot script: answer hello, play the first legal action, stop at quit. ON_ACT runs before
# each action (``acts`` counts them), AFTER_ACT after it, AT_QUIT at quit.
BOT = """
import json, os, sys
acts = 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": NAME}), flush=True)
    elif kind == "quit":
        AT_QUIT
        break
    elif kind == "act":
        acts += 1
        ON_ACT
        print(json.dumps({"type": "action", "action": message["legal_actions"][0]}), flush=True)
        AFTER_ACT
"""


def write_bot(
    directory: Path, name: str, on_act: str = "", after_act: str = "", at_quit: str = ""
) -> list[str]:
    """Write a bot script with these hooks (Python statements); its command line."""
    code = BOT
    for hook, statements in (("ON_ACT", on_act), ("AFTER_ACT", after_act), ("AT_QUIT", at_quit)):
        body = textwrap.indent(textwrap.dedent(statements).strip() or "pass", " " * 8).lstrip()
        code = code.replace(hook, body)
    path = directory / f"{name}.py"
    path.write_text(f"NAME = {name!r}\n{code}", encoding="utf-8")
    return [sys.executable, str(path)]


def play_deal(
    bot: ExternalBot, seed: int = 3, after_first_action: Callable[[], None] | None = None
) -> Game:
    """One deal of the standard rules: ``bot`` in seat 0, the first legal action in seat 1
    (``after_first_action`` runs once the bot has played its first)."""
    game = Game("standard", seed=seed)
    bot.new_deal(0, game.rules)
    while not game.state.is_over:
        if game.state.to_act == 0:
            game.push(bot.act(game.observation(0)))
            if after_first_action is not None:
                after_first_action()
                after_first_action = None
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
        on_act=f"""
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


# ---------------------------------------------------------------------- L6


def process_gone(pid: int) -> bool:
    """Whether process ``pid`` has ended: it is not there, or it is a zombie (dead, its
    status not yet read by its new parent, an init that may never read it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def wait_until_gone(pid: int, deadline_s: float = 20.0) -> bool:
    """Poll until process ``pid`` has ended; False if it still runs after ``deadline_s``."""
    deadline = time.monotonic() + deadline_s
    while not process_gone(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def forking_bot(directory: Path, *, ignore_sigterm: bool) -> tuple[list[str], Path]:
    """A bot that, at its first act, starts a child that sleeps for two minutes (deaf to
    SIGTERM if ``ignore_sigterm``), and adds the child's pid to a file; the command line
    and that file."""
    pid_file = directory / "child.pid"
    deaf = "signal.signal(signal.SIGTERM, signal.SIG_IGN)" if ignore_sigterm else "pass"
    command = write_bot(
        directory,
        "forker",
        on_act=f"""
        if acts == 1:
            import signal, time
            {deaf}  # before the fork: the child is deaf from its first instruction
            child = os.fork()
            if child == 0:
                time.sleep(120)
                os._exit(0)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            with open({str(pid_file)!r}, "a") as handle:  # one write: whole lines
                handle.write(f"{{child}}\\n")
        """,
    )
    return command, pid_file


@pytest.mark.parametrize("ignore_sigterm", [False, True], ids=["sleeps", "ignores SIGTERM"])
@pytest.mark.parametrize("ending", ["close", "kill"])
def test_l6_the_processes_a_bot_started_end_with_it(
    tmp_path: Path, ignore_sigterm: bool, ending: str
) -> None:
    """L6: a bot forks a child that sleeps (and ignores SIGTERM); once the engine has
    closed the bot (or killed it, as Ctrl-C does), the child is gone too."""
    command, pid_file = forking_bot(tmp_path, ignore_sigterm=ignore_sigterm)
    bot = ExternalBot(command, time_limit_ms=60_000)
    try:
        game = play_deal(bot)
        [child] = map(int, pid_file.read_text().split())  # written before its first action
        assert not process_gone(child)
    finally:
        if ending == "close":
            bot.close()
        else:
            bot.kill()
    assert game.state.is_over
    assert wait_until_gone(child), f"the bot's child {child} outlived the bot"


def test_l6_the_arena_with_workers_leaves_no_bot_process(tmp_path: Path) -> None:
    """L6 through ``run_match`` with two worker processes: every child that the bot
    programs started, deaf to SIGTERM, is gone when the match returns."""
    command, pid_file = forking_bot(tmp_path, ignore_sigterm=True)
    spec = "cmd:" + shlex.join(command)
    result = run_match(spec, "random", 2, seed=4, jobs=2, time_limit_ms=60_000)
    assert len(result.games) == 4 and not result.failures
    children = list(map(int, pid_file.read_text().split()))  # one per bot program started
    assert children
    for child in children:
        assert wait_until_gone(child), f"the bot's child {child} outlived the arena"


# ------------------------------------------------------------- stdout ahead


FLOOD_LINES = 300


def test_a_bot_writing_far_ahead_of_the_engine_waits(tmp_path: Path) -> None:
    """Audit section 5: a bot writes 300 info lines of 1 MB (at most MAX_LINE) right after
    its first action, while the engine is not reading, and again when told to quit. Its
    lines wait in a queue of AHEAD_LINES, then its writes wait: the engine's memory stays
    bounded (tracemalloc's peak), the bot plays on once read, and when it is stopped in
    the middle of a write, the engine's reader threads end."""
    marker = tmp_path / "all written"
    flood = f"""
        info = json.dumps({{"type": "info", "text": "x" * ({MAX_LINE} - 100)}}) + "\\n"
        for _ in range({FLOOD_LINES}):
            sys.stdout.write(info)
        sys.stdout.flush()
        open({str(marker)!r}, "w").close()
        """
    command = write_bot(tmp_path, "chatty", after_act=f"if acts == 1:\n{flood}", at_quit=flood)
    peaks = []

    def wait_for_the_flood() -> None:
        assert process is not None
        deadline = time.monotonic() + 120
        while not (marker.exists() or process.lines.full()):
            assert time.monotonic() < deadline, "the bot neither wrote everything nor waited"
            time.sleep(0.01)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()

    bot = ExternalBot(command, time_limit_ms=60_000)
    try:
        bot.start()
        process = bot._process
        assert process is not None
        tracemalloc.start()
        game = play_deal(bot, after_first_action=wait_for_the_flood)
    finally:
        tracemalloc.stop()
        bot.close()  # the bot floods again: stopped while it writes
    assert game.state.is_over
    assert peaks and peaks[0] < (AHEAD_LINES + 4) * MAX_LINE, f"peak {peaks[0]:,} bytes"
    assert len(bot.info) == bot.info.maxlen  # the lines were read, and the last kept
    for thread in process.threads:
        thread.join()  # each ends: the program is gone, nobody reads its lines any more


@pytest.mark.parametrize("jobs", [1, 2])
def test_l6_ctrl_c_at_the_arena_ends_the_bots_children(tmp_path: Path, jobs: int) -> None:
    """L6 from the command line: Ctrl-C goes to the arena alone (the bots run in sessions
    of their own), and the arena stops each bot with every process it started."""
    command, pid_file = forking_bot(tmp_path, ignore_sigterm=True)
    argv = [sys.executable, "-m", "conquian.cli", "arena", "cmd:" + shlex.join(command), "random"]
    argv += ["--deals", "1000000", "--jobs", str(jobs), "--time-limit-ms", "60000", "--json"]
    arena = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C as at a terminal, even if this test runs where SIGINT is ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while len(pid_file.read_text().split() if pid_file.exists() else []) < jobs:
            assert arena.poll() is None and time.monotonic() < deadline, arena.stderr
            time.sleep(0.02)  # each bot program has started its child
        arena.send_signal(signal.SIGINT)
        out, err = arena.communicate(timeout=120)
    finally:
        if arena.poll() is None:
            arena.kill()
            arena.wait()
    assert arena.returncode == 130 and "Traceback" not in err, err
    assert json.loads(out)["interrupted"] is True
    children = list(map(int, pid_file.read_text().split()))
    for child in children:
        assert wait_until_gone(child), f"the bot's child {child} outlived the arena"
