"""``conquian play`` in another language, driven in a pseudo-terminal to the end of a deal."""
# ruff: noqa: RUF001 -- the Russian words are Cyrillic letters, some shaped like Latin ones

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pexpect
import pytest

from conquian.actions import Action, ActionKind
from conquian.cards import CARDS, DeckStyle, mask_indices
from conquian.notation import played_cards
from conquian.observation import observe
from conquian.play.terminal_words import replay_label
from conquian.present.i18n import speaking
from conquian.present.letters import card_letters
from conquian.present.spans import CardLook
from conquian.records import MatchRecord, load_record
from conquian.rules import ALIASES, PRESETS, find_rules
from tests.test_i18n import english_words
from tests.test_play import ANSI, Play, shows_card

SPANISH_PROMPTS = [
    "toma o paso",
    "fuerza o no",
    r"toma \(a la fuerza\)",
    "paga",
    "cambia",
    r"elige 1-\d+ \(Enter: regresar\)",
    r"¿siguiente mano\? \[S/n\]",
    r"¿otra partida\? \[S/n\]",
]
SPANISH_PROMPT = re.compile(r"((?:" + "|".join(SPANISH_PROMPTS) + "))> ")
END = ("¿siguiente mano? [S/n]", "¿otra partida? [S/n]")
ALLOWED = {
    "conquian",
    "learn",  # the command conquian learn, typed as it is
    "conquián",
    "mexicano",
    "oros",
    "copas",
    "espadas",
    "bastos",
    *PRESETS,
    *ALIASES,
}
"""Words of the English catalogue that are the same in Spanish: the game's name, the
Spanish deck's suits, and the presets' names (code: what the player types)."""


def spanish_move(play: Play, kind: str, step: int) -> str:
    """A legal move read from the Spanish screen."""
    if kind.startswith("elige"):
        return "1"
    if kind == "fuerza o no":
        return "fuerza" if step % 2 else "no"
    if kind in ("paga", "cambia"):
        hands = re.findall(r"^[\s|]*mano:\s+(.*?)[\s|]*$", play.transcript(), re.MULTILINE)
        assert hands, play.screen
        return hands[-1].split()[-1]
    lines = [ln for ln in play.screen.splitlines() if ln.startswith("Puedes: ")]
    assert lines, play.screen
    options = [
        o.strip() for o in lines[-1][len("Puedes: ") :].split("   (también:")[0].split(" | ")
    ]
    takes = [o for o in options if o.startswith("toma")]
    if takes and (kind != "toma o paso" or step % 3):
        return "toma" if takes[0].startswith("toma (") else takes[0].split(" (")[0]
    return "paso"


def without_code(text: str) -> str:
    """The screen without what is code, not words: command lines and file paths."""
    text = re.sub(r"conquian review\s+\S+\s+--player\s+\d+", " ", text)  # may wrap
    text = re.sub(r"conquian (?:re)?play[^\n]*|\bplay --\w+", " ", text)
    return re.sub(r"/\S+", " ", text)


@pytest.mark.parametrize(
    ("args", "players"),
    [
        (["--seed", "3", "--level", "easy", "--rules", "standard"], 2),
        (["--seed", "4", "--level", "easy", "--rules", "tercerilla"], 3),
    ],
    ids=["two-players", "tercerilla"],
)
def test_a_whole_deal_in_spanish(tmp_path: Path, args: list[str], players: int) -> None:
    play = Play(["--lang", "es", *args], tmp_path)
    with speaking("es"):  # the cards as the screen writes them (``Kp``: K de picas)
        look = CardLook(
            find_rules(args[args.index("--rules") + 1]).deck_style, letters=card_letters()
        )
    kinds: list[str] = []
    help_at = (0, 0)  # where the help was printed (its examples name cards)
    for step in range(400):
        play.child.expect(SPANISH_PROMPT)
        play.screen = ANSI.sub("", play.child.before)
        kind = play.child.match.group(1)
        kinds.append(kind)
        if kind in END:
            break
        if step == 2:  # the help, a hint and the log, in Spanish too
            start = len(play.log.getvalue())
            play.send("ayuda")
            play.child.expect(SPANISH_PROMPT)
            help_at = (start, len(play.log.getvalue()))
            for command in ("pista", "jugadas"):
                play.send(command)
                play.child.expect(SPANISH_PROMPT)
        state = play.state()
        raw = play.log.getvalue()
        text = ANSI.sub("", raw[: help_at[0]] + raw[help_at[1] :])
        passed = observe(state, 0).passed  # the card you chose for the exchange you know
        for p in range(1, players):  # no bot's hand on the screen before the deal ends
            hidden = [i for i in mask_indices(state.hands[p]) if i != passed]
            assert not [i for i in hidden if shows_card(text, i, look)]
        play.send(spanish_move(play, kind, step))
    else:
        raise AssertionError("the deal did not end")
    records = sorted((tmp_path / "records").glob("*.toml"))
    assert len(records) == 1 and load_record(str(records[0])).result != "*"
    play.send("n")
    play.child.expect(pexpect.EOF)
    transcript = play.transcript()
    assert "¡Bienvenido al Conquián!" in transcript and "Te toca: " in transcript
    assert "Sugerencia: " in transcript and "Cómo se juega al Conquián" in transcript
    assert "Partida guardada." in transcript or "Registro guardado:" in transcript
    words = set(re.findall(r"[a-záéíóúñ]+", without_code(transcript).lower()))
    left = (english_words() & words) - ALLOWED
    assert not left, left


@pytest.mark.parametrize("command", [["-m", "conquian.play"], ["-m", "conquian.cli", "play"]])
def test_the_help_and_argparse_errors_in_spanish(command: list[str]) -> None:
    import subprocess
    import sys

    shown = subprocess.run(
        [sys.executable, *command, "--help", "--lang", "es"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown.startswith("uso: ") and "\nopciones:\n" in shown
    assert "mostrar esta ayuda y terminar" in shown and "Juega al Conquián en la terminal" in shown
    words = set(re.findall(r"[a-záéíóúñ]+", without_code(shown).lower()))
    code = {
        "hotseat",
        "resume",
        "level",
        "beginner",
        "easy",
        "medium",
        "hard",
        "expert",
        "bot",
        "name",
        "random",
        "greedy",
        "heuristic",
        "search",
        "rules",
        "deals",
        "seed",
        "deck",
        "french",
        "spanish",
        "plain",
        "save",
        "dir",
        "lang",
        "code",
        "standard",
        "to",
        "xdg",
        "data",
        "home",
        "local",
        "share",
        "help",
        "terminal",  # Spanish too
    }  # options and their values: code
    left = (english_words() & words) - ALLOWED - code
    assert not left, left
    refused = subprocess.run(
        [sys.executable, *command, "--lang", "es", "--deck", "nope"], capture_output=True, text=True
    )
    assert refused.returncode == 2
    assert "opción no válida: 'nope' (elige entre 'french', 'spanish', 'a_to_10')" in refused.stderr


@dataclass(frozen=True)
class Typed:
    """What a language's terminal shows and what its player types, written out by hand."""

    code: str
    take: str
    pass_: str
    force: str
    no: str
    discard: str
    hint: str
    help: str
    log: str
    quit: str
    prompts: dict[str, str]
    """Each move's prompt (without ``"> "``) by the move it asks for."""
    choose: str
    """The numbered list's prompt, a pattern."""
    can: str
    also: str
    hand: str
    hint_heading: str
    commands_heading: str
    log_heading: str
    saved: str

    def prompt(self) -> re.Pattern[str]:
        kinds = [re.escape(p) for p in self.prompts.values()]
        return re.compile(r"((?:" + "|".join([*kinds, self.choose]) + "))> ")


TYPED = {
    "kn": Typed(
        "kn",
        *("ತೆಗೆ", "ಬಿಡು", "ಒತ್ತಾಯ", "ಇಲ್ಲ", "ತ್ಯಜಿಸು", "ಸುಳಿವು", "ಸಹಾಯ", "ನಡೆಗಳು", "ನಿರ್ಗಮನ"),
        prompts={
            "take": "ತೆಗೆ ಅಥವಾ ಬಿಡು",
            "force": "ಒತ್ತಾಯ ಅಥವಾ ಇಲ್ಲ",
            "forced": "ತೆಗೆ (ಒತ್ತಾಯ)",
            "discard": "ತ್ಯಜಿಸು",
        },
        choose=r"1-\d+ ಆರಿಸಿ \(Enter: ಹಿಂದೆ\)",
        can="ನಿಮ್ಮ ಆಯ್ಕೆಗಳು: ",
        also="   (ಜೊತೆಗೆ:",
        hand="ಕೈ:",
        hint_heading="ಸುಳಿವು: ",
        commands_heading="ಆಜ್ಞೆಗಳು",
        log_heading="ಇಲ್ಲಿಯವರೆಗಿನ ಎಲ್ಲಾ ನಡೆಗಳು:",
        saved="ಆಟ ಉಳಿಸಲಾಗಿದೆ.",
    ),
    "hr": Typed(
        "hr",
        *("uzmi", "dalje", "prisili", "ne", "odbaci", "savjet", "upute", "potezi", "kraj"),
        prompts={
            "take": "uzmi ili dalje",
            "force": "prisili ili ne",
            "forced": "uzmi (prisilno)",
            "discard": "odbaci",
        },
        choose=r"odaberi 1-\d+ \(Enter: natrag\)",
        can="Možeš: ",
        also="   (također:",
        hand="ruka:",
        hint_heading="Savjet: ",
        commands_heading="Naredbe",
        log_heading="svi potezi dosad:",
        saved="Igra je spremljena.",
    ),
    "tr": Typed(
        "tr",
        *("al", "pas", "zorla", "hay\u0131r", "at", "ipucu", "yard\u0131m", "hamleler"),
        "\u00e7\u0131k\u0131\u015f",
        prompts={
            "take": "al ya da pas",
            "force": "zorla ya da hay\u0131r",
            "forced": "al (zorunlu)",
            "discard": "at",
        },
        choose=r"1-\d+ aras\u0131 se\u00e7 \(Enter: geri\)",
        can="Yapabileceklerin: ",
        also="   (ayr\u0131ca:",
        hand="el:",
        hint_heading="\u0130pucu: ",
        commands_heading="Komutlar",
        log_heading="\u015fimdiye kadarki t\u00fcm hamleler:",
        saved="Oyun kaydedildi.",
    ),
    "ru": Typed(
        "ru",
        *("беру", "пас", "навязать", "нет", "сброс", "совет", "помощь", "ходы", "выход"),
        prompts={
            "take": "беру или пас",
            "force": "навязать или нет",
            "forced": "беру (вынужденно)",
            "discard": "сброс",
        },
        choose=r"выбери 1-\d+ \(Enter: назад\)",
        can="Можно: ",
        also="   (также:",
        hand="рука:",
        hint_heading="Совет: ",
        commands_heading="Команды",
        log_heading="все ходы на этот момент:",
        saved="Партия сохранена.",
    ),
}


def typed_move(play: Play, typed: Typed, kind: str, step: int) -> str:
    """A legal move read from the screen, written with the language's commands."""
    if kind == typed.prompts["force"]:
        return typed.force if step % 2 else typed.no
    if kind == typed.prompts["discard"]:
        pattern = rf"^[\s|]*{re.escape(typed.hand)}\s+(.*?)[\s|]*$"
        hands = re.findall(pattern, play.transcript(), re.MULTILINE)
        assert hands, play.screen
        return f"{typed.discard} {hands[-1].split()[-1]}"
    if kind not in (typed.prompts["take"], typed.prompts["forced"]):
        return "1"  # the numbered list of ways to take
    lines = [ln for ln in play.screen.splitlines() if ln.startswith(typed.can)]
    assert lines, play.screen
    options = [o.strip() for o in lines[-1][len(typed.can) :].split(typed.also)[0].split(" | ")]
    words = {o.split()[0] for o in options}
    assert words <= {typed.take, typed.pass_, typed.no}, (options, play.screen)  # no English
    takes = [o for o in options if o.startswith(typed.take)]
    if takes:  # take whenever one can, to type a discard after it
        return typed.take if takes[0].startswith(f"{typed.take} (") else takes[0].split(" (")[0]
    return typed.pass_


ENGLISH = {"ತೆಗೆ": "take", "ಬಿಡು": "pass", "ಒತ್ತಾಯ": "force", "ಇಲ್ಲ": "no", "ತ್ಯಜಿಸು": "discard"}
"""Kannada moves typed in English instead (the English commands work in every language)."""


@pytest.mark.parametrize("code", ["kn", "hr", "tr", "ru"])
def test_a_few_moves_typed_in_the_language(tmp_path: Path, code: str) -> None:
    """Moves typed with the language's commands are played, the help, hint and log asked for
    in the language are shown in it, and (in Kannada) an English command works as well."""
    typed = TYPED[code]
    prompt = typed.prompt()
    play = Play(["--lang", code, "--seed", "3", "--level", "easy"], tmp_path)
    moves: list[str] = []
    made = 0  # the actions saved before the last move typed
    for step in range(80):
        play.child.expect(prompt)
        play.screen = ANSI.sub("", play.child.before)
        kind = play.child.match.group(1)
        if moves and not re.fullmatch(typed.choose, kind):  # the move typed was played
            assert len(play.saved_actions()) > made, (moves[-1], play.screen)
        firsts = [m.split()[0] for m in moves]
        if len(moves) >= 8 and typed.take in firsts and typed.discard in firsts:
            break
        if step == 1:  # the help, a hint and the log, asked for in the language
            for word, heading in (
                (typed.help, typed.commands_heading),
                (typed.hint, typed.hint_heading),
                (typed.log, typed.log_heading),
            ):
                play.send(word)
                play.child.expect(prompt)
                assert heading in ANSI.sub("", play.child.before), (word, play.child.before)
        made = len(play.saved_actions())
        move = typed_move(play, typed, kind, step)
        first, *rest = move.split(" ", 1)
        if code == "kn" and first == typed.pass_ and "pass" not in firsts:
            move = " ".join([ENGLISH[first], *rest])  # English works in Kannada too
        play.send(move)
        moves.append(move)
    else:
        raise AssertionError(f"no take and discard in the moves typed: {moves}")
    if code == "kn":
        assert "pass" in firsts and typed.pass_ in firsts, moves
    play.send(typed.quit)
    play.child.expect(pexpect.EOF)
    transcript = play.transcript()
    assert typed.saved in transcript
    # the help lists the language's commands, not the English ones
    assert re.search(rf"^  {re.escape(typed.quit)}\s", transcript, re.MULTILINE), transcript
    assert not re.search(r"^  (?:quit|hint|log)\s", transcript, re.MULTILINE)


ES_LANG, C_LANG = "es_MX.UTF-8", "C.UTF-8"
"""The LANG of a Mexican player's machine, and of one in no language."""


def conquian_play(lang: str, *args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    """``conquian play ARGS`` as a process under ``LANG=lang``, ``typed`` its input."""
    return subprocess.run(
        [sys.executable, "-m", "conquian.cli", "play", *args],
        input=typed,
        capture_output=True,
        text=True,
        env={**os.environ, "LANG": lang},
        timeout=120,
    )


def test_level_takes_the_language_s_level_names() -> None:
    """NEWCOMER-ES F14: --level medio is the medium level in Spanish; English names work too;
    a wrong one is refused naming the Spanish choices."""
    for typed in ("medio", "medium"):
        done = conquian_play(ES_LANG, "--level", typed, "--plain")
        assert "(medio)" in done.stdout, (typed, done.stdout[-500:], done.stderr[-500:])
    wrong = conquian_play(ES_LANG, "--level", "mediano")
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "'mediano'" in wrong.stderr and "'principiante'" in wrong.stderr


def test_resume_goes_on_in_the_game_s_language_and_names_are_shown_in_it(tmp_path: Path) -> None:
    """NEWCOMER-ES F8: a game started in Spanish resumes in Spanish without --lang; the
    replay shows the stored "You" and "Bot (easy)" in the language in use."""
    save = ["--save-dir", str(tmp_path)]
    started = conquian_play(ES_LANG, "--level", "easy", "--plain", *save, typed="guardar\n")
    assert "Mano 1" in started.stdout, started.stdout[-800:]
    assert (tmp_path / "saved-game.json").exists()
    resumed = conquian_play(C_LANG, "--resume", "--plain", *save)
    assert "Mano 1" in resumed.stdout and "Deal 1" not in resumed.stdout, resumed.stdout[-800:]
    told = conquian_play(ES_LANG, "--resume", "--plain", "--lang", "en", *save)
    assert "Deal 1" in told.stdout  # --lang says otherwise: it wins
    with speaking("es"):
        assert replay_label(0, "You") == "p0 Tú"
        assert replay_label(1, "Bot (easy)") == "p1 Bot (fácil)"


def test_in_spanish_the_mexican_game_comes_first_asking_how_many_play(tmp_path: Path) -> None:
    """Issue 39's first item: in Spanish, without --rules, the first question is how many
    play and the game is the Mexican one (Spanish deck); from a script, the tercerilla; in
    English the classic two-player game stays first."""
    play = Play(["--lang", "es", "--level", "easy"], tmp_path)
    play.child.expect(r"jugadores \(2-4, Enter: 3\)> ")
    assert "¿Cuántos juegan?" in ANSI.sub("", play.child.before)
    play.send("5")
    play.child.expect(r"jugadores \(2-4, Enter: 3\)> ")
    assert "no es un número de jugadores" in ANSI.sub("", play.child.before)
    play.send("2")
    play.child.expect("> ")
    assert "Conquián mexicano a dos" in play.transcript()  # the game named in words
    play.send("guardar")
    assert play.finish() == 0
    options = ["--level", "easy", "--plain", "--save-dir"]
    scripted = conquian_play(ES_LANG, *options, str(tmp_path / "es"))
    assert "Conquián mexicano: tercerilla" in scripted.stdout and "Bot 2 (fácil)" in scripted.stdout
    classic = conquian_play(C_LANG, *options, str(tmp_path / "en"))
    assert "Bot (easy)" in classic.stdout and "Mexican" not in classic.stdout


def test_a_deal_typed_with_spanish_letters_and_ranks_alone(tmp_path: Path) -> None:
    """In Spanish the French deck is typed ``p c d t`` (``5c``: the five of hearts, corazones),
    a rank alone is taken for the one card of the hand it can be, and where it can be two
    the answer names both."""
    play = Play(["--lang", "es", "--seed", "3", "--level", "easy", "--rules", "standard"], tmp_path)
    with speaking("es"):
        look = CardLook(DeckStyle.FRENCH, letters=card_letters())
    typed: dict[str, int] = {"alone": 0, "lettered": 0, "which": 0}
    expected: tuple[int, str] | None = None  # the move typed last: its place and its record
    for step in range(300):
        play.child.expect(SPANISH_PROMPT)
        play.screen = ANSI.sub("", play.child.before)
        kind = play.child.match.group(1)
        if expected is not None:  # it was played as typed
            deal = MatchRecord.loads(play.saved()["match"]).deals[-1]
            assert deal.actions[expected[0]] == expected[1], (expected, deal.actions)
            expected = None
        if kind in END:
            break
        state = play.state()
        made = len(play.saved_actions())
        hand = state.hands[0]
        ranks = [sum(1 for j in mask_indices(hand) if j % 10 == i % 10) for i in range(40)]
        takes = [a for a in state.legal_actions() if a.kind is ActionKind.TAKE]
        if kind == "paga":
            cards = mask_indices(hand)
            twice = [i for i in cards if ranks[i] > 1 and state.is_legal(Action.discard(i))]
            card = twice[0] if twice and not typed["which"] else cards[-1]
            if ranks[card] > 1:  # the rank alone is two cards: both are named back
                play.send(look.label(card)[:-1])
                play.child.expect(SPANISH_PROMPT)
                others = [look.label(i) for i in cards if i % 10 == card % 10]
                assert "¿Cuál de estas: " + " ".join(others) in ANSI.sub("", play.child.before)
                assert len(play.saved_actions()) == made  # and nothing was played
                typed["which"] += 1
                play.send(look.label(card))
                typed["lettered"] += 1
            else:
                play.send(look.label(card)[:-1])
                typed["alone"] += 1
            expected = (made, f"p0 discard {CARDS[card]}")
        elif kind == "toma o paso" and takes:
            played = played_cards(state, takes[0])
            alone = all(ranks[i] == 1 for i in mask_indices(played))
            words = [look.label(i)[:-1] if alone else look.label(i) for i in mask_indices(played)]
            play.send(" ".join(["toma", *words]))
            typed["alone" if alone else "lettered"] += 1
            expected = (made, f"p0 {takes[0]}")
        else:
            play.send(spanish_move(play, kind, step))
    else:
        raise AssertionError("the deal did not end")
    assert typed["alone"] and typed["lettered"] and typed["which"], typed
    play.send("n")
    play.child.expect(pexpect.EOF)


HELP_CODE = {
    "learn",
    "upgrade",
    "current",
    "rules",
    "legal",
    "replay",
    "review",
    "hint",
    "verify",
    "serve",
    "selfplay",
    "bench",
    "arena",
    "combine",
    "bot",
    "soak",
    "play",
    "command",
    "version",
    "lang",
    "code",
    "json",
    "help",
    "positions",
    "redact",
    "player",
    "file",
    "position",
    "preset",
    "samples",
    "seed",
    "host",
    "port",
    "db",
    "url",
    "delay",
    "quick",
    "after",
    "rate",
    "limit",
    "allow",
    "origin",
    "workers",
    "minute",
    "hour",
    "off",
    "standard",
    "foster",
    "max",
    "seq",
    "len",
    "toml",
    "docs",
    "notation",
    "md",
    "pip",
    "install",
    "web",
    "sqlite",
    "path",
    "postgresql",
    "psycopg",
    "user",
    "games",
    "example",
    "https",
    "http",
    "s",
    "n",
    "p",
    "conquian",
    "sqlalchemy",
    "step",
    "view",
    "plain",
    "terminal",  # Spanish words too
    "bots",
    "rummy",
}
"""What the help of the command line shows as code (commands, options, their values), and
words that are Spanish too."""


@pytest.mark.parametrize(
    "command",
    [[], ["rules"], ["legal"], ["replay"], ["review"], ["verify"], ["serve"], ["db"], ["learn"]],
)
def test_the_command_line_s_help_is_in_spanish(command: list[str]) -> None:
    """``conquian --help`` and the help of the commands a player uses, in Spanish (NEWCOMER-ES
    F14: it was half English)."""
    shown = subprocess.run(
        [sys.executable, "-m", "conquian.cli", *command, "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "LANG": ES_LANG},
    ).stdout
    assert shown.startswith("uso: ") and "mostrar esta ayuda y terminar" in shown
    words = set(re.findall(r"[a-záéíóúñ]+", without_code(shown).lower()))
    left = (english_words() & words) - ALLOWED - HELP_CODE
    assert not left, left
