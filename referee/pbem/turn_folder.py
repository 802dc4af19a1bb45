"""One turn folder as ``referee verify`` and the viewer check it: the referee's signatures on
``manifest.json`` and ``report.json``, every file against the manifest, the declared shapes;
and report 000's players and dice commitment against ``game.toml``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.pbem.archive import Archive, TurnDir, sha256_hex
from referee.pbem.envelope import signature_ok, split_block
from referee.pbem.keys import CONTEXT_REPORT, PublicKey
from referee.pbem.problems import Refusal
from referee.pbem.record import CONTEXT_MANIFEST, MANIFEST_FORMAT, SIGNED_FILES
from referee.pbem.report_shape import check_manifest, check_report
from referee.pbem.verdict import VerifyFailure
from referee.shapes import ShapeError


def check_signed(
    archive: Archive, data_path: Path, sig_path: Path, key: PublicKey, ctx: bytes
) -> bytes:
    """The bytes of ``data_path``, after checking the referee's signature on them."""
    rel, srel = archive.rel(data_path), archive.rel(sig_path)
    data = archive.read(data_path)
    try:
        text = archive.read(sig_path, 64 * 1024).decode("ascii")
        above, block = split_block(text, srel)
    except (Refusal, UnicodeDecodeError) as exc:
        raise VerifyFailure(srel, "signature", f"unreadable signature ({exc})") from None
    if block is None or above.strip() or block.armour() != text:
        raise VerifyFailure(srel, "signature", "not a signature block as the referee writes it")
    if block.fingerprint != key.fingerprint:
        raise VerifyFailure(srel, "signature", "made by a key that is not the referee's")
    if not signature_ok(block, key, ctx, data):
        raise VerifyFailure(
            rel, "signature", f"does not match its signature {sig_path.name}: one was changed"
        )
    return data


def check_folder(
    archive: Archive, t: TurnDir, referee: PublicKey, *, with_state: bool = True
) -> tuple[dict, str, bytes]:
    """Signatures and manifest of one turn folder: ``(report, its SHA-256, state.json)``
    (``b""`` for the state when the folder publishes none: a game hiding information)."""
    rep, rsha, state_bytes, _ = check_folder_full(archive, t, referee, with_state=with_state)
    return rep, rsha, state_bytes


def check_folder_full(
    archive: Archive,
    t: TurnDir,
    referee: PublicKey,
    *,
    with_state: bool = True,
    opening: Any = None,
) -> tuple[dict, str, bytes, dict]:
    """:func:`check_folder`, and the folder's manifest. In a game with parts, ``opening``
    (:class:`referee.pbem.parts_open.Opening`) admits the files of the parts this run opened
    and the part files missing from this copy (which it reports)."""
    base = f"turns/{t.name}"
    try:
        mbytes = check_signed(
            archive,
            t.path / "manifest.json",
            t.path / "manifest.json.sig",
            referee,
            CONTEXT_MANIFEST,
        )
        manifest = json.loads(mbytes)
        shaped(check_manifest, manifest, f"{base}/manifest.json")
        if manifest.get("format") != MANIFEST_FORMAT:
            raise VerifyFailure(f"{base}/manifest.json", "manifest", "not a referee manifest")
        listed = dict(manifest["files"])
        extra, absent = opening.admit(t.name, manifest) if opening is not None else ((), ())
        present = sorted(p.name for p in t.path.iterdir())
        for name in present:
            if name not in listed and name not in SIGNED_FILES and name not in extra:
                raise VerifyFailure(f"{base}/{name}", "manifest", "a file the referee never wrote")
        for name in [*sorted(listed), *SIGNED_FILES]:
            if name not in present and name not in absent:
                raise VerifyFailure(f"{base}/{name}", "manifest", "missing")
        for name, want in sorted(listed.items()):
            if name in absent:
                continue
            if sha256_hex(archive.read(t.path / name)) != want:
                raise VerifyFailure(f"{base}/{name}", "hash", "changed since the referee signed it")
        rbytes = check_signed(
            archive, t.path / "report.json", t.path / "report.json.sig", referee, CONTEXT_REPORT
        )
        rsha = sha256_hex(rbytes)
        if manifest.get("report_sha256") != rsha:
            raise VerifyFailure(f"{base}/manifest.json", "manifest", "names another report.json")
        rep = json.loads(rbytes)
        shaped(check_report, rep, f"{base}/report.json")
        state_bytes = archive.read(t.path / "state.json") if with_state else b""
    except Refusal as exc:
        raise VerifyFailure(base, "archive", exc.message) from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise VerifyFailure(base, "record", f"malformed ({exc})") from None
    if not isinstance(rep, dict):
        raise VerifyFailure(f"{base}/report.json", "record", "not a report")
    return rep, rsha, state_bytes, manifest


def shaped(checker: Any, value: Any, file: str) -> None:
    """Check a decoded signed file against its declared shape (``report_shape.py``)."""
    try:
        checker(value)
    except ShapeError as exc:
        raise VerifyFailure(file, "record", f"malformed: {exc}") from None


def check_players_and_dice(cfg: Any, rep: dict[str, Any], f: str) -> None:
    """Report 000 names the players' keys and the dice commitment of ``game.toml``."""
    players = {s: k.fingerprint for s, k in cfg.players.items()}
    got = {s: (p or {}).get("fingerprint") for s, p in (rep.get("players") or {}).items()}
    if got != players:
        raise VerifyFailure(f, "players", "the players' keys differ from game.toml")
    keys = {s: (p or {}).get("key") for s, p in (rep.get("players") or {}).items()}
    if "key" in next(iter((rep.get("players") or {None: {}}).values()), {}) and keys != {
        s: k.line() for s, k in cfg.players.items()
    }:
        raise VerifyFailure(f, "players", "the players' key lines differ from game.toml")

    commit = (rep.get("dice") or {}).get("commitment") or {}
    if (commit.get("head"), commit.get("length"), commit.get("algorithm")) != (
        cfg.dice_head,
        cfg.dice_length,
        cfg.dice_algorithm,
    ):
        raise VerifyFailure(f, "dice commitment", "differs from game.toml")
