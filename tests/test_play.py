"""``conquian play`` and ``replay --step``, driven as a person would, in a pseudo-terminal.

Every test runs the real program (``python -m conquian.play``) under pexpect with a
fixed seed, reads the screen, and types.  The bot's hand is checked against the
saved game after every prompt, so a hidden card that reaches the screen fails.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pexpect
import pytest

from conquian.cards import CARDS, mask_indices
from conquian.play.session import pick_default_level
from conquian.play.storage import SAVE_NAME, PlayError, SavedMatch, Store
from conquian.present.spans import CardLook
from conquian.records import GameRecord, MatchRecord, load_record
from conquian.rules import find_rules
from conquian.state import GameState
from conquian.userdata import default_data_dir

ANSI = re.compile(
    r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][A-Z0-9]|[=>78])"
)
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
PROMPTS = [
    "take or decline",
    "take or pass",
    "force or no",
    r"take \(forced\)",
    "discard",
    r"choose 1-\d+ \(Enter: back\)",
    r"next deal\? \[Y/n\]",
    r"new match\? \[Y/n\]",
    "press Enter when ready",
    "replay",
]
PROMPT = re.compile(r"((?:Player \d, )?(?:" + "|".join(PROMPTS) + "))> ")
SYMBOL_SUITS = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}
END_PROMPTS = ("next deal? [Y/n]", "new match? [Y/n]")


def ascii_cards(text: str) -> str:
    for symbol, letter in SYMBOL_SUITS.items():
        text = text.replace(symbol, letter)
    return text


ENGLISH_LOOK = CardLook()
"""Cards as the engine labels them."""


def card_forms(index: int, look: CardLook = ENGLISH_LOOK) -> list[str]:
    """The card as a screen with ``look`` writes it: its label, and with suit symbols."""
    return [look.label(index), replace(look, symbols=True).text(index)]


def shows_card(text: str, index: int, look: CardLook = ENGLISH_LOOK) -> bool:
    """Whether a card is written in ``text`` (as ``Kh`` or ``K♥``, or as ``look`` writes it),
    not inside a word."""
    return any(
        re.search(rf"(?<![^\W_]){re.escape(form)}(?![^\W_])", text)
        for form in card_forms(index, look)
    )


class Play:
    """The program in a pseudo-terminal, with what it has shown so far."""

    def __init__(
        self,
        args: list[str],
        save_dir: Path,
        *,
        plain: bool = True,
        module: list[str] | None = None,
    ) -> None:
        env = dict(os.environ)
        env.update(PYTHONIOENCODING="utf-8", TERM="xterm-256color", COLUMNS="110", LINES="60")
        env.pop("NO_COLOR", None)
        argv = [*(module or ["-m", "conquian.play"]), *args]
        if "replay" not in argv:
            argv += ["--save-dir", str(save_dir)]
        if plain:
            argv.append("--plain")
        self.save_dir = save_dir
        self.child = pexpect.spawn(
            sys.executable,
            argv,
            env=env,
            encoding="utf-8",
            codec_errors="replace",
            timeout=30,
            dimensions=(60, 110),
            # Ctrl-C as at a terminal, even where this test runs with SIGINT ignored (a background job)
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        self.child.delaybeforesend = None  # every send waits for its prompt anyway
        self.log = io.StringIO()
        self.child.logfile_read = self.log
        self.raw = ""
        self.screen = ""
        self.kind = ""
        self.prompt = ""

    def wait(self) -> str:
        """Wait for the next prompt; ``screen`` is what was shown since the previous one."""
        self.child.expect(PROMPT)
        self.raw = self.child.before
        self.screen = ANSI.sub("", self.raw)
        self.prompt = self.child.match.group(1)
        self.kind = re.sub(r"^Player \d, ", "", self.prompt)
        return self.kind

    def send(self, text: str) -> None:
        self.child.sendline(text)

    def transcript(self) -> str:
        return ANSI.sub("", self.log.getvalue())

    def finish(self) -> int:
        self.child.expect(pexpect.EOF)
        self.child.close()
        status = self.child.exitstatus
        return -1 if status is None else status

    # ------------------------------------------------------------ reading

    def saved(self) -> dict[str, Any]:
        """The saved game, unsealed with its key (as the program reads it on resume)."""
        saved = Store(self.save_dir).load()
        return {"match": saved.match, "match_seed": saved.match_seed, "bot_seed": saved.bot_seed}

    def current_deal(self) -> GameRecord | None:
        """The record of the deal in play, from the saved match."""
        match = self.saved()["match"]
        if match is None:
            return None
        deal = MatchRecord.loads(match).deals[-1]
        return deal if deal.result == "*" else None

    def saved_actions(self) -> tuple[str, ...]:
        current = self.current_deal()
        return () if current is None else current.actions

    def state(self) -> GameState:
        current = self.current_deal()
        assert current is not None, "no deal in play"
        return current.final_state()

    def options(self) -> list[str]:
        lines = [ln for ln in self.screen.splitlines() if ln.startswith("You can: ")]
        assert lines, self.screen
        text = lines[-1][len("You can: ") :].split("   (also:")[0]
        return [o.strip() for o in text.split(" | ")]

    def board(self) -> str:
        """The last table drawn (from its header to the options line)."""
        text = self.transcript()
        titles = [m.start() for m in re.finditer("[-\u2500]  Conquian", text)]
        return text[titles[-1] if titles else 0 :]

    def hand(self) -> list[str]:
        lines = re.findall(r"^[\s\u2502|]*hand:\s+(.*?)[\s\u2502|]*$", self.board(), re.MULTILINE)
        assert lines, self.board()
        return ascii_cards(lines[-1]).split()

    def choose(self, step: int, decline_every: int = 0, provoke: bool = False) -> str:
        """A legal move read from the screen."""
        kind = self.kind
        if kind in ("take or decline", "take or pass", "take (forced)"):
            options = self.options()
            takes = [o for o in options if o.startswith("take")]
            declining = decline_every and step % decline_every == 0
            if provoke and "take" in takes:  # a card that only extends a meld: refuse it
                declining = True
            if takes and (kind == "take (forced)" or not declining):
                return (
                    "take" if takes[0].startswith("take (") else takes[0].split(" (")[0]
                )  # without "(goes out)"
            return next(o for o in options if o in ("decline", "pass"))
        if kind == "discard":
            return self.hand()[-1]
        if kind == "force or no":
            return "force" if step % 2 else "no"
        if kind.startswith("choose"):
            return "1"
        raise AssertionError(f"unexpected prompt {self.prompt!r}")


def bot_hand_leaks(play: Play) -> list[str]:
    """The bot's (player 1's) hand cards that the screen has shown so far."""
    hand = play.state().hands[1]
    text = play.transcript()
    return [str(CARDS[i]) for i in mask_indices(hand) if shows_card(text, i)]


@dataclass
class FullGame:
    save_dir: Path
    kinds: list[str]
    leaks: list[str]
    end_screen: str
    exit_status: int
    final_bot_hand: int
    final_human_hand: int


def play_full_game(save_dir: Path, args: list[str], plain: bool) -> FullGame:
    play = Play(args, save_dir, plain=plain)
    kinds: list[str] = []
    leaks: list[str] = []
    state: GameState | None = None
    for step in range(300):
        kind = play.wait()
        kinds.append(kind)
        if kind in END_PROMPTS:
            break
        state = play.state()
        leaks += bot_hand_leaks(play)
        play.send(play.choose(step))
    else:
        raise AssertionError("the deal did not end")
    assert state is not None
    end_screen = play.screen
    records = sorted((save_dir / "records").glob("*.toml"))
    final = load_record(str(records[-1])).final_state()
    play.send("n")
    status = play.finish()
    return FullGame(save_dir, kinds, leaks, end_screen, status, final.hands[1], final.hands[0])


@pytest.fixture(scope="module")
def full_game(tmp_path_factory: pytest.TempPathFactory) -> FullGame:
    return play_full_game(
        tmp_path_factory.mktemp("full"), ["--seed", "3", "--level", "easy"], plain=True
    )


# --------------------------------------------------------------------------- a full game


def test_full_game_against_the_bot_to_its_end(full_game: FullGame) -> None:
    assert full_game.exit_status == 0
    assert full_game.kinds[-1] in END_PROMPTS
    assert {"discard"} <= set(full_game.kinds)
    records = sorted((full_game.save_dir / "records").glob("*.toml"))
    assert len(records) == 1
    record = load_record(str(records[0]))
    assert record.result != "*"
    assert record.players == ("You", "Bot (easy)")
    # the seeds only once the match is over (finding L4): they deal every later deal
    match_over = full_game.kinds[-1] == "new match? [Y/n]"
    assert (record.seed is not None) == match_over == ("match_seed" in record.meta)
    # the record replays, and the end screen says how the deal ended
    final = record.final_state()
    outcome = final.outcome()
    assert outcome is not None
    if outcome.winner is None:
        assert "Drawn: the stock ran out" in full_game.end_screen
    else:
        name = "You" if outcome.winner == 0 else "Bot"
        assert f"{name} went out" in full_game.end_screen
        assert "cards melded:" in full_game.end_screen
    assert "Record saved: " in full_game.end_screen
    assert str(records[0]) in full_game.end_screen.replace("\n", "")
    assert "Match: " in full_game.end_screen


CLI_REVIEW = [sys.executable, "-m", "conquian.cli", "review"]


def test_ctrl_c_stops_the_review_and_not_the_game(tmp_path: Path) -> None:
    play = Play(["--seed", "3", "--level", "easy"], tmp_path)
    for step in range(300):
        if play.wait() in END_PROMPTS:
            break
        play.send(play.choose(step))
    else:
        raise AssertionError("the deal did not end")
    asked = play.prompt
    play.send("r")
    play.child.expect("Ctrl-C stops the review")  # shown as the review starts
    play.child.sendintr()
    assert play.wait() == asked  # the same question again, the game not left
    assert "Review stopped." in play.screen
    assert "Winning chance, move by move:" not in play.screen
    play.send("n")
    assert play.finish() == 0
    assert len(list((tmp_path / "records").glob("*.toml"))) == 1


def test_bot_hand_never_shown_before_the_deal_ends(full_game: FullGame) -> None:
    assert full_game.leaks == []
    # ... while the end of the deal shows what the bot still held
    if full_game.final_bot_hand:
        line = next(
            ln for ln in full_game.end_screen.splitlines() if "Bot's hand still held:" in ln
        )
        for index in mask_indices(full_game.final_bot_hand):
            assert shows_card(line, index)


def test_rich_screen_full_game_symbols_and_hidden_hand(tmp_path: Path) -> None:
    game = play_full_game(tmp_path, ["--seed", "11", "--level", "easy"], plain=False)
    assert game.exit_status == 0
    assert game.leaks == []
    assert game.kinds[-1] in END_PROMPTS
    text = game.end_screen
    assert any(symbol in text for symbol in SYMBOL_SUITS)
    assert "\u256d" in text  # the framed table


# --------------------------------------------------------------------------- bad input


def expect_refused(play: Play, typed: str, message: str) -> None:
    """Typing ``typed`` gives ``message`` and the same prompt, and changes nothing."""
    before = play.saved_actions()
    prompt = play.prompt
    play.send(typed)
    play.wait()
    assert message in play.screen, (typed, play.screen)
    assert "You can: " in play.screen or play.kind.startswith("choose") or play.kind in END_PROMPTS
    assert play.prompt == prompt, (typed, play.prompt, prompt)
    assert play.saved_actions() == before


def unseen_card(play: Play) -> str:
    """A card still in the stock: not in the player's hand and never shown."""
    state = play.state()
    unseen = [*state.stock[state.stock_pos :], *mask_indices(state.hands[1 - state.to_act])]
    return str(CARDS[unseen[0]])


BAD_INPUT_SEED = 4
BAD_INPUT_DECLINE = 2
"""A deal (against the random bot, declining every second card we could take) that
reaches every kind of prompt."""


def test_invalid_input_at_every_kind_of_prompt(tmp_path: Path) -> None:
    play = Play(["--seed", str(BAD_INPUT_SEED), "--bot", "random"], tmp_path)
    tried: set[str] = set()
    for step in range(400):
        kind = play.wait()
        if kind in END_PROMPTS:
            expect_refused(play, "maybe", "Please answer y or n.")
            tried.add("end")
            play.send("n")
            break
        if kind.startswith("choose"):  # a list the move policy asked for; tried below
            play.send("1")
            continue
        takes = [o for o in play.options() if o.startswith("take")] if "take" in kind else []
        key = f"{kind} with takes" if takes else kind
        if key not in tried:
            tried.add(key)
            expect_refused(play, "xyzzy", "I don't understand 'xyzzy'.")
            if kind in ("take or decline", "take or pass") and not takes:
                expect_refused(play, "take", "does not fit anything of yours")
                expect_refused(play, "force", "is not possible now")
            elif kind in ("take or decline", "take or pass", "take (forced)"):
                hand = play.hand()
                expect_refused(play, "take 9x", "is not a card")
                stranger = unseen_card(play)
                expect_refused(play, f"take {stranger}", "not in your hand")
                whole = " ".join(hand)
                assert f"take {whole}" not in takes
                expect_refused(play, f"take {whole}", "No legal take lays exactly")
                if kind == "take (forced)":
                    expect_refused(play, "decline", "is not possible now")
            elif kind == "discard":
                stranger = unseen_card(play)
                expect_refused(play, f"discard {stranger}", f"Cannot discard {stranger}")
                expect_refused(play, stranger, f"Cannot discard {stranger}")
                expect_refused(play, "take", "There is no card to take now.")
            elif kind == "force or no":
                expect_refused(play, "take", "There is no card to take now.")
                expect_refused(play, "decline", "is not possible now")
        if "menu" not in tried and any(o.startswith("take (list all") for o in takes):
            tried.add("menu")
            play.send("take")
            assert play.wait().startswith("choose")
            expect_refused(play, "99", "Type a number from 1 to")
            expect_refused(play, "abc", "Type a number from 1 to")
            play.send("1")
            continue
        play.send(play.choose(step, decline_every=BAD_INPUT_DECLINE, provoke=True))
    else:
        raise AssertionError("the deal did not end")
    assert play.finish() == 0
    wanted = {"take or decline", "take or pass", "discard", "force or no", "end"}
    wanted |= {"take or decline with takes", "take or pass with takes", "take (forced) with takes"}
    wanted.add("menu")
    assert not wanted - tried, wanted - tried


def test_ambiguous_take_offers_a_numbered_list(tmp_path: Path) -> None:
    play = Play(["--seed", "13", "--bot", "random"], tmp_path)
    for step in range(400):
        kind = play.wait()
        assert kind not in END_PROMPTS, "no position with several takes was reached"
        options = play.options() if kind.startswith("take") else []
        if any(o.startswith("take (list all") for o in options):
            play.send("take")
            assert play.wait().startswith("choose")
            count = len(re.findall(r"^\s+\d+\. take", play.screen, re.MULTILINE))
            assert count >= 2 and f"choose 1-{count} " in play.prompt
            before = play.saved_actions()
            play.send("")  # back to the move prompt, nothing played
            assert play.wait() == kind
            assert play.saved_actions() == before
            play.send("take")
            play.wait()
            play.send(str(count))
            play.wait()
            assert len(play.saved_actions()) == len(before) + 1
            assert play.saved_actions()[-1].split()[1] == "take"
            break
        play.send(play.choose(step, decline_every=BAD_INPUT_DECLINE, provoke=True))
    play.send("quit")
    assert play.finish() == 0


# --------------------------------------------------------------------------- quit and resume


def position_screen(play: Play) -> str:
    """The table and the question, without the welcome or resume notes."""
    board = play.board()
    lines = [
        ln
        for ln in board.splitlines()
        if not ln.startswith(("Welcome", "Resumed", "The unfinished", "Your opponent"))
    ]
    return "\n".join(lines).split("You can: ")[0]


def test_quit_ctrl_c_and_closed_terminal_resume_the_position(tmp_path: Path) -> None:
    args = ["--seed", "7", "--level", "easy"]
    play = Play(args, tmp_path)
    for step in range(5):
        play.wait()
        play.send(play.choose(step))
    play.wait()
    shown, actions = position_screen(play), play.saved_actions()
    assert actions
    play.send("quit")
    assert play.finish() == 0
    assert "Game saved." in play.transcript()
    assert "conquian play --resume" in play.transcript()

    # --resume: the same table, the same question, nothing replayed twice
    play = Play(["--resume"], tmp_path)
    play.wait()
    assert "Resumed the game saved" in play.screen
    assert position_screen(play) == shown
    assert play.saved_actions() == actions
    play.send(play.choose(5))
    play.wait()
    shown, actions = position_screen(play), play.saved_actions()
    play.child.sendintr()  # Ctrl-C
    assert play.finish() == 130
    assert "Game saved." in play.transcript()

    play = Play(["--resume"], tmp_path)
    play.wait()
    assert position_screen(play) == shown
    assert play.saved_actions() == actions
    play.send(play.choose(6))
    play.wait()
    shown, actions = position_screen(play), play.saved_actions()
    play.child.kill(signal.SIGHUP)  # the terminal is closed
    play.child.close(force=True)

    play = Play(["--resume"], tmp_path)
    play.wait()
    assert position_screen(play) == shown
    assert play.saved_actions() == actions
    # the game continues exactly as one that was never stopped
    steps = 7
    while play.kind not in END_PROMPTS and steps < 60:
        play.send(play.choose(steps))
        steps += 1
        play.wait()
    resumed_actions = play.saved_actions() or tuple(
        load_record(str(sorted((tmp_path / "records").glob("*.toml"))[-1])).actions
    )
    play.send("quit")
    play.finish()

    straight = tmp_path / "straight"
    play = Play(args, straight)
    for step in range(steps):
        play.wait()
        play.send(play.choose(step))
    play.wait()
    straight_actions = play.saved_actions() or tuple(
        load_record(str(sorted((straight / "records").glob("*.toml"))[-1])).actions
    )
    play.send("quit")
    play.finish()
    assert resumed_actions == straight_actions


def test_resume_without_a_saved_game_starts_a_new_one(tmp_path: Path) -> None:
    play = Play(["--resume", "--seed", "2", "--level", "easy"], tmp_path)
    play.wait()
    assert "There is no saved game in" in play.screen
    play.send("quit")
    assert play.finish() == 0


# --------------------------------------------------------------------------- hot seat


def test_hotseat_hides_each_hand_from_the_other_player(tmp_path: Path) -> None:
    play = Play(["--seed", "4", "--hotseat"], tmp_path)
    passes = 0
    current: int | None = None
    for step in range(60):
        kind = play.wait()
        if kind in END_PROMPTS:
            break
        if kind == "press Enter when ready":
            passes += 1
            # the screen was wiped (with its scroll-back) before the hand-over
            assert CLEAR in play.raw
            after_clear = ANSI.sub("", play.raw.split(CLEAR)[-1])
            assert "Pass the device to Player" in after_clear
            state = play.state()
            for p in (0, 1):  # no hand at all on the hand-over screen
                for index in mask_indices(state.hands[p]):
                    assert not shows_card(after_clear, index), (p, CARDS[index])
            current = int(play.prompt.split()[1].rstrip(",")) - 1
            play.send("")
            continue
        assert current is not None and play.prompt.startswith(f"Player {current + 1}, ")
        state = play.state()
        assert state.to_act == current
        # this player's screen, from the hand-over on: his hand, never the other's
        since = play.transcript().split("press Enter when ready> ")[-1]
        other = state.hands[1 - current]
        assert not [str(CARDS[i]) for i in mask_indices(other) if shows_card(since, i)]
        own = state.hands[current]
        assert all(shows_card(since, i) for i in mask_indices(own))
        play.send(play.choose(step))
    assert passes >= 3
    play.send("quit")
    assert play.finish() == 0


# --------------------------------------------------------------------------- replay


def test_replay_step_shows_the_saved_record_move_by_move(full_game: FullGame) -> None:
    path = sorted((full_game.save_dir / "records").glob("*.toml"))[0]
    record = load_record(str(path))
    moves = len(record.actions)
    play = Play(["replay", str(path), "--step"], full_game.save_dir)
    play.wait()
    assert f"Move 0 of {moves}" in play.screen
    deal = record.replay()[0]
    for p in (0, 1):  # the deal is over: both hands show from the start
        for index in mask_indices(deal.hands[p]):
            assert shows_card(play.screen.split("Last moves")[0], index)
    play.send("n")
    play.wait()
    assert f"Move 1 of {moves}" in play.screen
    assert "Move 1: " in play.screen
    play.send("p")
    play.wait()
    assert f"Move 0 of {moves}" in play.screen
    play.send("p")
    play.wait()
    assert "This is the start of the record" in play.screen
    play.send(str(moves))
    play.wait()
    assert f"Move {moves} of {moves}" in play.screen
    assert "went out" in play.screen or "Drawn" in play.screen
    play.send("q")
    assert play.finish() == 0


def test_replay_view_shows_one_players_cards_only(full_game: FullGame) -> None:
    path = sorted((full_game.save_dir / "records").glob("*.toml"))[0]
    record = load_record(str(path))
    states = record.replay()
    play = Play(["replay", str(path), "--step", "--view", "0"], full_game.save_dir)
    for k in range(0, len(states), 3):
        if k:
            play.send(str(k))
        play.wait()
        assert f"Move {k} of" in play.screen
        state = states[k]
        public = state.table_masks[0] | state.table_masks[1] | state.dead_mask
        hidden = state.hands[1] & ~public
        assert not [str(CARDS[i]) for i in mask_indices(hidden) if shows_card(play.screen, i)]
        assert all(shows_card(play.screen, i) for i in mask_indices(state.hands[0]))
    play.send("q")
    assert play.finish() == 0


def test_replay_keys_on_the_rich_screen(full_game: FullGame) -> None:
    path = sorted((full_game.save_dir / "records").glob("*.toml"))[0]
    play = Play(["replay", str(path), "--step"], full_game.save_dir, plain=False)
    play.child.expect("Move 0 of")
    play.child.expect("quit")
    for key, move in (("n", 1), ("\x1b[C", 2), ("\x1b[D", 1), (" ", 2), ("p", 1)):
        play.child.send(key)
        play.child.expect(r"Move (\d+) of")
        assert int(play.child.match.group(1)) == move
    play.child.send("q")
    assert play.finish() == 0


# --------------------------------------------------------------------------- without Rich


def test_plays_in_plain_text_without_rich(tmp_path: Path) -> None:
    no_rich = [
        "-c",
        "import sys; sys.modules['rich'] = None; "
        "from conquian.play.cli import main; sys.exit(main())",
    ]
    play = Play(["--seed", "3", "--level", "easy"], tmp_path, plain=False, module=no_rich)
    for step in range(4):
        play.wait()
        assert "\x1b[3" not in play.raw and "\x1b[1m" not in play.raw  # no colour
        assert not any(symbol in play.screen for symbol in SYMBOL_SUITS)
        play.send(play.choose(step))
    play.wait()
    assert re.search(r"hand:\s+(?:[A2-7JQK][shdc]\s*)+$", play.board(), re.MULTILINE)
    play.send("quit")
    assert play.finish() == 0


# --------------------------------------------------------------------------- in process


def test_default_level_is_expert_when_it_answers_within_a_second() -> None:
    level, seconds = pick_default_level(find_rules("standard"))
    assert level == ("expert" if seconds <= 1.0 else "hard")
    assert pick_default_level(find_rules("standard"), limit_s=0.0)[0] == "hard"


def test_save_dir_follows_xdg_data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "conquian"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/path")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_data_dir() == tmp_path / "home" / ".local" / "share" / "conquian"


def test_default_save_dir_is_used_without_save_dir(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONIOENCODING="utf-8")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "conquian.play", "--seed", "1", "--level", "easy", "--plain"],
        env=env,
        encoding="utf-8",
        timeout=30,
    )
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert (tmp_path / "conquian" / SAVE_NAME).is_file()


def test_spanish_deck_labels_are_shown_and_read(tmp_path: Path) -> None:
    play = Play(["--seed", "2", "--bot", "random", "--deck", "spanish"], tmp_path)
    assert play.wait() == "take or decline"
    assert re.search(r"hand:\s+5e 7e  1c 11c 12c", play.board())
    assert "take 5b 6b" in play.options()
    play.send("take 5b 6b")
    assert play.wait() == "discard"
    play.send("12c")  # rey de copas, the king of hearts
    play.wait()
    assert play.saved_actions()[1:3] == ("p0 take 5c6c7c", "p0 discard Kh")
    assert "discarded 12c" in play.board()
    play.send("quit")
    assert play.finish() == 0


def test_help_rules_log_table_and_hint_change_nothing(tmp_path: Path) -> None:
    play = Play(["--seed", "3", "--level", "easy"], tmp_path, plain=False)
    for step in range(6):
        play.wait()
        play.send(play.choose(step))
    kind = play.wait()
    before = play.saved_actions()
    for command, shown in (
        ("help", "How to play Conquian"),
        ("rules", "Conquian for two players (standard rules)"),
        ("log", "every move so far:"),
        ("table", "Last moves"),
        ("hint", "why:"),
    ):
        play.send(command)
        assert play.wait() == kind
        assert shown in play.screen, (command, play.screen)
        assert play.saved_actions() == before
    assert re.search(r"Hint: (take|decline|pass|discard|force|no)", play.screen)
    play.send("quit")
    assert play.finish() == 0


def test_prompt_says_a_take_with_an_empty_hand_goes_out() -> None:
    from conquian.notation import parse_position
    from conquian.observation import observe
    from conquian.present.spans import CardLook, plain
    from conquian.present.words import Names, situation

    # ten cards down and an empty hand (or three cards of it still in hand); 5d fits the diamond run
    def said(phase: str, hand: str, table: str) -> str:
        state = parse_position(
            f"standard {phase} 0 0 {hand} Kd {table} 3h4h5h/AsAhAc/2s2h2c 5d:p "
            "3s4s5s7sJsQsKs7hJhQhKhQd3c4c5c7cJcQcKc - 1"
        )
        return plain(situation(observe(state, 0), Names(("Ana", "Ben"), me=0), CardLook()))

    line = said("offer", "-", "Ad2d3d4d/6d7dJd/6s6h6c")
    assert "Your hand is empty, so taking it goes out." in line
    assert line.endswith("Take it or decline it?")
    # forced to take it, the same
    line = said("forced", "-", "Ad2d3d4d/6d7dJd/6s6h6c")
    assert line.endswith(
        "take 5d. Your hand is empty, so taking it goes out. Choose how to lay it."
    )
    # the same offer with three cards still in hand makes no such claim
    line = said("offer", "6d7dJd", "Ad2d3d4d/6s6h6c")
    assert line.endswith("Take it or decline it?") and "hand is empty" not in line


def test_the_save_file_shows_no_hidden_card_and_a_changed_one_is_refused(tmp_path: Path) -> None:
    """Opening the save mid-deal shows neither the computer's hand, the stock nor a seed."""
    play = Play(["--seed", "740213", "--level", "easy"], tmp_path)
    for step in range(6):
        play.wait()
        play.send(play.choose(step))
    play.wait()
    saved = play.saved()
    state = play.state()
    play.send("quit")
    assert play.finish() == 0
    text = (tmp_path / SAVE_NAME).read_text("utf-8")
    data = json.loads(text)
    assert set(data) == {
        "format",
        "saved_at",
        "lang",
        "rules",
        "opponent",
        "names",
        "humans",
        "records",
        "count",  # la cuenta: the totals of the finished matches, public like the balance
        "matches",
        "sealed",
    }
    plain = json.dumps({k: v for k, v in data.items() if k != "sealed"})
    unseen = state.hands[1] | sum(1 << c for c in state.stock[state.stock_pos :])
    assert unseen.bit_count() > 10
    assert not [str(CARDS[i]) for i in mask_indices(unseen) if shows_card(plain, i)]
    for secret in (str(saved["match_seed"]), str(saved["bot_seed"]), "deck", "actions"):
        assert secret not in text
    key = tmp_path / ".save-key"
    assert key.stat().st_mode & 0o777 == 0o600
    # a changed save is refused with a reason, and the key is needed to read it
    sealed = data["sealed"]
    flipped = ("A" if sealed["data"][0] != "A" else "B") + sealed["data"][1:]
    (tmp_path / SAVE_NAME).write_text(json.dumps({**data, "sealed": {**sealed, "data": flipped}}))
    with pytest.raises(PlayError, match="changed"):
        Store(tmp_path).load()
    key.unlink()
    (tmp_path / SAVE_NAME).write_text(text)
    with pytest.raises(PlayError, match="key"):
        Store(tmp_path).load()


def answer_the_offer(save_dir: Path, seed: str, answer: str, said: str) -> None:
    """Start a new game where one is saved, answer its offer to go on with the saved one,
    see ``said``, and quit."""
    play = Play(["--seed", seed, "--level", "easy"], save_dir)
    play.child.expect(r"Go on with it\? \[Y/n\]> ")
    play.send(answer)
    play.wait()
    assert said in play.transcript()
    play.send("quit")
    assert play.finish() == 0


def test_a_new_game_offers_the_saved_one_and_loses_none(tmp_path: Path) -> None:
    """NEWCOMER-ES F9: starting a new game while one is saved asks whether to go on with
    it; a no starts the new one and keeps the old save under a name of its own."""
    first = Play(["--seed", "11", "--level", "easy"], tmp_path)
    first.wait()
    first.send("quit")
    assert first.finish() == 0
    answer_the_offer(tmp_path, "12", "y", "Resumed the game saved")
    kept = json.loads((tmp_path / SAVE_NAME).read_text("utf-8"))
    answer_the_offer(tmp_path, "13", "n", "was kept as")
    backups = sorted(tmp_path.glob("saved-game.*.json"))
    assert len(backups) == 1 and json.loads(backups[0].read_text("utf-8")) == kept


def test_la_cuenta_runs_on_from_match_to_match_and_starts_from_zero_with_0(tmp_path: Path) -> None:
    """After a match, the next keeps the count (shown after each deal and in the heading, and
    kept in the save across --resume) unless the player types 0."""
    play = Play(["--seed", "5", "--level", "beginner", "--to", "1"], tmp_path)
    totals: list[int] = [0, 0]
    matches = 1
    for answer in ("y", "quit", "0", "n"):
        for step in range(600):
            kind = play.wait()
            if kind == "new match? [Y/n]":
                break
            if kind == "next deal? [Y/n]":  # a drawn deal: the match goes on
                play.send("y")
                continue
            play.send(play.choose(step))
        else:
            raise AssertionError("the match did not end")
        balance = MatchRecord.loads(play.saved()["match"]).to_match().balance
        totals = [a + b for a, b in zip(totals, balance, strict=True)]
        said = " ".join(play.screen.split())
        if matches > 1:
            assert f"The count over {matches} matches: You {signed(totals[0])}" in said, said
        else:
            assert "The count over" not in said
        assert f"The count goes on in a new match (You {signed(totals[0])}, Bot" in said
        if answer == "quit":  # stopped at the question, and resumed: the count was kept
            play.send("y")
            play.wait()  # the first decision of the next match
            play.send("quit")
            assert play.finish() == 0
            assert Store(tmp_path).load().count == tuple(totals)
            play = Play(["--resume"], tmp_path)
            matches += 1
            heading = play.wait() and " ".join(play.screen.split())
            assert f"Count: You {signed(totals[0])}, Bot {signed(totals[1])}" in heading
            play.send(play.choose(0))
            continue
        play.send(answer)
        if answer == "0":
            totals, matches = [0, 0], 1
        elif answer == "y":
            matches += 1
    assert play.finish() == 0


def signed(value: int) -> str:
    """A total as the count writes it (``+2``, ``-1``, ``0``)."""
    return f"{value:+d}" if value else "0"


GOES_OUT_TWO_WAYS = (
    "standard offer 0 1 4h 2s3s4s5s6sJsQsKs6hJh Ah2h3h/AsAdAc/7s7h7d - 5h:p - "
    "QhKh2d3d4d5d6dJdQdKd2c3c4c5c6c7cJcQcKc 1"
)
"""5h, offered to a player with 4h in hand, goes out two ways (the ace in the run or in the
set): both win."""


@pytest.mark.parametrize("typed", ["take", "take 4h", "take 4"])
def test_going_out_needs_no_choice_however_many_ways_there_are(tmp_path: Path, typed: str) -> None:
    from conquian.actions import ActionKind
    from conquian.notation import parse_position
    from conquian.play.session import Session
    from conquian.play.ui import PlainScreen

    saved = SavedMatch(
        rules="standard",
        match_seed=1,
        bot_seed=1,
        opponent="easy",
        names=("You", "Bot"),
        humans=(0,),
    )
    out = io.StringIO()
    session = Session(PlainScreen(out=out, inp=io.StringIO("")), Store(tmp_path), saved)
    session.driver.start()
    game = session.game
    assert game is not None
    game.state = parse_position(GOES_OUT_TWO_WAYS)
    takes = [a for a in game.state.legal_actions() if a.kind is ActionKind.TAKE]
    assert len(takes) == 2  # two ways, both out
    chosen = session._read_action(0, game.observation(0), typed)  # nothing more typed: no list
    assert chosen in takes, out.getvalue()
    assert "ways to take it" not in out.getvalue()
