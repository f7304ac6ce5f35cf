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
import json
import queue
import random
import shlex
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import IO, Any, NoReturn, TextIO

from .. import __version__
from ..actions import Action
from ..errors import ConquianError
from ..observation import Observation
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
MAX_LINE = 1 << 20
"""Longest line read from a bot (1 MiB); longer lines are garbage."""


class BotFailure(ConquianError):
    """An external bot broke the protocol: garbage, an illegal action, no reply in time, or exit."""


def _dumps(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _shorten(text: str, limit: int = 120) -> str:
    text = text.rstrip("\r\n")
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


class _Process:
    """A running bot program with reader and writer threads, so that no read or write blocks."""

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
            )
        except OSError as exc:
            raise BotFailure(f"cannot start {shlex.join(argv)}: {exc.strerror or exc}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr_tail: deque[str] = deque(maxlen=10)
        self._outbox: queue.Queue[str | None] = queue.Queue()
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        threads = [
            threading.Thread(target=target, args=(stream,), daemon=True)
            for target, stream in (
                (self._read_stdout, self.popen.stdout),
                (self._read_stderr, self.popen.stderr),
                (self._write_stdin, self.popen.stdin),
            )
        ]
        for thread in threads:
            thread.start()
        self._stderr_reader = threads[1]

    def _read_stdout(self, stream: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while line := stream.readline(MAX_LINE):
                self.lines.put(line)
        self.lines.put(None)

    def _read_stderr(self, stream: IO[str]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for line in stream:
                if line.strip():
                    self.stderr_tail.append(line.rstrip())

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
        """Ask the program to quit, then terminate and kill it if it lingers."""
        if self.running() and grace_s > 0:
            self.send(QUIT_MESSAGE)
            self._outbox.put(None)  # then end of input
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(grace_s)
        self._outbox.put(None)
        for signal_it, wait in ((self.popen.terminate, 0.5), (self.popen.kill, 5.0)):
            if self.popen.poll() is not None:
                break
            with contextlib.suppress(OSError):
                signal_it()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(wait)

    def exit_text(self) -> str:
        """How the program ended, with the last line it wrote to stderr."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(0.5)
        code = self.popen.poll()
        if code is not None:
            self._stderr_reader.join(0.5)  # its last words
        text = "closed its output" if code is None else f"exited with status {code}"
        if self.stderr_tail:
            text += f" (last stderr line: {_shorten(self.stderr_tail[-1])!r})"
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
        if reply.get("type") != "hello":
            self._fail(f"answered hello with {reply.get('type')!r}, not 'hello'")
        version = reply.get("protocol")
        if version != PROTOCOL_VERSION:
            self._fail(f"speaks protocol {version!r}; this engine speaks {PROTOCOL_VERSION}")
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
        kind = reply.get("type")
        if kind == "error":
            self._fail(f"gave up: {_shorten(str(reply.get('message', '')))}")
        if kind != "action":
            self._fail(f"answered act with {kind!r}, not 'action'")
        text = reply.get("action")
        if not isinstance(text, str):
            self._fail(f"sent an action that is not a string: {_shorten(repr(text))}")
        try:
            action = Action.parse(text)
        except ConquianError as exc:
            self._fail(f"sent an unreadable action {_shorten(text)!r}: {exc}")
        chosen = legal.get(str(action))
        if chosen is None:
            options = ", ".join(legal) if len(legal) <= 8 else f"{len(legal)} actions"
            self._fail(f"sent an illegal action {_shorten(text)!r} (legal: {options})")
        info = reply.get("info")
        self.reason = info if isinstance(info, str) else ""
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
                message = json.loads(line)
            except json.JSONDecodeError as exc:
                self._fail(f"sent garbage: {_shorten(line)!r} is not JSON ({exc.msg})")
            if not isinstance(message, dict):
                self._fail(f"sent garbage: {_shorten(line)!r} is not a JSON object")
            if message.get("type") == "info":
                self.info.append(str(message.get("text", "")))
                continue
            return message


# ------------------------------------------------------------------ bot side


def _serve_budget(base: Budget, time_limit_ms: Any) -> Budget:
    """``base`` capped to a safe share of the engine's per-move time limit."""
    if not isinstance(time_limit_ms, int | float) or time_limit_ms <= 0:
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
    the engine's per-move time limit.

    :raises ConquianError: for an unknown bot, or ``oracle`` (it needs the hidden cards).
    """
    src = sys.stdin if stdin is None else stdin
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
    time_limit: Any = None

    def reply(message: Mapping[str, Any]) -> None:
        out.write(_dumps(message) + "\n")
        out.flush()

    for line in src:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            print(f"conquian bot: ignoring a line that is not JSON: {line!r}", file=sys.stderr)
            continue
        kind = message.get("type") if isinstance(message, dict) else None
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
        elif kind == "set_option" and message.get("name") == "budget_ms":
            value = message.get("value")
            if isinstance(value, int | float) and value > 0:
                base = Budget(iterations=base.iterations, seconds=value / 1000)
                bot.budget = _serve_budget(base, time_limit)
        elif kind == "new_deal":
            time_limit = message.get("time_limit_ms")
            bot.budget = _serve_budget(base, time_limit)
            try:
                bot.new_deal(int(message["player"]), find_rules(str(message["rules"])))
            except (KeyError, ValueError, ConquianError) as exc:
                print(f"conquian bot: bad new_deal message: {exc}", file=sys.stderr)
        elif kind == "act":
            if "time_limit_ms" in message and message["time_limit_ms"] != time_limit:
                time_limit = message["time_limit_ms"]
                bot.budget = _serve_budget(base, time_limit)
            try:
                obs = Observation.from_dict(message.get("observation"))
                action = bot.act(obs)
            except ConquianError as exc:
                reply({"type": "error", "message": str(exc)})
                continue
            answer: dict[str, Any] = {"type": "action", "action": str(action)}
            if bot.reason:
                answer["info"] = bot.reason
            reply(answer)
        elif kind == "quit":
            return 0
    return 0


__all__ = [
    "DEFAULT_TIME_LIMIT_MS",
    "PROTOCOL_VERSION",
    "BotFailure",
    "ExternalBot",
    "act_message",
    "hello_message",
    "new_deal_message",
    "result_message",
    "serve",
]
