"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters (optional extras),
for two to four players (the number comes from the rules, e.g. ``tercerilla`` for three).

Install with ``pip install 'conquian[rl]'`` (PettingZoo, Gymnasium, NumPy) and
``'conquian[openspiel]'`` for the OpenSpiel game.  Importing this package
registers the Gymnasium environment ``conquian/Conquian-v0`` when Gymnasium is
installed; ``import conquian.envs.openspiel`` registers the OpenSpiel game
``python_conquian``.

>>> from conquian.envs.spaces import ActionSpace
>>> from conquian.rules import Rules
>>> ActionSpace(Rules()).size
229

See ``docs/research.md`` for the action ids, the tensor layouts and examples.
"""

from __future__ import annotations

import importlib.util

GYM_ID = "conquian/Conquian-v0"
"""The Gymnasium id of the single-agent environment."""


def _register_gymnasium() -> None:
    if importlib.util.find_spec("gymnasium") is None:
        return
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="conquian.envs.gym_env:ConquianEnv")


_register_gymnasium()
