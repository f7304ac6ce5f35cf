"""``conquian play`` in another language, driven in a pseudo-terminal to the end of a deal."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect
import pytest

from conquian.cards import mask_indices
from conquian.records import load_record
from conquian.rules import ALIASES, PRESETS
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
ALLOWED = {"conquian", "conquián", "oros", "copas", "espadas", "bastos", *PRESETS, *ALIASES}
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
        return "toma" if takes[0].startswith("toma (") else takes[0]
    return "paso"


def without_code(text: str) -> str:
    """The screen without what is code, not words: command lines and file paths."""
    text = re.sub(r"conquian (?:re)?play[^\n]*|\bplay --\w+", " ", text)
    return re.sub(r"/\S+", " ", text)


@pytest.mark.parametrize(
    ("args", "players"),
    [
        (["--seed", "3", "--level", "easy"], 2),
        (["--seed", "4", "--level", "easy", "--rules", "tercerilla"], 3),
    ],
    ids=["two-players", "tercerilla"],
)
def test_a_whole_deal_in_spanish(tmp_path: Path, args: list[str], players: int) -> None:
    play = Play(["--lang", "es", *args], tmp_path)
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
        for p in range(1, players):  # no bot's hand on the screen before the deal ends
            assert not [i for i in mask_indices(state.hands[p]) if shows_card(text, i)]
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
    assert "mostrar esta ayuda y salir" in shown and "Juega al Conquián en la terminal" in shown
    words = set(re.findall(r"[a-záéíóúñ]+", without_code(shown).lower()))
    code = {
        "hotseat",
        "resume",
        "level",
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
