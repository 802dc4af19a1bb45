"""The order lines ``referee options`` offers for a DTP unit, ready for an orders file: what the
viewer's orders mode lets a player point at (issue 28), in the phase's own words
(``docs/orders/sixth_fleet_dtp.md``).

Each choice is a line :mod:`referee.rules.sixth_fleet_dtp.options` already had the phase's own
check accept, so it is legal on the position it was computed on; ``validate`` still judges the
whole file. A choice says where it points on the map (``at``), the hexes of its path, and what
it uses up:

* Movement [5.0], [DTP 5.25]: ``move UNIT PATH`` to every hex the unit may end in, by the
  cheapest legal path; detection attempts ``detect UNIT -> TARGET`` [DTP 6.2].
* Combat [DTP 8.2]: the impulse's one ``attack`` or ``strike`` (each uses the impulse, so a
  draft holds one); while a strike that made contact waits, the defender's fighters'
  ``bounce`` lines [DTP 8.232].
* Rebasing [DTP 9.22]: ``rebase UNIT HEX|BASE`` to every base the phase's check accepts.

Set-up [11.0] is SPI's, with SPI's choices (:mod:`referee.rules.sixth_fleet_1975.draft`).
"""

from __future__ import annotations

from typing import Any

IMPULSE = "this impulse's one attack [DTP 8.2]"
"""What an attack or strike choice uses up: one a file, whichever unit makes it [DTP 8.2]."""


def move_choices(unit: str, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``move UNIT PATH`` to each hex the unit may end in [5.0], its MP as the label."""
    return [
        {
            "order": m["order"],
            "kind": "move",
            "at": m["hex"],
            "path": list(m["path"]),
            "label": f"cost {m['mp']}",
        }
        for m in moves
    ]


def detect_choices(detections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A detection attempt on each enemy unit within one hex [DTP 6.2], pointing at it."""
    return [
        {"order": d["order"], "kind": "detect", "at": d["hex"], "label": f"detect {d['target']}"}
        for d in detections
    ]


def attack_choices(attacks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The impulse's attack or strike on each target the impulse check accepts [DTP 8.2],
    [DTP 8.231]; each uses the impulse, so pointing keeps one in the draft."""
    out = []
    for a in attacks:
        first = " first-strike" if a["order"].endswith(" first-strike") else ""
        out.append(
            {
                "order": a["order"],
                "kind": "attack",
                "at": a["hex"],
                "uses": [IMPULSE],
                "label": f"{a['target']}, {a['distance']} hexes{first}",
            }
        )
    return out


def bounce_choices(bounces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A fighter's bounce of the strike that made contact [DTP 8.232], at the strikers' hex."""
    return [
        {"order": b["order"], "kind": "bounce", "at": b["hex"], "label": "bounce"}
        for b in bounces
        if b["hex"]
    ]


def stack_choices(air: bool) -> list[dict[str, Any]]:
    """The ``stack`` line of the hex the unit ends its move in, top first [7.42], composed in
    the viewer (SPI's, :func:`referee.rules.sixth_fleet_1975.draft.stack_choices`; new in
    the options file's format 3)."""
    return [
        {
            "order": "stack",
            "kind": "stack",
            "compose": "stack",
            "layer": "air" if air else "naval",
            "label": "the stacking order of its hex, top first [7.42]",
            "since": 3,
        }
    ]


def rebase_choices(rebases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rebase UNIT HEX|BASE`` to each base the phase's check accepts [DTP 9.22]."""
    return [
        {"order": r["order"], "kind": "rebase", "at": r["hex"], "label": "rebase"}
        for r in rebases
        if r["hex"]
    ]


SIDE_LINES = {
    "combat": (("pass", "pass", "no more impulses this phase [DTP 8.2]"),),
    "hostilities": (
        ("commence", "commence", "hostilities commence this Game-Turn [DTP 11.5101]"),
        ("commence prc", "commence", "the PRC and Taiwan enter hostilities [DTP 11.51021]"),
    ),
}
"""The orders of the whole side, by the phase's section: (line, kind, label)."""


def side_choices(
    lines: list[tuple[str, str, str]], section: str | None, accepted: Any
) -> list[dict[str, Any]]:
    """The side's own lines of this phase that ``accepted`` (the phase's check of a one-line
    file) takes: the impulse's ``pass`` [DTP 8.2] (it uses the impulse, as an attack does),
    ``commence`` [DTP 11.5101]."""
    out = []
    for line, kind, label in lines:
        if not accepted(line):
            continue
        c: dict[str, Any] = {"order": line, "kind": kind, "label": label}
        if section == "combat":
            c["uses"] = [IMPULSE]
        out.append(c)
    return out
