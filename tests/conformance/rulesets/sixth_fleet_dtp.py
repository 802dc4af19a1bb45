"""Sixth Fleet DTP (revised rules) probes for the conformance harness: each ``do`` of a
``sixth_fleet_dtp`` step names one rule function of ``referee/rules/sixth_fleet_dtp``, called
on the module ``module_src/sixth_fleet_dtp`` with the step's arguments; its answers are
compared with the step's ``expect`` (only the keys given). Units are written
``{"id", "category", "values": {...}, "nationality", "type"}``. ``play`` plays one orders file
on a position the step describes. The Denmark Strait and Westpac scenarios' probes are in
``dtp_denmark_strait.py`` and ``dtp_westpac.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from referee.rules.sixth_fleet_dtp import (
    air,
    bases,
    combat,
    contact,
    crt,
    detection,
    hits,
    impulses,
    movement,
    sequence,
    standing,
    strikes,
    victory,
)
from referee.rules.sixth_fleet_dtp.detection import Unit
from referee.source.loader import load_module
from referee.source.model import Module
from tests.conformance.rulesets import Adapter

SRC = Path(__file__).resolve().parents[3] / "module_src" / "sixth_fleet_dtp"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, [str(d) for d in diags.items]
    return m


def unit(d: Mapping[str, Any]) -> Unit:
    return Unit(
        d["id"],
        d["category"],
        dict(d.get("values", {})),
        d.get("nationality", ""),
        d.get("type", ""),
    )


def _rules(problems: list[Any]) -> list[str]:
    return sorted({p.rule for p in problems})


def _may_attempt(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"may_attempt": detection.may_attempt_6_21(unit(s["unit"]), s["target_category"])}


def _stack_ecm(s: Mapping[str, Any]) -> dict[str, Any]:
    r = detection.stack_ecm_6_23([unit(u) for u in s["detectors"]], s["target_category"])
    out: dict[str, Any] = {"ecm": r.ecm, "bonus": r.bonus, "best": r.best, "able": list(r.able)}
    out["may_attempt"] = r.best is not None
    if "targets" in s:
        t = detection.target_ecm_6_23([unit(u) for u in s["targets"]], s["target_category"])
        out["target_ecm"] = t
        out["column"] = r.ecm - t
    return out


def _detection(s: Mapping[str, Any]) -> dict[str, Any]:
    r = detection.detection_6_3(
        module(),
        s["detector_ecm"],
        s["target_ecm"],
        unit(s["target"]),
        s.get("restricted_or_coastal", False),
        s.get("roll"),
    )
    cert = (
        detection.certain_6_41(r.entry, s.get("restricted_or_coastal", False)) if r.entry else None
    )
    return {
        "column": r.reading.column,
        "entry": str(r.entry) if r.entry else None,
        "detected": r.detected,
        "fails": r.reading.fails,
        "certain": cert,
        "how": r.reading.how,
    }


def _max_rolls(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"max_rolls": detection.max_rolls_6_2(s["detecting"], s["targets"])}


def _keeps(s: Mapping[str, Any]) -> dict[str, Any]:
    keeps, rule = detection.keeps_detection_6_64(
        s["target_category"],
        [unit(u) for u in s.get("trackers", ())],
        s.get("adjacent_enemy_base", False),
    )
    return {"keeps": keeps, "rule": rule}


def _removal(s: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "day_part": sequence.day_part_4_0(s["turn"]),
        "surface_removed": detection.surface_removal_due_6_62(sequence.is_night_4_0(s["turn"])),
    }


def _contact(s: Mapping[str, Any]) -> dict[str, Any]:
    mods = contact.modifiers_8_15(
        s["defending_ecm"],
        s["attacking_ecm"],
        s.get("detected", False),
        s.get("coastal", False),
        s.get("restricted", False),
        s.get("night", False),
        s.get("above_light_line", False),
    )
    d = contact.distance_8_15(s["distances"])
    r = contact.strike_contact_8_15(module(), d, s["units"], mods, s.get("roll"))
    return {
        "row": r.reading.row,
        "column": r.reading.column,
        "need": r.need,
        "modifier": r.modifier,
        "modified": None if r.roll is None else r.roll + r.modifier,
        "contact": r.contact,
        "certain": r.certain,
    }


def _crt(s: Mapping[str, Any]) -> dict[str, Any]:
    att = sum(s["attack"])
    dfn = crt.crt_defense_8_44(s["defense"], s.get("naval", False), s.get("restricted", False))
    r = crt.crt_8_0(module(), att, dfn, s["ecm"], s.get("roll"))
    return {
        "attack_total": r.attack_total,
        "defense_total": r.defense_total,
        "differential": r.differential,
        "column": r.reading.column,
        "entry": r.reading.text or None,
        "chance_in_6": r.chance_in_6,
        "success": r.success,
        "fails": r.reading.fails,
    }


def _hit(s: Mapping[str, Any]) -> dict[str, Any]:
    targets = s["targets"]  # top down: {"id", "DEF", "damage"}
    split = hits.split_8_52(s["total"], [t["id"] for t in targets])
    out: dict[str, Any] = {"split": split, "columns": {}, "entries": {}, "damage": {}}
    for t in targets:
        def_ = hits.base_def_10_44(t["ECM"]) if t.get("base") else t["DEF"]
        r = hits.hit_8_52(module(), split[t["id"]], def_, s.get("rolls", {}).get(t["id"]))
        out["columns"][t["id"]] = r.reading.column
        out["entries"][t["id"]] = str(r.entry) if r.entry else None
        out["damage"][t["id"]] = hits.add_damage_8_54(t.get("damage", 0), r.levels)
    return out


def _effects(s: Mapping[str, Any]) -> dict[str, Any]:
    e = hits.effects_8_55(s["level"], s["movement_allowance"])
    return {
        "sunk": e.sunk,
        "movement": e.movement,
        "attacks": e.attacks,
        "carrier_air_ops": e.carrier_air_ops,
    }


def _recycle(s: Mapping[str, Any]) -> dict[str, Any]:
    rating = s.get("rating")
    if rating is None:
        rating = air.rating_9_23(module(), s["nationality"], s["type"], s.get("modifier", 0))
    r = air.recycle_8_51(s["turn"], s["roll_2d6"], rating, s.get("extra", 0))
    return {"rating": r.rating, "delay": r.delay, "return_turn": r.return_turn}


def _readiness(s: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "active": air.readiness_9_23(s["roll"], s["rating"]),
        "lands": air.lands_9_24(s.get("cap_over_own_base", False), s.get("left_base", True)),
    }


def _impulses(s: Mapping[str, Any]) -> dict[str, Any]:
    sides = s["sides"]
    rec: Mapping[str, Any] = impulses.start_8_2(s["player_b"])
    due = [impulses.due_8_2(rec)]
    answers: list[list[str]] = []
    for act in s["acts"]:
        side = act["side"]
        refused = impulses.turn_problems_8_2(rec, side)
        if refused:
            return {"due": due, "refused": _rules(refused), "codes": [p.code for p in refused]}
        answers.append(list(impulses.may_answer_8_21(rec, side, act.get("attackers", ()))))
        if act["act"] == "pass":
            rec = impulses.after_pass_8_2(rec, sides, side)
        else:
            rec = impulses.after_attack_8_2(
                rec, sides, side, act.get("damaged", ()), not act.get("first_strike", False)
            )
        due.append(impulses.due_8_2(rec))
    return {"due": due, "answers": answers, "answer_back": rec.get("answer_back"), "refused": []}


def _target(s: Mapping[str, Any]) -> dict[str, Any]:
    p = strikes.detected_target_8_14(unit(s["attacker"]), unit(s["target"]), s["detected"])
    return {"legal": not p, "rules": _rules(p)}


def _first_strike(s: Mapping[str, Any]) -> dict[str, Any]:
    p = strikes.first_strike_8_231(
        s["attacker_detected"],
        unit(s["attacker"]),
        [unit(t) for t in s["targets"]],
        s["targets_detected"],
    )
    return {"legal": not p, "rules": _rules(p)}


def _bounce(s: Mapping[str, Any]) -> dict[str, Any]:
    p = strikes.may_bounce_8_232(unit(s["unit"]), s["attacked"], s["adjacent"])
    return {"legal": not p, "rules": _rules(p)}


def _cap(s: Mapping[str, Any]) -> dict[str, Any]:
    p = strikes.cap_first_8_233([unit(b) for b in s["bombers"]], s["unengaged_cap"])
    return {
        "legal": not p,
        "rules": _rules(p),
        "blocked": sorted(x.unit or x.word or "" for x in p),
    }


def _skip(s: Mapping[str, Any]) -> dict[str, Any]:
    ok = strikes.may_skip_7_45([unit(a) for a in s["attackers"]], unit(s["above"]), s["dtp_skip"])
    return {"may_skip": ok}


def _detected_after(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"detected": strikes.detected_after_attack_8_234(unit(s["attacker"]))}


def _damage(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"damage": hits.add_damage_8_54(s["current"], s["levels"], s.get("limit", hits.SUNK))}


def _halve(s: Mapping[str, Any]) -> dict[str, Any]:
    from referee.rules.sixth_fleet_dtp.rounding import halve_down_4_01a

    return {"half": halve_down_4_01a(s["value"])}


def _attempt(s: Mapping[str, Any]) -> dict[str, Any]:
    p = detection.attempt_problems_6_2(
        [unit(u) for u in s["detectors"]],
        s["target_category"],
        s["distance"],
        [tuple(x) for x in s.get("tried", ())],
        s["target_key"],
    )
    return {"legal": not p, "rules": _rules(p), "codes": sorted(x.code for x in p)}


def _base_detects(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"detected": detection.base_detects_6_43(s["target_category"], s["adjacent"])}


def _through(s: Mapping[str, Any]) -> dict[str, Any]:
    p = movement.through_problem_5_25(
        s["unit"], s["category"], s["enemies"], s.get("ends_here", False), s["hex"]
    )
    return {"legal": p is None, "rules": _rules([p] if p else []), "code": p.code if p else None}


def _exit(s: Mapping[str, Any]) -> dict[str, Any]:
    edge = movement.retreat_edge_11_0(module(), s["side"])
    p = movement.exit_problem_5_24(
        s["unit"], s["category"], s.get("damage", 0), s["hex"], edge, s.get("for_victory", False)
    )
    return {
        "legal": p is None,
        "rules": _rules([p] if p else []),
        "code": p.code if p else None,
        "edge_ends": [edge[0], edge[-1]],
        "edge_size": len(edge),
    }


def _flags(s: Mapping[str, Any]) -> dict[str, Any]:
    from referee.rules.sixth_fleet_dtp.flags import DEFAULT_FLAGS, other_nato_base_extra_9_15

    try:
        f = DEFAULT_FLAGS.with_overrides(s.get("overrides"))
    except ValueError as e:
        return {"error": str(e)}
    return {
        "skip_harmless_units": f.skip_harmless_units,
        "extra_9_15": other_nato_base_extra_9_15(f),
        "one_sg_base_attack": f.one_sg_base_attack,
        "error": None,
    }


def _attack(s: Mapping[str, Any]) -> dict[str, Any]:
    from referee.engine.core import ScriptedDice

    dice = ScriptedDice(s["dice"])
    sit = combat.Situation(
        turn=s.get("turn", 1),
        night=s.get("night", False),
        restricted=s.get("restricted", False),
        damage=s.get("damage", {}),
        answering=frozenset(s.get("answering", ())),
        daylight=frozenset(s.get("daylight", ())),
    )
    out = combat.resolve_attack_8_0(
        module(), [unit(a) for a in s["attackers"]], [unit(t) for t in s["targets"]], sit, dice
    )
    return {
        "attack_total": out.crt.attack_total,
        "defense_total": out.crt.defense_total,
        "success": out.crt.success,
        "damage": out.damage,
        "aborted": out.aborted,
        "detected": list(out.detected),
        "rolls": [r.value for r in dice.rolls],
        "rules": [e.rule for e in out.events],
    }


def _attempt_roll(s: Mapping[str, Any]) -> dict[str, Any]:
    from referee.engine.core import ScriptedDice

    dice = ScriptedDice(s["dice"])
    r, events = detection.attempt_6_3(
        module(),
        [unit(u) for u in s["detectors"]],
        [unit(u) for u in s["targets"]],
        s["target_category"],
        s.get("restricted_or_coastal", False),
        dice,
    )
    return {
        "column": r.reading.column,
        "entry": str(r.entry) if r.entry else None,
        "detected": r.detected,
        "rolls": [x.value for x in dice.rolls],
        "rules": [e.rule for e in events],
    }


def _rebase(s: Mapping[str, Any]) -> dict[str, Any]:
    p = air.rebase_problems_9_22(
        s["unit"], s["distance"], s["range"], s.get("open", True), s.get("room", True)
    )
    return {"legal": not p, "rules": _rules(p), "codes": sorted(x.code for x in p)}


def _carrier_air(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"air": air.carrier_air_9_27(s["cv_damage"])}


def _contact_roll(s: Mapping[str, Any]) -> dict[str, Any]:
    from referee.engine.core import ScriptedDice

    dice = ScriptedDice(s["dice"])
    t = contact.Target(
        s["target_ecm"],
        s.get("detected", False),
        s.get("coastal", False),
        s.get("restricted", False),
    )
    strikers = [tuple(x) for x in s["strikers"]]
    r, ev = contact.contact_8_15(
        module(), strikers, t, s.get("night", False), s.get("above_light_line", False), dice
    )
    return {
        "row": r.reading.row,
        "column": r.reading.column,
        "contact": r.contact,
        "modifier": r.modifier,
        "rule": ev.rule,
        "ends_impulse": "impulse ends" in ev.text,
    }


def _standing(s: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "stacks" in s:
        best = standing.best_stack_6_23(
            {h: [unit(u) for u in us] for h, us in s["stacks"].items()}, s["target_category"]
        )
        out["detect_from"] = best[0] if best else None
        out["detect_ecm"] = best[1].ecm if best else None
    if "candidates" in s:
        out["bouncers"] = list(
            standing.bouncers_8_232(
                [(unit(c["unit"]), c["attacked"], c["adjacent"]) for c in s["candidates"]],
                s["min_aa"],
            )
        )
    if "below" in s:
        out["passes"] = standing.passes_8_2(s.get("best_differential"), s["below"])
    return out


def _reach(s: Mapping[str, Any]) -> dict[str, Any]:
    p = strikes.reach_problems_8_1([tuple(x) for x in s["attackers_at"]], s["target_hex"])
    return {"legal": not p, "rules": _rules(p), "units": [x.unit or x.word for x in p]}


def _vp(s: Mapping[str, Any]) -> dict[str, Any]:
    vp = victory.unit_vp_8_57(s["full"], s["damage"])
    return {"vp": str(vp)}


def _level(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"level": victory.level_13_2(module(), Fraction(s["net"]))}


def _base(s: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "attackable": bases.attackable_10_44(s.get("friendly_units", 0)),
        "closed": bases.airbase_closed_10_44(s["level"]),
        "after_repair": bases.repair_10_44(s["level"], s.get("is_base", True), s.get("roll")),
        "hit_def": hits.base_def_10_44(s.get("ECM", 0)),
    }


def _phases(s: Mapping[str, Any]) -> dict[str, Any]:
    phase, turn = s["from"], s["turn"]
    seen = []
    for _ in range(s["steps"]):
        phase, turn = sequence.next_phase_4_1(phase, turn)
        seen.append(f"{turn}:{phase}")
    return {"next": seen, "players": sequence.players_11_0(module())}


@cache
def _module_named(name: str) -> Module:
    m, diags = load_module(SRC.parent / name)
    assert m is not None, [str(d) for d in diags.items]
    return m


def _base_vp(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"vp": str(victory.base_vp_8_57(s["ecm"], s["level"]))}


def _play(s: Mapping[str, Any]) -> dict[str, Any]:
    """One orders file of ``side`` played through the ruleset (``validate`` then ``resolve``)
    on a position set up by the case: ``module`` (``sixth_fleet_dtp`` or
    ``dtp_denmark_strait``), ``scenario``, ``turn``, ``phase``, ``units`` (``{"id", "hex"}``
    or ``{"id", "box"}``, optional ``status``), ``data`` (merged over empty damage, recycle
    and base-damage records; a combat phase starts with ``side``'s impulse), ``orders`` (the
    section's lines), ``dice`` and ``options`` (the optional rules in use, [14.0]);
    ``look_data`` names records of ``state.data`` to answer under ``data``. Answers the
    refusals' cases (``rules``), the events' cases
    (``events``), the damage records, where units are, their status, the recycle track and the
    carrier air records of ``landing.py`` (``home_deck``, ``not_9_26``), the losses (unit, case)
    and the net score."""
    from referee.engine.core import GameState, ScriptedDice, UnitState
    from referee.engine.orders import parse_orders
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_dtp.flow import section_of
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY

    m = _module_named(s.get("module", "sixth_fleet_dtp"))
    game = Game.for_scenario(m, s["scenario"])
    state = GameState(
        "g",
        m.id,
        "sixth_fleet_dtp",
        s["scenario"],
        s.get("turn", 1),
        s["phase"],
        s["side"],
        {},
        {},
        options=tuple(s.get("options", ())),
    )
    for u in s["units"]:
        st = UnitState(
            u["id"],
            game.unit(u["id"]).side,
            u.get("hex"),
            u.get("box"),
            frozenset(u.get("status", ())),
        )
        state = state.with_unit(st)
    data: dict[str, Any] = {"damage": {}, "recycle": {}, "base_damage": {}, "combat": {}}
    if s["phase"] == "combat":
        data["impulses"] = impulses.start_8_2(s["side"])
    state = state.with_data(**{**data, **s.get("data", {})})
    text = (
        f"game: g\nturn: {state.turn}\nside: {s['side']}\nphase: {state.phase}\n\n"
        f"[{section_of(state)}]\n" + "\n".join(s.get("orders", ())) + "\n"
    )
    out = RULESET.resolve(
        m, state, parse_orders(text, "case.txt", VOCABULARY), ScriptedDice(s.get("dice", []))
    )
    after = out.state
    return {
        "ok": out.ok,
        "rules": sorted({v.rule for v in out.violations}),
        "messages": [v.message for v in out.violations],
        "events": sorted({e.rule for e in out.events}),
        "damage": dict(after.data.get("damage") or {}),
        "base_damage": dict(after.data.get("base_damage") or {}),
        "destroyed": sorted(after.data.get("destroyed_defended") or ()),
        "where": {
            u["id"]: after.units[u["id"]].location or after.units[u["id"]].box for u in s["units"]
        },
        "status": {u["id"]: sorted(after.units[u["id"]].status) for u in s["units"]},
        "recycle": dict(after.data.get("recycle") or {}),
        "sg_base_attacks": sorted(after.data.get("sg_base_attacks") or ()),
        "home_deck": dict(after.data.get("home_deck") or {}),
        "not_9_26": sorted(after.data.get("not_9_26") or ()),
        "home_9_28b": dict(after.data.get("home_9_28b") or {}),
        "phase": after.phase,
        "due": RULESET.awaiting(m, after)[0],
        "moments": [[k["mover"], k["from"], k["units"]] for k in after.data.get("moments") or ()],
        "losses": sorted([x["unit"], x.get("rule", "")] for x in after.data.get("losses") or ()),
        "net": RULESET.score(m, after)["net"],
        "data": {k: after.data[k] for k in s.get("look_data", ()) if k in after.data},
    }


def _new_game(s: Mapping[str, Any]) -> dict[str, Any]:
    """``referee new`` of a DTP game with the optional rules ``options`` [14.0]: the
    refusal's message (``refused``) or the options kept and the units waiting to be set up
    (``unplaced``; ``middle_east``: those of the 14.3 forces). With ``setup_dice`` the set-up
    files of the sides before the last are played by SPI's scripted set-up, and the cases and
    rolls of their events answered (``events``: [case, roll])."""
    from referee.engine.core import ScriptedDice
    from referee.engine.orders import parse_orders
    from referee.errors import UserError
    from referee.rules.sixth_fleet_1975.context import Game
    from referee.rules.sixth_fleet_1975.scripted import setup_orders
    from referee.rules.sixth_fleet_dtp.ruleset import RULESET
    from referee.rules.sixth_fleet_dtp.vocabulary import VOCABULARY

    m = _module_named(s.get("module", "sixth_fleet_dtp"))
    try:
        state = RULESET.new_game(m, s["scenario"], "g", tuple(s.get("options", ())))
    except UserError as e:
        return {"refused": str(e)}
    out: dict[str, Any] = {
        "options": list(state.options),
        "unplaced": sorted(u for u, st in state.units.items() if st.box == "unplaced"),
    }
    if "setup_dice" in s:
        dice, events = ScriptedDice(s["setup_dice"]), []
        for side in list(Game.of(m, state).scenario.setup_order)[:-1]:
            lines = setup_orders(Game.of(m, state), state, side)
            text = f"game: g\nturn: 0\nside: {side}\n\n[setup]\n" + "\n".join(lines) + "\n"
            res = RULESET.resolve(m, state, parse_orders(text, "setup.txt", VOCABULARY), dice)
            assert res.ok, [str(v) for v in res.violations]
            state, events = res.state, [*events, *res.events]
        out["events"] = [[e.rule, e.data.get("roll")] for e in events if e.data.get("roll")]
        out["unplaced"] = sorted(u for u, st in state.units.items() if st.box == "unplaced")
    # the 14.3 forces: Israeli, Syrian and Egyptian air waiting to be set up
    out["middle_east"] = [
        u for u in out["unplaced"] if u.startswith("IS-") or "-SY" in u or "-EG" in u
    ]
    return out


PROBES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "new_game": _new_game,
    "may_attempt": _may_attempt,
    "stack_ecm": _stack_ecm,
    "detection": _detection,
    "max_rolls": _max_rolls,
    "keeps_detection": _keeps,
    "removal": _removal,
    "contact": _contact,
    "crt": _crt,
    "hit": _hit,
    "effects": _effects,
    "recycle": _recycle,
    "readiness": _readiness,
    "impulses": _impulses,
    "target": _target,
    "first_strike": _first_strike,
    "bounce": _bounce,
    "cap_first": _cap,
    "skip": _skip,
    "detected_after": _detected_after,
    "damage": _damage,
    "halve": _halve,
    "attempt": _attempt,
    "base_detects": _base_detects,
    "through": _through,
    "exit": _exit,
    "flags": _flags,
    "attack": _attack,
    "attempt_roll": _attempt_roll,
    "rebase": _rebase,
    "base_vp": _base_vp,
    "carrier_air": _carrier_air,
    "contact_roll": _contact_roll,
    "standing": _standing,
    "reach": _reach,
    "vp": _vp,
    "level": _level,
    "base": _base,
    "phases": _phases,
    "play": _play,
}


def _all_probes() -> dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]]:
    """The kit's probes and those of its scenarios' special rules, each name once."""
    from tests.conformance.rulesets.dtp_denmark_strait import PROBES as STRAIT
    from tests.conformance.rulesets.dtp_westpac import PROBES as WESTPAC
    from tests.conformance.rulesets.dtp_westpac_play import PROBES as WESTPAC_PLAY

    out: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {}
    for probes in (PROBES, STRAIT, WESTPAC, WESTPAC_PLAY):
        both = set(out) & set(probes)
        assert not both, f"probes named twice: {sorted(both)}"
        out.update(probes)
    return out


ADAPTER = Adapter(probes=_all_probes())
