"""The bot protocol: JSON lines over stdin/stdout, in the spirit of chess's UCI.

The full specification is ``docs/protocol.md``.  In short, the engine writes one
JSON object per line to the bot's stdin and the bot answers ``hello`` and ``act``
with one JSON object per line on its stdout::

    engine: {"type": "hello", "protocol": 1, "engine": "conquian 0.1.0"}
    bot:    {"type": "hello", "protocol": 1, "name": "my bot", "options": {}}
    engine: {"type": "new_deal", "player": 0, "rules": "standard", ...}
    engine: {"type": "act", "time_limit_ms": 5000, "legal_actions": [...], "observation": {...}}
    bot:    {"type": "action", "action": "decline"}
    engine: {"type": "result", "result": "win", "outcome": {...}, ...}
    engine: {"type": "quit"}

Engine side: :class:`ExternalBot` runs a bot program as a :class:`~conquian.bots.Bot`.
Bot side: :func:`serve` plays one of our bots over the protocol (``conquian bot NAME``).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any, NoReturn, TextIO, TypeGuard

from .. import __version__
from ..actions import Action
from ..errors import ConquianError
from ..observation import Observation
from ..reasons import Reason
from ..rules import Rules, find_rules
from . import Bot, Budget, make_bot

PROTOCOL_VERSION = 1
"""The protocol version this module speaks."""
DEFAULT_TIME_LIMIT_MS = 5000
"""Default time for one reply to ``act``."""
HANDSHAKE_TIMEOUT_S = 10.0
"""Time for a bot program to start and answer ``hello``."""
QUIT_GRACE_S = 1.0
"""Time a bot has to exit after ``quit`` before it is terminated."""
TERMINATE_GRACE_S = 0.5
"""Time a bot program, and every process it started, has to exit after SIGTERM before
SIGKILL."""
MAX_LINE = 1 << 20
"""Longest line either side reads: 1 MiB (1,048,576 characters, not counting the newline).
A longer line is garbage."""
AHEAD_LINES = 8
"""How many lines a bot program's stdout may run ahead of the engine's reading: then its
writes wait (without this, a flood written while the engine does not read piles up)."""
STDERR_LINES = 10
"""How many of a bot program's last stderr lines the engine keeps, for its error messages."""
STDERR_LINE_CHARS = 1000
"""How much of one stderr line the engine keeps: the rest of a longer line is read and dropped."""
MAX_ERROR_TEXT = 300
"""Longest ``message`` of an ``error`` that :func:`serve` writes."""


class BotFailure(ConquianError):
    """An external bot broke the protocol: garbage, an illegal action, no reply in time, or exit."""


class MessageError(ConquianError):
    """A protocol line that cannot be read as a message, or a message field that cannot be used.

    The text completes a sentence about the line or message: ``is not JSON (...)``,
    ``nests too deeply``, ``new_deal: 'player' must be 0 or 1, got "1"``.
    """


def _dumps(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _shorten(text: str, limit: int = 120) -> str:
    text = text.rstrip("\r\n")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(value: object) -> str:
    """A short text of a JSON value for a message, whatever its size or depth."""
    if isinstance(value, str):
        return repr(_shorten(value, 60))
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        text = (
            "a JSON array"
            if isinstance(value, list)
            else "a JSON object"
            if isinstance(value, dict)
            else "a value"
        )
    return _shorten(text, 60)


# -------------------------------------------------------------- reading lines


def iter_lines(stream: IO[str], limit: int = MAX_LINE) -> Iterator[str]:
    """The lines of ``stream``, none read whole beyond ``limit`` characters.

    A longer line is yielded as its first ``limit + 1`` characters, without its
    newline (so that :func:`read_message` refuses it), and the rest of it is read in
    pieces of ``limit`` characters and dropped: memory stays bounded however long it is.
    """
    while line := stream.readline(limit + 1):
        yield line
        if len(line) > limit and not line.endswith("\n"):
            while (rest := stream.readline(limit)) and not rest.endswith("\n"):
                pass
            if not rest:
                return


def read_stderr(stream: IO[str], tail: deque[str]) -> None:
    """Read a bot program's stderr to its end, keeping its last non-blank lines in ``tail``
    (a deque of bounded length), each cut to :data:`STDERR_LINE_CHARS` characters.

    Whatever the program writes (lines of any length, with or without a newline), the
    memory this takes is bounded.
    """
    for line in iter_lines(stream, STDERR_LINE_CHARS):
        text = line[:STDERR_LINE_CHARS].rstrip()
        if text:
            tail.append(text)


def read_message(line: str) -> dict[str, Any]:
    """One protocol line as a message: a JSON object with a string ``type``.

    Safe on any input: nothing but :class:`MessageError` comes out, whether the line
    is too long, not JSON, nested too deeply for the parser, or holds an integer too
    long for Python to read.

    >>> read_message('{"type": "quit"}')
    {'type': 'quit'}
    >>> read_message("[" * 100000)
    Traceback (most recent call last):
    ...
    conquian.bots.protocol.MessageError: nests too deeply

    :raises MessageError: saying what is wrong with the line.
    """
    text = line.rstrip("\r\n")
    if len(text) > MAX_LINE:
        raise MessageError(f"is longer than {MAX_LINE:,} characters")
    try:
        message = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MessageError(f"is not JSON ({exc.msg})") from None
    except RecursionError:
        raise MessageError("nests too deeply") from None
    except ValueError as exc:  # an integer of more digits than int() reads
        if "integer string conversion" in str(exc):
            limit = sys.get_int_max_str_digits()
            raise MessageError(f"holds a number of more than {limit} digits") from None
        raise MessageError(f"is not JSON ({_shorten(str(exc), 80)})") from None
    if not isinstance(message, dict):
        raise MessageError("is not a JSON object")
    if not isinstance(message.get("type"), str):
        raise MessageError("has no 'type' string")
    return message


def _is_number(value: object) -> TypeGuard[int | float]:
    """A finite JSON number that a float can hold (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer beyond any float
        return False


def _milliseconds(value: object, what: str) -> float | None:
    """``value`` as a positive number of milliseconds; None for null (or absent).

    :raises MessageError: naming ``what`` if it is anything else.
    """
    if value is None:
        return None
    if not _is_number(value) or value <= 0:
        raise MessageError(
            f"{what} must be a positive number of milliseconds, got {_describe(value)}"
        )
    return float(value)


# ------------------------------------------------------------------ messages


def hello_message() -> dict[str, Any]:
    """The engine's greeting."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "engine": f"conquian {__version__}"}


def new_deal_message(player: int, rules: Rules, time_limit_ms: int) -> dict[str, Any]:
    """Sent before each deal: the bot's seat and the rules (never the seed or the deck)."""
    return {
        "type": "new_deal",
        "player": player,
        "rules": rules.to_spec(),
        "flags": rules.to_dict(),
        "time_limit_ms": time_limit_ms,
    }


def act_message(obs: Observation, time_limit_ms: int) -> dict[str, Any]:
    """One decision: the bot's observation and its legal actions."""
    return {
        "type": "act",
        "time_limit_ms": time_limit_ms,
        "legal_actions": [str(a) for a in obs.legal_actions],
        "observation": obs.to_dict(),
    }


def result_message(obs: Observation, winner: int | None, reason: str | None) -> dict[str, Any]:
    """The end of a deal for the bot whose observation ``obs`` is.

    ``reason`` is set when the deal ended by a bot's failure (termination ``forfeit``).
    """
    if reason is not None:
        termination = "forfeit"
    elif obs.outcome is not None:
        termination = obs.outcome.termination.value
    else:
        termination = "unfinished"
    result = "draw" if winner is None else "win" if winner == obs.viewer else "loss"
    return {
        "type": "result",
        "result": result,
        "outcome": {"winner": winner, "termination": termination},
        "reason": reason,
        "observation": obs.to_dict(),
    }


QUIT_MESSAGE: dict[str, Any] = {"type": "quit"}


# --------------------------------------------------------------- engine side


def _group_left(popen: subprocess.Popen[str]) -> bool:
    """Whether any process is left of the bot program's process group (the program and
    whatever it started; one that has exited but not been waited for still counts)."""
    if sys.platform == "win32":  # no process groups: the program alone
        return popen.poll() is None
    try:
        os.killpg(popen.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of the group that is not ours to signal
        return True
    return True


def _signal_group(popen: subprocess.Popen[str], *, kill: bool) -> None:
    """SIGTERM (or with ``kill``, SIGKILL) to every process of the bot program's group."""
    with contextlib.suppress(OSError):
        if sys.platform != "win32":
            os.killpg(popen.pid, signal.SIGKILL if kill else signal.SIGTERM)
        elif kill:
            popen.kill()
        else:
            popen.terminate()


_RUNNING: set[subprocess.Popen[str]] = set()
"""The bot programs started in this process and not yet stopped (see :func:`kill_every_bot`)."""


def kill_every_bot() -> None:
    """SIGKILL to every bot program this process started and has not stopped, with every
    process each started: safe in a signal handler (it takes no lock, so it cannot wait on
    one the interrupted code holds), for a process about to exit at once."""
    for popen in list(_RUNNING):
        _signal_group(popen, kill=True)


class _Process:
    """A running bot program with reader and writer threads, so that no read or write blocks.

    The program runs in a session (so a process group) of its own, so that :meth:`stop`
    ends the processes it started too.
    """

    def __init__(self, argv: Sequence[str], cwd: str | None) -> None:
        try:
            self.popen = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=cwd,
                start_new_session=True,
            )
        except OSError as exc:
            raise BotFailure(f"cannot start {shlex.join(argv)}: {exc.strerror or exc}") from None
        _RUNNING.add(self.popen)
        self.lines: queue.Queue[str | None] = queue.Queue(maxsize=AHEAD_LINES)
        """The lines the program wrote, then None for the end of its output."""
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        self._outbox: queue.Queue[str | None] = queue.Queue()
        self._stopped = threading.Event()
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self.threads = [
            threading.Thread(target=target, args=(stream,), daemon=True)
            for target, stream in (
                (self._read_stdout, self.popen.stdout),
                (self._read_stderr, self.popen.stderr),
                (self._write_stdin, self.popen.stdin),
            )
        ]
        for thread in self.threads:
            thread.start()
        self._stderr_reader = self.threads[1]

    def _read_stdout(self, stream: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in iter_lines(stream):
                if not self._hand_over(line):
                    return
        self._hand_over(None)

    def _hand_over(self, line: str | None) -> bool:
        """Queue ``line`` for the engine, waiting while :data:`AHEAD_LINES` wait there;
        False once the program is stopped (nobody reads any more)."""
        while not self._stopped.is_set():
            with contextlib.suppress(queue.Full):
                self.lines.put(line, timeout=0.1)
                return True
        return False

    def _read_stderr(self, stream: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            read_stderr(stream, self.stderr_tail)

    def _write_stdin(self, stream: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while (line := self._outbox.get()) is not None:
                stream.write(line + "\n")
                stream.flush()
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def send(self, message: Mapping[str, Any]) -> None:
        self._outbox.put(_dumps(message))

    def running(self) -> bool:
        return self.popen.poll() is None

    def stop(self, grace_s: float) -> None:
        """Ask the program to quit (given ``grace_s`` seconds), then terminate and at last
        kill whatever is left of it and of the processes it started (its process group)."""
        if self.running() and grace_s > 0:
            self.send(QUIT_MESSAGE)
            self._outbox.put(None)  # then end of input
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(grace_s)
        self._outbox.put(None)
        if _group_left(self.popen):
            _signal_group(self.popen, kill=False)
            deadline = time.monotonic() + TERMINATE_GRACE_S
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(TERMINATE_GRACE_S)
            while _group_left(self.popen) and time.monotonic() < deadline:
                time.sleep(0.01)  # the processes it started: not our children, so polled
        if _group_left(self.popen):
            _signal_group(self.popen, kill=True)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(5.0)
        _RUNNING.discard(self.popen)
        self._stopped.set()  # a reader waiting to queue a line gives up

    def exit_text(self) -> str:
        """How the program ended, with the last line it wrote to stderr."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(0.5)
        code = self.popen.poll()
        if code is not None:
            self._stderr_reader.join(0.5)  # its last words
        return _exit_text(code, self.stderr_tail)


def _exit_text(code: int | None, stderr_tail: Sequence[str]) -> str:
    """How a bot program ended (``code``: its exit status, None while it runs), with the
    last line it wrote to stderr, shortened."""
    text = "closed its output" if code is None else f"exited with status {code}"
    if stderr_tail:
        text += f" (last stderr line: {_shorten(stderr_tail[-1])!r})"
    return text


class ExternalBot(Bot):
    """A bot program that speaks the protocol, run as a subprocess.

    ``command`` is a command line (split with :func:`shlex.split`) or an argument list.
    The program is started by :meth:`start` (or the first :meth:`new_deal`); after any
    failure it is stopped, and the next :meth:`new_deal` starts a fresh one.

    :meth:`new_deal` and :meth:`act` raise :class:`BotFailure` with a clear message when
    the program sends garbage, an illegal action, nothing in time, or exits.
    """

    name = "external"

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
        handshake_timeout_s: float = HANDSHAKE_TIMEOUT_S,
        options: Mapping[str, Any] | None = None,
        cwd: str | None = None,
        rng: random.Random | None = None,
        budget: Budget | None = None,
    ) -> None:
        super().__init__(rng=rng, budget=budget)
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise ConquianError("An external bot needs a command line.")
        if time_limit_ms <= 0:
            raise ConquianError(f"The time limit must be positive, got {time_limit_ms} ms.")
        self.command = shlex.join(self.argv)
        self.time_limit_ms = time_limit_ms
        self.handshake_timeout_s = handshake_timeout_s
        self.options = dict(options or {})
        self.cwd = cwd
        self.bot_name = self.command
        """The name the program gave in its ``hello`` (the command line until then)."""
        self.bot_options: dict[str, Any] = {}
        """The options the program offered in its ``hello``."""
        self.info: deque[str] = deque(maxlen=20)
        """The latest ``info`` texts the program sent."""
        self._process: _Process | None = None
        self._failed = False
        self._hung = False

    # ----------------------------------------------------------- lifecycle

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.running()

    def start(self) -> None:
        """Start the program and shake hands (nothing happens if it is already running).

        :raises BotFailure: if it cannot start or does not answer ``hello`` properly.
        """
        if self._process is not None:
            if self._process.running() and not self._failed:
                return
            self.close()
        self._failed = self._hung = False
        self._process = _Process(self.argv, self.cwd)
        self._process.send(hello_message())
        reply = self._receive(self.handshake_timeout_s, "hello")
        if reply["type"] != "hello":
            self._fail(f"answered hello with {_describe(reply['type'])}, not 'hello'")
        version = reply.get("protocol")
        if type(version) is not int or version != PROTOCOL_VERSION:
            self._fail(
                f"speaks protocol {_describe(version)}; this engine speaks {PROTOCOL_VERSION}"
            )
        name = reply.get("name")
        if not isinstance(name, str) or not name.strip():
            self._fail("its hello has no 'name'")
        offered = reply.get("options", {})
        if not isinstance(offered, dict):
            self._fail("the 'options' of its hello must be an object")
        self.bot_name = name.strip()
        self.bot_options = offered
        for key, value in self.options.items():
            if key not in offered:
                self._fail(f"does not offer the option {key!r} (it offers: {sorted(offered)})")
            self._process.send({"type": "set_option", "name": key, "value": value})

    def close(self) -> None:
        """Send ``quit`` and stop the program (at once if it hung)."""
        process, self._process = self._process, None
        if process is not None:
            process.stop(0.0 if self._hung else QUIT_GRACE_S)

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def kill(self) -> None:
        """Stop the program without ceremony."""
        process, self._process = self._process, None
        if process is not None:
            process.stop(0.0)

    # ------------------------------------------------------------- the game

    def new_deal(self, player: int, rules: Rules) -> None:
        super().new_deal(player, rules)
        self.start()
        assert self._process is not None
        self._process.send(new_deal_message(player, rules, self.time_limit_ms))

    def act(self, obs: Observation) -> Action:
        if self._process is None or self._failed:
            self.start()
        assert self._process is not None
        legal = {str(a): a for a in obs.legal_actions}
        self._process.send(act_message(obs, self.time_limit_ms))
        reply = self._receive(self.time_limit_ms / 1000, "act")
        kind = reply["type"]
        if kind == "error":
            message = reply.get("message", "")
            self._fail(
                f"gave up: {_shorten(message) if isinstance(message, str) else _describe(message)}"
            )
        if kind != "action":
            self._fail(f"answered act with {_describe(kind)}, not 'action'")
        text = reply.get("action")
        if not isinstance(text, str):
            self._fail(f"sent an action that is not a string: {_describe(text)}")
        try:
            action = Action.parse(text)
        except ConquianError as exc:
            self._fail(f"sent an unreadable action {_shorten(text)!r}: {exc}")
        chosen = legal.get(str(action))
        if chosen is None:
            options = ", ".join(legal) if len(legal) <= 8 else f"{len(legal)} actions"
            self._fail(f"sent an illegal action {_shorten(text)!r} (legal: {options})")
        info = reply.get("info")
        self.why = Reason("external", text=info) if isinstance(info, str) and info else None
        return chosen

    def deal_over(self, obs: Observation, winner: int | None, reason: str | None = None) -> None:
        """Tell the program how the deal ended; stop it if it failed during the deal."""
        if self._process is not None and self._process.running() and not self._hung:
            self._process.send(result_message(obs, winner, reason))
        if self._failed:
            self.close()

    # --------------------------------------------------------------- details

    def _fail(self, reason: str, *, hung: bool = False) -> NoReturn:
        self._failed = True
        self._hung = self._hung or hung
        raise BotFailure(f"external bot {self.bot_name!r} {reason}")

    def _receive(self, timeout_s: float, request: str) -> dict[str, Any]:
        """The next reply line as an object, skipping blank lines and ``info`` messages."""
        assert self._process is not None
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            try:
                line = self._process.lines.get(timeout=max(remaining, 0.0))
            except queue.Empty:
                self._fail(f"did not answer {request} within {timeout_s * 1000:.0f} ms", hung=True)
            if line is None:
                self._fail(f"{self._process.exit_text()} instead of answering {request}")
            if not line.strip():
                continue
            try:
                message = read_message(line)
            except MessageError as exc:
                self._fail(f"sent garbage: {_shorten(line)!r} {exc}")
            if message["type"] == "info":
                text = message.get("text", "")
                self.info.append(text if isinstance(text, str) else _describe(text))
                continue
            return message


# ------------------------------------------------------------------ bot side


def _serve_budget(base: Budget, time_limit_ms: float | None) -> Budget:
    """``base`` capped to a safe share of the engine's per-move time limit."""
    if not _is_number(time_limit_ms) or time_limit_ms <= 0:
        return base
    safe = 0.6 * time_limit_ms / 1000
    seconds = safe if base.seconds is None else min(base.seconds, safe)
    return Budget(iterations=base.iterations, seconds=seconds)


def serve(
    name: str | Bot,
    *,
    budget_ms: int | None = None,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play the bot ``name`` (or a :class:`Bot` object) over the protocol until ``quit`` or
    end of input; the exit status.

    The bot sees only what each ``act`` message holds.  Its budget is capped to 60% of
    the engine's per-move time limit.  A line that cannot be read, or a message that
    cannot be used (a field of the wrong type, an ``act`` the bot cannot answer), gets
    an ``error`` reply saying what is wrong, and serving goes on.

    :raises ConquianError: for an unknown bot, or ``oracle`` (it needs the hidden cards).
    """
    if stdin is None:
        src: TextIO = sys.stdin
        if isinstance(src, io.TextIOWrapper):  # the protocol is UTF-8; bad bytes are garbage
            with contextlib.suppress(ValueError, OSError):
                src.reconfigure(encoding="utf-8", errors="replace")
    else:
        src = stdin
    out = sys.stdout if stdout is None else stdout
    budget = None if budget_ms is None else Budget(seconds=budget_ms / 1000)
    if isinstance(name, Bot):
        bot = name
        if budget is not None:
            bot.budget = budget
    else:
        try:
            bot = make_bot(name, rng=random.Random(seed), budget=budget)
        except (ImportError, AttributeError) as exc:
            raise ConquianError(f"The bot {name!r} is not available: {exc}.") from None
    if bot.sees_everything:
        raise ConquianError(f"{bot.name!r} sees every card, so it cannot play over the protocol.")
    base = bot.budget
    time_limit: float | None = None

    def reply(message: Mapping[str, Any]) -> None:
        # ASCII only: whatever the strings hold, the line encodes on any stream
        out.write(json.dumps(message, separators=(",", ":")) + "\n")
        out.flush()

    def error(text: str) -> None:
        reply({"type": "error", "message": _shorten(text, MAX_ERROR_TEXT)})

    for line in iter_lines(src):
        if not line.strip():
            continue
        try:
            message = read_message(line)
        except MessageError as exc:
            error(f"cannot read the line {_shorten(line, 40)!r}: it {exc}")
            continue
        kind = message["type"]
        try:
            if kind == "hello":
                ms = None if base.seconds is None else round(base.seconds * 1000)
                reply(
                    {
                        "type": "hello",
                        "protocol": PROTOCOL_VERSION,
                        "name": f"conquian {bot.name}",
                        "author": "conquian",
                        "options": {"budget_ms": ms},
                    }
                )
            elif kind == "set_option":
                option = message.get("name")
                if not isinstance(option, str):
                    raise MessageError(
                        f"set_option: 'name' must be a string, got {_describe(option)}"
                    )
                if option == "budget_ms":
                    value = _milliseconds(message.get("value"), "set_option: 'budget_ms'")
                    if value is not None:
                        base = Budget(iterations=base.iterations, seconds=value / 1000)
                        bot.budget = _serve_budget(base, time_limit)
            elif kind == "new_deal":
                player, rules, limit = _read_new_deal(message)
                time_limit = limit
                bot.budget = _serve_budget(base, time_limit)
                bot.new_deal(player, rules)
            elif kind == "act":
                if "time_limit_ms" in message:
                    limit = _milliseconds(message["time_limit_ms"], "act: 'time_limit_ms'")
                    if limit != time_limit:
                        time_limit = limit
                        bot.budget = _serve_budget(base, time_limit)
                answer = _answer(bot, message)
                reply(answer)
            elif kind == "quit":
                return 0
        except MessageError as exc:
            error(str(exc))
        except ConquianError as exc:
            error(f"{kind}: {exc}")
    return 0


def _read_new_deal(message: Mapping[str, Any]) -> tuple[int, Rules, float | None]:
    """The seat, rules and time limit of a ``new_deal`` message.

    :raises MessageError: naming the missing or malformed field.
    """
    for key in ("player", "rules"):
        if key not in message:
            raise MessageError(f"new_deal has no {key!r} field")
    player = message["player"]
    if type(player) is not int or player not in (0, 1):
        raise MessageError(f"new_deal: 'player' must be 0 or 1, got {_describe(player)}")
    spec = message["rules"]
    if not isinstance(spec, str):
        raise MessageError(f"new_deal: 'rules' must be a string, got {_describe(spec)}")
    limit = _milliseconds(message.get("time_limit_ms"), "new_deal: 'time_limit_ms'")
    try:
        rules = find_rules(spec)
    except ConquianError as exc:
        raise MessageError(f"new_deal: 'rules': {exc}") from None
    return player, rules, limit


def _answer(bot: Bot, message: Mapping[str, Any]) -> dict[str, Any]:
    """The reply to an ``act`` message: the bot's action.

    :raises MessageError: if the observation cannot be read or the bot cannot answer it.
    """
    try:
        observation: Any = message.get("observation")
        obs = Observation.from_dict(observation)
    except ConquianError as exc:
        raise MessageError(f"act: {exc}") from None
    except (RecursionError, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise MessageError(f"act: the observation cannot be read ({type(exc).__name__})") from None
    if not obs.legal_actions:
        raise MessageError("act: the observation lists no legal action")
    try:
        action = bot.act(obs)
    except ConquianError as exc:
        raise MessageError(f"act: {exc}") from None
    except Exception as exc:  # the bot's own failure: answered, and serving goes on
        raise MessageError(
            f"act: the bot {bot.name!r} failed on this observation: {type(exc).__name__}: {exc}"
        ) from None
    answer: dict[str, Any] = {"type": "action", "action": str(action)}
    if bot.reason:
        answer["info"] = bot.reason
    return answer


__all__ = [
    "AHEAD_LINES",
    "DEFAULT_TIME_LIMIT_MS",
    "MAX_LINE",
    "PROTOCOL_VERSION",
    "STDERR_LINES",
    "STDERR_LINE_CHARS",
    "BotFailure",
    "ExternalBot",
    "MessageError",
    "act_message",
    "hello_message",
    "iter_lines",
    "kill_every_bot",
    "new_deal_message",
    "read_message",
    "read_stderr",
    "result_message",
    "serve",
]
