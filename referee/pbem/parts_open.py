"""``referee verify`` of a game with parts: open what this run holds a key for.

A player verifies with his own key (``--key nato.key``): the public part and his own part
completely, every other part through the SHA-256 of its ciphertext in the signed manifest
(age authenticates what it encrypts, so that hash commits the referee to one content). The
referee-only part opens with the referee's key, and every part of a step with that step's
parts key, derived from its hidden seed, which ``referee reveal`` publishes (and the
referee's own working copy holds).

:func:`opened_copy` lays out a temporary copy of the archive with every part this run opens
unpacked where the checks of :mod:`referee.pbem.verify_commit` read it (a side's files in its
turn folder, the referee-only files in ``parts/turns/NNN-what/``), and an :class:`Opening`
that says, per step, what was opened, what could not be and what is missing; the checks
consult it (:meth:`Opening.admit`, :meth:`Opening.effective`) and it writes verify's notes.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.pbem import parts as pt
from referee.pbem.archive import TURN_RE, Archive, GameConfig, sha256_hex
from referee.pbem.keys import PrivateKey
from referee.pbem.problems import Refusal

OPENED_ROOT = "parts"  # in the temporary copy: the opened referee-only parts


class PartFailure(Exception):
    """A part that fails a check: ``file``, ``check``, ``message`` (as VerifyFailure)."""

    def __init__(self, file: str, check: str, message: str) -> None:
        super().__init__(f"{file}: {check}: {message}")
        self.file, self.check, self.message = file, check, message


@dataclass
class Opening:
    """What one verify run could open of each step's parts, and what it could not."""

    cfg: GameConfig
    owners: dict[str, str]  # owner -> whose key opened it ("NATO's key", "the parts key")
    opened: dict[str, dict[str, dict[str, bytes]]] = field(default_factory=dict)
    unopened: dict[str, list[str]] = field(default_factory=dict)  # owner -> turn folders
    missing: list[str] = field(default_factory=list)  # part files absent from this copy
    checked_own: int = 0
    how: dict[str, set[str]] = field(default_factory=dict)  # owner -> keys that opened it
    # files of an opened part that another referee version made, so not made again here
    own_unchecked: list[str] = field(default_factory=list)
    table: Any = None  # the VASSAL placement table of the module (own VASSAL saves)

    def vassal_table(self, module: Any) -> Any:
        """The module's VASSAL placement table, made once per run."""
        from referee.vassal.position.placement import table_for

        if self.table is None:
            self.table = table_for(module)
        return self.table

    def admit(self, turn: str, manifest: dict[str, Any]) -> tuple[set[str], set[str]]:
        """``(files besides the manifest's that may be in the folder, listed files that may
        be absent)``: the files of the parts opened, and the parts missing from this copy.
        Fails when the manifest's parts and the opened contents disagree."""
        listing = manifest.get("parts")
        if listing is None:
            return set(), set()
        if not isinstance(listing, dict) or not all(
            isinstance(v, list) and all(isinstance(n, str) for n in v) for v in listing.values()
        ):
            raise PartFailure(f"turns/{turn}/manifest.json", "manifest", "malformed parts")
        extra: set[str] = set()
        absent: set[str] = set()
        here = self.opened.get(turn, {})
        for owner, names in sorted(listing.items()):
            file = pt.part_file(owner)
            if file not in manifest.get("files", {}):
                raise PartFailure(f"turns/{turn}/{file}", "manifest", "a part not listed")
            if owner in here:
                if sorted(here[owner]) != sorted(names):
                    raise PartFailure(
                        f"turns/{turn}/{file}", "part", "holds other files than the manifest says"
                    )
                if owner != pt.REFEREE:
                    extra.update(names)
            elif file in self.absent_files.get(turn, ()):
                absent.add(file)
                self.missing.append(f"turns/{turn}/{file}")
                self.gaps.add(owner)
            else:
                self.unopened.setdefault(owner, []).append(turn)
                self.gaps.add(owner)
        return extra, absent

    # part files not in this copy, per turn folder (what _open_turn found)
    absent_files: dict[str, set[str]] = field(default_factory=dict)
    # sides a part of which was not opened so far: their later viewers (which show every
    # step so far) cannot be made again here
    gaps: set[str] = field(default_factory=set)
    viewers_skipped: int = 0
    # copies of an opened referee-only part (revealed/, secret/) that differ from it
    conflicts: list[str] = field(default_factory=list)

    def conflict(self) -> None:
        """Fail on the first copy of a referee-only part that is not what it holds."""
        if self.conflicts:
            raise PartFailure(self.conflicts[0], "revealed", "not what referee.age holds")

    def viewer_gap(self, side: str) -> bool:
        """Is ``side``'s viewer of this step beyond this run (an earlier part not opened)?"""
        if side in self.gaps:
            self.viewers_skipped += 1
            return True
        return False

    def effective(self, turn: str, manifest: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
        """The manifest as far as this run reads the folder: the opened side files listed
        with their SHA-256 (their part's hash is signed); and the names of the files of
        parts not opened, which cannot be compared."""
        out = dict(manifest)
        files = dict(manifest.get("files", {}))
        skip: set[str] = set()
        here = self.opened.get(turn, {})
        for owner, names in sorted((manifest.get("parts") or {}).items()):
            if owner in here and owner != pt.REFEREE:
                files.update({n: sha256_hex(b) for n, b in here[owner].items()})
                if self.viewer_gap(owner):
                    skip.update(n for n in names if n.startswith("viewer-"))
            elif owner != pt.REFEREE:
                skip.update(names)
        out["files"] = files
        return out, skip

    def to_json(self) -> dict[str, Any]:
        opened: dict[str, int] = {}
        for byowner in self.opened.values():
            for owner in byowner:
                opened[owner] = opened.get(owner, 0) + 1
        return {
            "opened": dict(sorted(opened.items())),
            "unopened": {o: len(v) for o, v in sorted(self.unopened.items())},
            "missing": list(self.missing),
        }

    def notes(self) -> list[str]:
        out = []
        j = self.to_json()
        for owner, n in j["opened"].items():
            how = " or ".join(sorted(self.how.get(owner, ())))
            out.append(f"{_whose(owner)} opened with {how} in {n} step(s) and checked")
        for owner, n in j["unopened"].items():
            out.append(
                f"{_whose(owner)} not opened in {n} step(s) (no key for it given with --key, "
                "and those steps are not revealed): checked only as the signed manifest's "
                "SHA-256 of its encrypted file"
            )
        if self.own_unchecked:
            shown = ", ".join(self.own_unchecked[:3]) + (
                " ..." if len(self.own_unchecked) > 3 else ""
            )
            out.append(
                f"{len(self.own_unchecked)} file(s) of your part made by another referee version "
                f"not made again here, checked by the part's signed hash only: {shown}"
            )
        if self.viewers_skipped:
            out.append(
                f"{self.viewers_skipped} viewer file(s) not compared: each shows every step so "
                "far, and a part of its side in an earlier step was not opened"
            )
        if self.missing:
            shown = ", ".join(self.missing[:3]) + (" ..." if len(self.missing) > 3 else "")
            out.append(
                f"{len(self.missing)} part file(s) missing from this copy, not checked: {shown}"
            )
        return out


def _whose(owner: str) -> str:
    return "the referee-only part" if owner == pt.REFEREE else f"{owner}'s part"


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def _identities(cfg: GameConfig, keys: Sequence[PrivateKey]) -> tuple[list[Any], dict[str, str]]:
    """The age identities of the ``keys`` given and whose parts they open."""
    ids: list[Any] = []
    owners: dict[str, str] = {}
    for key in keys:
        fp = key.public.fingerprint
        mine = [s for s, k in sorted(cfg.players.items()) if k.fingerprint == fp]
        if fp == cfg.referee.fingerprint:
            mine.append(pt.REFEREE)
        if not mine:
            raise PartFailure(
                "game.toml", "key", f"{key.name or 'the key'} is no player's or referee's key"
            )
        ids.append(pt.identity_of(key))
        for owner in mine:
            owners[owner] = f"{owner}'s key" if owner != pt.REFEREE else "the referee's key"
    return ids, owners


STEP_KEY = "the step's key (from its revealed hidden seed)"


def _step_identity(archive: Archive, name: str) -> Any | None:
    """The parts key of step ``name`` when its hidden seed is in the clear here: released by
    ``reveal`` (``revealed/turns/NAME/secrets.json``) or in the referee's working copy. A
    wrong seed only fails to open the parts (and fails the hidden-dice chain later)."""
    for root in (archive.revealed, archive.secret):
        path = root / "turns" / name / "secrets.json"
        if not path.is_file() or path.is_symlink():
            continue
        try:
            seed = bytes.fromhex(str(json.loads(archive.read(path, 64 * 1024))["hidden_seed"]))
        except (Refusal, ValueError, KeyError, TypeError):
            return None
        return pt.x25519_identity(pt.parts_identity(seed))
    return None


def _copy_archive(archive: Archive, tmp: Path) -> None:
    for p in sorted(archive.root.iterdir()):
        if p.name == ".lock":
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.copytree(p, tmp / p.name, symlinks=True, copy_function=_link_or_copy)
        else:
            shutil.copy2(p, tmp / p.name, follow_symlinks=False)


def _open_turn(
    archive: Archive,
    copy: Archive,
    turn: Path,
    opening: Opening,
    ids: list[Any],
) -> None:
    cfg = opening.cfg
    here: dict[str, dict[str, bytes]] = {}
    step = _step_identity(archive, turn.name)
    for owner in [*sorted(cfg.players), pt.REFEREE]:
        file = pt.part_file(owner)
        path = turn / file
        if not path.is_file() and not path.is_symlink():
            opening.absent_files.setdefault(turn.name, set()).add(file)
            continue
        how = STEP_KEY if step is not None else opening.owners.get(owner)
        if how is None:
            continue
        rel = f"turns/{turn.name}/{file}"
        try:
            plain = pt.decrypt(copy.read(path), [*ids, step] if step is not None else ids)
            if plain is None:
                raise PartFailure(rel, "part", f"does not open with {how}")
            files = pt.unpack(plain, rel)
        except Refusal as exc:
            raise PartFailure(rel, "part", exc.message) from None
        for name in files:
            if not (name in pt.REFEREE_FILES if owner == pt.REFEREE else pt.side_file(name, owner)):
                raise PartFailure(rel, "part", f"holds {name}, which is not {owner}'s")
        here[owner] = files
        opening.how.setdefault(owner, set()).add(how)
        if owner == pt.REFEREE:
            _place_referee(archive, copy, turn.name, files, opening)
            continue
        for name, data in files.items():
            if (turn / name).exists():
                raise PartFailure(
                    f"turns/{turn.name}/{name}", "manifest", "a plain copy beside its part"
                )
            (turn / name).write_bytes(data)
    if here:
        opening.opened[turn.name] = here


def _place_referee(
    archive: Archive, copy: Archive, name: str, files: dict[str, bytes], opening: Opening
) -> None:
    """The opened referee-only part, where verify reads revealed steps. A copy of it that
    ``reveal`` published or the referee's working copy holds must be the same bytes; one
    that differs is named after the walk (:meth:`Opening.conflict`), whose checks of that
    copy say first what in it is wrong (a hidden roll, a commitment)."""
    out = copy.root / OPENED_ROOT / "turns" / name
    out.mkdir(parents=True)
    for fname, data in files.items():
        (out / fname).write_bytes(data)
    for root in (archive.revealed, archive.secret):
        kept = root / "turns" / name
        if not kept.is_dir():
            continue
        for fname, data in files.items():
            p = kept / fname
            if p.is_file() and archive.read(p) != data:
                opening.conflicts.append(archive.rel(p))


@contextlib.contextmanager
def opened_copy(
    archive: Archive, cfg: GameConfig, keys: Sequence[PrivateKey]
) -> Iterator[tuple[Archive, Opening]]:
    """A temporary copy of ``archive`` with every part the ``keys`` (and a published parts
    key) open unpacked, and what was opened; removed afterwards."""
    ids, owners = _identities(cfg, keys)
    tmp = Path(tempfile.mkdtemp(prefix="referee-verify-"))
    try:
        _copy_archive(archive, tmp)
        copy = Archive(tmp)
        opening = Opening(cfg, owners)
        turns = copy.turns
        if turns.is_dir():
            for t in sorted(turns.iterdir()):
                if TURN_RE.match(t.name) and t.is_dir() and not t.is_symlink():
                    _open_turn(archive, copy, t, opening, ids)
        yield copy, opening
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check_own_part(
    w: Any,
    t: Any,
    module: Any,
    rs: Any,
    rep: dict[str, Any],
    rsha: str,
    manifest: dict[str, Any],
) -> None:
    """Before the reveal, a side's opened part checked as far as its owner can: its view
    names this report and says what the public record says (its own hidden rolls and events
    besides), and its Markdown view and VASSAL save are what that view renders to."""
    from referee.pbem.archive import slug

    opening: Opening = w.opening
    base = f"turns/{t.name}"
    for side, files in sorted(opening.opened.get(t.name, {}).items()):
        if side == pt.REFEREE:
            continue
        name = slug(side)
        doc = _own_view(files, side, f"{base}/view-{name}.json", rsha, rep)
        _own_renderings(opening, module, base, side, files, doc, rsha, rep, manifest)
        opening.checked_own += 1  # no viewer in a part: built on demand (issue 24)


def _own_view(
    files: dict[str, bytes], side: str, vf: str, rsha: str, rep: dict[str, Any]
) -> dict[str, Any]:
    """A side's view of a step: of that side, naming this report, and saying what the
    public record says but for the rolls, events and decisions only that side may see."""
    from referee.pbem.record import VIEW_FORMAT

    try:
        doc = json.loads(files[vf.rsplit("/", 1)[1]])
    except (KeyError, ValueError):
        raise PartFailure(vf, "part", "missing or not JSON") from None
    if not isinstance(doc, dict) or doc.get("format") != VIEW_FORMAT or doc.get("side") != side:
        raise PartFailure(vf, "part", f"not a view of {side}")
    if doc.get("report_sha256") != rsha:
        raise PartFailure(vf, "part", "names another report.json")
    mine = doc.get("report") if isinstance(doc.get("report"), dict) else {}
    for key in sorted(set(rep) | set(mine)):
        if key in ("rolls", "events"):
            public = [x for x in mine.get(key, []) if not x.get("hidden_from")]
            if public != rep.get(key):
                raise PartFailure(vf, "part", f"its {key} are not the public record's")
        elif key != "pending" and mine.get(key) != rep.get(key):
            raise PartFailure(vf, "part", f"report.{key} is not the public record's")
    return doc


def _own_renderings(
    opening: Opening,
    module: Any,
    base: str,
    side: str,
    files: dict[str, bytes],
    doc: dict[str, Any],
    rsha: str,
    rep: dict[str, Any],
    manifest: dict[str, Any],
) -> None:
    """A side's Markdown view and VASSAL save made again from its view, where this referee
    version makes them as the one that wrote them (else a note names them)."""
    from referee.engine.core import GameState
    from referee.pbem.archive import slug
    from referee.pbem.rendercheck import same_save
    from referee.pbem.reports import render_markdown, templates_sha256
    from referee.vassal.position.save import position_vsav_bytes

    name = slug(side)
    seen = doc.get("state") or {}
    if rep.get("templates_sha256") == templates_sha256():
        md = render_markdown(module, doc["report"], rsha, seen, viewer=side).encode()
        if files.get(f"view-{name}.md") != md:
            raise PartFailure(f"{base}/view-{name}.md", "rendering", "not what the view says")
    else:
        opening.own_unchecked.append(f"{base}/view-{name}.md (other report templates)")
    vsav = f"position-{name}.vsav"
    if vsav not in files:
        return
    made = position_vsav_bytes(opening.vassal_table(module), GameState.from_json(seen))
    # no manifest field switches this off (issue 24): the same bytes or the same commands
    if files[vsav] != made and not same_save(files[vsav], made):
        raise PartFailure(f"{base}/{vsav}", "rendering", "not the position of the view")
