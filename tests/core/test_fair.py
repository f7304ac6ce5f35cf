"""The provably fair shuffle (``conquian.fair``): the documented algorithm, re-implemented here
from its description, gives the engine's decks; a commitment binds the server seed; every seed
changes the deck; the first card is spread evenly."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from conquian.cards import CARDS, parse_cards_mask
from conquian.fair import (
    ALGORITHM,
    FIRST_ALGORITHM,
    FairnessError,
    FairShuffle,
    check_commitment,
    commitment,
    fair_deck,
    first_version,
    new_server_seed,
)


def deck_from_the_description(server: bytes, clients: list[bytes]) -> list[int]:
    """The algorithm as the module docstring states it, written out independently."""
    head = b"conquian-deck/1" + len(clients).to_bytes(4, "big")
    for seed in clients:
        head += len(seed).to_bytes(4, "big") + seed
    stream = b"".join(
        hmac.new(server, head + i.to_bytes(8, "big"), hashlib.sha256).digest() for i in range(64)
    )
    words = [int.from_bytes(stream[i : i + 4], "big") for i in range(0, len(stream), 4)]
    deck = list(range(40))
    at = 0
    for k in range(39, 0, -1):
        while True:
            word = words[at]
            at += 1
            if word < 2**32 - 2**32 % (k + 1):
                break
        j = word % (k + 1)
        deck[k], deck[j] = deck[j], deck[k]
    return deck


@pytest.mark.parametrize("clients", [[], [b"ana"], [b"\x01" * 16, b"ana"], [b"", b"x" * 64]])
def test_the_engine_follows_the_documented_algorithm(clients: list[bytes]) -> None:
    for n in range(20):
        server = hashlib.sha256(f"server {n}".encode()).digest()
        assert fair_deck(server, clients) == deck_from_the_description(server, clients)


def test_a_known_deck_of_versions_1_and_2() -> None:
    """Pinned so that any change to the algorithm shows; a change needs a new version name.
    Version 2 changed the commitment only: the deck is the same."""
    assert (FIRST_ALGORITHM, ALGORITHM) == (
        "hmac-sha256-fisher-yates/1",
        "hmac-sha256-fisher-yates/2",
    )
    deck = fair_deck(bytes(range(32)), [b"\x01" * 16, b"ana"])
    text = " ".join(str(CARDS[i]) for i in deck)
    assert text == (
        "6h As 2d 4d Ks Qh 4c Kd Ad 2c Js 3d Kc 5d Qd Qs 5s 3h 6d 6c "
        "2s 6s 5c Jc Jh Jd 7h 4h Qc 7s 3c 2h 4s 7c Kh 5h Ac 7d Ah 3s"
    )
    assert parse_cards_mask(text) == (1 << 40) - 1


def test_every_seed_and_the_seat_order_change_the_deck() -> None:
    server = new_server_seed()
    base = fair_deck(server, [b"ana", b"ben"])
    assert sorted(base) == list(range(40))
    assert base == fair_deck(server, [b"ana", b"ben"])
    assert base != fair_deck(server, [b"ben", b"ana"])
    assert base != fair_deck(server, [b"ana", b"bem"])
    assert base != fair_deck(server, [b"anab", b"en"])  # lengths are part of the message
    assert base != fair_deck(new_server_seed(), [b"ana", b"ben"])


def test_the_first_card_is_spread_evenly() -> None:
    counts = [0] * 40
    for n in range(4000):
        counts[fair_deck(n.to_bytes(32, "big"), [b"seat"])[0]] += 1
    chi2 = sum((c - 100) ** 2 / 100 for c in counts)
    assert chi2 < 80, counts  # 39 degrees of freedom: 80 is far in the tail


def test_a_commitment_binds_the_server_seed_and_the_dealer() -> None:
    server = new_server_seed()
    published = commitment(server, 1, 2)
    assert len(published) == 64
    assert check_commitment(server, published.upper(), dealer=1, players=2)
    other = bytes([server[0] ^ 1]) + server[1:]
    assert not check_commitment(other, published, dealer=1, players=2)
    # the audit's M2: another dealer, or another number of players, is another commitment
    assert not check_commitment(server, published, dealer=0, players=2)
    assert not check_commitment(server, published, dealer=1, players=3)
    shuffle = FairShuffle(published, (b"ana",), server)
    shuffle.verify(fair_deck(server, [b"ana"]), 1, 2)
    with pytest.raises(FairnessError, match="do not match the commitment"):
        FairShuffle(published, (b"ana",), other).deck(1, 2)
    with pytest.raises(FairnessError, match="do not match the commitment"):
        shuffle.deck(0, 2)  # the dealer swapped after the seeds
    with pytest.raises(FairnessError, match="not the one the seeds give"):
        shuffle.verify(fair_deck(server, [b"ben"]), 1, 2)
    with pytest.raises(FairnessError, match="not been revealed"):
        FairShuffle(published).deck(1, 2)
    with pytest.raises(FairnessError, match="Unknown shuffle algorithm"):
        FairShuffle(published, (), server, "xorshift/0").deck(1, 2)
    with pytest.raises(FairnessError, match="cannot deal"):
        commitment(server, 2, 2)


def test_a_first_version_commitment_is_to_the_server_seed_alone() -> None:
    server = new_server_seed()
    published = hashlib.sha256(server).hexdigest()
    assert first_version(server, published) and not first_version(server, commitment(server, 0, 2))
    old = FairShuffle(published, (b"ana",), server, FIRST_ALGORITHM)
    assert not old.binds_the_dealer and FairShuffle(published).binds_the_dealer
    assert old.deck(0, 2) == old.deck(1, 2) == fair_deck(server, [b"ana"])


@pytest.mark.parametrize(("server", "clients"), [(b"short", []), (bytes(32), [b"x" * 65])])
def test_bad_seeds_are_refused(server: bytes, clients: list[bytes]) -> None:
    with pytest.raises(FairnessError):
        fair_deck(server, clients)
