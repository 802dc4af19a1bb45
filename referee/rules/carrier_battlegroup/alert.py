"""The Soviet Alert level [6.0]-[6.2].

The level is held to 1-6 [6.1]; raises and lowers of one moment net out before the bounds
apply [6.1]. The initial level is the Soviet Initial Alert Level Chart read with 1d6 plus
the Orders DRM [4.0 step 3], [6.0].
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.source.model import Module

LOWEST, HIGHEST = 1, 6


def clamp_alert_6_1(level: int) -> int:
    """[6.1] never below one, never above six."""
    return max(LOWEST, min(HIGHEST, level))


def net_alert_6_1(level: int, changes: Iterable[int]) -> int:
    """[6.1] simultaneous raises and lowers use their difference, then the bounds."""
    return clamp_alert_6_1(level + sum(changes))


def initial_alert_6_0(module: Module, roll: int, drm: int) -> tuple[int, str]:
    """[4.0 step 3], [6.0]: the chart's level for ``roll + drm`` and how it was read."""
    found = module.tables["initial_alert"].lookup(row=roll + drm)
    return clamp_alert_6_1(int(found.value)), found.how
