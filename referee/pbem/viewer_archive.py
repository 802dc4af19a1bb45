"""Reading a game archive for the viewer: which documents a side's viewer is made of.

``referee viewer GAME_DIR --side SIDE`` reads, per turn folder, that side's published
``view-SIDE.json`` and nothing else of the game; ``--side referee`` reads the full record
(``report.json`` and ``state.json``, or ``secret/turns/…/record.json`` and ``state.json``
in a game that hides information: the referee's copy). Each folder's signatures and manifest
are checked as ``verify`` checks them, and the viewer says per step whether they held.

Turn folders write their own ``viewer-SIDE.html`` (:func:`published_history` gives the
documents of the steps before, which :func:`referee.pbem.record.player_files` adds to).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.errors import UserError
from referee.pbem.archive import Archive, TurnDir, sha256_hex, slug
from referee.pbem.problems import Refusal
from referee.pbem.viewer_data import StepDoc, step_from_view
from referee.source.model import Module

REFEREE = "referee"


def side_ids(module: Module, ruleset: Any) -> list[str]:
    """The sides ``--side`` accepts: every side with a player, and ``referee``."""
    from referee.pbem.publish import player_sides

    return [s.id for s in player_sides(module, ruleset)] + [REFEREE]


def _signature(archive: Archive, t: TurnDir, cfg: Any) -> str:
    from referee.pbem.verify import VerifyFailure, _check_folder

    try:
        _check_folder(archive, t, cfg.referee, with_state=False)
    except VerifyFailure as exc:
        return f"BAD: {exc}"
    return "good (report.json.sig and the manifest checked by this viewer's maker)"


def _json(archive: Archive, path: Path) -> Any:
    return archive.read_json(path)


def _checked(archive: Archive, path: Path, kind: str) -> Any:
    """A view (``kind = "view"``), record (``"report"``) or position (``"state"``) document,
    its shape checked before any field is read: a malformed file is refused with its name
    and the JSON path of the first value that does not fit, never an internal error."""
    from referee.pbem.report_shape import REPORT, check_report
    from referee.shapes import HEX64, check, json_value, map_of, obj, string

    doc = _json(archive, path)
    try:
        if kind == "view":
            check(
                doc,
                obj(
                    {
                        "format": string,
                        "side": string,
                        "report_sha256": HEX64,
                        "report": REPORT,
                        "state": map_of(json_value),
                    }
                ),
            )
            try:
                GameState.from_json(doc["state"])
            except ValueError as exc:
                raise ValueError(str(exc).replace("$", "$.state", 1)) from None
        elif kind == "report":
            check_report(doc)
        else:
            GameState.from_json(doc)
    except ValueError as exc:
        raise Refusal("archive", f"{archive.rel(path)}: malformed: {exc}") from None
    return doc


def archive_steps(
    game_dir: Path, module: Module, ruleset: Any, side: str, key: Any = None
) -> tuple[list[StepDoc], list[str], str]:
    """``(steps, signature status of each, referee fingerprint)`` for ``side``'s viewer.

    Refuses a side the game has no player for, and the referee's full record in a copy
    without ``secret/`` (a player's copy)."""
    archive = Archive(game_dir)
    archive.require()
    cfg = archive.config()
    sides = side_ids(module, ruleset)
    if side not in sides:
        raise UserError(
            f"no side {side!r} in game {cfg.game_id}", hint="sides: " + ", ".join(sides)
        )
    steps: list[StepDoc] = []
    sigs: list[str] = []
    for t in archive.turn_dirs():
        sigs.append(_signature(archive, t, cfg))
        if side != REFEREE:
            steps.append(step_from_view(_side_view(archive, t, side, key)))
            continue
        rbytes = archive.read(t.path / "report.json")
        rsha = sha256_hex(rbytes)
        if not cfg.hides_information:
            rep = _checked(archive, t.path / "report.json", "report")
            state = _checked(archive, archive.state_path(t, False), "state")
        else:
            kept = archive.secret / "turns" / t.name
            if not (kept / "record.json").is_file():
                raise Refusal(
                    "archive",
                    f"secret/turns/{t.name}/record.json: missing; the referee's full record "
                    "is only in the referee's copy of the game",
                    hint="a player makes the viewer of his side: --side SIDE",
                )
            rep = _checked(archive, kept / "record.json", "report")
            state = _checked(archive, kept / "state.json", "state")
        steps.append(StepDoc(rep, rsha, state))
    return steps, sigs, cfg.referee.fingerprint


def _side_view(archive: Archive, t: TurnDir, side: str, key: Any) -> Any:
    """A side's view of one step: in the folder, or in the side's encrypted part (a game
    with parts), opened with the side's ``key``."""
    import json

    from referee.pbem.parts import identity_of, open_part, part_file

    name = f"view-{slug(side)}.json"
    if (t.path / name).is_file() or not (t.path / part_file(side)).is_file():
        return _checked(archive, t.path / name, "view")
    if key is None:
        raise Refusal(
            "archive",
            f"turns/{t.name}/{part_file(side)}: {side}'s view is in this encrypted part",
            hint="give your key: --key YOUR.key",
        )
    files = open_part(archive, t, side, [identity_of(key)])
    if name not in files:
        raise Refusal("archive", f"turns/{t.name}/{part_file(side)}: holds no {name}")
    return json.loads(files[name])


def published_history(
    archive: Archive,
    turns: Sequence[TurnDir],
    sides: Sequence[str],
    parts_key: Callable[[int], str] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Each side's ``view-SIDE.json`` of every folder in ``turns``: the steps before the one
    being written, which its ``viewer-SIDE.html`` shows too. In a game with parts the views
    are in the sides' encrypted parts, opened with each step's parts key (``parts_key`` of
    the step's number: the referee derives it from the step's hidden seed)."""
    import json

    from referee.pbem.parts import side_files

    out: dict[str, list[dict[str, Any]]] = {s: [] for s in sides}
    for t in turns:
        for s in sides:
            name = f"view-{slug(s)}.json"
            if parts_key is None or (t.path / name).is_file():
                out[s].append(_json(archive, t.path / name))
                continue
            mine = side_files(archive, t, s, [parts_key(t.sequence)])
            if name not in mine:
                raise Refusal("archive", f"turns/{t.name}: no {name} in the part of {s}")
            out[s].append(json.loads(mine[name]))
    return out


def history_for(
    archive: Archive,
    turns: Sequence[TurnDir],
    module: Module,
    ruleset: Any,
    picture_dpi: int,
    parts_key: Callable[[int], str] | None = None,
) -> dict[str, list[dict[str, Any]]] | None:
    """The documents the next step's viewer files need (:func:`published_history`), or
    ``None`` when the game writes no pictures (``picture_dpi = 0``: no viewer either) or an
    earlier folder has no view of some side (an archive from before views)."""
    if picture_dpi <= 0:
        return None
    from referee.engine.ruleset import referee_sides

    automatic = referee_sides(ruleset)
    sides = [s.id for s in module.sides if s.id not in automatic]
    try:
        return published_history(archive, turns, sides, parts_key)
    except Refusal:
        return None
