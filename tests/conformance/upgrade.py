"""Upgrade conformance cases written in the four earlier formats (one per harness, until
issue 25) to the one format of ``docs/conformance.md``; a case already in it is left alone.

Run it after merging a branch that added or changed cases in an earlier format::

    python -m tests.conformance.upgrade          # every folder
    python -m tests.conformance.upgrade --check  # exit 1 if any case needs upgrading

The conversion is mechanical: every expectation keeps its meaning (the 1975 ``phase``
``"movement:NATO"`` becomes ``phase`` and ``side``; the naval ``data`` becomes
``data_exact``, its ``no_events`` kinds become events of that kind; the 2019 ``control``,
``strike``, ``winner`` and ``actions_left`` after the orders become a ``data`` subset).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent


def meta(case: dict[str, Any], ruleset: str, path: Path) -> dict[str, Any]:
    """The case's own keys, with its ruleset and (from the file name) its id."""
    out = {"ruleset": ruleset, "id": case.get("id", path.name.split("-")[0])}
    for k in ("title", "cites", "example", "book", "note", "ruling"):
        if k in case:
            out[k] = case[k]
    return out


# ---- 1975 -----------------------------------------------------------------------------------

P75 = (
    "module",
    "scenario",
    "options",
    "turn",
    "phase",
    "side",
    "units",
    "returning",
    "middle_east_roll",
    "combat",
    "data",
    "standing",
)
LOOK75 = ("reach", "no_reach", "stop", "crt", "black_sea_delay")
SECTION75 = {
    "setup": "setup",
    "combat": "combat",
    "movement": "movement",
    "reinforcement": "reinforcement",
}


def convert_75(c: dict[str, Any], path: Path) -> dict[str, Any]:
    """A Sixth Fleet (1975) case: its position keys, a ``look`` for the reach/CRT/14.4
    checks, an ``orders`` step (the section from the phase), a ``look`` for ``reach_after``."""
    out = meta(c, "sixth_fleet_1975", path)
    if "phase_note" in c:
        out["note"] = (
            c.get("note", "") + " " if c.get("note") else ""
        ) + f"phase: {c['phase_note']}"
    out["position"] = {k: c[k] for k in P75 if k in c}
    e = dict(c["expect"])
    steps = []
    look = {k: e.pop(k) for k in LOOK75 if k in e}
    if look:
        steps.append({"do": "look", "expect": look})
    after = e.pop("reach_after", None)
    if "orders" in c or "answer" in c or "raw_orders" in c:
        step: dict = {"do": "orders"}
        if c.get("raw_orders") is not None:
            step["text"] = c["raw_orders"]
        else:
            section = c.get("section") or SECTION75.get(c.get("phase", "combat"), "movement")
            if "orders_side" in c:
                step["side"] = c["orders_side"]
            body = f"[{section}]\n{c.get('orders', '')}\n"
            if c.get("answer"):
                body = f"[answer]\n{c['answer']}\n"
            if c.get("orders_standing"):
                body += "[standing]\n" + "\n".join(c["orders_standing"]) + "\n"
            step["orders"] = body
        if "dice" in c:
            step["dice"] = c["dice"]
        if "phase" in e:
            phase, _, side = e.pop("phase").partition(":")
            e["phase"] = phase
            e["side"] = None if side == "None" else side
        step["expect"] = e
        steps.append(step)
    else:
        assert not e, (path, e)
    if after:
        steps.append({"do": "look", "expect": {"reach": after}})
    out["steps"] = steps
    return out


# ---- 2019 -----------------------------------------------------------------------------------

P19 = ("scenario", "turn", "phase", "actions", "units", "status", "data")


def convert_19(c: dict[str, Any], path: Path) -> dict[str, Any]:
    """A Sixth Fleet (2019) case: its position keys (``standing_of`` -> ``standing``), a
    ``look`` (no orders, or the start-of-phase checks), an ``orders`` step."""
    out = meta(c, "sixth_fleet_2019", path)
    pos = {k: c[k] for k in P19 if k in c}
    if "standing_of" in c:
        pos["standing"] = c["standing_of"]
    out["position"] = pos
    e = dict(c["expect"])
    steps = []
    if "orders" not in c:
        assert not set(e) - {"control", "score", "actions_at_start", "levels"}, path
        out["steps"] = [{"do": "look", "expect": e}]
        return out
    look = {k: e.pop(k) for k in ("actions_at_start", "levels") if k in e}
    if look:
        steps.append({"do": "look", "expect": look})
    phase = c.get("phase", "soviet_actions")
    section = "events" if phase.endswith("_events") else "actions"
    body = f"[{section}]\n{c['orders']}\n"
    if "standing" in c:
        body += f"[standing]\n{c['standing']}\n"
    step: dict = {"do": "orders"}
    if "orders_side" in c:
        step["side"] = c["orders_side"]
    if "orders_turn" in c:
        step["turn"] = c["orders_turn"]
    step["orders"] = body
    if "dice" in c:
        step["dice"] = c["dice"]
    data: dict = {}
    if "control" in e:
        data["control"] = e.pop("control")
    if "strike" in e:
        data["strike"] = e.pop("strike")
    if "winner" in e:
        data["result"] = {"winner": e.pop("winner")}
    if "actions_left" in e:
        data["actions_left"] = e.pop("actions_left")
    if data:
        e["data"] = data
    step["expect"] = e
    steps.append(step)
    out["steps"] = steps
    return out


# ---- naval ----------------------------------------------------------------------------------

PNAV = ("turn", "phasing", "first", "phase", "units", "ships", "control", "data")
STATE = {"units", "ships", "pending", "phase", "turn", "data_exact"}


def convert_nav(c: dict[str, Any], path: Path) -> dict[str, Any]:
    """A naval module case: a ``call``, or a position and its steps (a refused file's
    position checks become a ``look`` after it, as the old runner checked them)."""
    out = meta(c, "naval_module", path)
    if "call" in c:
        step = {"do": "call"}
        for k in ("call", "args", "with_module", "result_text", "expect"):
            if k in c:
                step[k] = c[k]
        out["steps"] = [step]
        return out
    out["position"] = {k: c[k] for k in PNAV if k in c}
    steps = []
    for s in c["steps"]:
        if "pass_until" in s:
            steps.append({"do": "pass_until", "until": s["pass_until"]})
            continue
        e = dict(s.get("expect", {}))
        if "data" in e:
            e["data_exact"] = e.pop("data")
        if "no_events" in e:
            e["no_events"] = [{"kind": k} for k in e["no_events"]]
        step = {
            "do": "orders",
            "side": s["side"],
            "orders": s.get("orders", ""),
            "dice": s.get("dice", []),
        }
        if e.get("violations"):
            if e.get("events") == []:
                del e["events"]  # a refused file has no events: nothing was asserted
            state = {k: e.pop(k) for k in list(e) if k in STATE}
            step["expect"] = e
            steps.append(step)
            if state:
                steps.append({"do": "look", "expect": state})
            continue
        step["expect"] = e
        steps.append(step)
    out["steps"] = steps
    return out


# ---- DTP ------------------------------------------------------------------------------------

RENAME_STRAIT = {"attack": "strait_attack", "contact": "light_line_contact"}
RENAME_WESTPAC = {"setup": "westpac_setup", "vp": "westpac_vp"}


def convert_dtp(
    c: dict[str, Any], path: Path, strait: bool, rename: dict[str, str] | None = None
) -> dict[str, Any]:
    """A DTP case: its probe steps as they were (the scenarios' probes that share a name with
    the kit's renamed: two of Denmark Strait, two of Westpac)."""
    names = RENAME_STRAIT if strait else (rename or {})
    out = meta(c, "sixth_fleet_dtp", path)
    steps = []
    for s in c["steps"]:
        s = dict(s)
        do = s.pop("do")
        steps.append({"do": names.get(do, do), **s})
    out["steps"] = steps
    return out


FOLDERS = {  # folder -> how its earlier format converts
    "sixth_fleet_1975": convert_75,
    "sixth_fleet_2019": convert_19,
    "naval_module": convert_nav,
    "sixth_fleet_dtp": lambda c, p: convert_dtp(c, p, False),
    "dtp_denmark_strait": lambda c, p: convert_dtp(c, p, True),
    "dtp_westpac": lambda c, p: convert_dtp(c, p, False, RENAME_WESTPAC),
}


def upgrade(write: bool) -> list[Path]:
    """The cases still in an earlier format (rewritten in place when ``write``)."""
    old: list[Path] = []
    for folder, convert in FOLDERS.items():
        for path in sorted((ROOT / folder).glob("*.json")):
            text = path.read_text("utf-8")
            case = json.loads(text)
            if "ruleset" in case:
                continue
            old.append(path)
            if write:
                first = text.splitlines()[1] if "\n" in text else ""
                indent = (len(first) - len(first.lstrip())) or 1
                new = convert(case, path)
                path.write_text(json.dumps(new, indent=indent, ensure_ascii=text.isascii()) + "\n")
    return old


def main(argv: list[str]) -> int:
    check = "--check" in argv
    old = upgrade(write=not check)
    for path in old:
        print(f"{'needs upgrading' if check else 'upgraded'}: {path.relative_to(ROOT)}")
    return 1 if check and old else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
