"""The build of conquian.  Its metadata is in pyproject.toml; this file only adds the
compiled core, when asked for.

The default build is pure Python and needs no compiler.  ``CONQUIAN_COMPILE=1 pip install .``
compiles the modules in COMPILED to C extension modules with mypyc (it ships with mypy,
which the build backend, build_backend/conquian_build.py, then adds to the build
requirements) and the machine's C compiler.  The .py files are installed beside the
extension modules, which Python imports first; the behaviour is the same.
``python -c "import conquian.state as s; print(s.__file__)"`` shows which build is
installed (a .so file: compiled), and so does ``conquian bench``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).parent / "build_backend"))
from conquian_build import compile_requested

COMPILED = [
    # the engine's hot paths
    "cards",
    "melds",
    "actions",
    "state",
    "observation",
    "sample",
    # the research environments' steps (they import NumPy, as before)
    "envs/spaces",
    "envs/tracker",
    "envs/episode",
]
"""The modules compiled, under src/conquian.  Not rules: a compiled dataclass checks the
type of each field as it is set, before ``Rules.__post_init__`` can turn a string into its
enum (``Rules(forcing="automatic")``)."""

if compile_requested():
    from mypyc.build import mypycify

    setup(
        ext_modules=mypycify(
            [f"src/conquian/{name}.py" for name in COMPILED],
            opt_level="3",
            group_name="conquian",
            target_dir="build/mypyc/c",
        ),
        # a build folder of its own, so that a later pure build cannot pick up the
        # extension modules (pip builds in the source tree)
        options={"build": {"build_base": "build/mypyc"}},
    )
else:
    setup()
