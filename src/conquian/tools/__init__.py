"""Tools built on the whole package: the arena (bot matches), the engine benchmark and its
third-party anchors, and the web server's load tester.

Nothing else in the package imports them; they may import any layer.
"""
