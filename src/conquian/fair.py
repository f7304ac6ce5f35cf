"""A provably fair shuffle: a deck that neither the server nor any one player could choose.

Before a deal the server draws a fresh secret *server seed* and publishes its
*commitment*: the SHA-256 of it together with everything else the server chooses about the
deal, who deals and how many play (so which packet each seat is dealt).  Each seated person
may then add a *client seed*
of their own (the browser supplies a random one by default).  The deck is a
Fisher-Yates shuffle driven by HMAC-SHA256 keyed by the server seed over every
client seed, so it is fixed by seeds that were all committed before any was
revealed.  After the deal the server reveals its seed; anyone can check that it
matches the commitment, with the dealer and the number of players the record shows, and
deal the same deck again (``conquian verify RECORD``).

The algorithm, version ``hmac-sha256-fisher-yates/2``:

0. ``commitment = SHA-256(b"conquian-deal/2" || server seed || u8(dealer) || u8(players))``,
   in hexadecimal.  (Version ``/1``, kept for older records, committed to the server seed
   alone, ``SHA-256(server seed)``: it did not bind the dealer.)

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
>>> published = commitment(server, dealer=1, players=2)
>>> check_commitment(server, published, dealer=1, players=2)
True
>>> check_commitment(server, published, dealer=0, players=2)  # another dealer: refused
False
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
    "FIRST_ALGORITHM",
    "FairShuffle",
    "FairnessError",
    "check_commitment",
    "commitment",
    "fair_deck",
    "first_version",
    "new_server_seed",
]

ALGORITHM = "hmac-sha256-fisher-yates/2"
"""The name and version of the shuffle, as records write it."""
FIRST_ALGORITHM = "hmac-sha256-fisher-yates/1"
"""The first version: the same deck, its commitment to the server seed alone (older records
are checked by it; it does not bind the dealer)."""
SEED_BYTES = 32
"""Length of a server seed."""
MAX_CLIENT_SEED_BYTES = 64
"""Longest client seed accepted (a browser sends 16 random bytes)."""
_DOMAIN = b"conquian-deck/1"
_COMMIT_DOMAIN = b"conquian-deal/2"


class FairnessError(ConquianError, ValueError):
    """Seeds that do not make a fair shuffle: a bad seed, or a seed that does not match
    its commitment."""


def new_server_seed() -> bytes:
    """A fresh secret server seed, from the operating system's random source."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(server_seed: bytes, dealer: int, players: int) -> str:
    """The commitment to publish before the deal: the SHA-256 of the server seed, the dealer
    and the number of players, in hex (version ``/2``)."""
    if not (0 <= dealer < players <= 255):
        raise FairnessError(f"Seat {dealer} cannot deal to {players} players.")
    digest = hashlib.sha256(_COMMIT_DOMAIN + server_seed + bytes((dealer, players)))
    return digest.hexdigest()


def check_commitment(
    server_seed: bytes,
    published: str,
    *,
    dealer: int,
    players: int,
    algorithm: str = ALGORITHM,
) -> bool:
    """Whether a revealed server seed, dealer and number of players are the ones the
    published commitment was made to (version ``/1``: the server seed alone)."""
    if algorithm == FIRST_ALGORITHM:
        expected = hashlib.sha256(server_seed).hexdigest()
    elif 0 <= dealer < players <= 255:
        expected = commitment(server_seed, dealer, players)
    else:
        return False
    return hmac.compare_digest(expected, published.strip().lower())


def first_version(server_seed: bytes, published: str) -> bool:
    """Whether ``published`` is a version ``/1`` commitment to ``server_seed`` (a shuffle
    stored before version ``/2``).

    >>> seed = bytes(32)
    >>> first_version(seed, hashlib.sha256(seed).hexdigest()), first_version(seed, "00")
    (True, False)
    """
    return hmac.compare_digest(hashlib.sha256(server_seed).hexdigest(), published.strip().lower())


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

    @property
    def binds_the_dealer(self) -> bool:
        """Whether the commitment binds the dealer and the number of players (version ``/2``)."""
        return self.algorithm == ALGORITHM

    def deck(self, dealer: int, players: int) -> list[int]:
        """The deck the seeds give, for a deal that ``dealer`` deals to ``players``.

        :raises FairnessError: if the server seed is not revealed, it (with the dealer and
            the number of players) does not match the commitment, or the algorithm is unknown.
        """
        if self.algorithm not in (ALGORITHM, FIRST_ALGORITHM):
            raise FairnessError(
                f"Unknown shuffle algorithm {self.algorithm!r}; known: {ALGORITHM}, "
                f"{FIRST_ALGORITHM}."
            )
        if self.server_seed is None:
            raise FairnessError("The server seed has not been revealed yet.")
        if not check_commitment(
            self.server_seed,
            self.commitment,
            dealer=dealer,
            players=players,
            algorithm=self.algorithm,
        ):
            raise FairnessError(
                "The revealed server seed, dealer and number of players do not match the "
                "commitment published before the deal."
                if self.binds_the_dealer
                else "The revealed server seed does not match the commitment published before "
                "the deal."
            )
        return fair_deck(self.server_seed, self.client_seeds)

    def verify(self, deck: Sequence[int], dealer: int, players: int) -> None:
        """Check that ``deck`` (top first) is the one the seeds give, and the commitment.

        :raises FairnessError: naming what does not match.
        """
        expected = self.deck(dealer, players)
        if list(deck) != expected:
            raise FairnessError("The deck is not the one the seeds give.")
