"""The CPU one move's PostgreSQL statement costs the server's process:
python scripts/statement_cost.py --db postgresql+psycopg://...

The statement is ``scripts/web_floor.py``'s (an INSERT, an UPDATE of the game's row and a
``pg_notify`` in one round trip), run through the server's own
:class:`conquian.web.store.AsyncStatements`, and through asyncpg where it is installed (it
is not a dependency).  Each is timed twice: back to back, and paced, with a 2 ms sleep
before each statement as a server paced by people has (its event loop goes idle between
messages).  Paced, the figure is the CPU of a round with the statement less that of a
round with the sleep alone.  A measurement, not a test: it prints the figures and exits 0.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from web_floor import MOVE, SCHEMA

Run = Callable[[int], Awaitable[Any]]


async def cost(run: Run, count: int, pause: float) -> float:
    """CPU seconds per call of ``run`` (numbered from 0), each after ``pause`` seconds."""
    began = time.process_time()
    for number in range(count):
        if pause:
            await asyncio.sleep(pause)
        await run(number)
    return (time.process_time() - began) / count


async def measure(name: str, run: Run, count: int) -> None:
    async def nothing(number: int) -> None:
        pass

    await cost(run, 20, 0)  # prepared by now
    hot = await cost(run, count, 0)
    idle = await cost(nothing, count, 0.002)
    paced = await cost(run, count, 0.002) - idle
    print(f"{name}: {1e6 * hot:.0f} us of CPU a statement back to back, {1e6 * paced:.0f} us paced")


async def main_async(db: str, count: int) -> None:
    import psycopg

    from conquian.web.notify import libpq_url
    from conquian.web.store import AsyncStatements

    url = libpq_url(db)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(SCHEMA)
    game = f"cost-{time.time()}"
    seqs = iter(range(10**9))
    statements = AsyncStatements(db)
    await statements.execute("INSERT INTO floor_games VALUES (%(game)s, 0)", {"game": game})

    async def with_psycopg(number: int) -> Any:
        seq = next(seqs)
        params = {"game": game, "seq": seq, "action": "pass", "at": time.time()}
        return await statements.execute(MOVE, {**params, "payload": f"{game} a {seq}"})

    await measure(f"psycopg {psycopg.__version__} (AsyncStatements)", with_psycopg, count)
    await statements.close()
    try:
        import asyncpg
    except ImportError:
        print("asyncpg: not installed")
        return
    conn = await asyncpg.connect(url)
    numbered = MOVE
    for number, name in enumerate(("game", "seq", "action", "at", "payload"), 1):
        numbered = numbered.replace(f"%({name})s", f"${number}")

    async def with_asyncpg(number: int) -> Any:
        seq = next(seqs)
        return await conn.fetch(numbered, game, seq, "pass", time.time(), f"{game} a {seq}")

    await measure(f"asyncpg {asyncpg.__version__}", with_asyncpg, count)
    await conn.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/statement_cost.py", description=__doc__)
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (postgresql+psycopg://...)")
    parser.add_argument("--count", type=int, default=1500, help="statements per figure")
    args = parser.parse_args(argv)
    asyncio.run(main_async(args.db, args.count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
