"""The build backend: setuptools' own, with mypy added to the build requirements when the
compiled build is asked for.

``CONQUIAN_COMPILE=1 pip install .`` (or ``python -m build --wheel``) compiles the core
with mypyc, which ships with mypy (see setup.py).  Without the variable the build is the
pure-Python one and needs neither mypy nor a C compiler.  Editable installs
(``pip install -e .``) are always pure: compiled modules in the source tree would hide
the edited .py files.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook not redefined here)

VARIABLE = "CONQUIAN_COMPILE"
COMPILE_REQUIRES = ["mypy>=1.11", "numpy>=1.24", "gymnasium>=1.0"]
"""mypyc comes with mypy (the lower bound of the test dependency); the types of NumPy and
Gymnasium are read when the research environments are compiled (the bounds of the ``rl``
extra)."""


def compile_requested() -> bool:
    """Whether ``CONQUIAN_COMPILE`` asks for the compiled build (not empty, 0, no, false, off)."""
    return os.environ.get(VARIABLE, "").strip().lower() not in ("", "0", "no", "false", "off")


def _pure_for_editable() -> None:
    if compile_requested():
        print(f"conquian: {VARIABLE} ignored: an editable install is pure Python", file=sys.stderr)
        os.environ[VARIABLE] = "0"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    if not compile_requested():
        return _setuptools.get_requires_for_build_wheel(config_settings)
    # setup.py runs here too, before mypy is installed: let it describe the pure build
    asked = os.environ[VARIABLE]
    os.environ[VARIABLE] = "0"
    try:
        requires = _setuptools.get_requires_for_build_wheel(config_settings)
    finally:
        os.environ[VARIABLE] = asked
    return [*requires, *COMPILE_REQUIRES]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    _pure_for_editable()
    return _setuptools.get_requires_for_build_editable(config_settings)


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    _pure_for_editable()
    return _setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    _pure_for_editable()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
