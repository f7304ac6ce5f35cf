"""What a part of the store (accounts, the quick-match queue, reports) is given by the store
it is a base of (:class:`.store.Store`): its engine, its storage threads, and the insertion
of a match's rows.  Declared for the type checker only: the store defines them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.engine import Connection, Engine

from .schema import DealRow, MatchRow

_T = TypeVar("_T")


class StorePart:
    """A base of :class:`.store.Store` that keeps one concern's tables."""

    engine: Engine

    if TYPE_CHECKING:

        async def _in_thread(self, fn: Callable[..., _T], *args: Any) -> _T: ...

        def _notify(self, conn: Connection, match_id: str, kind: str, number: int = 0) -> None: ...

        @staticmethod
        def _insert_match(
            conn: Connection, match: MatchRow, first_deal: DealRow | None
        ) -> None: ...
