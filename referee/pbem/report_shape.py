"""The declared shapes of a turn folder's signed files: ``report.json`` and ``manifest.json``.

A report is input like any other: a referee can sign a malformed one. ``verify`` and
``adjudicate`` check a report against :data:`REPORT` before they read any field (cause 2 of
issue 11: ``"players": {"NATO": "x"}`` used to end in an internal error), so that a malformed
report fails with its file and the JSON path of the first value that does not fit. The shapes
are those every referee version wrote (``tests/pbem/fixtures/before-commitments`` included);
fields a version may leave out are optional, but when present they must have their shape.
"""

from __future__ import annotations

from typing import Any

from referee.shapes import (
    HEX64,
    boolean,
    check,
    integer,
    json_value,
    list_of,
    map_of,
    nullable,
    obj,
    string,
)

PHASE = obj({"turn": integer, "phase": string}, {"active_side": nullable(string)})
ROLL = obj(
    {"index": integer, "sides": integer, "value": integer},
    {"purpose": string, "rule": string, "derivation": map_of(json_value), "hidden": boolean},
)
EVENT = obj(
    {"kind": string, "text": string},
    {"rule": string, "data": map_of(json_value), "hidden_from": list_of(string)},
)
PENDING = obj(
    {"id": string, "side": string},
    {
        "kind": string,
        "rule": string,
        "prompt": string,
        "options": list_of(string),
        "context": map_of(json_value),
    },
)
AWAITING = obj({"what": string}, {"side": nullable(string), "due": list_of(map_of(json_value))})
ORDERS = obj(
    # what the report's template prints of every orders entry, sealed or not (a re-signed
    # report without them crashed the template: issue 31, fuzz target ``report``)
    {"side": string, "signer": string, "turn": nullable(integer), "phase": nullable(string)},
    {
        "sha256": nullable(HEX64),  # null: sealed orders kept in the referee-only part
        "sealed": string,
        "name": string,
        "file": string,
        "answers": list_of(json_value),
    },
)
DICE = obj(
    {},
    {
        "seed": string,
        "seed_index": integer,
        "previous_seed": nullable(string),
        "commitment": obj({}, {"head": string, "length": integer, "algorithm": string}),
    },
)
PLAYER = obj({"fingerprint": string}, {"key": string})
REPORT = obj(
    {
        "format": string,
        "game_id": string,
        "sequence": integer,
        "previous_report": nullable(HEX64),
        "game_toml_sha256": HEX64,
        "ruleset": string,
        "scenario": string,
    },
    {
        "title": string,
        "module": map_of(string),
        "options": list_of(string),
        "referee": obj({"fingerprint": string}),
        "templates_sha256": string,
        "state_sha256": string,
        "players": map_of(PLAYER),
        "orders": nullable(ORDERS),
        "dice": DICE,
        "rolls": list_of(ROLL),
        "events": list_of(EVENT),
        "pending": list_of(PENDING),
        "awaiting": nullable(AWAITING),
        "score": map_of(json_value),
        "before": nullable(PHASE),
        "after": nullable(PHASE),
    },
)
MANIFEST = obj(
    {"format": string, "files": map_of(HEX64)},
    {"game_id": string, "sequence": integer, "report_sha256": HEX64},
)


def check_report(rep: Any) -> None:
    """Raise :class:`~referee.shapes.ShapeError` unless ``rep`` has a report's shape."""
    check(rep, REPORT)


def check_manifest(man: Any) -> None:
    check(man, MANIFEST)
