"""Cards, card sets, deck styles, meld validity, meld tables and partition enumeration.

The partition and meld checks compare the library against small independent
reference implementations written here (no use of the library's meld tables).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conquian.actions import parse_partition
from conquian.cards import (
    ALL_CARDS_MASK,
    CARDS,
    Card,
    CardSet,
    DeckStyle,
    Rank,
    Suit,
    card_label,
    deck_style,
    format_mask,
    iter_card_tokens,
    mask_indices,
    parse_cards_mask,
)
from conquian.errors import InvalidMeldError, InvalidNotationError
from conquian.melds import Meld, MeldKind, format_partition, is_meld, meld_kind, meld_table

# --------------------------------------------------------------------------- helpers


def m(text: str) -> int:
    return parse_cards_mask(text)


def ref_is_meld(mask: int, max_seq_len: int = 8) -> bool:
    """Reference meld check written from the rules, independent of the library."""
    cards = [i for i in range(40) if mask >> i & 1]
    if len(cards) < 3:
        return False
    ranks = [i % 10 for i in cards]
    suits = [i // 10 for i in cards]
    if len(set(ranks)) == 1:
        return len(cards) <= 4  # 3 or 4 of one rank (distinct suits by construction)
    if len(set(suits)) == 1:
        ordered = sorted(ranks)
        consecutive = all(b - a == 1 for a, b in itertools.pairwise(ordered))
        return consecutive and len(cards) <= max_seq_len
    return False


def ref_melds_within(avail: int, max_seq_len: int) -> list[int]:
    """Every meld (by the reference check) made of cards of ``avail``."""
    out = []
    for suit in range(4):
        for start in range(10):
            for length in range(3, max_seq_len + 1):
                if start + length > 10:
                    continue
                run = sum(1 << (suit * 10 + r) for r in range(start, start + length))
                if not run & ~avail:
                    out.append(run)
    for rank in range(10):
        present = [s for s in range(4) if avail >> (s * 10 + rank) & 1]
        for size in (3, 4):
            for suits in itertools.combinations(present, size):
                out.append(sum(1 << (s * 10 + rank) for s in suits))
    return out


def ref_partitions(required: int, optional: int, max_seq_len: int) -> set[tuple[int, ...]]:
    """Brute force: all ways to split required + a subset of optional into valid melds."""
    opt_cards = mask_indices(optional)
    results: set[tuple[int, ...]] = set()

    def split(remaining: int, melds: list[int], acc: list[int]) -> None:
        if not remaining:
            acc_t = tuple(sorted(melds))
            results.add(acc_t)
            return
        low = remaining & -remaining
        for meld in acc:
            if meld & low and not meld & ~remaining:
                melds.append(meld)
                split(remaining & ~meld, melds, acc)
                melds.pop()

    for k in range(len(opt_cards) + 1):
        for chosen in itertools.combinations(opt_cards, k):
            cards = required | sum(1 << i for i in chosen)
            candidates = [
                x for x in ref_melds_within(cards, max_seq_len) if ref_is_meld(x, max_seq_len)
            ]
            split(cards, [], candidates)
    return results


# --------------------------------------------------------------------------- cards


def test_card_index_layout() -> None:
    assert Card.parse("As").index == 0
    assert Card.parse("Ks").index == 9
    assert Card.parse("Ah").index == 10
    assert Card.parse("7d").index == 26
    assert Card.parse("Jc").index == 37
    assert Card.parse("Kc").index == 39
    card = Card.parse("Jc")
    assert card.rank is Rank.JACK and card.suit is Suit.CLUBS
    assert Card.of(8, 3) == card
    assert card.mask == 1 << 37
    assert CARDS[17] == Card(17)


@pytest.mark.parametrize(
    ("index", "french", "spanish", "a_to_10"),
    [
        (0, "As", "1e", "As"),
        (6, "7s", "7e", "7s"),
        (17, "Jh", "10c", "8h"),
        (18, "Qh", "11c", "9h"),
        (19, "Kh", "12c", "10h"),
        (22, "3d", "3o", "3d"),
        (30, "Ac", "1b", "Ac"),
        (39, "Kc", "12b", "10c"),
    ],
)
def test_labels_in_three_deck_styles(index: int, french: str, spanish: str, a_to_10: str) -> None:
    card = CARDS[index]
    assert card.label() == french == str(card)
    assert card.label("french") == french
    assert card.label("spanish") == spanish
    assert card.label(DeckStyle.A_TO_10) == a_to_10
    assert card_label(index, "spanish") == spanish
    assert Card.parse(spanish, deck="spanish") == card
    assert Card.parse(a_to_10, deck="a_to_10") == card


@pytest.mark.parametrize("style", list(DeckStyle))
def test_every_label_round_trips(style: DeckStyle) -> None:
    labels = [card_label(i, style) for i in range(40)]
    assert len(set(labels)) == 40
    for i, label in enumerate(labels):
        assert Card.parse(label, style).index == i
        assert Card.parse(label.upper(), style).index == i
        assert Card.parse(label.lower(), style).index == i
    full = CardSet.full()
    assert CardSet.parse(full.label(style), style) == full
    assert CardSet.parse(full.label(style, sep=","), style) == full


def test_symbol_and_repr() -> None:
    assert Card.parse("7h").symbol() == "7\u2665"
    assert Card.parse("Ks").symbol() == "K\u2660"
    assert repr(Card.parse("Qd")) == "Card.parse('Qd')"
    assert eval(repr(Card.parse("Qd"))) == Card.parse("Qd")


@pytest.mark.parametrize(
    "text",
    [
        "5c 6c 7c",
        "5C 6c 7C",
        "5c,6c,7c",
        "5c, 6c,  7c",
        "5c6c7c",
        "  7c 5c 6c  ",
        "5c;6c|7c",
        "5c/6c/7c",
        "5\u2663 6\u2663 7\u2663",
        "5\u26636\u26637\u2663",
        "5\u2667 6c 7C",
    ],
)
def test_forgiving_parsing(text: str) -> None:
    assert parse_cards_mask(text) == (1 << 34) | (1 << 35) | (1 << 36)
    assert str(CardSet.parse(text)) == "5c 6c 7c"


def test_suit_symbols_all_suits() -> None:
    cs = CardSet.parse("A\u2660 2\u2665 3\u2666 4\u2663")
    assert str(cs) == "As 2h 3d 4c"
    assert str(CardSet.parse("k\u2661q\u2662j\u2664")) == "Js Kh Qd"


def test_order_written_is_kept_by_token_iterator() -> None:
    assert list(iter_card_tokens("Kc As 7h")) == [39, 0, 16]
    assert str(CardSet.parse("Kc As 7h")) == "As 7h Kc"  # canonical: suit then rank


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10c", "Jh"),
        ("sota de copas", "Jh"),
        ("Sota De Copas", "Jh"),
        ("sota-copas", "Jh"),
        ("caballo de oros", "Qd"),
        ("1o", "Ad"),
        ("as de bastos", "Ac"),
        ("rey de espadas", "Ks"),
        ("12b", "Kc"),
        ("11e", "Qs"),
        ("7o", "7d"),
        ("7 de oros", "7d"),
    ],
)
def test_spanish_tokens(text: str, expected: str) -> None:
    assert Card.parse(text, deck="spanish") == Card.parse(expected)


def test_spanish_lists_and_run_together() -> None:
    cs = CardSet.parse("sota de copas, caballo de oros, 1o 10e", deck="spanish")
    assert str(cs) == "Js Jh Ad Qd"
    assert str(CardSet.parse("10c11c12c", deck="spanish")) == "Jh Qh Kh"
    assert str(CardSet.parse("6o7o10o", deck="spanish")) == "6d 7d Jd"
    assert CardSet.parse("sota de copas, 7 de oros", deck="spanish").label("spanish") == "10c 7o"


def test_a_to_10_tokens() -> None:
    assert str(CardSet.parse("8h 9d 10s Tc", deck="a_to_10")) == "Ks Jh Qd Kc"
    assert str(CardSet.parse("8h9h10h", deck="a_to_10")) == "Jh Qh Kh"


@pytest.mark.parametrize(
    ("text", "deck", "bad"),
    [
        ("5h Xz 6h", "french", "Xz"),
        ("5h 6h 8h", "french", "8h"),
        ("10h", "french", "10h"),
        ("5h,Zq", "french", "Zq"),
        ("5h6hXz", "french", "Xz"),
        ("5h 9q", "spanish", "9q"),
        ("Jh", "spanish", "Jh"),
        ("Jh", "a_to_10", "Jh"),
        ("11h", "a_to_10", "11h"),
    ],
)
def test_errors_name_the_bad_token(text: str, deck: str, bad: str) -> None:
    with pytest.raises(InvalidNotationError) as info:
        parse_cards_mask(text, deck)
    assert bad in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["5h 5h", "5h 5H", "5h 5\u2665", "5h,6h,5h", "AsAs"])
def test_duplicates_rejected(text: str) -> None:
    with pytest.raises(InvalidNotationError, match="twice"):
        parse_cards_mask(text)
    with pytest.raises(InvalidNotationError):
        CardSet.parse(text)


def test_spanish_duplicate_via_two_names() -> None:
    with pytest.raises(InvalidNotationError, match="twice"):
        CardSet.parse("10c sota de copas", deck="spanish")


def test_card_parse_needs_exactly_one_card() -> None:
    with pytest.raises(InvalidNotationError):
        Card.parse("5h 6h")
    with pytest.raises(InvalidNotationError):
        Card.parse("")
    with pytest.raises(InvalidNotationError):
        Card(40)
    with pytest.raises(InvalidNotationError):
        Card(-1)


def test_unknown_deck_style_named() -> None:
    with pytest.raises(InvalidNotationError, match="german"):
        deck_style("german")
    with pytest.raises(InvalidNotationError, match="german"):
        CardSet.parse("5h", deck="german")


def test_empty_and_separator_only_text() -> None:
    assert parse_cards_mask("") == 0
    assert parse_cards_mask(" , ; ") == 0
    assert len(CardSet.parse("")) == 0


# --------------------------------------------------------------------------- CardSet


def test_cardset_operations() -> None:
    a = CardSet.parse("5h 5d 6c 7c")
    b = CardSet.parse("5d 7c Kh")
    assert str(a | b) == "5h Kh 5d 6c 7c"
    assert str(a & b) == "5d 7c"
    assert str(a - b) == "5h 6c"
    assert str(a ^ b) == "5h Kh 6c"
    assert str(a | "Ks") == "Ks 5h 5d 6c 7c"
    assert str(a - [Card.parse("5h")]) == "5d 6c 7c"
    assert str(a & (1 << 24 | 1 << 25)) == "5d"
    assert (a & b).issubset(a) and (a & b).issubset(b)
    assert not a.issubset(b)
    assert CardSet().issubset(a)
    assert Card.parse("5d") in a and 24 in a and 25 not in a and Card.parse("Kh") not in a
    assert 40 not in a and -1 not in a and "5d" not in a
    assert len(a) == 4 and bool(a) and not CardSet()
    assert int(a) == a.mask and [1, 2, 3][CardSet(1)] == 2
    assert [str(c) for c in a] == ["5h", "5d", "6c", "7c"]
    assert len(CardSet.full()) == 40 and CardSet.full().mask == ALL_CARDS_MASK
    assert eval(repr(a)) == a
    assert a == CardSet.of([Card.parse("5h"), 24, Card.parse("6c"), 36])
    assert a == CardSet.of(a.mask) == CardSet.of(a) == CardSet.of("7c 6c 5d 5h")
    assert a.label("spanish") == "5c 5o 6b 7b"
    assert a.label(sep="") == "5h5d6c7c"


def test_cardset_rejects_non_cards() -> None:
    with pytest.raises(InvalidNotationError):
        CardSet(1 << 40)
    with pytest.raises(InvalidNotationError):
        CardSet(-1)


def test_format_mask_canonical_order() -> None:
    everything = format_mask(ALL_CARDS_MASK)
    assert everything.startswith("As 2s 3s 4s 5s 6s 7s Js Qs Ks Ah ")
    assert everything.split()[-1] == "Kc"
    assert format_mask(0) == ""
    assert format_mask(m("Jh 6h 7h"), sep="") == "6h7hJh"
    assert format_mask(m("Jh 6h 7h"), deck="a_to_10") == "6h 7h 8h"


@given(st.integers(0, ALL_CARDS_MASK))
@settings(max_examples=200, deadline=None)
def test_format_parse_round_trip(mask: int) -> None:
    for style in DeckStyle:
        for sep in (" ", ",", ""):
            if sep == "" and style is not DeckStyle.FRENCH:
                continue  # "1e1c" style run-together is fine, but keep the test simple
            assert parse_cards_mask(format_mask(mask, sep, style), style) == mask
    assert mask_indices(mask) == [i for i in range(40) if mask >> i & 1]
    cs = CardSet(mask)
    assert len(cs) == len(mask_indices(mask))


# --------------------------------------------------------------------------- meld tables


@pytest.mark.parametrize(("cap", "total", "runs"), [(8, 182, 132), (10, 194, 144), (3, 82, 32)])
def test_meld_table_sizes(cap: int, total: int, runs: int) -> None:
    table = meld_table(cap)
    assert len(table.melds) == total
    assert len(set(table.melds)) == total
    assert table.valid == frozenset(table.melds)
    kinds = [meld_kind(x) for x in table.melds]
    assert kinds.count(MeldKind.RUN) == runs
    assert kinds.count(MeldKind.SET) == 50
    assert all(ref_is_meld(x, cap) for x in table.melds)
    assert set(table.melds) == set(ref_melds_within(ALL_CARDS_MASK, cap))
    assert table.ids == {x: i for i, x in enumerate(table.melds)}


def test_meld_table_cap_validated() -> None:
    with pytest.raises(InvalidMeldError):
        meld_table(2)
    with pytest.raises(InvalidMeldError):
        meld_table(11)


@pytest.mark.parametrize("cap", range(3, 11))
def test_meld_table_matches_reference_for_every_cap(cap: int) -> None:
    table = meld_table(cap)
    expected_runs = 4 * sum(11 - length for length in range(3, cap + 1))
    assert len(table.melds) == 50 + expected_runs
    assert set(table.melds) == set(ref_melds_within(ALL_CARDS_MASK, cap))


VALID = [
    "6h 7h Jh",  # D01: 7-J adjacent
    "7h Jh Qh",
    "As 2s 3s",
    "5h 6h 7h Jh Qh Kh",
    "Kc Kd Ks",  # D02
    "Kc Kd Ks Kh",
    "As 2s 3s 4s 5s 6s 7s Js",  # D03: 8 long
    "Jc 5c 6c 7c",  # 7-J adjacency, any order written
]
INVALID = [
    "Qh Kh Ah",  # D01: no wrap
    "Kh Ah 2h",
    "5h 6h 7h Jd",  # mixed suit
    "4c 5c 7c",  # gap
    "7h Qh Kh",  # gap: J missing
    "Kc Kd",  # D02: two cards
    "5h 5d 6h",
    "5h",
    "",
    "As 2s 3s 4s 5s 6s 7s Js Qs",  # D03: 9 long, over the default cap
    "As 2s 3s 4s 5s 6s 7s Js Qs Ks",
    "5h 5d 5c 6h 6d 6c",  # two sets together
]


@pytest.mark.parametrize("text", VALID)
def test_valid_melds(text: str) -> None:
    mask = m(text)
    assert is_meld(mask)
    assert ref_is_meld(mask)
    meld = Meld.parse(text)
    assert meld.mask == mask
    assert len(meld) == mask.bit_count()
    assert meld.cards == CardSet(mask)
    assert Meld.parse(str(meld)) == meld


@pytest.mark.parametrize("text", INVALID)
def test_invalid_melds(text: str) -> None:
    mask = m(text)
    assert not is_meld(mask)
    assert not ref_is_meld(mask)
    with pytest.raises(InvalidMeldError, match="not a meld"):
        Meld.parse(text)


def test_meld_kinds() -> None:
    assert Meld.parse("Kc Kd Ks").kind is MeldKind.SET
    assert Meld.parse("6h 7h Jh").kind is MeldKind.RUN
    assert meld_kind(m("Qh Kh Ah")) is None


def test_sequence_cap_d03() -> None:
    nine = m("As 2s 3s 4s 5s 6s 7s Js Qs")
    ten = m("As 2s 3s 4s 5s 6s 7s Js Qs Ks")
    assert not is_meld(nine, 8) and not is_meld(ten, 8) and not is_meld(ten, 9)
    assert is_meld(nine, 9) and is_meld(nine, 10) and is_meld(ten, 10)
    assert Meld.parse("As 2s 3s 4s 5s 6s 7s Js Qs", max_seq_len=10).kind is MeldKind.RUN
    with pytest.raises(InvalidMeldError, match="3-8"):
        Meld.from_mask(nine)
    assert meld_kind(ten) is MeldKind.RUN  # uncapped kind
    assert not is_meld(m("4s 5s 6s 7s"), 3)


def test_spanish_melds_d04() -> None:
    run = CardSet.parse("6 de oros, 7 de oros, sota de oros", deck="spanish")
    assert run == CardSet.parse("6d 7d Jd") and is_meld(run.mask)
    wrap = CardSet.parse("caballo de copas, rey de copas, 1 de copas", deck="spanish")
    assert wrap == CardSet.parse("Qh Kh Ah") and not is_meld(wrap.mask)
    kings = CardSet.parse("rey de copas, rey de espadas, rey de bastos", deck="spanish")
    assert Meld.from_mask(kings.mask).kind is MeldKind.SET


@given(st.sets(st.integers(0, 39), min_size=0, max_size=10))
@settings(max_examples=300, deadline=None)
def test_is_meld_matches_reference(cards: set[int]) -> None:
    mask = sum(1 << i for i in cards)
    for cap in (3, 8, 10):
        assert is_meld(mask, cap) == ref_is_meld(mask, cap)


@given(st.integers(0, 3), st.integers(0, 9), st.integers(3, 9))
@settings(max_examples=100, deadline=None)
def test_runs_never_wrap(suit: int, start: int, length: int) -> None:
    cards = [(start + k) % 10 for k in range(length)]
    mask = sum(1 << (suit * 10 + r) for r in cards)
    wraps = start + length > 10
    assert is_meld(mask, 10) == (not wraps)


# --------------------------------------------------------------------------- partitions

# Pools of neighbouring cards so that random small sets often hold melds.
POOLS = [
    m("4s 5s 6s 7s Js 4h 5h 6h 7h 4d 5d 4c"),
    m("As 2s 3s Ah 2h 3h Ad 2d Ac Qs Ks Kh"),
    m("6c 7c Jc Qc Kc 7s 7h 7d Js Jh Jd Kd"),
    m("Ad 2d 3d 4d 5d 6d 7d Jd Qd Kd 5s 5h"),
]


@st.composite
def required_optional(draw: st.DrawFn) -> tuple[int, int]:
    """Required cards built mostly from whole melds (so partitions exist), plus optional cards."""
    pool_mask = draw(st.sampled_from(POOLS))
    pool = mask_indices(pool_mask)
    melds = ref_melds_within(pool_mask, 10)
    required = 0
    for index in draw(st.lists(st.integers(0, len(melds) - 1), max_size=3)):
        if not melds[index] & required:
            required |= melds[index]
    for card in draw(st.lists(st.sampled_from(pool), max_size=2)):
        required ^= 1 << card  # sometimes a stray card, sometimes a hole
    rest = [i for i in pool if not required >> i & 1]
    if not rest:  # the required cards took the whole pool
        return required, 0
    optional = sum(1 << i for i in draw(st.lists(st.sampled_from(rest), unique=True, max_size=6)))
    return required, optional


@given(required_optional(), st.sampled_from([3, 8, 10]))
@settings(max_examples=250, deadline=None)
def test_partitions_match_brute_force(case: tuple[int, int], cap: int) -> None:
    required, optional = case
    got = meld_table(cap).partitions(required, optional)
    assert list(got) == sorted(got)
    assert len(got) == len(set(got)), "duplicate partitions"
    expected = ref_partitions(required, optional, cap)
    assert set(got) == expected, (format_mask(required), format_mask(optional), cap)
    for part in got:
        assert part == tuple(sorted(part))
        union = 0
        for meld in part:
            assert ref_is_meld(meld, cap)
            assert not union & meld
            union |= meld
        assert union & required == required
        assert not union & ~(required | optional)


def test_partitions_examples() -> None:
    table = meld_table(8)
    req = m("6c 7c Jc 5c")
    assert [format_partition(p) for p in table.partitions(req, 0)] == ["5c6c7cJc"]
    got = [format_partition(p, " ") for p in table.partitions(req, m("Jh Jd"))]
    assert got == ["5c6c7c JhJdJc", "5c6c7cJc"]
    assert table.partitions(m("5c 6c"), 0) == ()
    assert table.partitions(0, 0) == ((),)
    assert table.partitions(0, m("Kh Qd")) == ((),)
    with_empty = table.partitions(0, m("5c 6c 7c"))
    assert () in with_empty and (m("5c 6c 7c"),) in with_empty and len(with_empty) == 2


def test_partitions_four_of_a_kind_and_runs() -> None:
    table = meld_table(8)
    # Four 5s plus 6h 7h: the 5h may go to the run or stay in the set.
    req = m("5s 5h 5d 5c 6h 7h")
    got = {format_partition(p) for p in table.partitions(req, 0)}
    assert got == {"5h6h7h/5s5d5c"}
    got = {format_partition(p) for p in table.partitions(m("5s 5h 5d 5c"), m("6h 7h"))}
    assert got == {"5s5h5d5c", "5h6h7h/5s5d5c"}


# --------------------------------------------------------------------------- fits_directly


@given(required_optional(), st.integers(0, 39), st.sampled_from([3, 8, 10]))
@settings(max_examples=200, deadline=None)
def test_fits_directly_matches_reference(case: tuple[int, int], card: int, cap: int) -> None:
    required, _ = case
    table = meld_table(cap)
    parts = table.partitions(required, 0)
    bit = 1 << card
    for part in parts[:3]:
        if any(x & bit for x in part):
            continue
        expected = any(ref_is_meld(x | bit, cap) for x in part)
        assert table.fits_directly(bit, part) == expected
        direct = table.direct_fits(bit, part)
        assert bool(direct) == expected
        for new in direct:
            assert len(new) == len(part)
            assert sum(x.bit_count() for x in new) == sum(x.bit_count() for x in part) + 1


@pytest.mark.parametrize(
    ("card", "table_text", "fits"),
    [
        ("7c", "3c4c5c6c", True),
        ("7c", "3c4c5c", False),
        ("Jc", "5c6c7c", True),
        ("4c", "5c6c7c", True),
        ("Ac", "JcQcKc", False),  # no wrap
        ("Kh", "KsKdKc", True),
        ("Kh", "5h6h7h", False),
        ("Js", "4s5s6s7s", True),
        ("Qs", "4s5s6s7s", False),  # gap
        ("5h", "5s5d5c/2h3h4h", True),
        ("2d", "AsAhAc/3d4d5d", True),
        ("2d", "AsAhAc/4d5d6d", False),
    ],
)
def test_fits_directly_examples(card: str, table_text: str, fits: bool) -> None:
    part = parse_partition(table_text)
    assert meld_table(8).fits_directly(m(card), part) == fits
    assert any(ref_is_meld(x | m(card)) for x in part) == fits


def test_fits_directly_respects_cap() -> None:
    seven = (m("As 2s 3s 4s 5s 6s 7s Js"),)
    assert not meld_table(8).fits_directly(m("Qs"), seven)
    assert meld_table(10).fits_directly(m("Qs"), seven)
    assert not meld_table(8).fits_directly(m("Qs"), ())
    four = (m("5s 5h 5d 5c"),)
    assert not meld_table(8).fits_directly(m("6s"), four)
