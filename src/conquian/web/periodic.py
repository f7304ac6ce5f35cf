"""Work a server process does every few seconds, in the background, until it closes (the
quick-match rounds, the clocks' looks for what is due): a failed round is logged, and the
next one tries again.

>>> import asyncio
>>> async def demo():
...     rounds = []
...     async def work():
...         rounds.append(1)
...     task = Periodic(0.0, "a demo", work)
...     task.start()
...     while not rounds:
...         await asyncio.sleep(0)
...     await task.close()
...     return rounds[:1]
>>> asyncio.run(demo())
[1]
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("conquian.web")


class Periodic:
    """``work()`` each ``every`` seconds once started; ``what`` names it in the log."""

    def __init__(self, every: float, what: str, work: Callable[[], Awaitable[object]]) -> None:
        self.every = every
        self.what = what
        self.work = work
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.work()
            except Exception:  # said; the next round tries again
                log.exception("%s failed", self.what)
