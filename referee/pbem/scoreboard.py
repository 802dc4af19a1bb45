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
* ``result``: once the game is over, the result in words (who won, by how much, the level
  and its case), as a ruleset that names it gives it (Westpac [DTP 11.5125]);
* numbers: exact in the reports (``327/4``, as the signed JSON has them), unless the score
  says ``"fractions": "mixed"`` (a Westpac game begun since the ruleset records it [DTP
  11.5126]); with ``mixed``, for the viewer and ``referee state show``, always: a fraction the
  rules keep (1/4 and 1/2 [DTP 8.57, 11.5126]) as the mixed number people read, ``81 3/4``,
  in the tables, the net and the result's words. The switch is in the signed score, not in
  the templates: a report's rendering is proved byte for byte by ``verify`` and the
  templates' hash is chained into every game's orders, so an archive made before renders as
  it did and no other game's dice change;
* any other key (e.g. ``neutral_airspace_penalty`` [14.2]): listed by name, so nothing
  signed is hidden.

Pure: the same record gives the same rows, so ``referee verify`` re-renders reports exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from referee.numerals import mixed_in_text, mixed_number
from referee.source.model import Module

KNOWN = frozenset(
    {
        "rule",
        "vp",
        "vp_label",
        "bonuses_in_vp",
        "destroyed",
        "losses",
        "bonuses",
        "net",
        "level",
        "final",
        "result",
        "fractions",
    }
)
VP_LABEL = "VP for enemy units destroyed"  # what ``vp`` counts unless ``vp_label`` says


def _side_name(module: Module, side: str) -> str:
    for s in module.sides:
        if s.id == side:
            return s.name
    return side


def _bonus_texts(module: Module, scenario: str) -> dict[str, str]:
    sc = module.scenarios.get(scenario)
    return {b.id: b.text for b in sc.victory_bonuses} if sc is not None else {}


def scoreboard(
    module: Module, score: Mapping[str, Any], scenario: str, *, mixed: bool = False
) -> dict[str, Any]:
    """Rows for the report templates: ``sides``, ``losses``, ``bonuses``, ``net``, ``level``,
    ``final``, ``result`` (text, or None), ``rule``, ``others`` (other keys as ``(name, JSON
    text)``); with ``mixed`` its fractions as mixed numbers (the viewer, ``state show``)."""
    mixed = mixed or score.get("fractions") == "mixed"
    number = mixed_number if mixed else _number
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
            if isinstance(loss, Mapping):
                scorer_name = _side_name(module, str(scorer))
                losses.append(_loss_row(module, pieces, loss, scorer_name, number))
    lost = score.get("losses") if isinstance(score.get("losses"), list) else []
    for loss in lost:  # losses no side scores (one VP track, or none) [CBG 24.1]
        if isinstance(loss, Mapping):
            losses.append(_loss_row(module, pieces, loss, "", number))
    track = score.get("vp")
    sides = []
    for s in module.sides if isinstance(vp, Mapping) and vp else ():
        units = Fraction(str(vp.get(s.id, 0) or 0))
        extra = bonus_vp.get(s.id, 0)
        if score.get("bonuses_in_vp"):  # [DTP 8.57]: ``vp`` is the total already
            units -= extra
        sides.append(
            {
                "name": s.name,
                "units": number(units),
                "bonus": extra,
                "total": number(units + extra),
                "destroyed": sum(1 for row in losses if row["scorer"] == s.name),
            }
        )
    # a result in words (Westpac [DTP 11.5125]); a ruleset that records its result as a
    # record (2019 [4.4]) has it listed with the other keys, as before
    result = score.get("result") if isinstance(score.get("result"), str) else None
    others = [
        (k.replace("_", " "), json.dumps(score[k], sort_keys=True, ensure_ascii=False))
        for k in sorted(score)
        if k not in KNOWN or (k == "result" and result is None and k in score)
    ]
    return {
        "rule": str(score.get("rule", "")),
        "vp_label": str(score.get("vp_label", VP_LABEL)),
        "sides": sides,
        # one VP track for the game, not one a side (Carrier Battlegroup [24.1])
        "track": number(Fraction(str(track)))
        if isinstance(track, int | float | str) and not isinstance(track, bool)
        else None,
        "losses": losses,
        # whether the ruleset's score lists losses at all: only then "none" is news
        "counts_losses": "destroyed" in score or "losses" in score,
        "bonuses": bonuses,
        "net": _shown(score.get("net")) if mixed else score.get("net"),
        "level": score.get("level"),
        "final": bool(score.get("final")),
        "result": (mixed_in_text(result) if mixed else result) if result else None,
        "others": others,
    }


def _loss_row(
    module: Module,
    pieces: Mapping[str, Any],
    loss: Mapping[str, Any],
    scorer: str,
    number: Callable[[Fraction], int | str],
) -> dict[str, Any]:
    """One unit lost: who lost it, the rule that removed it, its VP, who scored them; a loss
    that is not an elimination (a ship crippled or damaged [CBG 22.5]) says what it is."""
    unit = str(loss.get("unit", ""))
    p = pieces.get(unit)
    owner = p.unit.side if p else str(loss.get("side", ""))
    what = str(loss.get("what", ""))
    name = p.unit.name if p else ""
    vp = loss.get("vp")
    return {
        "unit": unit,
        "name": f"{name} ({what})" if what else name,
        "owner": _side_name(module, owner) if owner else "",
        "rule": str(loss.get("rule", "")),
        "vp": "" if vp is None else number(Fraction(str(vp))),
        "scorer": scorer,
    }


def score_line(module: Module, score: Mapping[str, Any], scenario: str) -> str:
    """The score in one line for the terminal (``state show``), from the same rows as the
    report's table: VP by side or the one VP track, the net or the leader, the level, the
    result, the number of units lost."""
    board = scoreboard(module, score, scenario, mixed=True)
    parts: list[str] = []
    if board["sides"]:
        parts.append("VP " + ", ".join(f"{s['name']} {s['total']}" for s in board["sides"]))
    if board["track"] is not None:
        parts.append(f"VP {board['track']}")
    if board["net"] is not None:
        parts.append(f"net {board['net']}")
    leader, margin = score.get("leader"), score.get("margin")
    if leader and margin is not None:
        parts.append(f"{_side_name(module, str(leader))} leads by {margin}")
    if board["level"]:
        parts.append(str(board["level"]))
    if board["result"]:  # a result in words, its fractions as mixed numbers
        parts.append(board["result"])
    elif score.get("result"):  # a result recorded as a record (2019 [4.4])
        parts.append(str(score["result"]))
    if board["counts_losses"]:
        n = len(board["losses"])
        parts.append(f"{n} unit{'' if n == 1 else 's'} lost" if n else "no unit lost")
    rule = f" [{board['rule']}]" if board["rule"] else ""
    return "score" + rule + ": " + ("; ".join(parts) if parts else "nothing scored yet")


def _number(v: Fraction) -> int | str:
    """A whole number as such; a fraction (the DTP rules keep 1/4 and 1/2 [DTP 8.57]) as its
    exact text, ``19/4``, as the reports print it."""
    return int(v) if v.denominator == 1 else str(v)


def shown_value(shown: int | str) -> Fraction:
    """The exact value of a number as the tables show it (``60``, ``19/4``, ``141 3/4``,
    ``-2 1/4``): the inverse of :func:`_number` and :func:`referee.numerals.mixed_number`,
    for whoever reads a table back."""
    text = str(shown).strip()
    sign = -1 if text.startswith("-") else 1
    return sign * sum((Fraction(p) for p in text.lstrip("-").split()), Fraction(0))


def _shown(value: Any) -> Any:
    """A score's number (an int, or the exact text ``"-9/4"``) as a mixed number
    (:func:`referee.numerals.mixed_number`); anything else as it is."""
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,12}(/[0-9]{1,12})?", value):
        d = value.rsplit("/", 1)[-1]
        return mixed_number(Fraction(value)) if d != "0" else value
    return value
