"""What the game viewer shows, as data: the steps of a game as one side may see them.

The viewer (``referee viewer``, made on demand; earlier referee versions also wrote
``viewer-SIDE.html`` beside each adjudicated step; see ``docs/pbem.md``) is one offline HTML
file. This module computes the JSON it carries, from
**published documents only**: for a player side, each step's ``view-SIDE.json`` (that side's
view of the position and its record: ``ruleset.view`` and the events and rolls not hidden from
it); for the referee, each step's full record and position. Nothing else of the game goes in:
the unit table lists only units some step of these documents shows, so a unit the ruleset
hides from the side never appears, not even by its id.

Pure: the same documents and module give the same data, so the file beside each step is
byte-identical when ``verify`` renders it again. Places are read through the module's map
(hex grid, zones, spaces) and :func:`referee.render.board_layers.anchor`, so every map kind
works; event marks come from :func:`referee.picture.png.marks`, the same reading of event
``data`` the position picture uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine.core import Event, GameState
from referee.pbem.scoreboard import scoreboard
from referee.picture.png import marks
from referee.source.model import Module

VIEWER_FORMAT = "referee-viewer/1"


@dataclass(frozen=True, slots=True)
class StepDoc:
    """One step as the viewer's side may read it: the record (``report``: the side's view
    report, or the full record for the referee), its SHA-256, and the position seen after it
    (a ``referee-state/1`` document)."""

    report: Mapping[str, Any]
    report_sha256: str
    state: Mapping[str, Any]


def step_from_view(view: Mapping[str, Any]) -> StepDoc:
    """A step from a ``view-SIDE.json`` document (``referee-view/1``)."""
    return StepDoc(view["report"], str(view["report_sha256"]), view["state"])


_PARSED: dict[int, tuple[Mapping[str, Any], GameState, dict[str, list[Any]]]] = {}
_STEPS: dict[tuple[int, ...], tuple[tuple[Any, ...], dict[str, Any]]] = {}
_MEMO_SIZE = 8192


def _state(doc: Mapping[str, Any]) -> tuple[GameState, dict[str, list[Any]]]:
    """A position document read (its shape checked) and its placements, once per document
    object: ``verify`` renders each step's viewers over the documents of every step so far,
    which it keeps, so the same objects come back at every step. The entry holds the object
    itself, so an id reused by another object never answers."""
    hit = _PARSED.get(id(doc))
    if hit is None or hit[0] is not doc:
        state = GameState.from_json(doc)
        hit = (doc, state, _placements(state))
        if len(_PARSED) > _MEMO_SIZE:
            _PARSED.clear()
        _PARSED[id(doc)] = hit
    return hit[1], hit[2]


def _event(e: Mapping[str, Any]) -> Event:
    return Event(
        str(e.get("kind", "")),
        str(e.get("rule", "")),
        str(e.get("text", "")),
        dict(e.get("data") or {}),
        tuple(e.get("hidden_from") or ()),
    )


def _placements(state: GameState) -> dict[str, list[Any]]:
    """Each unit as ``[location, box, status, place in its stack]`` (0 is the top)."""
    order: dict[str, int] = {}
    for ids in state.stacks.values():
        for n, uid in enumerate(ids):
            order[uid] = n
    return {
        uid: [u.location, u.box, list(u.status), order.get(uid, 0)]
        for uid, u in sorted(state.units.items())
    }


def score_table(module: Module, report: Mapping[str, Any]) -> dict[str, Any] | None:
    """The viewer's Score panel of a report: a row a side (or the game's one VP track), the
    net and the level of victory; ``None`` when the game scores nothing."""
    score = report.get("score")
    if not isinstance(score, Mapping) or not score:
        return None
    sb = scoreboard(module, score, str(report.get("scenario", "")), mixed=True)
    rows = [[s["name"], s["total"]] for s in sb["sides"]]
    if not rows and sb["track"] is not None:  # one VP track for the game [CBG 24.1]
        rows = [["the game", sb["track"]]]
    if not rows and sb["net"] is None and not sb["level"]:
        return None  # a game with no score (a declared or imported game [G1]): no table
    return {
        "sides": rows,
        "net": sb["net"],
        "level": sb["level"],
        "final": sb["final"],
        "result": sb["result"],  # once the game is over (Westpac [DTP 11.5125])
        "rule": sb["rule"],
    }


def _rolls(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for r in report.get("rolls") or []:
        d = r.get("derivation") or {}
        out.append(
            {
                "index": r.get("index"),
                "purpose": r.get("purpose", ""),
                "rule": r.get("rule", ""),
                "sides": r.get("sides"),
                "value": r.get("value"),
                "hmac": d.get("hmac", ""),
                "counter": d.get("counter"),
                "attempt": d.get("attempt"),
                "orders_sha256": d.get("orders_sha256", ""),
            }
        )
    return out


def _events(
    module: Module, before: GameState | None, after: GameState, report: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each event with its marks on the map; an ``attack`` also gets the dice that decided it
    (the ``roll`` events that follow it, up to the next event of another kind)."""
    raw = list(report.get("events") or [])
    out: list[dict[str, Any]] = []
    for n, e in enumerate(raw):
        ev = _event(e)
        item: dict[str, Any] = {
            "kind": ev.kind,
            "rule": ev.rule,
            "text": ev.text,
            "data": {k: ev.data[k] for k in sorted(ev.data)},
            "marks": [[k, hs] for k, hs in marks(module, before, after, [ev])],
        }
        if ev.kind == "attack":
            dice = []
            for later in raw[n + 1 :]:
                if later.get("kind") != "roll":
                    break
                d = later.get("data") or {}
                dice.append(
                    {
                        "roll": d.get("roll"),
                        "rule": later.get("rule", ""),
                        "text": later.get("text", ""),
                    }
                )
            item["dice"] = dice
        out.append(item)
    return out


def _step(
    module: Module, doc: StepDoc, before: GameState | None, after: GameState
) -> dict[str, Any]:
    r = doc.report
    orders = r.get("orders") or None
    dice = r.get("dice") or {}
    aw = r.get("awaiting") or None
    return {
        "sequence": r.get("sequence"),
        "title": r.get("title", ""),
        "report_sha256": doc.report_sha256,
        "previous_report": r.get("previous_report"),
        "turn": after.turn,
        "phase": after.phase,
        "active_side": after.active_side,
        "awaiting": None if aw is None else aw.get("what", ""),
        "pending": [
            {
                "id": p.get("id"),
                "side": p.get("side"),
                "rule": p.get("rule"),
                "prompt": p.get("prompt"),
                "options": list(p.get("options") or []),
            }
            for p in r.get("pending") or []
        ],
        "score": score_table(module, r),
        "orders": None
        if orders is None
        else {
            "side": orders.get("side"),
            "signer": orders.get("signer"),
            "sha256": orders.get("sha256") or orders.get("commitment"),
            "committed": "sha256" not in orders,
        },
        "dice": {
            "seed_index": dice.get("seed_index"),
            "seed": dice.get("seed"),
            "previous_seed": dice.get("previous_seed"),
        }
        if "seed" in dice
        else None,
        "rolls": _rolls(r),
        "events": _events(module, before, after, r),
    }


def _unit_info(module: Module, seen: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """Counter facts of the units shown (and only those): name, side, type, values. A unit
    the roster does not name (a face-down marker a view shows instead of a hidden unit) gets
    only its id and the side its position gives it."""
    pieces = module.pieces()
    out: dict[str, dict[str, Any]] = {}
    for uid in sorted(seen):
        p = pieces.get(uid)
        if p is None:
            out[uid] = {"name": uid, "side": seen[uid], "type": "", "values": {}, "flags": []}
            continue
        u = p.unit
        out[uid] = {
            "name": u.name,
            "side": u.side,
            "type": u.type,
            "category": u.category,
            "nationality": u.nationality,
            "values": {k: u.values[k] for k in sorted(u.values)},
            "flags": sorted(u.flags),
        }
    return out


def viewer_model(
    module: Module, steps: Sequence[StepDoc], *, side: str | None, referee: str
) -> dict[str, Any]:
    """The viewer's data (without the board geometry and pictures, which
    :mod:`referee.viewer.page` adds): the steps with unit placements as changes from the
    step before (``set``: ``id -> [location, box, status, stack place]``; ``gone``: ids no
    longer shown), so a long game stays small."""
    out_steps: list[dict[str, Any]] = []
    seen: dict[str, str] = {}  # unit id -> its side, as the documents show it
    before: GameState | None = None
    shown: dict[str, list[Any]] = {}
    for doc in steps:
        after, now = _state(doc.state)
        refs = (module, doc.report, doc.state, before)
        key = tuple(id(x) for x in refs)
        hit = _STEPS.get(key)
        if hit is None or any(a is not b for a, b in zip(hit[0], refs, strict=True)):
            hit = (refs, _step(module, doc, before, after))
            if len(_STEPS) > _MEMO_SIZE:
                _STEPS.clear()
            _STEPS[key] = hit
        step = dict(hit[1])  # the caller adds to it; the remembered one stays as computed
        step["set"] = {u: p for u, p in now.items() if shown.get(u) != p}
        step["gone"] = sorted(u for u in shown if u not in now)
        seen.update({u: after.units[u].side for u in now})
        shown = now
        before = after
        out_steps.append(step)
    first = steps[0].report if steps else {}
    return {
        "format": VIEWER_FORMAT,
        "side": side,
        "game_id": first.get("game_id", ""),
        "ruleset": first.get("ruleset", ""),
        "scenario": first.get("scenario", ""),
        "module": {"name": module.name, "version": module.version},
        "referee": referee,
        "sides": [{"id": s.id, "name": s.name, "color": s.color} for s in module.sides],
        "units": _unit_info(module, seen),
        "steps": out_steps,
    }
