"""What a turn folder publishes when the ruleset hides information, and what it keeps back.

For a ruleset with ``hides_information`` the referee writes two folders per step
(``docs/pbem.md``):

* ``turns/NNN-what/`` (published): ``report.json``, the **public record**: the full record
  with the hidden rolls and events left out, the pending decisions every side may see, the
  orders as a commitment only, and ``commitments`` (salted hashes of the full state and of the
  full record, :mod:`referee.pbem.commitments`); ``report.md``/``report.html`` and
  ``position.svg`` drawn from the public view; per side ``view-SIDE.json``/``.md`` and
  ``position-SIDE.vsav`` from that side's view; the signed manifest.
* ``secret/turns/NNN-what/`` (referee-only, never published): ``state.json`` (the full
  position), ``record.json`` (the full record: every roll, event and decision), the signed
  ``orders.txt`` and ``secrets.json`` (the step's hidden seed). ``referee reveal`` releases
  them; ``verify`` then checks every commitment and replays the game.

Everything here is a pure function of its inputs, so ``verify`` rebuilds the public record
from the revealed one and compares the bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.core import Event, GameState
from referee.engine.ruleset import Ruleset, public_view, referee_sides
from referee.pbem import commitments as cm
from referee.pbem.archive import sha256_hex, slug
from referee.pbem.keys import CONTEXT_REPORT, PrivateKey
from referee.pbem.parts import Sealer
from referee.pbem.record import (
    CONTEXT_MANIFEST,
    MANIFEST_FORMAT,
    SIGNED_FILES,
    VIEW_FORMAT,
    picture_file,
    pretty_json,
    sign_file,
    vassal_table,
)
from referee.pbem.reports import render_html, render_markdown
from referee.source.model import Module

SECRETS_FORMAT = "referee-step-secret/1"
PUBLIC_ORDERS_KEYS = (
    "side",
    "signer",
    "turn",
    "phase",
    "answers",
    "commitment",
    "sealed",
    "dice_key",
    # the dice nonces (docs/dice.md): random, independent of the orders, so public
    "nonce",
    "nonce_commit",
)


def secrets_json(step: int, hidden_seed: bytes) -> bytes:
    """A step's referee-only ``secrets.json``: its hidden seed, which opens its salts."""
    return pretty_json({"format": SECRETS_FORMAT, "step": step, "hidden_seed": hidden_seed.hex()})


def public_orders(orders: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The orders as everyone may know them: who, when, and the commitment; not the text,
    and not even its plain SHA-256 (few orders are possible; the hash would give them away)."""
    if orders is None:
        return None
    out = {k: orders[k] for k in PUBLIC_ORDERS_KEYS if k in orders}
    if "sealed_sides" in orders:
        out["sealed_sides"] = list(orders["sealed_sides"])
    return out


def _seen_by(items: Any, side: str | None) -> list[dict[str, Any]]:
    """Rolls or events a side may see (``None``: every side, the public record)."""
    out = []
    for x in items:
        hidden = x.get("hidden_from", [])
        if (side is None and hidden) or (side is not None and side in hidden):
            continue
        out.append(x)
    return out


def public_record(
    module: Module,
    ruleset: Ruleset,
    record: Mapping[str, Any],
    state: GameState,
    hidden_seed: bytes,
    state_bytes: bytes,
    record_bytes: bytes,
) -> dict[str, Any]:
    """The published ``report.json`` of a step, computed from the full record."""
    pub = dict(record)
    pub.pop("state_sha256", None)
    pub["orders"] = public_orders(record.get("orders"))
    pub["rolls"] = _seen_by(record.get("rolls", []), None)
    pub["events"] = _seen_by(record.get("events", []), None)
    pub["pending"] = [p.to_json() for p in public_view(ruleset, module, state).pending]
    pub["commitments"] = {
        **dict(record.get("commitments") or {}),
        "state": cm.state_commitment(hidden_seed, state_bytes),
        "record": cm.record_commitment(hidden_seed, record_bytes),
    }
    return pub


def side_record(
    record: Mapping[str, Any], public: Mapping[str, Any], side: str, seen: GameState
) -> dict[str, Any]:
    """The record as ``side`` may read it: the public record plus what only that side may
    see (its own hidden rolls and events, its pending decisions)."""
    out = dict(public)
    out["rolls"] = _seen_by(record.get("rolls", []), side)
    out["events"] = _seen_by(record.get("events", []), side)
    out["pending"] = [p.to_json() for p in seen.pending]
    return out


def _events(events: tuple[Event, ...], side: str | None) -> tuple[Event, ...]:
    if side is None:
        return tuple(e for e in events if not e.hidden_from)
    return tuple(e for e in events if side not in e.hidden_from)


def published_player_files(
    module: Module,
    ruleset: Ruleset,
    record: Mapping[str, Any],
    public: dict[str, Any],
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
    """Every published file a player opens in a turn folder of a game that hides
    information (reports, per-side views, the picture, per-side VASSAL saves, the awaited
    side's ``options-SIDE.json`` computed on its own view), rendered from the full record and
    position; ``verify`` renders them again after ``reveal`` with this same function and
    compares (``picture``: :func:`referee.pbem.record.picture_kind`; ``options_version``: the
    format of the options files, today's when ``None``)."""
    files = public_renderings(module, ruleset, record, public, rsha, state)
    seen = public_view(ruleset, module, state)
    shown = None
    if picture_dpi > 0:
        seen_before = None if before is None else public_view(ruleset, module, before)
        pic = picture_file(
            module, ruleset, seen_before, seen, _events(events, None), picture_dpi, picture
        )
        files.update(pic)
        shown = next(iter(pic))
    files["report.html"] = render_html(module, public, rsha, seen.to_json(), shown).encode()
    files.update(side_positions(module, ruleset, state))
    if draft_options:
        from referee.pbem.draft_options import awaited_sides, options_files

        due = awaited_sides(module, ruleset, state)
        seen_by = {s: ruleset.view(module, state, s) for s in due}
        reports = {s: side_record(record, public, s, v) for s, v in seen_by.items()}
        files.update(options_files(module, ruleset, reports, rsha, state, seen_by, options_version))
    return files


def hidden_turn_files(
    module: Module,
    ruleset: Ruleset,
    *,
    record: dict[str, Any],
    state: GameState,
    before: GameState | None,
    events: tuple[Event, ...],
    secret_orders: Mapping[str, bytes],
    hidden_seed: bytes,
    step: int,
    referee_key: PrivateKey,
    picture_dpi: int,
    sealer: Sealer | None = None,
) -> tuple[dict[str, bytes], dict[str, bytes], str]:
    """``(published files, referee-only files, SHA-256 of the published report.json)``.
    With a ``sealer`` (a game with parts) each side's files go into its encrypted part and
    the referee-only files, besides being returned for the referee's working copy, into the
    encrypted referee part (:mod:`referee.pbem.parts`)."""
    state_bytes = state.canonical().encode()
    full = dict(record)
    full["state_sha256"] = sha256_hex(state_bytes)
    record_bytes = pretty_json(full)
    pub = public_record(module, ruleset, full, state, hidden_seed, state_bytes, record_bytes)
    report_bytes = pretty_json(pub)
    rsha = sha256_hex(report_bytes)
    files: dict[str, bytes] = {
        "report.json": report_bytes,
        "report.json.sig": sign_file(report_bytes, referee_key, CONTEXT_REPORT),
    }
    files.update(
        published_player_files(module, ruleset, full, pub, rsha, state, before, events, picture_dpi)
    )
    manifest: dict[str, Any] = {
        "format": MANIFEST_FORMAT,
        "game_id": pub["game_id"],
        "sequence": pub["sequence"],
        "report_sha256": rsha,
        "files": {},
    }
    secret = {
        "state.json": state_bytes,
        "record.json": record_bytes,
        "secrets.json": secrets_json(step, hidden_seed),
        **dict(secret_orders),
    }
    if sealer is not None:
        manifest["parts"] = sealer.seal(files, secret)
    manifest["files"] = {
        n: sha256_hex(b) for n, b in sorted(files.items()) if n not in SIGNED_FILES
    }
    mbytes = pretty_json(manifest)
    files["manifest.json"] = mbytes
    files["manifest.json.sig"] = sign_file(mbytes, referee_key, CONTEXT_MANIFEST)
    return files, secret, rsha


def public_renderings(
    module: Module,
    ruleset: Ruleset,
    record: Mapping[str, Any],
    public: dict[str, Any],
    rsha: str,
    state: GameState,
) -> dict[str, bytes]:
    """``report.md`` (public view) and every side's ``view-SIDE.json``/``.md``: the files
    ``verify`` re-renders after ``reveal`` to prove they say what the record says."""
    out = {
        "report.md": render_markdown(
            module, public, rsha, public_view(ruleset, module, state).to_json()
        ).encode()
    }
    for s in player_sides(module, ruleset):
        seen = ruleset.view(module, state, s.id)
        rep = side_record(record, public, s.id, seen)
        name = slug(s.id)
        seen_json = seen.to_json()
        out[f"view-{name}.json"] = pretty_json(
            {
                "format": VIEW_FORMAT,
                "side": s.id,
                "report_sha256": rsha,
                "report": rep,
                "state": seen_json,
            }
        )
        out[f"view-{name}.md"] = render_markdown(module, rep, rsha, seen_json, viewer=s.id).encode()
    return out


def side_positions(module: Module, ruleset: Ruleset, state: GameState) -> dict[str, bytes]:
    """One ``position-SIDE.vsav`` per side, each from that side's view only."""
    from referee.vassal.position.save import position_vsav_bytes

    table = vassal_table(module)
    return {
        f"position-{slug(s.id)}.vsav": position_vsav_bytes(table, ruleset.view(module, state, s.id))
        for s in player_sides(module, ruleset)
    }


def player_sides(module: Module, ruleset: Ruleset) -> list[Any]:
    """The sides with a player: a side the ruleset plays itself gets no view, which would
    only publish what it hides."""
    automatic = referee_sides(ruleset)
    return [s for s in module.sides if s.id not in automatic]
