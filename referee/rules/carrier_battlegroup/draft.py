"""The order lines ``referee options`` offers for a USN unit, ready for an orders file: what the
viewer's orders mode lets the player point at (issue 28), in the words of
``docs/orders/carrier_battlegroup.md``.

Every line is one :mod:`referee.rules.carrier_battlegroup.options` already had the validator
accept (``turn.check_turn``, the purchase check), computed on the player's view, so it names
only what the player sees [17.0]. A turn's file has several sections, so each choice says its
own (``section``); the spaces of the point-to-point map are the places it points at:

* Set-up [4.0 steps 1-7]: ``begin``.
* A turn [5.0]: the CVBG's ``move`` to each space it may reach [12.1]-[12.5] (offered on every
  ship of the group, which moves as one: a later move replaces the earlier), a ship's
  ``intel`` attempt [11.0], an aircraft's or missile's ``strike`` on each public Soviet space
  in range [19.0]-[19.2], and ``repair`` lines [10.0]-[10.3].
* Purchases [9.0]-[9.3] (the turn's ``[logistics]``, the outfit's ``[outfit]``): offered on
  the ships of the CVBG, as the group's buying.
"""

from __future__ import annotations

from typing import Any

CVBG_GROUP = "CVBG"
"""The group whose one ``move`` a file gives [12.1]."""


def setup_choices() -> list[dict[str, Any]]:
    """The one order of set-up [4.0 steps 1-7]."""
    return [
        {
            "order": "begin",
            "kind": "begin",
            "label": "the referee rolls set-up steps 1-7 [4.0]",
            "section": "setup",
        }
    ]


def move_choices(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The CVBG's move to each space it may reach, with its cost [12.1]-[12.5]."""
    out = []
    for m in moves:
        label = f"{m['spaces']} space(s)" + (", 1 Fuel" if m["fuel"] else "")
        if m["stop"]:
            label += f", stops: {m['stop']}"
        out.append(
            {
                "order": m["order"],
                "kind": "move",
                "at": m["space"],
                "path": list(m["path"]),
                "label": label,
                "section": "movement",
                "group": CVBG_GROUP,
            }
        )
    return out


def intel_choices(intel: list[dict[str, Any]], here: str) -> list[dict[str, Any]]:
    """A ship's Intelligence attempt [11.0], at the CVBG's space."""
    return [
        {
            "order": i["order"],
            "kind": "intel",
            "at": here,
            "label": "Intelligence attempt",
            "section": "intelligence",
            **({"spends": i["spends"]} if i.get("spends") else {}),
        }
        for i in intel
    ]


def launch_choices(launches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A strike on each public Soviet space in range [19.0]-[19.2]; the unit launches once a
    Launch Phase, so it is used by the first of its strikes drafted."""
    return [
        {
            "order": x["order"],
            "kind": "attack",
            "at": x["space"],
            "label": x["target"],
            "section": "launch",
            "uses": [x["unit"]],
        }
        for x in launches
    ]


def repair_choices(repairs: list[dict[str, Any]], here: str) -> list[dict[str, Any]]:
    """``repair`` lines [10.0]-[10.3], at the CVBG's space."""
    return [
        {
            "order": r["order"],
            "kind": "repair",
            "at": here,
            "label": "skips Movement [10.1]" if r["skips_movement"] else "repair [10.3]",
            "section": "logistics",
        }
        for r in repairs
    ]


def purchase_choices(purchases: list[dict[str, Any]], section: str) -> list[dict[str, Any]]:
    """``buy`` lines within the LP [9.0]-[9.3], in ``section`` (``logistics`` in a turn,
    ``outfit`` before the first)."""
    return [
        {
            "order": p["order"],
            "kind": "buy",
            "label": f"{p['lp']} LP each",
            "section": section,
            **{k: p[k] for k in ("spends", "since") if k in p},
        }
        for p in purchases
    ]


BREAKOFF = (
    ("yes", "the CVBG breaks off with the Tactical Edge [18.2]"),
    ("strikes", "the air strikes break off and land [18.2]"),
    ("all", "the CVBG and the air strikes break off [18.2]"),
    ("no", "never break off [18.2]"),
)
"""The standing break-off choices without a space [18.2]: one a file (a later replaces)."""


def escort_compose(ships: list[str]) -> list[dict[str, Any]]:
    """The ``escort`` line of the outfit [4.0 step 7], composed ship by ship from the
    available ships of the rolled classes (the counts per class are the validator's)."""
    if not ships:
        return []
    return [
        {
            "order": "escort",
            "kind": "escort",
            "compose": "words",
            "from": ships,
            "label": "the escorts within the rolled classes [4.0 step 7]",
            "section": "outfit",
        }
    ]


def standing_choices(aircraft: list[str]) -> list[dict[str, Any]]:
    """The standing orders of the battle [18.2], [14.1]: ``breakoff`` (one of four, a later
    replaces the earlier) and ``lose`` (the aircraft given up first, composed in order)."""
    out: list[dict[str, Any]] = [
        {"order": f"breakoff {w}", "kind": "breakoff", "label": label, "section": "standing"}
        for w, label in BREAKOFF
    ]
    if aircraft:
        out.append(
            {
                "order": "lose",
                "kind": "lose",
                "compose": "words",
                "from": aircraft,
                "label": "the aircraft given up first when the carrier has no room [14.1]",
                "section": "standing",
            }
        )
    return out
