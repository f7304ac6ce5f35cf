"""Fair shuffles in records and ``conquian verify``: a record carries the commitment, the seeds
and the algorithm; verify re-derives the deck and checks the commitment, and says why it fails."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conquian import Game, GameRecord, Match, MatchRecord, RecordError
from conquian.fair import FIRST_ALGORITHM, FairShuffle, commitment, fair_deck, new_server_seed


def fair_game(clients: tuple[bytes, ...] = (b"\x11" * 16,)) -> Game:
    server = new_server_seed()
    game = Game("standard", deck=fair_deck(server, clients), players=("ana", "ben"))
    game.fair = FairShuffle(commitment(server, game.dealer, 2), clients, server)
    rng = random.Random(4)
    for _ in range(12):
        game.push(rng.choice(game.legal_actions()))
    return game


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_fair_record_round_trips_and_verifies(tmp_path: Path) -> None:
    record = GameRecord.from_game(fair_game())
    text = record.dumps()
    assert 'fair = { algorithm = "hmac-sha256-fisher-yates/2"' in text
    again = GameRecord.loads(text)
    assert again == record and again.fair is not None
    again.verify_shuffle()
    assert again.to_game().fair == record.fair
    path = tmp_path / "deal.toml"
    path.write_text(text)
    result = verify(path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        f"the deal: the revealed server seed, the dealer (p{record.dealer}) and the 2 players "
        f"match the commitment {record.fair.commitment[:16]}... published before the deal",
        "the deal: hmac-sha256-fisher-yates/2 over the server seed and 1 player seed deals "
        "exactly the recorded deck",
        "the deal: 1 player seed was mixed in: if it is yours, the server could not choose "
        "the deck",
        "the deal: 12 recorded actions, all legal; the deal is unfinished",
    ]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ("deck", "not the one the seeds give"),
        ("server", "do not match the commitment"),
        ("dealer", "do not match the commitment"),
        ("client", "not the one the seeds give"),
        ("hidden", "not revealed"),
    ],
)
def test_verify_names_what_does_not_hold(tmp_path: Path, change: str, why: str) -> None:
    record = GameRecord.from_game(fair_game())
    fair = record.fair
    assert fair is not None and fair.server_seed is not None
    if change == "deck":
        record = replace(
            record, deck=(record.deck[1], record.deck[0], *record.deck[2:]), actions=()
        )
    elif change == "server":
        record = replace(record, fair=replace(fair, server_seed=new_server_seed()))
    elif change == "dealer":  # the audit's M2: the other dealer, deck and seeds untouched
        record = replace(record, dealer=1 - record.dealer, actions=(), result="*")
    elif change == "client":
        record = replace(record, fair=replace(fair, client_seeds=(b"\x12" * 16,)))
    else:
        record = replace(record, fair=replace(fair, server_seed=None))
    path = tmp_path / "deal.toml"
    path.write_text(record.dumps())
    result = verify(path)
    assert result.returncode == 1
    assert why in result.stdout + result.stderr
    assert "Traceback" not in result.stderr


def test_a_redacted_record_keeps_the_commitment_but_not_the_server_seed() -> None:
    record = GameRecord.from_game(fair_game())
    redacted = GameRecord.loads(record.for_player(0).dumps())
    assert redacted.fair is not None and redacted.fair.server_seed is None
    assert redacted.fair.commitment == (record.fair.commitment if record.fair else "")
    with pytest.raises(RecordError):
        redacted.verify_shuffle()


def test_a_match_record_with_fair_deals_verifies_deal_by_deal(tmp_path: Path) -> None:
    match = Match("standard,match=n_deals,match_target=3", seed=5, players=("ana", "ben"))
    rng = random.Random(2)
    for _ in range(2):
        server = new_server_seed()
        game = match.new_game(deck=fair_deck(server, [b"ana"]))
        game.fair = FairShuffle(commitment(server, game.dealer, 2), (b"ana",), server)
        while not game.state.is_over:
            game.push(rng.choice(game.legal_actions()))
        match.settle()
    text = MatchRecord.from_match(match).dumps()
    again = MatchRecord.loads(text).to_match()
    assert again.balance == match.balance
    path = tmp_path / "match.toml"
    path.write_text(text)
    result = verify(path)
    assert result.returncode == 0, result.stderr
    for deal in (1, 2):
        assert f"deal {deal}: the revealed server seed, the dealer (p" in result.stdout
        assert f"deal {deal}: hmac-sha256-fisher-yates/2 over the server seed and 1 player" in (
            result.stdout
        )
    assert result.stdout.count("recorded actions, all legal, end the deal as recorded") == 2
    assert (
        f"the match: the stakes, the dealers after the first and the balance {match.balance}"
        in (result.stdout)
    )


@pytest.mark.parametrize(
    "fair",
    [
        '"yes"',
        '{ algorithm = "hmac-sha256-fisher-yates/1" }',
        '{ algorithm = "hmac-sha256-fisher-yates/1", commitment = "zz" }',
        '{ algorithm = "a", commitment = "' + "0" * 64 + '", client_seeds = ["xyz"] }',
        '{ algorithm = "a", commitment = "' + "0" * 64 + '", server_seed = "' + "ab" * 40 + '" }',
    ],
)
def test_malformed_fair_entries_are_refused(fair: str) -> None:
    text = GameRecord.from_game(Game(seed=1)).dumps().replace("deck = ", f"fair = {fair}\ndeck = ")
    with pytest.raises(RecordError, match="fair"):
        GameRecord.loads(text)


def test_a_record_without_a_fair_shuffle_is_not_called_fair(tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text(GameRecord.from_game(Game(seed=3)).dumps())
    result = verify(path)
    assert result.returncode == 1 and "no fair shuffle" in result.stdout


# ------------------------------------------- what verify calls fair (findings L5 and L9)


def test_a_deck_no_player_seed_went_into_is_not_called_fair(tmp_path: Path) -> None:
    path = tmp_path / "deal.toml"
    path.write_text(GameRecord.from_game(fair_game(clients=())).dumps())
    result = verify(path)
    assert result.returncode == 0, result.stderr
    assert (
        "the deal: no player seed was mixed in: the deck is the server's choice alone, "
        "not a fair shuffle"
    ) in result.stdout.splitlines()
    assert "could not choose" not in result.stdout


def test_a_record_whose_actions_are_illegal_is_refused_after_its_shuffle_lines(
    tmp_path: Path,
) -> None:
    record = GameRecord.from_game(fair_game())
    # the same player acting twice in a row: illegal, as conquian replay says
    actions = (*record.actions[:5], record.actions[4], *record.actions[6:])
    path = tmp_path / "deal.toml"
    path.write_text(replace(record, actions=actions).dumps())
    result = verify(path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("conquian: error: Action 6 (")
    assert "deals exactly the recorded deck" in result.stdout
    assert "all legal" not in result.stdout


def test_a_match_record_is_known_by_its_format_wherever_that_line_is(tmp_path: Path) -> None:
    match = Match("standard,match=n_deals,match_target=2", players=("ana", "ben"))
    server = new_server_seed()
    game = match.new_game(deck=fair_deck(server, [b"ben"]))
    game.fair = FairShuffle(commitment(server, game.dealer, 2), (b"ben",), server)
    text = MatchRecord.from_match(match).dumps()
    line = 'format = "conquian-match/1"\n'
    assert text.count(line) == 1
    moved = text.replace(line, "").replace("[[deal]]", line + "\n[[deal]]", 1)
    assert moved.index("players = [") < moved.index(line)
    path = tmp_path / "match.toml"
    path.write_text(moved)
    result = verify(path)
    assert result.returncode == 0, result.stderr
    assert "deal 1: 0 recorded actions, all legal; the deal is unfinished" in result.stdout


def test_a_first_version_shuffle_is_checked_but_not_called_fair(tmp_path: Path) -> None:
    """A record of version /1 (its commitment to the server seed alone) still checks, and
    verify says that its commitment did not bind the dealer."""
    server = new_server_seed()
    game = Game("standard", deck=fair_deck(server, [b"ana"]), players=("ana", "ben"))
    game.fair = FairShuffle(hashlib.sha256(server).hexdigest(), (b"ana",), server, FIRST_ALGORITHM)
    path = tmp_path / "old.toml"
    path.write_text(GameRecord.from_game(game).dumps())
    result = verify(path)
    assert result.returncode == 0, result.stderr
    assert "did not bind the dealer" in result.stdout and "not a fair shuffle" in result.stdout
