"""One turn folder's files: the signed record, its renderings, the views and the manifest.

The record (``report.json``) is the authority: it holds the hash of the previous report
(the chain), the orders hash, the revealed seed, every roll with its derivation, every event
with its rule, the pending decisions, what the game awaits and the hash of the new state. It
is signed (``report.json.sig``). Everything else in the folder is rendered from it and listed
with its SHA-256 in ``manifest.json``, also signed, so changing any byte of any file is caught.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Mapping
from json.encoder import encode_basestring  # type: ignore[attr-defined]
from typing import Any

from referee.engine.core import Event, GameState
from referee.engine.ruleset import Ruleset, due_of, has_submissions, phase_title_of
from referee.pbem.archive import sha256_hex, slug
from referee.pbem.keys import CONTEXT_REPORT, PrivateKey
from referee.pbem.parts import Sealer
from referee.pbem.reports import render_html, render_markdown, templates_sha256
from referee.source.memo import per_module
from referee.source.model import Module

REPORT_FORMAT = "referee-report/1"
VIEW_FORMAT = "referee-view/1"
MANIFEST_FORMAT = "referee-manifest/1"
CONTEXT_MANIFEST = b"referee-manifest-v1\n"
SIGNED_FILES = ("report.json", "report.json.sig", "manifest.json", "manifest.json.sig")


def pretty_json(data: Any) -> bytes:
    """Deterministic, diff-friendly JSON: sorted keys, two-space indent, final newline: the
    bytes of ``json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)`` and a newline,
    made about twice as fast (the standard library's indenting encoder is pure Python, and a
    step writes and ``verify`` re-renders every view of every step); data it does not know
    (keys that are not strings, other types) goes to ``json.dumps`` itself."""
    out: list[str] = []
    try:
        _pretty(data, "\n", out)
    except TypeError:
        return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
    out.append("\n")
    return "".join(out).encode()


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _pretty(value: Any, pad: str, out: list[str]) -> None:
    """:func:`pretty_json`'s encoder, case for case ``json.encoder._make_iterencode``'s."""
    if isinstance(value, str):
        out.append(encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner, sep = pad + "  ", "{"
        for k in sorted(value):
            if not isinstance(k, str):
                raise TypeError(k)
            out += (sep, inner, encode_basestring(k), ": ")
            _pretty(value[k], inner, out)
            sep = ","
        out.append(pad + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner, sep = pad + "  ", "["
        for v in value:
            out += (sep, inner)
            _pretty(v, inner, out)
            sep = ","
        out.append(pad + "]")
    else:
        raise TypeError(type(value).__name__)


def sign_file(data: bytes, key: PrivateKey, context: bytes) -> bytes:
    """A detached SSH signature of ``data`` (``FILE.sig``), in the namespace of ``context``:
    ``ssh-keygen -Y verify -n referee-report-v1 -s report.json.sig < report.json`` checks it."""
    return key.sign_ssh(context, data).armour().encode("ascii")


def view_report(report: Mapping[str, Any], side: str) -> dict[str, Any]:
    """The record as ``side`` may see it: events hidden from ``side`` left out."""
    out = dict(report)
    out["events"] = [e for e in report.get("events", []) if side not in e.get("hidden_from", [])]
    return out


def views(
    module: Module,
    ruleset: Ruleset,
    report: dict[str, Any],
    report_sha256: str,
    state: GameState,
    seen_by: Mapping[str, GameState] | None = None,
) -> dict[str, bytes]:
    """``view-<SIDE>.json`` and ``view-<SIDE>.md`` for every side (fog of war, ``view``;
    ``seen_by``: each side's view when the caller made them already)."""
    out: dict[str, bytes] = {}
    for s in module.sides:
        seen = (seen_by or {}).get(s.id) or ruleset.view(module, state, s.id)
        seen = seen.to_json()
        rep = view_report(report, s.id)
        name = slug(s.id)
        out[f"view-{name}.json"] = pretty_json(
            {
                "format": VIEW_FORMAT,
                "side": s.id,
                "report_sha256": report_sha256,
                "report": rep,
                "state": seen,
            }
        )
        out[f"view-{name}.md"] = render_markdown(
            module, rep, report_sha256, seen, viewer=s.id
        ).encode()
    return out


def vassal_table(module: Module) -> Any:
    """The VASSAL placement table of the module players built with ``referee build`` (same
    default dpi), computed once per module object."""
    from referee.vassal.position.placement import table_for

    return per_module(module, "vassal_table", lambda: table_for(module))


def positions(
    module: Module,
    ruleset: Ruleset,
    state: GameState,
    seen_by: Mapping[str, GameState] | None = None,
) -> dict[str, bytes]:
    """The position as a VASSAL save, for players who play in VASSAL (``docs/vassal.md``).

    One ``position.vsav`` when no side's view hides anything; otherwise one
    ``position-<SIDE>.vsav`` per side from that side's view, so a save never shows a player
    what the rules hide from him (fog of war)."""
    from referee.vassal.position.save import position_vsav_bytes

    if module.game is not None and module.game.imported is not None:
        from referee.vassal.foreign.game import imported_position_vsav
        from referee.vassal.module.piece_versions import has_piece_commands, recorded_version

        where = {u.id: u.location for u in state.units.values()}
        # the pieces' Layers are set from piece version 6 on: an older game's saves keep
        # the set-up's Layers, so verify still proves them
        status = (
            {u.id: u.status for u in state.units.values()}
            if has_piece_commands(recorded_version(state.data))
            else None
        )
        return {"position.vsav": imported_position_vsav(module, state.scenario, where, status)}
    table = vassal_table(module)
    seen = dict(seen_by or {}) or {s.id: ruleset.view(module, state, s.id) for s in module.sides}
    if all(v.units == state.units for v in seen.values()):
        return {"position.vsav": position_vsav_bytes(table, state)}
    return {
        f"position-{slug(side)}.vsav": position_vsav_bytes(table, v) for side, v in seen.items()
    }


PICTURES = ("svg", "png")
"""The position picture a step holds: ``position.svg`` (today's, text ``verify`` proves on any
machine) or ``position.png`` (earlier referee versions')."""


def picture_kind(listed: Collection[str]) -> str:
    """The picture a step's manifest lists: ``"png"`` for a step an earlier referee version
    wrote with ``position.png``, else ``"svg"``."""
    return "png" if "position.png" in listed else "svg"


def picture_file(
    module: Module,
    ruleset: Ruleset,
    before: GameState | None,
    state: GameState,
    events: tuple[Event, ...],
    picture_dpi: int,
    picture: str,
) -> dict[str, bytes]:
    """``position.svg`` (or, for an earlier version's step, ``position.png``) of ``state``."""
    title = phase_title_of(ruleset, module, state)
    if picture == "png":
        from referee.picture.png import position_png

        return {"position.png": position_png(module, before, state, events, picture_dpi, title)}
    from referee.picture.svg import position_svg

    return {"position.svg": position_svg(module, before, state, events, picture_dpi, title)}


def player_files(
    module: Module,
    ruleset: Ruleset,
    report: dict[str, Any],
    rsha: str,
    state: GameState,
    before: GameState | None,
    events: tuple[Event, ...],
    picture_dpi: int,
    *,
    picture: str = "svg",
    draft_options: bool = True,
    options_version: int | None = None,
) -> dict[str, bytes]:
    """Every file of a turn folder a player opens (Markdown, HTML, per-side views, the
    picture, VASSAL saves, the awaited side's ``options-SIDE.json``:
    :mod:`referee.pbem.draft_options`), rendered from the signed record alone. ``verify``
    renders them again with this same function and compares (``rendercheck.py``);
    ``picture`` is the kind of picture the step holds (:func:`picture_kind`);
    ``options_version`` the format of its options files (today's when ``None``). The game
    viewer is not a file of the step: ``referee viewer`` makes it from the views when a
    player wants it, so a step adds only its own data to the archive."""
    full = state.to_json()
    out: dict[str, bytes] = {"report.md": render_markdown(module, report, rsha, full).encode()}
    shown = None
    if picture_dpi > 0:
        pic = picture_file(module, ruleset, before, state, events, picture_dpi, picture)
        out.update(pic)
        shown = next(iter(pic))
    out["report.html"] = render_html(module, report, rsha, full, shown).encode()
    seen_by = {s.id: ruleset.view(module, state, s.id) for s in module.sides}
    out.update(views(module, ruleset, report, rsha, state, seen_by))
    out.update(positions(module, ruleset, state, seen_by))
    if draft_options:
        from referee.pbem.draft_options import options_files

        reports = {side: view_report(report, side) for side in seen_by}
        out.update(options_files(module, ruleset, reports, rsha, state, seen_by, options_version))
    return out


def build_turn_files(
    module: Module,
    ruleset: Ruleset,
    *,
    report: dict[str, Any],
    state: GameState,
    before: GameState | None,
    events: tuple[Event, ...],
    orders_text: str | None,
    referee_key: PrivateKey,
    picture_dpi: int,
    extra_files: Mapping[str, bytes] | None = None,
    sealer: Sealer | None = None,
    referee_files: Mapping[str, bytes] | None = None,
) -> tuple[dict[str, bytes], str]:
    """Every file of the turn folder, and the SHA-256 of its ``report.json``.
    ``extra_files`` (sealed orders revealed by this step) are listed in the manifest too. With
    a ``sealer`` (a game with parts that hides nothing: sealed orders) ``referee_files`` go,
    encrypted, into the folder's referee-only part (:mod:`referee.pbem.parts`)."""
    state_bytes = state.canonical().encode()
    report = dict(report)
    report["state_sha256"] = sha256_hex(state_bytes)
    report_bytes = pretty_json(report)
    rsha = sha256_hex(report_bytes)
    files: dict[str, bytes] = {
        "report.json": report_bytes,
        "report.json.sig": sign_file(report_bytes, referee_key, CONTEXT_REPORT),
        "state.json": state_bytes,
    }
    if orders_text is not None:
        files["orders.txt"] = orders_text.encode()
    files.update(extra_files or {})
    files.update(player_files(module, ruleset, report, rsha, state, before, events, picture_dpi))
    manifest = {
        "format": MANIFEST_FORMAT,
        "game_id": report["game_id"],
        "sequence": report["sequence"],
        "report_sha256": rsha,
        "files": {},
    }
    if sealer is not None:
        manifest["parts"] = sealer.seal(files, referee_files or {})
    manifest["files"] = {
        n: sha256_hex(b) for n, b in sorted(files.items()) if n not in SIGNED_FILES
    }
    mbytes = pretty_json(manifest)
    files["manifest.json"] = mbytes
    files["manifest.json.sig"] = sign_file(mbytes, referee_key, CONTEXT_MANIFEST)
    return files, rsha


def phase_info(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "phase": state.phase, "active_side": state.active_side}


def step_names(
    k: int, side: str, state: GameState, phase_title: str | None = None
) -> tuple[str, str]:
    """The title of step ``k`` (orders of ``side`` in ``state``) and its turn folder's name;
    ``verify`` recomputes both, so a renamed folder or a retitled report is caught.

    ``phase_title`` is the phase's human name (``phase_title_of``: "Soviet Random Events
    Phase"); the title reads it, without saying the side twice, while the folder keeps the
    phase id. Without one (or when it is the id) the title is the id, as every archive made
    before titles named phases has it; ``verify`` accepts that form too (:func:`step_titles`)."""
    if state.pending:
        title = f"{side} answers {', '.join(p.id for p in state.pending)}"
        return title, f"{k:03d}-{slug(side)}-{slug('answer')}"
    name = phase_title or state.phase
    if name != state.phase and name.split(" ", 1)[0] == side:
        title = f"Game-Turn {state.turn}, {name}"
    else:
        title = f"Game-Turn {state.turn}, {side} {name}"
    return title, f"{k:03d}-{slug(side)}-{slug(state.phase)}"


def step_title(ruleset: Ruleset, module: Module, k: int, side: str, state: GameState) -> str:
    """The title a new step ``k`` gets: :func:`step_names` with the phase's human name."""
    return step_names(k, side, state, phase_title_of(ruleset, module, state))[0]


def step_titles(k: int, side: str, state: GameState, phase_title: str) -> tuple[str, ...]:
    """The titles ``verify`` accepts for step ``k``: today's (with the phase's human name) and
    the one archives made before it recorded (the phase id)."""
    now = step_names(k, side, state, phase_title)[0]
    old = step_names(k, side, state)[0]
    return (now,) if now == old else (now, old)


def base_report(
    *,
    game_id: str,
    sequence: int,
    title: str,
    previous_report: str | None,
    game_toml_sha256: str,
    module: Mapping[str, str],
    ruleset: str,
    scenario: str,
    options: tuple[str, ...],
    referee_fingerprint: str,
) -> dict[str, Any]:
    return {
        "format": REPORT_FORMAT,
        "game_id": game_id,
        "sequence": sequence,
        "title": title,
        "previous_report": previous_report,
        "game_toml_sha256": game_toml_sha256,
        "module": dict(module),
        "ruleset": ruleset,
        "scenario": scenario,
        "options": list(options),
        "referee": {"fingerprint": referee_fingerprint},
        "templates_sha256": templates_sha256(),
    }


def awaiting_info(
    module: Module, ruleset: Ruleset, state: GameState, sealed_in: Collection[str] = ()
) -> dict[str, Any] | None:
    """What the game waits for, or ``None`` when it is over (no active side, nothing owed).

    A ruleset with ``due`` (several sides, sealed orders) also gets the list ``due``: every
    submission still owed, leaving out the sides whose sealed orders are in (``sealed_in``)."""
    if game_over(state):
        return None
    if not has_submissions(ruleset):
        side, what = ruleset.awaiting(module, state)
        return {"side": side, "what": what}
    due = [d for d in due_of(ruleset, module, state) if d.side not in sealed_in]
    if not due:
        return None
    return {
        "side": due[0].side,
        "what": "; ".join(d.what for d in due),
        "due": [d.to_json() for d in due],
    }


def game_over(state: GameState) -> bool:
    return state.active_side is None and not state.pending
