"""Measure the browser page in Chromium and print the figures: python scripts/web_perf.py

* the first load of a game page: the bytes transferred (as sent, compressed), by file;
* the time to interactive on loopback: from the navigation's start to the table drawn with
  the player's hand, its cards taking clicks (the median of a few fresh loads);
* moves: every long task (over 50 ms, by a ``PerformanceObserver`` of ``longtask``) while the
  page plays moves, with their animations, the longest animation, and the frames drawn while
  cards move (``requestAnimationFrame``: the frame rate and the longest gap between frames).

It starts its own ``conquian serve`` (SQLite in a temporary directory, the computer waiting
``--bot-delay`` seconds before each move, as the server does by default) and Debian's
Chromium; it is a measurement, not a test: it prints and exits 0.

``--static DIR`` serves the page's own files (``/static/...``) from DIR instead, with no
service worker: ``--static src/conquian/web/static`` and ``--static`` a copy of an older
build measure both under the same conditions.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Route, sync_playwright

from conquian.tools.load import start_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic"]
LOADS = 5
MOVES = 24

LONG_TASKS = """window.__long = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
  .observe({ type: "longtask", buffered: true });"""
"""Keeps the duration of every long task of the page (an init script)."""

FRAMES = """window.__frames = [];
window.__moving = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  const a = animate.call(this, keyframes, options);
  // it runs from its start time (set by the first frame that draws it) to its end
  a.finished.then(() => window.__moving.push([a.startTime, performance.now()]), () => null);
  return a;
};
const tick = (now) => { window.__frames.push(now); requestAnimationFrame(tick); };
requestAnimationFrame(tick);"""
"""Keeps the time of every frame drawn, and when each animation began (its start time: the
frame that first draws it) and ended (an init script: cheap enough at every frame not to slow
what it measures)."""

READY = """() => !!document.getElementById("summary")
  || (document.querySelector("#actions button:not([disabled])") !== null
      && document.getElementById("app").dataset.auto !== "scheduled")"""
"""The page waits for the player (the moves it makes by itself are made), or shows the end
of a deal."""

DRAWN = """() => document.querySelector("#hand .card-btn") !== null
  && [...document.querySelectorAll("#app img")].every((img) => img.complete)"""
"""The table is drawn with the player's hand, whose cards take clicks (whoever is to move), and
every card face shown has its image."""

STILL = """() => document.getAnimations().every((a) => a.playState !== "running")"""
"""No card is moving."""

TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}


def serve_from(context: BrowserContext, static: Path | None) -> None:
    """Answer the page's ``/static/`` requests from the folder ``static``."""
    if static is None:
        return

    def answer(route: Route) -> None:
        name = route.request.url.split("/static/", 1)[1].split("?")[0]
        path = static / name
        if not path.is_file():
            route.fulfill(status=404, body="")
            return
        kind = TYPES.get(path.suffix, "application/octet-stream")
        route.fulfill(body=path.read_bytes(), content_type=kind)

    context.route("**/static/**", answer)


def frame_rate(frames: list[float], moving: list[list[float]]) -> tuple[float, float, int]:
    """Frames per second while cards move, the longest gap between two frames (ms), and how
    many frames were drawn, counting only the frames of the times when an animation ran."""
    spans = sorted(moving)
    merged: list[list[float]] = []
    for begun, ended in spans:
        if merged and begun <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], ended)
        else:
            merged.append([begun, ended])
    gaps: list[float] = []
    drawn = 0
    for begun, ended in merged:
        # the frames drawn while it ran, and the first one after it (which shows its end)
        inside = [f for f in frames if begun <= f <= ended]
        inside += [f for f in frames if f > ended][:1]
        drawn += len(inside)
        gaps += [b - a for a, b in itertools.pairwise(inside)]
    if not gaps:
        return 0.0, 0.0, drawn
    return 1000 * len(gaps) / sum(gaps), max(gaps), drawn


def new_game(page: Page, base: str) -> str:
    made: dict[str, Any] = page.evaluate(
        """() => fetch("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
             body: JSON.stringify({mode: "bot", level: "easy", name: "Ana"})}).then(r => r.json())"""
    )
    return f"{base}/#/g/{made['id']}/{made['token']}"


def first_load(
    browser: Browser, base: str, static: Path | None = None
) -> tuple[int, dict[str, int], float]:
    """Bytes transferred by a fresh browser opening a game, by file, and its time to
    interactive in ms."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    serve_from(context, static)
    page = context.new_page()
    page.goto(base + "/api/lobby")  # same origin, to make the game with a fetch
    url = new_game(page, base)
    page.close()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    names: dict[str, str] = {}
    sizes: dict[str, int] = {}
    cdp.on(
        "Network.responseReceived",
        lambda e: names.__setitem__(e["requestId"], e["response"]["url"]),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])),
    )
    page.goto(url)
    page.wait_for_function(DRAWN, timeout=20000, polling=5)
    ready = page.evaluate("performance.now()")
    page.wait_for_load_state("networkidle")
    by_file: dict[str, int] = {}
    for request, size in sizes.items():
        name = (names.get(request, request).replace(base, "") or "/").split("#")[0]
        if name.startswith("blob:"):
            continue  # a card face the page drew itself: nothing crossed the network
        by_file[name] = by_file.get(name, 0) + size
    context.close()
    return sum(by_file.values()), by_file, float(ready)


def moves(
    browser: Browser, base: str, static: Path | None = None
) -> tuple[list[float], float, int, int, list[float], list[list[float]]]:
    """Long tasks while the page plays, the longest animation (ms), the decisions made (the
    page makes the moves that leave no choice by itself), the moves made in all (the states
    the page drew), the time of each frame drawn, and when each animation began and ended."""
    if static is None:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
    else:
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, service_workers="block"
        )
        serve_from(context, static)
    context.add_init_script(LONG_TASKS)
    context.add_init_script(FRAMES)
    context.add_init_script('localStorage.setItem("conquian.autoplay", "on");')
    page = context.new_page()
    page.goto(base + "/api/lobby")
    page.goto(new_game(page, base))
    page.wait_for_function(READY, timeout=20000)
    page.evaluate(
        "window.__long = []; window.__frames = []; window.__moving = []"
    )  # not the loading
    first = int(page.locator("#app").get_attribute("data-seq") or 0)
    longest = 0.0
    made = 0
    for _ in range(MOVES):
        page.wait_for_function(READY, timeout=20000)
        page.wait_for_function(STILL, timeout=20000)  # a person acts once the cards have arrived
        if page.locator("#summary").count():
            break
        before = page.locator("#app").get_attribute("data-seq")
        if page.locator("#centre-take").count():
            page.click("#centre-take")
            if page.locator(".choice").count():
                page.locator(".choice").first.click()
        elif page.locator("#btn-discard").count():
            page.locator("#hand .card-btn").last.dblclick()
        else:
            page.locator("#actions button:not(#btn-hint)").first.click()
        page.wait_for_function(
            "n => document.getElementById('app').dataset.seq !== n || !!document.getElementById('summary')",
            arg=before,
            timeout=20000,
        )
        made += 1
        longest = max(
            longest,
            page.evaluate(
                "Math.max(0, ...document.getAnimations().map(a => a.effect.getComputedTiming().endTime))"
            ),
        )
    page.evaluate("Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
    states = int(page.locator("#app").get_attribute("data-seq") or 0) - first
    long_tasks: list[float] = page.evaluate("window.__long")
    frames: list[float] = page.evaluate("window.__frames")
    moving: list[list[float]] = page.evaluate("window.__moving")
    context.close()
    return long_tasks, longest, made, states, frames, moving


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--static", type=Path, help="serve /static/ from this folder")
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds the computer waits before each move (the server's default: 0.6; 0 "
        "makes its moves arrive while the last ones still travel)",
    )
    args = parser.parse_args()
    static: Path | None = args.static
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(f"sqlite:///{tmp}/perf.sqlite3", bot_delay=args.bot_delay)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                loads = [first_load(browser, base, static) for _ in range(LOADS)]
                total, by_file, _ = loads[0]
                print(f"first load of a game page: {total / 1024:.1f} KiB transferred")
                for name, size in sorted(by_file.items(), key=lambda kv: -kv[1]):
                    print(f"  {size / 1024:7.1f} KiB  {name}")
                times = [ready for _, _, ready in loads]
                print(
                    f"time to interactive (loopback, {LOADS} fresh loads): median "
                    f"{statistics.median(times):.0f} ms, worst {max(times):.0f} ms"
                )
                long_tasks, longest, made, states, frames, moving = moves(browser, base, static)
                worst = max(long_tasks, default=0.0)
                print(
                    f"moves played: {states} ({made} decisions); "
                    f"long tasks (> 50 ms): {len(long_tasks)}"
                    + (f", the longest {worst:.0f} ms" if long_tasks else "")
                )
                print(f"longest animation: {longest:.0f} ms")
                fps, gap, drawn = frame_rate(frames, moving)
                print(
                    f"while cards move: {drawn} frames, {fps:.0f} frames per second, "
                    f"the longest gap between frames {gap:.0f} ms"
                )
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
