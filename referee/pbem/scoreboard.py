"""The score of a report as tables a player reads, not as the ruleset's JSON.

A ruleset's ``score`` (signed in ``report.json``) is its own dictionary. The Sixth Fleet one
[13.0] says ``"destroyed": {"NATO": [...]}`` for the units NATO *destroyed* (points scored by
NATO), which reads as "NATO's losses" when shown raw. This module turns the usual keys into
rows with their meaning spelled out:

* ``vp``: victory points by side (from enemy units destroyed);
* ``destroyed``: per scoring side, each enemy unit lost, its owner, the rule that removed it
  and what it scored;
* ``bonuses``: each bonus condition of the scenario, whether it holds now and its points, with
  the scenario's own words for it [13.1];
* ``net`` and ``level``: the net total read on the Level of Victory table [13.2];
* any other key (e.g. ``neutral_airspace_penalty`` [14.2]): listed by name, so nothing
  signed is hidden.

Pure: the same record gives the same rows, so ``referee verify`` re-renders reports exactly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from referee.source.model import Module

KNOWN = frozenset({"rule", "vp", "destroyed", "bonuses", "net", "level", "final"})


def _side_name(module: Module, side: str) -> str:
    for s in module.sides:
        if s.id == side:
            return s.name
    return side


def _bonus_texts(module: Module, scenario: str) -> dict[str, str]:
    sc = module.scenarios.get(scenario)
    return {b.id: b.text for b in sc.victory_bonuses} if sc is not None else {}


def scoreboard(module: Module, score: Mapping[str, Any], scenario: str) -> dict[str, Any]:
    """Rows for the report templates: ``sides``, ``losses``, ``bonuses``, ``net``, ``level``,
    ``final``, ``rule``, ``others`` (other keys as ``(name, JSON text)``)."""
    pieces = module.pieces()
    vp = score.get("vp") if isinstance(score.get("vp"), Mapping) else {}
    raw_bonuses = score.get("bonuses") if isinstance(score.get("bonuses"), list) else []
    texts = _bonus_texts(module, scenario)
    bonuses = []
    bonus_vp: dict[str, int] = {}
    for b in raw_bonuses:
        if not isinstance(b, Mapping):
            continue
        side = str(b.get("side", ""))
        points = int(b.get("vp", 0) or 0)
        bonus_vp[side] = bonus_vp.get(side, 0) + points
        bonuses.append(
            {
                "id": str(b.get("id", "")),
                "side": _side_name(module, side),
                "rule": str(b.get("rule", "")),
                "holds": bool(b.get("holds")),
                "vp": points,
                "text": texts.get(str(b.get("id", "")), ""),
            }
        )
    losses = []
    destroyed = score.get("destroyed") if isinstance(score.get("destroyed"), Mapping) else {}
    for scorer in sorted(destroyed):
        for loss in destroyed[scorer] or ():
            if not isinstance(loss, Mapping):
                continue
            unit = str(loss.get("unit", ""))
            p = pieces.get(unit)
            owner = p.unit.side if p else ""
            losses.append(
                {
                    "unit": unit,
                    "name": p.unit.name if p else "",
                    "owner": _side_name(module, owner) if owner else "",
                    "rule": str(loss.get("rule", "")),
                    "vp": _number(Fraction(str(loss.get("vp", 0) or 0))),
                    "scorer": _side_name(module, str(scorer)),
                }
            )
    sides = []
    for s in module.sides:
        units = Fraction(str(vp.get(s.id, 0) or 0))
        extra = bonus_vp.get(s.id, 0)
        sides.append(
            {
                "name": s.name,
                "units": _number(units),
                "bonus": extra,
                "total": _number(units + extra),
                "destroyed": sum(1 for row in losses if row["scorer"] == s.name),
            }
        )
    others = [
        (k.replace("_", " "), json.dumps(score[k], sort_keys=True, ensure_ascii=False))
        for k in sorted(score)
        if k not in KNOWN
    ]
    return {
        "rule": str(score.get("rule", "")),
        "sides": sides,
        "losses": losses,
        "bonuses": bonuses,
        "net": score.get("net"),
        "level": score.get("level"),
        "final": bool(score.get("final")),
        "others": others,
    }


def _number(v: Fraction) -> int | str:
    """A whole number as such; a fraction (the DTP rules keep 1/4 and 1/2 [DTP 8.57]) as its
    exact text, ``19/4``."""
    return int(v) if v.denominator == 1 else str(v)
