"""Reading a game archive for the viewer: which documents a side's viewer is made of.

``referee viewer GAME_DIR --side SIDE`` reads, per turn folder, that side's published
``view-SIDE.json`` and nothing else of the game; ``--side referee`` reads the full record
(``report.json`` and ``state.json``, or ``secret/turns/…/record.json`` and ``state.json``
in a game that hides information: the referee's copy). Each folder's signatures and manifest
are checked as ``verify`` checks them, and the viewer says per step whether they held.

A turn folder holds no viewer (it would repeat the whole game in every step): a player makes
the current one from the views whenever he wants it. Archives from earlier referee versions
have a ``viewer-SIDE.html`` in each step; ``verify`` still checks those
(:func:`referee.pbem.rendercheck.check_viewers`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.engine.core import GameState
from referee.errors import UserError
from referee.pbem.archive import Archive, TurnDir, sha256_hex, slug
from referee.pbem.problems import Refusal
from referee.source.model import Module
from referee.viewer.data import StepDoc, step_from_view

REFEREE = "referee"


def side_ids(module: Module, ruleset: Any) -> list[str]:
    """The sides ``--side`` accepts: every side with a player, and ``referee``."""
    from referee.pbem.publish import player_sides

    return [s.id for s in player_sides(module, ruleset)] + [REFEREE]


def _signature(archive: Archive, t: TurnDir, cfg: Any) -> str:
    from referee.pbem.turn_folder import check_folder
    from referee.pbem.verdict import VerifyFailure

    try:
        check_folder(archive, t, cfg.referee, with_state=False)
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


def _options_shape() -> Any:
    """The declared shape of an ``options-SIDE.json`` (:mod:`referee.pbem.draft_options`)."""
    from referee.pbem.draft_options import FORMATS
    from referee.shapes import HEX64, integer, list_of, map_of, obj, one_of, string

    choice = obj(
        {"order": string},
        {
            "kind": string,
            "label": string,
            "at": string,
            "path": list_of(string),
            "uses": list_of(string),
            "section": string,
            "group": string,
        },
    )
    unit = obj(
        {"lines": list_of(string), "choices": list_of(choice)},
        {
            "marks": map_of(string),
            "route": obj({"tree": integer, "order": string, "kind": string}),
        },
    )
    answer = obj({"id": string, "rule": string, "prompt": string, "options": list_of(string)})
    # format 1-3: each place's predecessor and each end's label; format 4 (compact): each
    # place's successors and each label's ends
    tree = obj(
        {},
        {
            "prev": map_of(string),
            "ends": map_of(string),
            "kids": map_of(list_of(string)),
            "labels": map_of(list_of(string)),
        },
    )
    return obj(
        {
            "format": one_of(*FORMATS.values()),
            "side": string,
            "report_sha256": HEX64,
            "header": list_of(string),
            "turn": integer,
            "phase": string,
            "section": string,
            "answers": list_of(answer),
            "units": map_of(unit),
            "trees": list_of(tree),
        }
    )


def draft_options(
    game_dir: Path, side: str, steps: list[StepDoc], key: Any = None
) -> dict[str, Any] | None:
    """The latest step's ``options-SIDE.json`` of ``side`` (in the folder, or in the side's
    encrypted part), its shape checked and its step checked to be that step: what the
    viewer's orders mode drafts from; ``None`` when the step awaits nothing of ``side``, for
    the referee's record, or for a step written before options files."""
    import json

    from referee.pbem.draft_options import options_file
    from referee.pbem.parts import identity_of, open_part, part_file
    from referee.shapes import check

    if side == REFEREE or not steps:
        return None
    archive = Archive(game_dir)
    t = archive.turn_dirs()[-1]
    name = options_file(side)
    if (t.path / name).is_file():
        doc = archive.read_json(t.path / name)
    elif (t.path / part_file(side)).is_file() and key is not None:
        files = open_part(archive, t, side, [identity_of(key)])
        if name not in files:
            return None
        doc = json.loads(files[name])
    else:
        return None
    try:
        check(doc, _options_shape())
    except ValueError as exc:
        raise Refusal("archive", f"turns/{t.name}/{name}: malformed: {exc}") from None
    if doc["side"] != side or doc["report_sha256"] != steps[-1].report_sha256:
        raise Refusal(
            "archive",
            f"turns/{t.name}/{name}: not {side}'s options at this step "
            "(another side, or another report)",
        )
    return dict(doc)
