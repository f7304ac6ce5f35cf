"""The arena on Ray (the extra ``cluster``): on a real Ray cluster on the loopback
interface, the same seed gives exactly the results of the local run.

One head process (``ray start --head``) serves the module; the tests connect to it by
its address, and one starts a local Ray instance of its own through the CLI.  The
figures that measure time (``elapsed_s``, ``ms_*``) are the only ones that may differ
between two runs, local or not; everything else must be equal.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pty
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conquian.errors import ConquianError
from conquian.tools.arena import DuplicateConfig, run_match
from conquian.tools.seating_arena import run_seating_match
from conquian.tools.selfplay import run_selfplay

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "conquian.cli"]
HAS_RAY = importlib.util.find_spec("ray") is not None


@pytest.fixture(scope="module")
def needs_ray() -> None:
    """Fail without Ray, saying why: the 'test' extra installs it."""
    if not HAS_RAY:
        pytest.fail("Ray is not installed (the extra 'cluster', part of 'test')")


def timeless(data: Any) -> Any:
    """A match's JSON without the figures that measure time."""
    if isinstance(data, dict):
        return {
            k: timeless(v)
            for k, v in data.items()
            if k != "elapsed_s" and not k.startswith("ms_per_")
        }
    if isinstance(data, list):
        return [timeless(v) for v in data]
    return data


def run_cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env
    )


# ------------------------------------------------------------------ the cluster


class Head:
    """A Ray head process on 127.0.0.1 with two CPUs and a token of its own."""

    def __init__(self) -> None:
        self.temp = tempfile.mkdtemp(prefix="ray-")  # short: Ray's socket paths live here
        self.env = {
            **os.environ,
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0",  # the node's address: 127.0.0.1
            "RAY_USAGE_STATS_ENABLED": "0",
            "RAY_AUTH_MODE": "token",
            "RAY_AUTH_TOKEN": secrets.token_hex(32),
        }
        command = [
            str(Path(sys.executable).with_name("ray")), "start", "--head", "--port=0",
            "--num-cpus=2", "--node-ip-address=127.0.0.1", "--include-dashboard=false",
            "--disable-usage-stats", f"--temp-dir={self.temp}", "--block",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=self.env,
            cwd=ROOT,
            start_new_session=True,
        )
        self.output: list[str] = []
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        try:
            if not self.started.wait(180) or self.process.poll() is not None:
                raise RuntimeError("ray start did not start:\n" + "".join(self.output))
            self.address = (Path(self.temp) / "ray_current_cluster").read_text().strip()
        except BaseException:
            self.stop()
            raise

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:  # drained to the end, so that it never blocks
            self.output.append(line)
            if "will now block forever" in line:  # printed once the address file is written
                self.started.set()
        self.started.set()  # it ended: let the waiting test see why

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # ray start --block stops its node's processes
            try:
                self.process.wait(timeout=90)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.reader.join(timeout=10)
        shutil.rmtree(self.temp, ignore_errors=True)


@pytest.fixture(scope="module")
def head(needs_ray: None) -> Iterator[Head]:
    started = Head()
    try:
        assert started.address.startswith("127.0.0.1:"), started.address
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def connected(head: Head) -> Iterator[str]:
    """This process connected to the head (Ray reads its settings when imported and
    initialised); the arena uses a connection it finds as it is."""
    with pytest.MonkeyPatch.context() as patch:
        for name in ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN"):
            patch.setenv(name, head.env[name])
        from conquian.tools.cluster import import_ray

        ray = import_ray(head.address)
        ray.init(address=head.address, log_to_driver=False, logging_level="ERROR")
        try:
            yield head.address
        finally:
            ray.shutdown()


# ------------------------------------------------------- the same results as here


def test_cli_local_ray_instance_gives_the_local_result(needs_ray: None, tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    for name in ("RAY_ADDRESS", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN"):
        env.pop(name, None)
    args = ["arena", "greedy", "random", "--deals", "5", "--seed", "7", "--jobs", "2", "--json"]
    here = run_cli(*args, env=env)
    on_ray = run_cli(*args, "--ray", env=env)
    assert here.returncode == 0, here.stderr
    assert on_ray.returncode == 0, on_ray.stderr
    mine, theirs = json.loads(here.stdout), json.loads(on_ray.stdout)  # stdout: the JSON only
    assert timeless(theirs) == timeless(mine)
    assert theirs["deals"] == 5 and theirs["jobs"] == 2 and not theirs["interrupted"]
    assert theirs["bot_a"]["moves"] > 0
    assert not (tmp_path / ".ray").exists()  # the instance had a token of its own


def test_cli_table_match_on_a_cluster_by_address(head: Head) -> None:
    on_ray = run_cli(
        "arena", "greedy", "random", "heuristic", "--rules", "tercerilla", "--deals", "2",
        "--seed", "5", "--first-deal", "3", f"--ray={head.address}", "--json",
        env=head.env,
    )  # fmt: skip
    assert on_ray.returncode == 0, on_ray.stderr
    data = json.loads(on_ray.stdout)
    # --jobs not given: as many tasks at once as the cluster has CPUs
    here = run_seating_match(
        ["greedy", "random", "heuristic"], 2, seed=5, rules="tercerilla", first_deal=2, jobs=2
    )
    assert timeless(data) == timeless(here.to_dict())
    assert data["deal_ranges"] == [[3, 4]] and len(data["results"]) == 12


def test_two_bots_on_ray_with_records(connected: str, tmp_path: Path) -> None:
    here_dir, ray_dir = tmp_path / "here", tmp_path / "ray"
    here = run_match("heuristic", "greedy", 6, seed=31, jobs=2, records_dir=here_dir)
    on_ray = run_match(
        "heuristic", "greedy", 6, seed=31, jobs=2, records_dir=ray_dir, ray=connected
    )
    assert timeless(on_ray.to_dict()) == timeless(here.to_dict())
    assert [g.deal for g in on_ray.games] == [d for d in range(6) for _ in (0, 1)]
    # the records come back to this process, byte for byte those of the local run
    names = sorted(p.name for p in here_dir.iterdir())
    assert len(names) == 12 and sorted(p.name for p in ray_dir.iterdir()) == names
    for name in names:
        assert (ray_dir / name).read_bytes() == (here_dir / name).read_bytes(), name


def test_selfplay_on_ray_gives_the_games_played_here(connected: str, tmp_path: Path) -> None:
    here_dir, ray_dir = tmp_path / "here", tmp_path / "ray"
    here = run_selfplay("standard", 25, seed=4, records_dir=str(here_dir))
    on_ray = run_selfplay("standard", 25, seed=4, records_dir=str(ray_dir), ray=connected)
    assert on_ray.to_dict() == here.to_dict()
    assert [s.number for s in on_ray.summaries] == list(range(1, 26))
    names = sorted(p.name for p in here_dir.iterdir())
    assert len(names) == 25 and sorted(p.name for p in ray_dir.iterdir()) == names
    for name in names:
        assert (ray_dir / name).read_bytes() == (here_dir / name).read_bytes(), name
    assert run_selfplay("standard", 25, seed=5).to_dict() != here.to_dict()


def test_cli_selfplay_on_a_cluster_by_address(head: Head) -> None:
    args = ["selfplay", "--games", "12", "--seed", "9", "--rules", "tercerilla", "--json"]
    here = run_cli(*args)
    on_ray = run_cli(*args, f"--ray={head.address}", env=head.env)
    assert here.returncode == 0, here.stderr
    assert on_ray.returncode == 0, on_ray.stderr
    data = json.loads(on_ray.stdout)
    assert data == json.loads(here.stdout)
    assert data["games"] == 12 and len(data["wins"]) == 3


def test_a_different_seed_gives_a_different_result(connected: str) -> None:
    one = run_match("random", "greedy", 4, seed=1, jobs=2, ray=connected).to_dict()
    other = run_match("random", "greedy", 4, seed=2, jobs=2, ray=connected).to_dict()
    assert timeless(one) != timeless(other)


def test_four_bots_on_ray(connected: str) -> None:
    bots = ["greedy", "random", "random", "greedy"]
    here = run_seating_match(bots, 1, seed=9, rules="mexican,num_players=4")
    on_ray = run_seating_match(
        bots, 1, seed=9, rules="mexican,num_players=4", jobs=0, ray=connected
    )
    mine, theirs = here.to_dict(), on_ray.to_dict()
    assert theirs.pop("jobs") == 2 and mine.pop("jobs") == 1  # --jobs 0: the cluster's CPUs
    assert timeless(theirs) == timeless(mine)
    assert theirs["games"] == 24


# ------------------------------------------------------ progress, Ctrl-C, errors


def test_progress_and_ctrl_c_keep_the_deals_finished(connected: str) -> None:
    seen: list[int] = []

    def stop_after_four(done: int, total: int, result: object) -> None:
        seen.append(done)
        if done >= 4:
            raise KeyboardInterrupt

    result = run_match(
        "greedy", "random", 300, seed=5, jobs=2, ray=connected, progress=stop_after_four
    )
    assert result.interrupted
    assert seen == sorted(seen) and seen[-1] >= 4
    assert 4 <= result.deals < 300 and len(result.games) == 2 * result.deals
    # the deals finished (whichever chunks they were) are those of the local run
    finished = {g.deal for g in result.games}
    here = run_match("greedy", "random", max(finished) + 1, seed=5)
    assert [(g.deal, g.game, g.winner, g.actions) for g in result.games] == [
        (g.deal, g.game, g.winner, g.actions) for g in here.games if g.deal in finished
    ]
    # the cluster plays on: the tasks left to end do not hold it
    again = run_match("greedy", "random", 2, seed=5, ray=connected)
    assert again.deals == 2 and not again.interrupted


def test_cli_sigterm_on_ray_prints_the_result_so_far(head: Head, tmp_path: Path) -> None:
    """The CLI stops on SIGTERM as on Ctrl-C, though Ray sets a handler of its own."""
    master, slave = pty.openpty()
    command = [
        *CLI, "arena", "greedy", "random", "--deals", "100000", "--seed", "3",
        f"--ray={head.address}", "--json",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=slave, text=True, cwd=ROOT, env=head.env
    )
    os.close(slave)
    bar = b""
    while b"/100000 deals" not in bar:  # the progress bar: deals are being counted
        try:
            chunk = os.read(master, 4096)
        except OSError:
            chunk = b""
        assert chunk, f"the match ended early: {bar.decode(errors='replace')}"
        bar += chunk
    process.send_signal(signal.SIGTERM)
    said: list[bytes] = [bar]
    drained = threading.Thread(target=_drain, args=(master, said), daemon=True)
    drained.start()
    out, _ = process.communicate(timeout=120)
    drained.join(timeout=30)
    assert process.returncode == 130, b"".join(said).decode(errors="replace")[-4000:]
    data = json.loads(out)
    assert data["interrupted"] is True
    assert 0 < data["deals"] < 100000 and data["games"] == 2 * data["deals"]


def _drain(fd: int, into: list[bytes]) -> None:
    try:
        while chunk := os.read(fd, 4096):
            into.append(chunk)
    except OSError:
        pass
    finally:
        os.close(fd)


def test_an_error_in_a_task_is_raised_here(connected: str) -> None:
    from conquian.tools.cluster import run_on_ray

    result = run_match("greedy", "random", 1, seed=1)  # a result to count into
    result.deals_requested = 2
    config = DuplicateConfig(("greedy", "grandmaster"), "standard", 1, None, 1000)
    with pytest.raises(ConquianError, match="grandmaster"):
        run_on_ray(config, result, connected, 1, 0.0, None)


def test_cli_nothing_at_the_address_is_an_error_at_once(needs_ray: None) -> None:
    refused = run_cli("arena", "greedy", "random", "--deals", "1", "--ray=127.0.0.1:1", timeout=60)
    assert refused.returncode == 1
    assert "Cannot connect to Ray at 127.0.0.1:1" in refused.stderr
    assert "Traceback" not in refused.stderr


# ------------------------------------------------------ without Ray, or refused


def test_external_bots_are_refused_on_ray() -> None:
    with pytest.raises(ConquianError, match="cannot run: play external bots without --ray"):
        run_match("cmd:conquian bot greedy", "random", 1, ray="local")
    with pytest.raises(ConquianError, match="cmd:"):
        run_seating_match(["greedy", "random", "cmd:x"], 1, ray="127.0.0.1:6379")


def test_without_ray_the_error_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['ray'] = None\n"  # as if Ray were not installed
        "from conquian.cli import main\n"
        "sys.exit(main(['arena', 'greedy', 'random', '--deals', '1', '--ray']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert result.returncode == 1, result.stderr
    assert "pip install 'conquian[cluster]'" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_the_arena_does_not_import_ray() -> None:
    code = (
        "import sys\n"
        "from conquian.cli import main\n"
        "assert main(['arena', 'greedy', 'random', '--deals', '1', '--json']) == 0\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
