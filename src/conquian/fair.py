"""A provably fair shuffle: a deck that neither the server nor any one player could choose.

Before a deal the server draws a fresh secret *server seed* and publishes its
*commitment*, the SHA-256 of it.  Each seated person may then add a *client seed*
of their own (the browser supplies a random one by default).  The deck is a
Fisher-Yates shuffle driven by HMAC-SHA256 keyed by the server seed over every
client seed, so it is fixed by seeds that were all committed before any was
revealed.  After the deal the server reveals its seed; anyone can check that it
matches the commitment and deal the same deck again (``conquian verify RECORD``).

The algorithm, version ``hmac-sha256-fisher-yates/1``:

1. ``message(i) = b"conquian-deck/1" || u32(number of client seeds) ||
   for each client seed in seat order: u32(len) || seed bytes || u64(i)``.
2. The random stream is ``HMAC-SHA256(server seed, message(0)) ||
   HMAC-SHA256(server seed, message(1)) || ...``, read as big-endian 32-bit words.
3. The deck starts as the 40 card indices in order (``0`` = ``As`` … ``39`` = ``Kc``,
   see :mod:`conquian.cards`).  For ``k`` from 39 down to 1, a word ``w`` is drawn,
   redrawn while ``w >= 2**32 - 2**32 % (k + 1)`` (so every choice is equally
   likely), and the card at ``w % (k + 1)`` is swapped with the card at ``k``.
4. The deck is read top first, as a record's ``deck`` is.

>>> server = bytes.fromhex("00" * 31 + "01")
>>> deck = fair_deck(server, [b"ana", b"ben"])
>>> sorted(deck) == list(range(40)), deck == fair_deck(server, [b"ana", b"ben"])
(True, True)
>>> deck == fair_deck(server, [b"ana", b"bea"])
False
>>> check_commitment(server, commitment(server))
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .cards import NUM_CARDS
from .errors import ConquianError

__all__ = [
    "ALGORITHM",
    "FairShuffle",
    "FairnessError",
    "check_commitment",
    "commitment",
    "fair_deck",
    "new_server_seed",
]

ALGORITHM = "hmac-sha256-fisher-yates/1"
"""The name and version of the shuffle, as records write it."""
SEED_BYTES = 32
"""Length of a server seed."""
MAX_CLIENT_SEED_BYTES = 64
"""Longest client seed accepted (a browser sends 16 random bytes)."""
_DOMAIN = b"conquian-deck/1"


class FairnessError(ConquianError, ValueError):
    """Seeds that do not make a fair shuffle: a bad seed, or a seed that does not match
    its commitment."""


def new_server_seed() -> bytes:
    """A fresh secret server seed, from the operating system's random source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes) -> str:
    """The commitment to publish before the deal: the SHA-256 of the server seed, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def check_commitment(server_seed: bytes, published: str) -> bool:
    """Whether a revealed server seed is the one the published commitment was made to."""
    return hmac.compare_digest(commitment(server_seed), published.strip().lower())


def _words(server_seed: bytes, client_seeds: Sequence[bytes]) -> Iterator[int]:
    """The endless stream of 32-bit words of the algorithm's steps 1 and 2."""
    head = bytearray(_DOMAIN)
    head += len(client_seeds).to_bytes(4, "big")
    for seed in client_seeds:
        head += len(seed).to_bytes(4, "big") + seed
    block = 0
    while True:
        digest = hmac.digest(server_seed, bytes(head) + block.to_bytes(8, "big"), "sha256")
        for at in range(0, len(digest), 4):
            yield int.from_bytes(digest[at : at + 4], "big")
        block += 1


def fair_deck(server_seed: bytes, client_seeds: Sequence[bytes] = ()) -> list[int]:
    """The deck (card indices, top first) that the seeds give under :data:`ALGORITHM`.

    :raises FairnessError: for a server seed of the wrong length or an over-long client seed.
    """
    if len(server_seed) != SEED_BYTES:
        raise FairnessError(f"A server seed is {SEED_BYTES} bytes, not {len(server_seed)}.")
    for seed in client_seeds:
        if len(seed) > MAX_CLIENT_SEED_BYTES:
            raise FairnessError(f"A client seed is at most {MAX_CLIENT_SEED_BYTES} bytes.")
    words = _words(server_seed, client_seeds)
    deck = list(range(NUM_CARDS))
    for k in range(NUM_CARDS - 1, 0, -1):
        span = k + 1
        limit = 2**32 - 2**32 % span
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % span
        deck[k], deck[j] = deck[j], deck[k]
    return deck


@dataclass(frozen=True)
class FairShuffle:
    """What a record keeps of a fair shuffle: enough for anyone to check the deck.

    ``server_seed`` is None until it is revealed (after the deal).
    """

    commitment: str
    client_seeds: tuple[bytes, ...] = ()
    server_seed: bytes | None = None
    algorithm: str = ALGORITHM

    def deck(self) -> list[int]:
        """The deck the seeds give.

        :raises FairnessError: if the server seed is not revealed, does not match the
            commitment, or the algorithm is unknown.
        """
        if self.algorithm != ALGORITHM:
            raise FairnessError(
                f"Unknown shuffle algorithm {self.algorithm!r}; known: {ALGORITHM}."
            )
        if self.server_seed is None:
            raise FairnessError("The server seed has not been revealed yet.")
        if not check_commitment(self.server_seed, self.commitment):
            raise FairnessError(
                "The revealed server seed does not match the commitment published before the deal."
            )
        return fair_deck(self.server_seed, self.client_seeds)

    def verify(self, deck: Sequence[int]) -> None:
        """Check that ``deck`` (top first) is the one the seeds give.

        :raises FairnessError: naming what does not match.
        """
        expected = self.deck()
        if list(deck) != expected:
            raise FairnessError("The deck is not the one the seeds give.")
