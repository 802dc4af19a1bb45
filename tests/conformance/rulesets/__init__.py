"""What the one conformance harness needs of each ruleset: how to build a position from a
case's compact ``position``, the expectations only that ruleset can check (``looks``), and
its *probes*, rule functions a step may call with arguments and whose answers it compares.

Everything else (the case format, playing orders files, comparing refusals, events and the
position) is the harness's, the same for every ruleset.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.engine.core import GameState
from referee.source.model import Module

Look = Callable[[Module, GameState, Any], list[str]]
Probe = Callable[[Mapping[str, Any]], dict[str, Any]]


def _no_module(position: Mapping[str, Any]) -> Module:
    raise AssertionError("this ruleset's cases have no position; use its probes")


def _no_state(module: Module, position: Mapping[str, Any]) -> GameState:
    raise AssertionError("this ruleset's cases have no position; use its probes")


def at_turn_and_phase(state: GameState, want: Mapping[str, Any]) -> bool:
    """The usual moment of ``pass_until``: every key (``turn``, ``phase``) equal."""
    return all(getattr(state, k) == v for k, v in want.items())


@dataclass(frozen=True)
class Adapter:
    """One ruleset's part of the harness (see the module docstring)."""

    module: Callable[[Mapping[str, Any]], Module] = _no_module
    build: Callable[[Module, Mapping[str, Any]], GameState] = _no_state
    looks: Mapping[str, Look] = field(default_factory=dict)
    probes: Mapping[str, Probe] = field(default_factory=dict)
    at_moment: Callable[[GameState, Mapping[str, Any]], bool] = at_turn_and_phase
    empty_orders: Callable[[GameState], str] = lambda st: f"[{st.phase}]"


def call_probe(package: str, module: Callable[[], Module]) -> Probe:
    """The probe ``call``: ``"call": "file.function"`` of ``package`` called with ``args``
    (a list: positional, a dict: keywords) and ``kwargs``; ``with_module`` passes the
    ruleset's module first (or as ``module`` with keyword ``args``). It answers each path of
    ``expect``: ``__self__`` for the result itself, else dotted attribute names, keys or
    indexes (``1.total``), tuples as lists (JSON has no tuples)."""

    def probe(step: Mapping[str, Any]) -> dict[str, Any]:
        file, fn_name = step["call"].rsplit(".", 1)
        fn = getattr(importlib.import_module(f"{package}.{file}"), fn_name)
        args = step.get("args", {})
        if isinstance(args, list):
            pos, kw = ([module()] if step.get("with_module") else []) + args, {}
        else:
            pos, kw = [], {**args, **({"module": module()} if step.get("with_module") else {})}
        result = fn(*pos, **kw, **step.get("kwargs", {}))
        return {path: attribute(result, path) for path in step.get("expect", {})}

    return probe


def attribute(result: Any, path: str) -> Any:
    """The part of ``result`` that ``path`` names (see ``call_probe``), tuples as lists."""
    got: Any = result
    for part in [] if path == "__self__" else path.split("."):
        if isinstance(got, list | tuple):
            got = got[int(part)]
        elif isinstance(got, Mapping):
            got = got[part]
        else:
            got = getattr(got, part)
    return jsonish(got)


def jsonish(value: Any) -> Any:
    """``value`` as JSON reads it back: tuples (at any depth) as lists."""
    if isinstance(value, list | tuple):
        return [jsonish(x) for x in value]
    if isinstance(value, dict):
        return {k: jsonish(v) for k, v in value.items()}
    return value
