"""The one conformance harness: read a case (``tests/conformance/<ruleset>/NNN-<slug>.json``),
set up its position with its ruleset's adapter, play its steps and list every way the rules
disagree with it. The format is described for case writers in ``docs/conformance.md``.

A case is data::

    {"ruleset": "sixth_fleet_1975", "id": "024", "title": "...", "cites": ["8.24"],
     "example": "SF75-EX-8.24", "book": "the rulebook's words", "note": "...",
     "position": {...the ruleset's compact position, see tests/conformance/rulesets/...},
     "steps": [{"do": "look", "expect": {...}},
               {"do": "orders", "side": "NATO", "orders": "[combat]\\nattack ...",
                "dice": [4], "expect": {...}},
               {"do": "pass_until", "until": {"turn": 3}},
               {"do": "crt", ...arguments..., "expect": {...}}]}

Step kinds: ``orders`` plays one orders file (the header is written from the position: game,
turn, side; ``text`` instead gives the whole file) through ``validate`` and, when ``dice``
are given, ``resolve``; ``look`` asks its ``expect`` of the current position;
``pass_until`` sends empty files until the game reaches a moment; any other ``do`` is a
*probe* of the ruleset's adapter: one rule function called with the step's arguments, its
answers compared with ``expect`` key by key (equality).

The runner is strict: an unknown step kind or expectation key is a failure, so a misspelt
expectation cannot pass unchecked.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.coverage.cases import load_cases
from referee.coverage.citations import undeclared
from referee.engine.core import GameState, ScriptedDice
from referee.engine.orders import OrdersDoc, OrdersSyntaxError
from referee.engine.ruleset import get_ruleset
from referee.source.model import Module
from tests.conformance.rulesets import (
    Adapter,
    carrier_battlegroup,
    naval_module,
    sixth_fleet_1975,
    sixth_fleet_2019,
    sixth_fleet_dtp,
)

HERE = Path(__file__).resolve().parent
RULES = HERE.parents[1] / "referee" / "rules"
ADAPTERS: dict[str, Adapter] = {
    "sixth_fleet_1975": sixth_fleet_1975.ADAPTER,
    "sixth_fleet_2019": sixth_fleet_2019.ADAPTER,
    "naval_module": naval_module.ADAPTER,
    "sixth_fleet_dtp": sixth_fleet_dtp.ADAPTER,
    "carrier_battlegroup": carrier_battlegroup.ADAPTER,
}
CASE_KEYS = frozenset(
    {"ruleset", "id", "title", "cites", "example", "book", "note", "ruling", "position", "steps"}
)
ORDERS_KEYS = frozenset(
    {"violations", "syntax_error", "hint", "messages", "located", "events", "no_events"}
)
STATE_KEYS = frozenset({"units", "pending", "phase", "side", "turn", "score", "data", "data_exact"})


def case_paths(ruleset: str | None = None) -> list[Path]:
    """Every case file (of one ruleset's folders, or of all), sorted."""
    folders = [f for rs, fs in FOLDERS.items() if ruleset in (None, rs) for f in fs]
    return sorted(p for f in folders for p in (HERE / f).glob("*.json"))


FOLDERS: dict[str, tuple[str, ...]] = {
    "sixth_fleet_1975": ("sixth_fleet_1975",),
    "sixth_fleet_2019": ("sixth_fleet_2019",),
    "naval_module": ("naval_module",),
    "sixth_fleet_dtp": ("sixth_fleet_dtp", "dtp_denmark_strait", "dtp_westpac"),
    "carrier_battlegroup": ("carrier_battlegroup",),
}


def load_case(path: Path) -> dict[str, Any]:
    """The case in ``path``, its form checked (the keys a case may have, steps present)."""
    case = json.loads(path.read_text("utf-8"))
    assert "ruleset" in case, (
        f"{path.name}: a case of an earlier format; run python -m tests.conformance.upgrade"
    )
    unknown = set(case) - CASE_KEYS
    assert not unknown, f"{path.name}: unknown case keys {sorted(unknown)}"
    assert case.get("cites"), f"{path.name}: every case cites the rule it tests"
    assert case.get("steps"), f"{path.name}: a case has steps"
    assert case["ruleset"] in ADAPTERS, f"{path.name}: unknown ruleset {case['ruleset']}"
    return case


@dataclass
class Play:
    """Where a case has got to: its module, ruleset, adapter and the current position."""

    adapter: Adapter
    module: Module | None
    state: GameState | None

    @property
    def ruleset(self) -> Any:
        assert self.module is not None
        return get_ruleset(self.module.ruleset)


def run_case(case: Mapping[str, Any]) -> list[str]:
    """Every way the rules disagree with the case (empty: they agree)."""
    adapter = ADAPTERS[case["ruleset"]]
    play = Play(adapter, None, None)
    if "position" in case:
        play.module = adapter.module(case["position"])
        play.state = adapter.build(play.module, case["position"])
    problems: list[str] = []
    for i, step in enumerate(case["steps"]):
        label = f"step {i} ({step.get('do')})"
        problems += [f"{label}: {p}" for p in run_step(play, step)]
    return problems


def run_step(play: Play, step: Mapping[str, Any]) -> list[str]:
    """One step of a case (its kind chosen by ``do``)."""
    do = step.get("do")
    if do == "orders":
        return play_orders(play, step)
    if do == "look":
        return expect_state(play, step.get("expect", {}), set())
    if do == "pass_until":
        play.state = pass_until(play, step["until"])
        return []
    probe = play.adapter.probes.get(str(do))
    if probe is None:
        return [f"unknown step {do!r}"]
    return compare_answers(probe(step), step.get("expect", {}))


def compare_answers(got: Mapping[str, Any], expect: Mapping[str, Any]) -> list[str]:
    """A probe's answers against the step's ``expect``, key by key, by equality;
    ``how_contains`` lists substrings of the answer ``how``."""
    out: list[str] = []
    for k, want in expect.items():
        if k == "how_contains":
            out += [f"{f!r} not in {got.get('how')!r}" for f in want if f not in got.get("how", "")]
        elif k not in got:
            out.append(f"no answer {k!r}")
        elif got[k] != want:
            out.append(f"{k} = {got[k]!r}, expected {want!r}")
    return out


# ---- orders ---------------------------------------------------------------------------------


def orders_text(play: Play, step: Mapping[str, Any]) -> str:
    """The orders file of an ``orders`` step: ``text`` as given, or a header (game, turn,
    side of the position unless the step names them) and the step's ``orders`` body."""
    if "text" in step:
        return str(step["text"])
    st = play.state
    assert st is not None and play.module is not None
    side = step.get("side") or st.active_side or play.ruleset.awaiting(play.module, st)[0]
    body = str(step.get("orders", ""))
    if not body.endswith("\n"):
        body += "\n"
    return f"game: {st.game_id}\nturn: {step.get('turn', st.turn)}\nside: {side}\n{body}"


def play_orders(play: Play, step: Mapping[str, Any]) -> list[str]:
    """Parse, validate and (with ``dice``) resolve one orders file; check ``expect``."""
    exp = dict(step.get("expect", {}))
    rs, module, state = play.ruleset, play.module, play.state
    assert module is not None and state is not None
    try:
        doc: OrdersDoc = rs.parse_orders(orders_text(play, step), "orders.txt")
    except OrdersSyntaxError as exc:
        return [] if exp.get("syntax_error") else [f"syntax error: {exc}"]
    problems = ["expected a syntax error"] if exp.get("syntax_error") else []
    bad = rs.validate(module, state, doc)
    problems += uncited(module.ruleset, [v.rule for v in bad])
    problems += expect_refusals(bad, exp)
    if bad:
        if not {"violations", "hint", "messages"} & set(exp):
            problems.append(f"refused: {[str(v) for v in bad]}")
        return problems
    if "dice" not in step:
        return problems + [
            f"{k}: asked, but the step has no dice to resolve" for k in set(exp) - ORDERS_KEYS
        ]
    dice = ScriptedDice(list(step["dice"]))
    out = rs.resolve(module, state, doc, dice)
    made = [*out.violations, *out.events, *out.state.pending, *(r for r in dice.rolls if r.rule)]
    problems += uncited(module.ruleset, [x.rule for x in made])
    if out.violations:
        return [*problems, f"resolve refused: {[str(v) for v in out.violations]}"]
    play.state = out.state
    problems += expect_events([e.to_json() for e in out.events], exp)
    problems += expect_state(play, exp, ORDERS_KEYS)
    if len(dice.rolls) != len(step["dice"]) and not step.get("dice_spare"):
        problems.append(f"used {len(dice.rolls)} dice of {len(step['dice'])} scripted")
    if GameState.from_json(json.loads(out.state.canonical())).canonical() != out.state.canonical():
        problems.append("state does not survive a JSON round trip")
    return problems


@functools.cache
def declared_cases(ruleset: str) -> tuple[str, ...]:
    """The case ids ``ruleset``'s ``cases.toml`` declares."""
    return tuple(r.id for r in load_cases(RULES / ruleset / "cases.toml").rows)


def uncited(ruleset: str, rules: Iterable[str]) -> list[str]:
    """Each citation the ruleset made at run time (a violation's, an event's, a roll's or a
    decision's ``rule``) that reads as no case or names a case its ``cases.toml`` does not
    declare. The static check (``tests/engine/test_citations.py``) reads only the literals
    in the code; this one sees the citations the code computes."""
    ids = declared_cases(ruleset)
    return [
        f"cites an undeclared case: {e}"
        for r in sorted(set(rules))
        for e in undeclared(r, ruleset, ids)
    ]


def expect_refusals(bad: list[Any], exp: Mapping[str, Any]) -> list[str]:
    """``violations`` (the refusals' rule cases, any order), ``hint`` (a substring of one
    refusal's hint), ``messages`` (substrings of a refusal's message or hint), ``located``
    (every refusal names its place in the file)."""
    out: list[str] = []
    got = sorted(v.rule for v in bad)
    if "violations" in exp and sorted(exp["violations"]) != got:
        out.append(
            f"violations {got}, expected {sorted(exp['violations'])}: {[str(v) for v in bad]}"
        )
    if "hint" in exp and not any(exp["hint"] in (v.hint or "") for v in bad):
        out.append(f"no hint with {exp['hint']!r}: {[str(v) for v in bad]}")
    for text in exp.get("messages", []):
        if not any(text in v.message or text in (v.hint or "") for v in bad):
            out.append(f"no refusal says {text!r}: {[v.message for v in bad]}")
    if exp.get("located") and any(v.where is None for v in bad):
        out.append(f"a refusal without its place in the file: {[str(v) for v in bad]}")
    return out


def expect_events(events: list[dict[str, Any]], exp: Mapping[str, Any]) -> list[str]:
    """``events``: each must match one event (``text`` a substring, the rest a subset);
    ``no_events``: none may match."""
    out: list[str] = []
    for want in exp.get("events", []):
        if not any(event_matches(want, e) for e in events):
            seen = [(e["kind"], e["rule"], e["text"]) for e in events]
            out.append(f"no event like {want}; got {seen}")
    for bad in exp.get("no_events", []):
        if any(event_matches(bad, e) for e in events):
            out.append(f"unexpected event like {bad}")
    return out


def event_matches(want: Mapping[str, Any], event: Mapping[str, Any]) -> bool:
    """``want`` describes ``event``: its ``text`` is in the event's text, the rest a subset."""
    if "text" in want and str(want["text"]) not in event["text"]:
        return False
    return subset({k: v for k, v in want.items() if k != "text"}, event)


def subset(want: Any, got: Any) -> bool:
    """``want`` is in ``got``: a dict key by key (recursively), a list exactly, a value equal
    (a string against a non-string compares their text: ``"10"`` matches ``Fraction(10)``)."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(
            k in got and subset(v, got[k]) for k, v in want.items()
        )
    if isinstance(want, list) or isinstance(got, list | tuple):
        return isinstance(got, list | tuple) and list(want) == list(got)
    if want == got:
        return True
    return (isinstance(want, str) or isinstance(got, str)) and str(want) == str(got)


# ---- the position ---------------------------------------------------------------------------


def expect_state(play: Play, exp: Mapping[str, Any], skip: set[str] | frozenset[str]) -> list[str]:
    """The expectations asked of the current position: the common ones (``units``,
    ``pending``, ``phase``, ``side``, ``turn``, ``score``, ``data``, ``data_exact``) and
    the ruleset's own (its adapter's ``looks``)."""
    st, module = play.state, play.module
    assert st is not None and module is not None
    out: list[str] = []
    for key, want in exp.items():
        if key in skip:
            continue
        look = play.adapter.looks.get(key)
        if look is not None:
            out += look(module, st, want)
        elif key in STATE_KEYS:
            out += common_look(play, key, want)
        else:
            out.append(f"unknown expectation {key!r}")
    return out


def common_look(play: Play, key: str, want: Any) -> list[str]:
    """One of the common expectations of a position."""
    st, module = play.state, play.module
    assert st is not None and module is not None
    if key == "units":
        return [
            f"{uid} is at {st.units[uid].location or st.units[uid].box}, expected {where}"
            for uid, where in want.items()
            if (st.units[uid].location or st.units[uid].box) != where
        ]
    if key == "pending":
        return expect_pending(st, want)
    if key in ("phase", "turn"):
        got = getattr(st, key)
        return [] if got == want else [f"{key} is {got!r}, expected {want!r}"]
    if key == "side":
        return [] if st.active_side == want else [f"side {st.active_side!r}, expected {want!r}"]
    if key == "score":
        score = dict(play.ruleset.score(module, st))
        return [] if subset(want, score) else [f"score {score} lacks {want}"]
    if key == "data":
        return [] if subset(want, dict(st.data)) else [f"data lacks {want}: {dict(st.data)}"]
    return [  # data_exact: each key equal
        f"data[{k}] is {st.data.get(k)!r}, expected {v!r}"
        for k, v in want.items()
        if st.data.get(k) != v
    ]


def expect_pending(st: GameState, want: Any) -> list[str]:
    """``pending``: ``null`` for none, else a subset of the first pending decision."""
    if want is None:
        return [f"unexpected pending decision {st.pending[0].to_json()}"] if st.pending else []
    if not st.pending:
        return ["expected a pending decision"]
    got = st.pending[0].to_json()
    return [] if subset(want, got) else [f"pending {got} != {want}"]


def pass_until(play: Play, want: Mapping[str, Any]) -> GameState:
    """Send an empty file for whatever is awaited until the position matches ``want``
    (``turn``, ``phase`` and the adapter's ``moment`` keys); at most 200 files."""
    rs, module, st = play.ruleset, play.module, play.state
    assert module is not None and st is not None
    for _ in range(200):
        if play.adapter.at_moment(st, want):
            return st
        side = rs.awaiting(module, st)[0]
        body = play.adapter.empty_orders(st)
        text = f"game: {st.game_id}\nturn: {st.turn}\nside: {side}\n{body}\n"
        out = rs.resolve(module, st, rs.parse_orders(text, "pass.txt"), ScriptedDice([]))
        assert not out.violations, [(v.rule, v.message) for v in out.violations]
        st = out.state
    raise AssertionError(f"never reached {want}")
