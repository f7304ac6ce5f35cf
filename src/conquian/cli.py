"""The ``conquian`` command line."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from . import __version__
from .bots.protocol import DEFAULT_TIME_LIMIT_MS
from .errors import ConquianError, RecordError
from .fair import FairShuffle, check_commitment
from .notation import format_position, parse_position, small_number
from .play.cli import (
    add_language_option,
    add_learn_parser,
    add_play_parser,
    add_replay_step_options,
    language_in,
    run_replay_step,
    wants_replay_step,
)
from .play.terminal_words import PERSON_NAME, TERMINAL_WORDS, shown_name, speak_argparse
from .present.i18n import choose_language, use_language
from .present.rules_text import PRESET_SOURCES, describe, presets_note
from .present.words import Names
from .records import (
    MATCH_FORMAT,
    GameRecord,
    MatchRecord,
    format_result,
    load_any_record,
    load_record,
)
from .rules import MAX_PLAYERS, find_rules
from .tools.arena import MatchResult, run_match
from .tools.cluster import LOCAL as RAY_LOCAL
from .tools.seating_arena import SeatingMatchResult, run_seating_match


class CliError(Exception):
    """A problem to report on stderr with exit status 1."""


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=False))


def cmd_rules(args: argparse.Namespace) -> None:
    rules = find_rules(args.preset)
    if args.json:
        _print_json({"spec": rules.to_spec(), "flags": rules.to_dict()})
        return
    print(describe(rules))
    if args.preset in PRESET_SOURCES:
        print()
        print(PRESET_SOURCES[args.preset])
    print()
    print(presets_note())


def cmd_legal(args: argparse.Namespace) -> None:
    state = parse_position(args.position)
    actions = [str(a) for a in state.legal_actions()]
    if args.json:
        _print_json(
            {
                "position": format_position(state),
                "phase": state.phase.value,
                "player": state.to_act if not state.is_over else None,
                "legal_actions": actions,
            }
        )
        return
    if state.is_over:
        print(f"The deal is over: {state.outcome()}. No legal actions.")
        return
    print(f"Player {state.to_act} to act ({state.phase.value}); {len(actions)} legal actions:")
    for action in actions:
        print(f"  {action}")


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _check_commitment(deal: GameRecord, fair: FairShuffle, server_seed: bytes) -> str:
    players = len(deal.players)
    if not check_commitment(
        server_seed, fair.commitment, dealer=deal.dealer, players=players, algorithm=fair.algorithm
    ):
        raise RecordError(
            "The revealed server seed, the record's dealer and its number of players do not "
            "match the commitment published before the deal."
            if fair.binds_the_dealer
            else "The revealed server seed does not match the commitment published before the deal."
        )
    if not fair.binds_the_dealer:
        return (
            f"the revealed server seed matches the commitment {fair.commitment[:16]}... published "
            f"before the deal; that commitment ({fair.algorithm}) did not bind the dealer: the "
            "server could have chosen who deals, so this is not a fair shuffle"
        )
    return (
        f"the revealed server seed, the dealer (p{deal.dealer}) and the {players} players match "
        f"the commitment {fair.commitment[:16]}... published before the deal"
    )


def _check_deck(deal: GameRecord, fair: FairShuffle, server_seed: bytes) -> str:
    deal.verify_shuffle()
    seeds = _plural(len(fair.client_seeds), "player seed")
    return f"{fair.algorithm} over the server seed and {seeds} deals exactly the recorded deck"


def _check_player_seeds(deal: GameRecord, fair: FairShuffle, server_seed: bytes) -> str:
    if not fair.client_seeds:
        return (
            "no player seed was mixed in: the deck is the server's choice alone, not a fair shuffle"
        )
    seeds = len(fair.client_seeds)
    mixed = f"{_plural(seeds, 'player seed')} {'was' if seeds == 1 else 'were'} mixed in"
    yours = "it is" if seeds == 1 else "one of them is"
    return f"{mixed}: if {yours} yours, the server could not choose the deck"


def _check_actions(deal: GameRecord, fair: FairShuffle, server_seed: bytes) -> str:
    final = deal.final_state()  # every action replayed and checked, as conquian replay does
    actions = _plural(len(deal.actions), "recorded action")
    if final.is_over:
        return f"{actions}, all legal, end the deal as recorded ({format_result(final.outcome())})"
    return f"{actions}, all legal; the deal is unfinished"


DEAL_CHECKS = (_check_commitment, _check_deck, _check_player_seeds, _check_actions)
"""What ``conquian verify`` checks of each deal whose server seed is revealed, in order:
each returns the line that says what held, or raises :class:`RecordError` saying what did
not."""


def verify_lines(deal: GameRecord) -> Iterator[str]:
    """What ``conquian verify`` checked of one deal, a line for each check, as it is checked.

    :raises RecordError: at the first check that fails.
    """
    fair = deal.fair
    if fair is None:
        yield "no fair shuffle recorded: nothing to check"
        return
    if fair.server_seed is None:
        yield f"the server seed is not revealed yet (commitment {fair.commitment}): nothing to check"
        return
    for check in DEAL_CHECKS:
        yield check(deal, fair, fair.server_seed)


def cmd_verify(args: argparse.Namespace) -> int:
    """Check every deal of a game or match record: its fair shuffle and its actions."""
    record = load_any_record(args.file)
    match = isinstance(record, MatchRecord)
    deals = record.deals if isinstance(record, MatchRecord) else (record,)
    checked = 0
    for number, deal in enumerate(deals, start=1):
        name = f"deal {number}" if match else "the deal"
        for line in verify_lines(deal):
            print(f"{name}: {line}")
        checked += deal.fair is not None and deal.fair.server_seed is not None
    if isinstance(record, MatchRecord):
        balance = record.to_match().balance  # every deal replayed again, in the match
        print(
            "the match: the stakes, the dealers after the first and the balance "
            f"{balance} follow from the deals"
        )
    if not checked:
        raise RecordError("No deal of this record has a revealed fair shuffle to check.")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if wants_replay_step(args):
        return run_replay_step(args)
    record = load_record(args.file)
    if args.redact is not None:
        sys.stdout.write(record.for_player(args.redact).dumps())
        return 0
    steps = list(record.iter_replay())
    final = steps[-1][2]
    if args.json:
        _print_json(
            {
                "valid": True,
                "rules": record.rules,
                "players": list(record.players),
                "actions": len(record.actions),
                "result": format_result(final.outcome()),
                "final_position": format_position(final),
            }
        )
        return 0
    print(f"Rules: {record.rules}   Dealer: p{record.dealer}   Stake: {record.stake}")
    print("Players: " + ", ".join(f"p{p} {name}" for p, name in enumerate(record.players)))
    if record.viewpoint is not None:
        print(f"Redacted record: the view of p{record.viewpoint}")
    previous = steps[0][2]
    for number, action, state in steps[1:]:
        assert action is not None
        note = ""
        if state.phase.value == "turn":
            note = f"   (p{state.to_act} turns {state.centre_card})"
        print(f"{number:4d}. p{previous.to_act} {action}{note}")
        if args.positions:
            print(f"      {format_position(state)}")
        previous = state
    print(f"Result: {format_result(final.outcome())}")
    return 0


def _review_source(path: str) -> tuple[tuple[GameRecord, ...], int | None]:
    """The deals of a game record, a match record or the terminal's saved game, every deal
    checked, and the seat to review when none is named (a redacted record's viewpoint, the
    person of a save), or None.

    :raises ConquianError: naming what cannot be read.
    """
    import tomllib
    from pathlib import Path

    from .play.storage import KEY_NAME, SavedMatch, Store

    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"Cannot read {path}: {getattr(exc, 'strerror', None) or exc}.") from None
    default: int | None = None
    if text.lstrip().startswith("{"):  # the terminal's saved game (sealed JSON)
        folder = os.path.dirname(os.path.abspath(path))
        key = Store(Path(folder)).key() if os.path.exists(os.path.join(folder, KEY_NAME)) else None
        saved = SavedMatch.from_json(text, key)
        if saved.match is None:
            raise RecordError(f"The saved game {path} has no deal yet.")
        text = saved.match
        default = saved.humans[0] if len(saved.humans) == 1 else None
    try:
        is_match = tomllib.loads(text).get("format") == MATCH_FORMAT
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        is_match = False  # GameRecord.loads says what is wrong
    if is_match:
        match = MatchRecord.loads(text)
        match.to_match()  # every deal, its deck and the balance checked
        deals = match.deals
    else:
        record = GameRecord.loads(text)
        record.to_game()
        deals = (record,)
    if deals and deals[0].viewpoint is not None:
        default = deals[0].viewpoint
    return deals, default


def _review_player(text: str | None, players: Sequence[str], default: int | None) -> int:
    """The seat named by ``--player``: a number (``1`` or ``p1``) or a player's name."""
    if text is None:
        if default is not None:
            return default
        from .play.terminal_words import PERSON_NAME

        people = [p for p, name in enumerate(players) if name == PERSON_NAME]
        return people[0] if len(people) == 1 else 0
    number = text[1:] if text[:1] in "pP" else text
    seat = small_number(number)
    if seat is not None:
        return seat  # review_deals names a seat out of range
    named = [p for p, name in enumerate(players) if name.casefold() == text.casefold()]
    if len(named) == 1:
        return named[0]
    seats = ", ".join(f"{p} ({name})" for p, name in enumerate(players))
    raise CliError(f"The record has no player {text!r}: its players are {seats}.")


def _positive(text: str) -> int:
    """An argument that must be a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def cmd_review(args: argparse.Namespace) -> int:
    """Judge each decision of one player of a record by the expert's search."""
    from .bots.review import ReviewSettings, review_deals
    from .present import review as words
    from .present.letters import card_letters
    from .present.spans import CardLook, plain

    deals, default = _review_source(args.file)
    if not deals:
        raise RecordError(f"The record {args.file} holds no deal.")
    player = _review_player(args.player, deals[0].players, default)
    settings = ReviewSettings(samples=args.samples, seed=args.seed)
    show_progress = not args.json and sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        end = "\n" if done == total else ""
        print(f"\r{words.progress_text(done, total)}", end=end, file=sys.stderr, flush=True)

    review = review_deals(deals, player, settings, progress=progress if show_progress else None)
    if args.json:
        _print_json(review.to_dict())
        return 0
    unicode = "utf" in (sys.stdout.encoding or "").lower()
    look = CardLook(
        deck=find_rules(review.rules).deck_style, symbols=unicode, letters=card_letters()
    )
    stored = review.players[player]
    name = Names((stored,), me=0).obj(0) if stored == PERSON_NAME else shown_name(stored)
    print(plain(words.review_heading(name, player, settings.samples)))
    by_deal = [review.deal_decisions(deal) for deal in range(1, review.deals + 1)]
    names = [shown_name(stored) for stored in review.players]
    for line in words.review_lines(by_deal, review.summary, look, unicode, names):
        print(plain(line))
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    """The coach's recommended move for the player to act in a position, with why."""
    from .bots.coach import hint
    from .cards import mask_labels
    from .observation import observe
    from .present.hints import candidate_line, hint_heading, reason_words
    from .present.letters import card_letters
    from .present.review import move_words
    from .present.spans import CardLook, plain
    from .state import Phase

    state = parse_position(args.position)
    if state.phase is Phase.OVER:
        raise CliError("The deal is over in this position: there is no move to hint.")
    obs = observe(state, state.to_act)
    advice, why = hint(obs, samples=args.samples)
    unicode = "utf" in (sys.stdout.encoding or "").lower()
    look = CardLook(deck=state.rules.deck_style, symbols=unicode, letters=card_letters())
    table = obs.tables[obs.viewer]
    words = reason_words(why, look)
    if args.json:
        estimated = advice.samples > 0
        second = advice.actions[1] if len(advice.actions) > 1 else None
        _print_json(
            {
                "position": args.position,
                "player": obs.viewer,
                "samples": advice.samples,
                "best": str(advice.best),
                "second": None if second is None else str(second),
                "drop": None if second is None else round(advice.lead(second), 4),
                "clear": second is not None and advice.clearly_worse(second),
                "reason": why.because or why.key,
                "words": plain(words),
                "feeds": None
                if why.feeds < 0
                else {
                    "player": why.feeds,
                    "meld": mask_labels(why.feeds_meld),
                    "hand_count": why.feeds_count,
                },
                "candidates": [
                    {
                        "action": str(action),
                        "chance": round(chance, 4) if estimated else None,
                        "error": round(error, 4),
                        "clearly_worse": advice.clearly_worse(action),
                    }
                    for action, chance, error in zip(
                        advice.actions, advice.chances, advice.errors, strict=True
                    )
                ],
            }
        )
        return 0
    if advice.samples:
        print(plain(hint_heading(obs.viewer, advice.samples)))
    print(plain(words))
    if advice.samples:
        for action, chance in zip(advice.actions, advice.chances, strict=True):
            close = action != advice.best and not advice.clearly_worse(action)
            print(plain(candidate_line(move_words(action, table, obs.centre, look), chance, close)))
    return 0


def cmd_selfplay(args: argparse.Namespace) -> None:
    from .tools.selfplay import run_selfplay

    if args.jobs is not None and args.jobs < 0:
        raise CliError(f"--jobs must be at least 0, got {args.jobs}.")
    rules = find_rules(args.rules)
    result = run_selfplay(
        args.rules,
        args.games,
        seed=args.seed,
        records_dir=args.out,
        ray=args.ray,
        jobs=args.jobs or 0,
    )
    summary = {**result.to_dict(), "out": args.out}
    if args.json:
        _print_json(summary)
        return
    wins = ", ".join(f"p{p} won {w}" for p, w in enumerate(result.wins))
    print(
        f"{result.games} random games ({rules.to_spec()} rules, seed {args.seed}): "
        f"{wins}, {result.draws} drawn; "
        f"{summary['mean_decisions']:.1f} decisions per game."
    )
    if args.out:
        print(f"Records written to {args.out}/")


def cmd_bench(args: argparse.Namespace) -> None:
    from .tools import bench

    if args.env:
        _bench_env(args)
        return
    result = bench.run(args.seconds, args.rules, anchors_too=not args.no_anchors)
    if args.json:
        _print_json(result)
        return
    print(
        f"Random legal play, {result['rules']} rules, {args.seconds:g} s per engine, one core, "
        f"{result['build']} build"
    )
    print(
        f"  conquian            {result['games_per_s']:9.0f} games/s "
        f"{result['decisions_per_s']:10.0f} decisions/s"
    )
    for key, name in (("openspiel_gin", "OpenSpiel gin"), ("rlcard_gin", "RLCard gin")):
        if f"{key}_games_per_s" in result:
            ratio = result["games_per_s"] / result[f"{key}_games_per_s"]
            print(
                f"  {name:<18}  {result[f'{key}_games_per_s']:9.0f} games/s "
                f"{result[f'{key}_decisions_per_s']:10.0f} decisions/s   "
                f"conquian is {ratio:.1f}x"
            )
        elif args.no_anchors:
            print(f"  {name:<18}  skipped (--no-anchors)")
        else:
            print(f"  {name:<18}  not installed (pip install 'conquian[bench]')")
    print(f"  state copy          {result['copy_us']:9.2f} us")
    print(f"  re-deal hidden      {result['redeal_us']:9.2f} us")


def _bench_env(args: argparse.Namespace) -> None:
    from .tools import bench

    try:
        result = bench.env_run(args.seconds, args.rules)
    except ImportError as exc:
        raise SystemExit(
            f"conquian bench --env needs the research extra: pip install 'conquian[rl]' ({exc})."
        ) from None
    if args.json:
        _print_json(result)
        return
    print(
        f"Random legal play, {result['rules']} rules, about {args.seconds:g} s each, "
        f"taking turns in 0.2 s slices, one core, {result['build']} build"
    )
    print(f"  raw engine           {result['raw_decisions_per_s']:9.0f} decisions/s")
    print(
        f"  PettingZoo env       {result['env_steps_per_s']:9.0f} steps/s "
        f"{result['env_decisions_per_s']:9.0f} decisions/s"
    )
    print(
        f"  same, mask only      {result['env_mask_only_steps_per_s']:9.0f} steps/s "
        f"{result['env_mask_only_decisions_per_s']:9.0f} decisions/s"
    )
    print("Adapter overhead, time through the environment over the raw engine's time per decision:")
    print(
        f"  per engine decision  {result['ratio']:.2f}x (ratio; mask only "
        f"{result['ratio_mask_only']:.2f}x)"
    )
    print(
        f"  per environment step {result['ratio_per_step']:.2f}x (ratio_per_step; mask only "
        f"{result['ratio_mask_only_per_step']:.2f}x; "
        f"{result['steps_per_decision']:.2f} steps per decision)"
    )


def _format_ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def _signed(value: float) -> str:
    return f"{value:+.0f}"


def _how_and_deals(result: Mapping[str, Any]) -> tuple[str, str]:
    """How a match was played (jobs, or parts combined) and its deals' numbers if not 1..N."""
    parts, jobs = result.get("parts"), result["jobs"]
    how = (
        f"{parts} part{'s' if parts != 1 else ''} combined"
        if parts
        else f"{jobs} job{'s' if jobs != 1 else ''}"
    )
    ranges = result.get("deal_ranges") or []
    numbered = ""
    if ranges and (len(ranges) > 1 or ranges[0][0] != 1):
        numbered = " (deals " + ", ".join(f"{low}..{high}" for low, high in ranges) + ")"
    return how, numbered


def format_arena(result: Mapping[str, Any]) -> str:
    """The result table of ``conquian arena``, from a match's JSON data."""
    a, b = result["bot_a"], result["bot_b"]
    how, numbered = _how_and_deals(result)
    lines = [
        f"A: {a['spec']}" + (f"  ({a['name']})" if a["name"] != a["spec"] else ""),
        f"B: {b['spec']}" + (f"  ({b['name']})" if b["name"] != b["spec"] else ""),
        f"Rules {result['rules']}, seed {result['seed']}: {result['deals']} duplicate deals"
        f"{numbered} ({result['games']} games, each shuffle played with seats swapped), "
        f"{how}, {result['elapsed_s']:.1f} s",
    ]
    if result["interrupted"]:
        lines.append(
            f"Interrupted: {result['deals']} of {result['deals_requested']} deals played; "
            "the figures are those of the deals finished."
        )
    lines += [
        "",
        f"  A wins / losses / draws    {result['wins']} / {result['losses']} / {result['draws']}",
        f"  A win rate (decided games) {result['win_rate']:.1%}"
        f"   95% CI {result['ci95_low']:.1%} .. {result['ci95_high']:.1%}"
        f"   ({result['decided']} decided)",
        f"  A stake balance            {result['stake_balance']:+d}",
        f"  Elo difference (A - B)     {_signed(result['elo'])}"
        f"   95% CI {_signed(result['elo_low'])} .. {_signed(result['elo_high'])}",
        "",
        "  ms per move                  p50        p90    moves   failures",
    ]
    for side, bot in (("A", a), ("B", b)):
        lines.append(
            f"  {side} {bot['name'][:23]:<23} {_format_ms(bot['ms_per_move_p50']):>8}"
            f"   {_format_ms(bot['ms_per_move_p90']):>8}   {bot['moves']:>6}"
            f"   {bot['failures']:>8}"
        )
    lines.append("  (moves: decisions with more than one legal action)")
    failures = result["failures"]
    if failures:
        lines += ["", f"Forfeits ({len(failures)}):"]
        for f in failures[:20]:
            lines.append(f"  deal {f['deal']} game {f['game']}: {f['message']}")
        if len(failures) > 20:
            lines.append(f"  ... and {len(failures) - 20} more (see --json)")
    return "\n".join(lines)


def _score_line(result: MatchResult | SeatingMatchResult) -> str:
    """The score so far, as the progress bar shows it."""
    if isinstance(result, MatchResult):
        return f"A {result.wins}-{result.losses}-{result.draws}"
    wins = "-".join(str(bot.wins) for bot in result.bots)
    return f"wins {wins}, {result.draws} draws"


def format_seating_arena(result: Mapping[str, Any]) -> str:
    """The result table of ``conquian arena`` with three or four bots, from its JSON data."""
    bots = result["bots"]
    n = len(bots)
    how, numbered = _how_and_deals(result)
    lines = [
        f"{b['index']}: {b['spec']}" + (f"  ({b['name']})" if b["name"] != b["spec"] else "")
        for b in bots
    ]
    lines.append(
        f"Rules {result['rules']}, seed {result['seed']}: {result['deals']} deals{numbered}, "
        f"each shuffle in all {result['seatings_per_deal']} seatings ({result['games']} games, "
        f"{result['draws']} drawn), {how}, {result['elapsed_s']:.1f} s"
    )
    if result["interrupted"]:
        lines.append(
            f"Interrupted: {result['deals']} of {result['deals_requested']} deals played; "
            "the figures are those of the deals finished."
        )
    lines += [
        "",
        "  bot                       wins  win share   95% CI            rating (95% CI)"
        "           stake",
    ]
    for b in bots:
        share = b["win_share"] if b["win_share"] is not None else 0.0
        lines.append(
            f"  {b['index']} {b['name'][:22]:<22} {b['wins']:>6}  {share:>8.1%}   "
            f"{b['ci95_low']:>5.1%} .. {b['ci95_high']:<6.1%}   "
            f"{b['rating']:6.2f} ({b['rating_low']:.2f} .. {b['rating_high']:.2f})   "
            f"{b['stake_balance']:+7d}"
        )
    lines += [
        "",
        "  wins by seat in play order (1: the first to play, after the dealer)",
        "  bot                     " + "".join(f"{k + 1:>8}" for k in range(n)),
    ]
    for b in bots:
        lines.append(
            f"  {b['index']} {b['name'][:22]:<22}" + "".join(f"{w:>8}" for w in b["wins_by_seat"])
        )
    lines += ["", "  ms per move                  p50        p90    moves   failures"]
    for b in bots:
        lines.append(
            f"  {b['index']} {b['name'][:23]:<23} {_format_ms(b['ms_per_move_p50']):>8}"
            f"   {_format_ms(b['ms_per_move_p90']):>8}   {b['moves']:>6}   {b['failures']:>8}"
        )
    lines.append("  (moves: decisions with more than one legal action)")
    lines.append(f"  Ratings: {result['rating_model']}.")
    failures = result["failures"]
    if failures:
        lines += ["", f"Forfeits ({len(failures)}):"]
        for f in failures[:20]:
            lines.append(
                f"  deal {f['deal']} seating {f['seating']}: bot {f['bot']}: {f['message']}"
            )
        if len(failures) > 20:
            lines.append(f"  ... and {len(failures) - 20} more (see --json)")
    return "\n".join(lines)


class _ProgressBar:
    """A one-line progress bar on a terminal's stderr (nothing elsewhere)."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()
        self.last = 0.0

    def __call__(self, done: int, total: int, result: MatchResult | SeatingMatchResult) -> None:
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        width = 30
        filled = width * done // max(total, 1)
        eta = result.elapsed_s / done * (total - done) if done else 0.0
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals  "
            f"{_score_line(result)}  "
            f"{result.elapsed_s:.0f}s, eta {eta:.0f}s \x1b[K"
        )
        sys.stderr.flush()

    def clear(self) -> None:
        if self.enabled:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _stop_match(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def cmd_arena(args: argparse.Namespace) -> int:
    if args.deals < 1:
        raise CliError(f"--deals must be at least 1, got {args.deals}.")
    if args.jobs is not None and args.jobs < 0:
        raise CliError(f"--jobs must be at least 0 (0: one per core), got {args.jobs}.")
    if args.time_limit_ms < 1:
        raise CliError(f"--time-limit-ms must be positive, got {args.time_limit_ms}.")
    if args.first_deal < 1:
        raise CliError(f"--first-deal counts from 1, got {args.first_deal}.")
    args.first_deal -= 1
    if args.ray is None:
        jobs = (1 if args.jobs is None else args.jobs) or os.cpu_count() or 1
    elif args.ray == RAY_LOCAL:  # the local Ray instance's CPUs
        jobs = args.jobs or os.cpu_count() or 1
    else:  # the tasks run at once on the cluster; 0: one per CPU of the cluster
        jobs = args.jobs or 0
    players = find_rules(args.rules).num_players
    if len(args.bots) != players:
        raise CliError(
            f"The rules {args.rules} seat {players} players: name {players} bots, not "
            f"{len(args.bots)} (a bot may be named more than once)."
        )
    seatings = players > 2
    bar = _ProgressBar()
    previous = signal.signal(signal.SIGTERM, _stop_match)  # like Ctrl-C: keep the result so far
    options: dict[str, Any] = {
        "seed": args.seed,
        "rules": args.rules,
        "jobs": jobs,
        "records_dir": args.records,
        "progress": bar,
        "time_limit_ms": args.time_limit_ms,
        "first_deal": args.first_deal,
        "ray": args.ray,
    }
    try:
        result: MatchResult | SeatingMatchResult
        if seatings:
            result = run_seating_match(args.bots, args.deals, **options)
        else:
            result = run_match(args.bots[0], args.bots[1], args.deals, **options)
    finally:
        signal.signal(signal.SIGTERM, previous)
        bar.clear()
    data = result.to_dict()
    if args.json:
        _print_json(data)
    else:
        print(format_seating_arena(data) if seatings else format_arena(data))
        if args.records:
            print(f"Records written to {args.records}/")
    return 130 if result.interrupted else 0


def cmd_arena_combine(args: argparse.Namespace) -> int:
    from .tools.arena import combine_results
    from .tools.seating_arena import combine_seating_results

    parts = []
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as exc:
            raise CliError(f"Cannot read {name}: {exc.strerror}.") from None
        except json.JSONDecodeError as exc:
            raise CliError(f"{name} is not JSON: {exc}.") from None
        if not isinstance(data, dict):
            raise CliError(f"{name} does not hold a match result (a JSON object).")
        parts.append(data)
    seatings = "bots" in parts[0]
    try:
        combined = combine_seating_results(parts) if seatings else combine_results(parts)
    except ConquianError as exc:
        raise CliError(f"{exc} (parts in the order given: {', '.join(args.files)})") from None
    if args.json:
        _print_json(combined)
    else:
        print(format_seating_arena(combined) if seatings else format_arena(combined))
    return 0


def cmd_moderate(args: argparse.Namespace) -> int:
    """``conquian moderate``: the players' reports, newest first, with their games; then the
    fair-play signals of the recent games (:mod:`conquian.web.fairplay`), for a person to look
    at."""
    import asyncio

    try:
        from .web.database import default_db_url, open_store
        from .web.fairplay import EXPERT_SAMPLE, WINDOW_DAYS, Signals, fair_play_signals
    except ImportError as exc:
        raise CliError(
            _(
                "the database needs the 'web' extra ({name} is missing): pip install 'conquian[web]'"
            ).format(name=exc.name)
        ) from None
    days = WINDOW_DAYS if args.days is None else args.days
    sample = EXPERT_SAMPLE if args.sample is None else args.sample
    if args.limit < 0 or sample < 0 or days <= 0:
        raise CliError(_("--limit and --sample must be at least 0, and --days more than 0."))

    async def read() -> tuple[
        list[dict[str, object]], dict[str, list[tuple[int, str, str]]], Signals
    ]:
        store = open_store(args.db or default_db_url())
        try:
            found = await store.reports(args.limit)
            games = {}
            if args.records:
                for game in {str(r["game_id"]) for r in found}:
                    games[game] = await store.records(game)
            signals = await asyncio.to_thread(
                fair_play_signals, store.engine, days=days, sample=sample
            )
            return found, games, signals
        finally:
            await store.close()

    found, games, signals = asyncio.run(read())
    if not found:
        print(_("No reports."))
    for r in found:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(str(r["created"]))))
        print(
            _(
                "#{number} {when}: {reporter} reported {reported} ({reason}), game {game}, seat {seat}"
            ).format(
                number=r["id"],
                when=when,
                reporter=r["reporter_name"] or r["reporter_id"],
                reported=f"{r['reported_name'] or '-'} [{r['reported_id']}]",
                reason=r["reason"],
                game=r["game_id"],
                seat=int(str(r["seat"])) + 1,
            )
        )
        if r["note"]:
            print("   " + _("note: {note}").format(note=r["note"]))
        for deal, result, text in games.get(str(r["game_id"]), []):
            print("   " + _("deal {deal}: {result}").format(deal=deal, result=result))
            print("\n".join("      " + line for line in text.splitlines()))
    print()
    print(_moderation_signals(signals, days, sample))
    return 0


def _moderation_signals(signals: Any, days: int, sample: int) -> str:
    """The fair-play signals as a moderator reads them: one line each, naming the players by
    name and id, with the figures and the games to look at."""
    from .play.terminal_words import ngettext

    shown_games = 8

    def who(player: str) -> str:
        return f"{signals.names.get(player, '-')} [{player}]"

    def ids(games: Sequence[str]) -> str:
        listed = ", ".join(games[:shown_games])
        return listed if len(games) <= shown_games else f"{listed}, +{len(games) - shown_games}"

    lines = [
        ngettext(
            "Fair-play signals of the games of the last {days} day ({games} looked at), for a "
            "person to look at; nothing is done about them automatically:",
            "Fair-play signals of the games of the last {days} days ({games} looked at), for a "
            "person to look at; nothing is done about them automatically:",
            days,
        ).format(days=days, games=signals.games)
    ]
    for feed in signals.feeding:
        lines.append(
            "  "
            + _(
                "feeding: {giver} feeds {taker}: {taker_name} took {taken}/{offered} of the cards "
                "{giver_name} offered him ({rate}; the others took {others_rate}); forces when "
                "{giver_name} could: 0/{chances}; games together ({count}): {games}"
            ).format(
                giver=who(feed.giver),
                taker=who(feed.taker),
                giver_name=signals.names.get(feed.giver, feed.giver),
                taker_name=signals.names.get(feed.taker, feed.taker),
                taken=feed.taken,
                offered=feed.offered,
                rate=f"{feed.rate:.0%}",
                others_rate=f"{feed.others_rate:.0%}",
                chances=feed.chances,
                count=len(feed.games),
                games=ids(feed.games),
            )
        )
    for meet in signals.meeting:
        lines.append(
            "  "
            + _(
                "meeting: {first} and {second} sat at the same quick table often: games together "
                "({count}, of their {first_games} and {second_games}): {games}"
            ).format(
                first=who(meet.first),
                second=who(meet.second),
                count=len(meet.games),
                first_games=meet.first_games,
                second_games=meet.second_games,
                games=ids(meet.games),
            )
        )
    for expert in signals.expert:
        lines.append(
            "  "
            + _(
                "expert: {player} chose the expert's move in {agreed}/{compared} decisions "
                "({rate}; {expected} expected at rating {rating}); think times steady "
                "(variation {variation}, decisions timed: {timed}); games ({count}): {games}"
            ).format(
                player=who(expert.player),
                agreed=expert.agreed,
                compared=expert.compared,
                rate=f"{expert.rate:.0%}",
                expected=f"{expert.expected:.0%}",
                rating=expert.rating,
                variation=f"{expert.variation:.2f}",
                timed=expert.timed,
                count=len(expert.games),
                games=ids(expert.games),
            )
        )
    if not signals:
        lines.append("  " + _("No fair-play signals."))
    if sample == 0:
        lines.append("  " + _("(The expert's agreement was not checked: --sample 0.)"))
    return "\n".join(lines)


def cmd_db(args: argparse.Namespace) -> int:
    """``conquian db upgrade|current``: the web database's schema revision."""
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from .web.database import default_db_url
        from .web.schema import make_engine
        from .web.upgrade import head, revision, upgrade
    except ImportError as exc:
        raise CliError(
            _(
                "the database needs the 'web' extra ({name} is missing): pip install 'conquian[web]'"
            ).format(name=exc.name)
        ) from None
    url = args.db or default_db_url()
    shown = url
    try:
        engine = make_engine(url)
        shown = engine.url.render_as_string(hide_password=True)
        with engine.begin() as conn:
            before = revision(conn)
            if args.action == "upgrade":
                upgrade(conn)
            now = revision(conn)
        engine.dispose()
    except (SQLAlchemyError, OSError) as exc:
        why = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise CliError(_("cannot use the database {db}: {why}").format(db=shown, why=why)) from None
    if args.action == "current":
        state = _("up to date") if now == head() else _("behind: run conquian db upgrade")
        print(_("{db}: revision {found} ({state})").format(db=shown, found=now or "-", state=state))
    elif before == now:
        print(_("{db}: already at revision {found}").format(db=shown, found=now))
    else:
        print(
            _("{db}: upgraded from revision {before} to {after}").format(
                db=shown, before=before or "-", after=now
            )
        )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .web.server import serve
    except ImportError as exc:
        raise CliError(
            f"the web server needs the 'web' extra ({exc.name} is missing): "
            "pip install 'conquian[web]'"
        ) from None
    if not 0 <= args.port <= 65535 or args.bot_delay < 0:
        raise CliError("the port must be 0-65535 and the bot delay not negative")
    return serve(args)


def cmd_bot(args: argparse.Namespace) -> int:
    from .bots.protocol import serve

    if args.budget_ms is not None and args.budget_ms < 1:
        raise CliError(f"--budget-ms must be positive, got {args.budget_ms}.")
    try:
        return serve(args.name, budget_ms=args.budget_ms, seed=args.seed)
    except KeyboardInterrupt:
        return 130


def cmd_soak(args: argparse.Namespace) -> int:
    from .tools.soak import format_soak, run_soak

    if args.jobs < 0:
        raise CliError(f"--jobs must be at least 0 (0: one per core), got {args.jobs}.")
    if args.progress < 0:
        raise CliError(f"--progress must not be negative, got {args.progress}.")
    jobs = args.jobs or os.cpu_count() or 1
    last = [time.monotonic()]

    def progress(result: Any) -> None:
        now = time.monotonic()
        if args.progress and now - last[0] >= args.progress:
            last[0] = now
            print(
                f"[soak] {result.games:,}/{args.games:,} games, {result.actions:,} actions, "
                f"{result.failed:,} failures, {result.elapsed_s:.0f} s, "
                f"{result.games_per_s:.1f} games/s",
                file=sys.stderr,
                flush=True,
            )

    previous = signal.signal(signal.SIGTERM, _stop_match)  # like Ctrl-C: report so far
    try:
        result = run_soak(
            args.games, args.rules or ["standard"], seed=args.seed, jobs=jobs, progress=progress
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
    if args.json:
        _print_json(result.to_dict())
    else:
        print(format_soak(result, show=args.show))
    if result.failed:
        return 1
    return 130 if result.interrupted else 0


_ = TERMINAL_WORDS.gettext
"""The command line's own words are the terminal's (catalogue ``conquian-terminal``)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="conquian",
        description=_("Conquian, the two-player ancestor of rummy: rules, positions, records."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"conquian {__version__}",
        help=_("show the version and stop"),
    )
    add_language_option(parser, None)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_language_option(add_play_parser(sub))
    add_language_option(add_learn_parser(sub))

    p = sub.add_parser(
        "rules",
        help=_("the rules of a preset in plain words"),
        description=_("Explain a rules preset (or spec) in plain words."),
    )
    p.add_argument(
        "preset",
        nargs="?",
        default="standard",
        help=_("preset or spec, e.g. standard, foster, 'standard,max_seq_len=10'"),
    )
    p.add_argument("--json", action="store_true", help=_("print the flags as JSON"))
    add_language_option(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "legal",
        help=_("the legal actions at a position"),
        description=_("List the legal actions at a position string."),
    )
    p.add_argument("position", help=_("a position string (see docs/notation.md)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser(
        "replay",
        help=_("check a game record and print the game"),
        description=_("Replay a record, checking every action."),
    )
    p.add_argument("file", help=_("a record file (.toml)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument(
        "--positions", action="store_true", help=_("print the position string after every action")
    )
    p.add_argument(
        "--redact",
        type=int,
        choices=range(MAX_PLAYERS),
        metavar="PLAYER",
        help=_("print the record as PLAYER may see it (hidden cards as ??)"),
    )
    add_replay_step_options(p)
    add_language_option(p)
    p.set_defaults(func=cmd_replay)

    from .bots.review import DEFAULT_SAMPLES as REVIEW_SAMPLES

    p = sub.add_parser(
        "review",
        help=_("judge each move of a player in a record by the expert's search"),
        description=_(
            "For each decision of one player in a game record, a match record or "
            "the terminal's saved game, the winning chance of the move played and of the best "
            "move, estimated from that player's own view only (docs/review.md). Marks "
            "inaccuracies, mistakes and blunders at drops of 10, 20 and 30 points."
        ),
    )
    p.add_argument("file", help=_("a game or match record (.toml), or the saved game (.json)"))
    p.add_argument(
        "--player",
        metavar="P",
        help=_(
            "the player to review: a seat number or a name (default: a redacted record's "
            "view, the person of a saved game or a record of 'conquian play', else 0)"
        ),
    )
    p.add_argument(
        "--samples",
        type=_positive,
        default=REVIEW_SAMPLES,
        metavar="N",
        help=_("sampled deals per decision (default {samples})").format(samples=REVIEW_SAMPLES),
    )
    p.add_argument("--seed", type=int, default=0, help=_("seed of the samples (default 0)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    add_language_option(p)
    p.set_defaults(func=cmd_review)

    from .bots.coach import HINT_SAMPLES

    p = sub.add_parser(
        "hint",
        help=_("the coach's move for the player to act in a position, and why"),
        description=_(
            "The move the coach recommends for the player to act in a position string "
            "(docs/notation.md), why, the second best and how much less likely to win it is, "
            "from that player's own view only. The same position always gets the same answer."
        ),
    )
    p.add_argument("position", help=_("a position string, in quotes"))
    p.add_argument(
        "--samples",
        type=_positive,
        default=HINT_SAMPLES,
        metavar="N",
        help=_("sampled deals (default {samples})").format(samples=HINT_SAMPLES),
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    add_language_option(p)
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser(
        "verify",
        help=_("check the provably fair shuffle of a game or match record"),
        description=_(
            "Re-derive each deal's deck from its seeds and check the revealed server seed "
            "against the commitment published before the deal (exit status 1 if any fails)."
        ),
    )
    p.add_argument("file", help=_("a game or match record file (.toml)"))
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser(
        "selfplay",
        help=_("random legal games, optionally saved as records"),
        description="Play random legal games.",
    )
    p.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--rules", default="standard", help="rules preset or spec")
    p.add_argument("--out", metavar="DIR", help="save each game's record in DIR")
    p.add_argument(
        "--ray",
        nargs="?",
        const=RAY_LOCAL,
        metavar="ADDRESS",
        help="play the games as Ray tasks (extra 'cluster'), with the same games as "
        "without: on a local Ray instance, or on the running cluster at ADDRESS",
    )
    p.add_argument(
        "--jobs",
        type=int,
        help="with --ray, the CPUs of the local Ray instance (default: one per core) or, "
        "with an ADDRESS, the tasks run at once (default: one per CPU of the cluster)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_selfplay)

    p = sub.add_parser(
        "bench",
        help=_("engine throughput"),
        description="Measure engine throughput (and anchors, if installed).",
    )
    p.add_argument("--seconds", type=float, default=5.0, help="seconds per engine (default 5)")
    p.add_argument("--rules", default="standard", help="rules preset or spec")
    p.add_argument("--no-anchors", action="store_true", help="skip OpenSpiel and RLCard")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--env",
        action="store_true",
        help="measure the PettingZoo adapter against the raw engine (extra 'rl')",
    )
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "arena",
        help=_("a duplicate-deal match between two, three or four bots"),
        description="Play a match between bots, one per player of the rules: each shuffle "
        "is played in every seating (with two bots, twice with the seats swapped; with three "
        "or four, every order round the table, and the bots are rated with openskill). A bot is a name (random, greedy, heuristic, search, oracle, or a "
        "level beginner/easy/medium/hard/expert) or 'cmd:<command line>' for a program that speaks "
        "the bot protocol (docs/protocol.md). Ctrl-C stops and prints the result so far. "
        "With --ray the deals are Ray tasks, with the same results as without.",
    )
    p.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="one bot per player, e.g. greedy or 'cmd:python my_bot.py' (two for the "
        "two-player game, three for tercerilla, four for four players)",
    )
    p.add_argument(
        "--deals",
        type=int,
        default=100,
        help="shuffles, each played in every seating: twice with two bots, six times "
        "with three, 24 times with four (default 100)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        help="worker processes (default 1; 0: one per core); with --ray, the CPUs of the "
        "local Ray instance (default: one per core) or, with an ADDRESS, the tasks run at "
        "once (default: one per CPU of the cluster)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const=RAY_LOCAL,
        metavar="ADDRESS",
        help="play the deals as Ray tasks (extra 'cluster'): on a local Ray instance "
        "started for the match, or on the running cluster at ADDRESS (e.g. "
        "--ray=127.0.0.1:6379, or auto); built-in bots only",
    )
    p.add_argument("--seed", type=int, help="match seed (default: random, printed)")
    p.add_argument("--rules", default="standard", help="rules preset or spec")
    p.add_argument("--records", metavar="DIR", help="save every game's record in DIR")
    p.add_argument(
        "--time-limit-ms",
        type=int,
        default=DEFAULT_TIME_LIMIT_MS,
        metavar="T",
        help=f"external bots' time per move (default {DEFAULT_TIME_LIMIT_MS})",
    )
    p.add_argument(
        "--first-deal",
        type=int,
        default=1,
        metavar="K",
        help="number of the first deal (default 1): play a long match in parts, same seed",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_arena)

    p = sub.add_parser(
        "arena-combine",
        help=_("put together the JSON results of a match played in parts"),
        description="Combine the --json results of matches that share bots, rules and seed "
        "and played different deals (--first-deal), as one match result.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="JSON results of conquian arena")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_arena_combine)

    p = sub.add_parser(
        "serve",
        help=_("play in the browser: run the web server"),
        description=_(
            "Serve the browser game (needs: pip install 'conquian[web]'). Games are "
            "stored in a SQLite file in your data directory unless --db names a database URL "
            "(sqlite:///path.db, postgresql+psycopg://user@host/db)."
        ),
    )
    p.add_argument(
        "--host", default="127.0.0.1", help=_("address to listen on (default 127.0.0.1)")
    )
    p.add_argument("--port", type=int, default=8000, help=_("port (default 8000)"))
    p.add_argument("--db", metavar="URL", help=_("SQLAlchemy database URL"))
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="S",
        help=_(
            "seconds the computer waits before each move, so moves can be followed (default 0.6)"
        ),
    )
    p.add_argument(
        "--quick-bots-after",
        type=float,
        default=20.0,
        metavar="S",
        help=_(
            "seconds a quick-match table waits for people before computer players fill its "
            "empty seats (default 20)"
        ),
    )
    p.add_argument(
        "--grace",
        type=float,
        default=60.0,
        metavar="S",
        help=_(
            "seconds a table with a clock waits for a player who lost his connection before "
            "the other may claim the match (two players) or a computer takes his seat "
            "(default 60)"
        ),
    )
    p.add_argument(
        "--rate-limit",
        default="20/minute;200/hour",
        metavar="RATE",
        help=_(
            "games one client address may create, and seats it may take, e.g. 20/minute or "
            "20/minute;200/hour (the default); 'off' for no limit"
        ),
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        metavar="ORIGIN",
        help=_(
            "also let pages of this origin (https://games.example) use the server; "
            "repeat for more, or give an asterisk for any (default: the server's own pages only)"
        ),
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help=_(
            "serve from N processes sharing the port (default 1); more than one needs "
            "a PostgreSQL --db"
        ),
    )
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "db",
        help=_("the web server's database: bring its tables up to date"),
        description=_(
            "The database of the web server. 'upgrade' brings its tables to this release "
            "(run it before serving a PostgreSQL database with a new release; an embedded "
            "SQLite file is upgraded by the server itself); 'current' says where it stands."
        ),
    )
    p.add_argument("action", choices=("upgrade", "current"), help=_("upgrade or current"))
    p.add_argument(
        "--db", metavar="URL", help=_("SQLAlchemy database URL (default: the SQLite file of serve)")
    )
    add_language_option(p)
    p.set_defaults(func=cmd_db)

    p = sub.add_parser(
        "moderate",
        help=_("the players' reports and the fair-play signals, for a moderator"),
        description=_(
            "The reports players made of others they sat with: when, why, who reported whom, "
            "at which game and seat, and the note; with --records, each game's records too. "
            "Then the fair-play signals of the recent games, for a person to look at (nothing "
            "is done about them): a player who feeds another at tables of three or four and "
            "never forces him; two people who sit at the same quick tables too often; a player "
            "who thinks at an even pace and chooses the expert's move far more often than his "
            "rating suggests."
        ),
    )
    p.add_argument(
        "--db", metavar="URL", help=_("SQLAlchemy database URL (default: the SQLite file of serve)")
    )
    p.add_argument("--limit", type=int, default=50, metavar="N", help=_("the newest N (50)"))
    p.add_argument(
        "--records", action="store_true", help=_("print each reported game's finished deals")
    )
    p.add_argument(
        "--days",
        type=int,
        metavar="N",
        help=_("look for fair-play signals in the games of the last N days (30)"),
    )
    p.add_argument(
        "--sample",
        type=int,
        metavar="N",
        help=_(
            "ask the expert about at most N decisions of each player who thinks at an even "
            "pace (20; 0 leaves the expert out, the slow part)"
        ),
    )
    add_language_option(p)
    p.set_defaults(func=cmd_moderate)

    p = sub.add_parser(
        "bot",
        help=_("serve one of our bots over the bot protocol"),
        description="Play a bot over the bot protocol on stdin/stdout (docs/protocol.md), "
        "e.g. conquian arena 'cmd:conquian bot greedy' random.",
    )
    p.add_argument("name", help="bot name or level (not oracle)")
    p.add_argument("--budget-ms", type=int, metavar="T", help="thinking time per move")
    p.add_argument("--seed", type=int, help="random seed of the bot")
    p.set_defaults(func=cmd_bot)

    p = sub.add_parser(
        "soak",
        help=_("random legal games with every invariant checked at every step"),
        description="Play random legal games and check every invariant at every step (card "
        "conservation, validate, legal and illegal actions, notation round trips, no hidden "
        "card in an observation, the record replays). Game i uses seed SEED + i; exit status "
        "1 if any check fails.",
    )
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument(
        "--rules",
        action="append",
        metavar="R",
        help="rules preset or spec, repeatable; 'all': every preset (default standard)",
    )
    p.add_argument(
        "--jobs", type=int, default=1, help="worker processes (default 1; 0: one per core)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument(
        "--progress",
        type=float,
        default=0.0,
        metavar="S",
        help="print a progress line on stderr every S seconds (default: never)",
    )
    p.add_argument(
        "--show", type=int, default=10, metavar="K", help="failures to print (default 10)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_soak)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:  # the language first, so that --help and argparse's errors are written in it
        use_language(choose_language(language_in(argv)))
    except ValueError as exc:
        print(f"conquian: error: {exc}", file=sys.stderr)
        return 2
    speak_argparse()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    if getattr(args, "games", 1) < 0:
        print(f"conquian: error: --games must be at least 0, got {args.games}.", file=sys.stderr)
        return 2
    if getattr(args, "seconds", 1.0) <= 0:
        print(f"conquian: error: --seconds must be positive, got {args.seconds}.", file=sys.stderr)
        return 2
    try:
        status = args.func(args)
    except (ConquianError, CliError) as exc:
        print(f"conquian: error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
