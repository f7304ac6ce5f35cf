"""Digests of seeded play, to show that a change of structure changed no behaviour.

Run it on two checkouts (``PYTHONPATH=OTHER/src python scripts/equivalence.py``) and
compare the printed digests:

* ``arena``: every action, deck and result of duplicate-deal matches
  (``heuristic`` vs ``greedy``, 200 deals; ``search`` vs ``greedy``, 20 deals, the search
  limited to 200 sampled deals per candidate and no time limit, so that the machine's load
  cannot change its choices), read from the records that ``conquian arena --records`` writes;
* ``terminal``: the whole screen of a seeded ``conquian play`` game in a pseudo-terminal,
  answered from what the screen shows;
* ``web``: every message both players' websockets receive in a seeded friend game, played
  through the real server app (the seat token in the first message, or, on a version from
  before that message, in the websocket's URL).

Only the public interfaces are used (the command line, the screen, HTTP and websockets), so
the same script runs on any version.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ANSI = re.compile(
    r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][A-Z0-9]|[=>78])"
)
PROMPT = re.compile(
    r"((?:take or decline|take or pass|force or no|take \(forced\)|discard"
    r"|choose 1-\d+ \(Enter: back\)|next deal\? \[Y/n\]|new match\? \[Y/n\]))> "
)
CLI = [sys.executable, "-c", "import sys; from conquian.cli import main; sys.exit(main())"]
UNTIMED_SEARCH = (
    "import sys; from conquian.bots.base import Budget; from conquian.bots.search import SearchBot; "
    "SearchBot.default_budget = Budget(iterations=200); "
    "from conquian.cli import main; sys.exit(main())"
)
"""The command line with ``search`` limited by iterations alone: its default budget also has a
time limit, which makes its choices depend on the machine's load."""


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def arena_digest(bot_a: str, bot_b: str, deals: int, seed: int) -> tuple[str, int]:
    """The digest of every record of a duplicate match, and the number of actions."""
    out = Path(tempfile.mkdtemp(prefix="conquian-eq-"))
    searching = "search" in (bot_a, bot_b)
    cli = [sys.executable, "-c", UNTIMED_SEARCH] if searching else CLI
    jobs = "1" if searching else "2"  # worker processes are spawned: they would not see the patch
    try:
        tail = ["--jobs", jobs, "--records", str(out)]
        subprocess.run(
            [*cli, "arena", bot_a, bot_b, "--deals", str(deals), "--seed", str(seed), *tail],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        games = []
        actions = 0
        for path in sorted(out.glob("*.toml")):
            data = tomllib.loads(path.read_text("utf-8"))
            games.append([path.name, data["deck"], data["result"], data["actions"]])
            actions += len(data["actions"])
        return digest(games), actions
    finally:
        shutil.rmtree(out)


def terminal_transcript(seed: int) -> str:
    """The screen of a whole deal against ``easy``, answered from the screen alone."""
    import pexpect

    save = Path(tempfile.gettempdir()) / "conquian-eq-save"
    shutil.rmtree(save, ignore_errors=True)
    env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="xterm-256color", COLUMNS="110")
    argv = ["-m", "conquian.play", "--seed", str(seed), "--level", "easy", "--plain"]
    child = pexpect.spawn(
        sys.executable,
        [*argv, "--save-dir", str(save)],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 110),
    )
    screens = []
    step = 0
    while True:
        child.expect(PROMPT)
        screen = ANSI.sub("", child.before)
        kind = child.match.group(1)
        screens.append(screen + kind)
        if kind.startswith(("next deal", "new match")):
            child.sendline("n")
            break
        child.sendline(_answer(kind, screen, step))
        step += 1
    child.expect(pexpect.EOF)
    screens.append(ANSI.sub("", child.before))
    shutil.rmtree(save, ignore_errors=True)
    text = "\n".join(screens).replace("\r", "")
    return re.sub(r"\d{8}-\d{6}-deal", "DATE-deal", text)  # record files are named by time


def _answer(kind: str, screen: str, step: int) -> str:
    if kind.startswith("choose"):
        return "1"
    if kind == "discard":
        hands = re.findall(r"^[\s|]*hand:\s+(.*?)[\s|]*$", screen, re.MULTILINE)
        return hands[-1].split()[-1]
    if kind == "force or no":
        return "force" if step % 2 else "no"
    lines = [ln for ln in screen.splitlines() if ln.startswith("You can: ")]
    options = [o.strip() for o in lines[-1][len("You can: ") :].split("   (also:")[0].split(" | ")]
    takes = [o for o in options if o.startswith("take")]
    if takes and (kind == "take (forced)" or step % 3):
        return "take" if takes[0].startswith("take (") else takes[0]
    return next(o for o in options if o in ("decline", "pass"))


def _seat_socket(
    stack: contextlib.ExitStack, client: Any, game_id: str, token: str
) -> tuple[Any, dict[str, Any] | None]:
    """A websocket playing a seat, on any version: the seat token goes in the first message
    (``hello``); a version from before that message makes the connection a spectator's (its
    first message is a state without a seat), so the token goes in the URL, as it did then.
    Returns the socket and the first message already read from it (None if none was)."""
    with contextlib.ExitStack() as trial:
        ws = trial.enter_context(client.websocket_connect(f"/ws/{game_id}"))
        ws.send_text(json.dumps({"type": "hello", "token": token}))
        first = json.loads(ws.receive_text())
        if not (first.get("type") == "state" and first.get("seat") is None):
            stack.push(trial.pop_all())
            return ws, first
    old = stack.enter_context(client.websocket_connect(f"/ws/{game_id}?token={token}"))
    return old, None


def web_transcript(seed: int) -> list[Any]:
    """Every message of a friend game, both seats, with the server's randomness seeded."""
    from starlette.testclient import TestClient

    fixed = random.Random(seed)
    random.SystemRandom = lambda: fixed  # type: ignore[assignment,misc,return-value]
    counter = iter(range(10**6))
    secrets.token_urlsafe = lambda n=None: f"t{next(counter):08d}"  # type: ignore[assignment]
    from conquian.web.app import create_app

    db = Path(tempfile.mkdtemp(prefix="conquian-eq-web-"))
    rng = random.Random(seed)
    messages: list[Any] = []
    try:
        try:  # the live match is a module of its own since the web's split
            import conquian.web.live as live
        except ImportError:
            import conquian.web.hub as live  # type: ignore[no-redef]

        if hasattr(live, "new_server_seed"):  # fair shuffles: server seeds from the seed, too
            seeds = random.Random(f"server:{seed}")
            live.new_server_seed = lambda: seeds.randbytes(32)
        with TestClient(create_app(f"sqlite:///{db}/web.db", bot_delay=0)) as client:
            made = client.post("/api/games", json={"mode": "friend", "name": "Ana"}).json()
            game_id = made["id"]
            joined = client.post(f"/api/games/{game_id}/join", json={"name": "Ben"}).json()
            tokens = [made["token"], joined["token"]]
            with contextlib.ExitStack() as stack:
                opened = [_seat_socket(stack, client, game_id, token) for token in tokens]
                sockets = [ws for ws, _ in opened]
                first = {i: [msg] for i, (_, msg) in enumerate(opened) if msg is not None}

                def until(seq: int) -> list[dict[str, Any]]:
                    views = []
                    for i, ws in enumerate(sockets):
                        while True:
                            pending = first.get(i)
                            msg = pending.pop() if pending else json.loads(ws.receive_text())
                            messages.append(msg)
                            dealt = msg.get("obs") is not None  # dealt once both said hello
                            if msg["type"] == "state" and msg["seq"] == seq and dealt:
                                views.append(msg)
                                break
                    return views

                views = until(0)
                moves = 0
                while not views[0]["match"]["over"] and moves < 2000:
                    to_act = views[0]["obs"]["to_act"]
                    legal = views[to_act]["obs"]["legal_actions"]
                    action = rng.choice(legal)
                    sockets[to_act].send_text(json.dumps({"type": "act", "action": action}))
                    moves += 1
                    views = until(moves)
                    if moves % 25 == 0:
                        sockets[to_act].send_text(json.dumps({"type": "act", "action": "bogus"}))
                        messages.append(json.loads(sockets[to_act].receive_text()))
            for path in (f"/api/games/{game_id}/records", "/api/rules"):
                messages.append(client.get(path).json())
    finally:
        shutil.rmtree(db)
    return messages


def one_form(message: Any) -> Any:
    """A web message in the form both sides of a change of format write: each event of the
    history as its text (``p1 take 5d6d7d (7d:t)``; since the web's split the server sends it
    as data), and without the keys a state before the deal now has empty (``origin``,
    ``situation``, ``takes``, ``lays``).  The words and the data are left as they are."""
    if not isinstance(message, dict) or message.get("type") != "state":
        return message
    out = dict(message)
    if out.get("obs") is None:
        for key in ("origin", "situation", "takes", "lays"):
            if out.get(key) in ("", []):
                del out[key]
        return out
    out["obs"] = {**out["obs"], "history": [_event_text(e) for e in out["obs"]["history"]]}
    return out


def _event_text(event: Any) -> str:
    """An event of the history as text, whichever form it came in."""
    if isinstance(event, str):
        return event
    player, verb, card = event["player"], event["verb"], event["card"]
    if verb in ("discard", "exchange"):
        return f"p{player} {verb} {card or '?'}"
    melds = "/".join("".join(meld) for meld in event.get("melds", []))
    action = f"{verb} {melds}" if melds else verb
    owner = event.get("owner", "")
    return f"p{player} {action} ({card}:{event['source']}{owner})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the arena matches")
    parser.add_argument("--save", metavar="DIR", help="also write the transcripts in DIR")
    args = parser.parse_args()
    import conquian

    print(f"conquian from {Path(conquian.__file__).parent}")
    results: dict[str, Any] = {}
    if not args.quick:
        for a, b, deals in (("heuristic", "greedy", 200), ("search", "greedy", 20)):
            d, n = arena_digest(a, b, deals, seed=2026)
            results[f"arena {a} vs {b}, {deals} deals"] = f"{d} ({n} actions)"
    screen = terminal_transcript(seed=3)
    web = web_transcript(seed=11)
    results["terminal seed 3"] = f"{digest(screen)} ({len(screen)} characters)"
    game, rules_page = web[:-1], web[-1]
    results["web seed 11"] = f"{digest(game)} ({len(game)} messages)"
    same = [one_form(message) for message in game]
    results["web seed 11, one form"] = f"{digest(same)} ({len(same)} messages)"
    results["web rules answer"] = digest(rules_page)
    results["web rules answer, old fields"] = digest({k: rules_page[k] for k in ("rules", "text")})
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
        Path(args.save, "terminal.txt").write_text(screen, "utf-8")
        Path(args.save, "web.json").write_text(json.dumps(web, indent=1, sort_keys=True), "utf-8")
    for key, value in results.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
