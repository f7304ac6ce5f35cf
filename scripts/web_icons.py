"""Draw the PNG icons of the web app from its SVG icon with a headless Chromium.

    python scripts/web_icons.py

Writes ``icon-192.png``, ``icon-512.png`` and ``icon-maskable-512.png`` (the icon inside the
safe zone of a maskable icon, on the felt) next to ``src/conquian/web/static/icon.svg``.
"""

from __future__ import annotations

import base64
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
STATIC = Path(__file__).resolve().parent.parent / "src" / "conquian" / "web" / "static"
SIZES = (
    ("icon-192.png", 192, 1.0),
    ("icon-512.png", 512, 1.0),
    ("icon-maskable-512.png", 512, 0.8),
)


def page_html(svg: str, size: int, scale: float) -> str:
    data = base64.b64encode(svg.encode()).decode()
    inner = round(size * scale)
    return (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px;display:flex;align-items:center;"
        f"justify-content:center;background:{'#144a2e' if scale < 1 else 'transparent'}'>"
        f"<img src='data:image/svg+xml;base64,{data}' width='{inner}' height='{inner}'>"
        "</div></body></html>"
    )


def main() -> int:
    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, size, scale in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html(svg, size, scale))
            page.wait_for_function("document.images[0].complete")
            page.screenshot(path=str(STATIC / name), omit_background=True)
            page.close()
            print(STATIC / name)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
