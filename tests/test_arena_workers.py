"""The arena's worker processes (``run_parallel``): every chunk played once, a worker's
error or death reported by the parent, and no named semaphores left for the interpreter's
resource tracker (which warned on stderr when it found one gone at exit)."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from conquian.errors import ConquianError
from conquian.tools.arena import run_parallel

SHM = Path("/dev/shm")


def named_semaphores() -> set[str]:
    """The POSIX named semaphores of this machine's processes (``sem.mp-…`` are
    multiprocessing's)."""
    return {p.name for p in SHM.glob("sem.mp-*")}


@dataclass
class Deals:
    """A table that plays nothing: each deal's number, the worker's pid and the named
    semaphores it saw, or a failure on ``fail_at`` (``"raise"`` or ``"exit"``)."""

    fail_at: int | None = None
    how: str = "raise"

    def player(self) -> Deals:
        return self

    def play_deals(self, start: int, stop: int) -> list[Any]:
        if self.fail_at is not None and start <= self.fail_at < stop:
            if self.how == "exit":
                os._exit(3)
            raise ValueError(f"deal {self.fail_at} cannot be played")
        return [(deal, os.getpid(), sorted(named_semaphores())) for deal in range(start, stop)]

    def close(self, *, now: bool = False) -> None:
        pass


@dataclass
class Collected:
    first_deal: int
    deals_requested: int
    elapsed_s: float = 0.0
    interrupted: bool = False
    jobs: int = 2
    rows: list[Any] = field(default_factory=list)

    @property
    def deals(self) -> int:
        return len(self.rows)

    def add(self, part: Sequence[Any]) -> None:
        self.rows.extend(part)


def test_every_chunk_is_played_once_by_the_workers_and_no_semaphore_is_made() -> None:
    before = named_semaphores()
    collected = Collected(first_deal=5, deals_requested=37)
    progress: list[int] = []
    run_parallel(Deals(), collected, 2, time.perf_counter(), lambda d, t, r: progress.append(d))
    assert sorted(deal for deal, _, _ in collected.rows) == list(range(5, 42))
    assert len({pid for _, pid, _ in collected.rows}) == 2  # both workers played
    assert progress == sorted(progress) and progress[-1] == 37
    seen = {name for _, _, names in collected.rows for name in names}
    assert not seen - before, seen - before  # (a queue makes three, live while it runs)


def test_a_worker_error_reaches_the_parent_with_its_traceback() -> None:
    collected = Collected(first_deal=0, deals_requested=30)
    with pytest.raises(ValueError, match="deal 17 cannot be played") as caught:
        run_parallel(Deals(fail_at=17), collected, 2, time.perf_counter(), None)
    assert any("In a worker process" in note for note in caught.value.__notes__)
    assert 17 not in [deal for deal, _, _ in collected.rows]


def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    collected = Collected(first_deal=0, deals_requested=30)
    with pytest.raises(ConquianError, match=r"worker process died \(exit status 3\)"):
        run_parallel(Deals(fail_at=11, how="exit"), collected, 2, time.perf_counter(), None)
