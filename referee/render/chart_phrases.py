"""Module data in the words of a chart: units by name and strength, set-up pools, arriving
reinforcements, victory bonuses, side names and rule citations (``[8.8]``). Pure functions of
the module; :mod:`referee.render.charts` puts them into chart cells.
"""

from __future__ import annotations

import re

from referee.render.chart_layout import MINUS
from referee.source.model import Module, Reinforcement, SetupPool


def signed(n: int) -> str:
    return f"{MINUS}{-n}" if n < 0 else f"+{n}" if n > 0 else "0"


_CASE = r"(?:[A-Z][A-Za-z]*\s+)?\d[\w.]*"
_CASES = re.compile(rf"{_CASE}(?:\s+{_CASE})*")


def rule_list(rule: str) -> str:
    """A space-separated list of rule cases as "a, b"; a word before a case number stays with
    it ("DTP 8.2 DTP 8.21" is "DTP 8.2, DTP 8.21"). Anything else -- a case with words after
    it ("DTP 11.3 rule 1"), a note ("estimate: at Kinloss [DTP 11.3 rule 3]") -- is shown as
    written rather than cut into pieces."""
    if not rule:
        return ""
    if not _CASES.fullmatch(rule.strip()):
        return rule.strip()
    return ", ".join(re.findall(_CASE, rule))


def cite(rule: str) -> str:
    return f" [{rule_list(rule)}]" if rule else ""


def units_phrase(module: Module, piece_ids: tuple[str, ...] | list[str]) -> str:
    """``2x F4 Phantom, CV 1 Saratoga``: pieces grouped by roster row, in the order given."""
    pieces = module.pieces()
    groups: dict[str, list[str]] = {}
    for pid in piece_ids:
        unit_id = pieces[pid].unit.id if pid in pieces else pid
        groups.setdefault(unit_id, []).append(pid)
    parts = []
    for unit_id, pids in groups.items():
        try:
            u = module.unit(unit_id)
        except KeyError:
            parts.append(", ".join(pids))
            continue
        label = " ".join(p for p in (u.type, u.number, u.name) if p)
        parts.append(f"{len(pids)}\u00d7 {label}" if len(pids) > 1 else label)
    return ", ".join(parts)


def side_name(module: Module, side: str) -> str:
    try:
        return module.side(side).name
    except KeyError:
        return side


def _enemy(module: Module, side: str) -> str:
    others = [s.name for s in module.sides if s.id != side]
    return " or ".join(others) if others else "enemy"


def area_name(module: Module, area: str | None) -> str:
    for a in module.map.areas.values():
        if area in (a.id, a.code):
            return a.name
    return area or "?"


def pool_text(module: Module, pool: SetupPool) -> str:
    """A pool's constraint in plain words: its own ``text``, else made from its fields."""
    if pool.text:
        return pool.text
    units = units_phrase(module, pool.units)
    if pool.where == "setup_code":
        n = sum(1 for h in module.map.hexes.values() if h.setup_code == pool.code)
        where = f"in the hexes coded \u201c{pool.code}\u201d ({n} hex{'es' if n != 1 else ''})"
        unit = "hex"
    elif pool.where == "airbase":
        nat = module.nationalities.get(pool.nationality or "")
        where = f"on {nat.name if nat else pool.nationality} airbases"
        if pool.countries:
            names = [
                module.map.countries[c].name if c in module.map.countries else c
                for c in pool.countries
            ]
            where += " in " + " or ".join(names)
        unit = "airbase"
    elif pool.where == "carrier":
        where = f"on CAP over {units_phrase(module, [pool.carrier or ''])} or in its holding box"
        unit = "hex"
    elif pool.where in ("zones", "spaces"):
        from referee.source.scenario_forces import pool_places_text

        where = pool_places_text(module.map, pool)
        unit = pool.where[:-1]
    else:
        where = "in any of hexes " + ", ".join(pool.hexes)
        unit = "hex"
    limits = []
    if pool.per_hex_min and pool.per_hex_max is not None:
        limits.append(f"{pool.per_hex_min} to {pool.per_hex_max} per {unit}")
    elif pool.per_hex_min:
        limits.append(f"at least {pool.per_hex_min} per {unit}")
    elif pool.per_hex_max is not None:
        limits.append(f"at most {pool.per_hex_max} per {unit}")
    if pool.fill_all:
        limits.append(f"every such {unit} must be filled")
    text = f"Place {units} {where}"
    if limits:
        text += "; " + "; ".join(limits)
    return text + "."


def reinforcement_text(module: Module, r: Reinforcement) -> str:
    if r.text:
        return r.text
    units = units_phrase(module, r.units)
    if r.entry == "airbases":
        where = "on airbases" + (f" ({', '.join(r.hexes)})" if r.hexes else "")
    elif r.entry == "edge_adjacent":
        edge = module.map.edges.get(r.edge or "")
        where = f"in any hex adjacent to the {edge.name if edge else r.edge}"
    elif r.entry == "area":
        where = f"anywhere in {area_name(module, r.area)}"
    else:
        where = "in hexes " + ", ".join(r.hexes) if r.hexes else r.entry
    text = f"{side_name(module, r.side)}: {units}, {where}"
    if r.loc_edge:
        edge = module.map.edges.get(r.loc_edge)
        text += f"; needs a line of communication to the {edge.name if edge else r.loc_edge}"
    return text + "."


def bonus_text(
    module: Module, side: str, condition: str, params: dict[str, object], text: str
) -> str:
    if text:
        return text
    enemy = _enemy(module, side)
    area = area_name(module, str(params.get("area", "")))
    if condition == "no_enemy_in_area":
        return f"no {enemy} unit in {area} at the end of the game"
    if condition == "no_enemy_naval_in_area":
        return f"no {enemy} naval unit in {area} at the end of the game"
    words = condition.replace("_", " ")
    extra = ", ".join(f"{k} {v}" for k, v in sorted(params.items()))
    return f"{words} ({extra})" if extra else words
