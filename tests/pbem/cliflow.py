"""Driving the signed PBEM workflow through the command line, in-process, for the toy
rulesets of issue 10 (keygen, new, sign, adjudicate, verify, reveal), and searching what a
player receives."""

from __future__ import annotations

import json
import shutil
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.cli import app
from referee.errors import UserError
from referee.vassal.codec.obfuscation import deobfuscate
from tests.clirun import Runner


def cli(*args: Any) -> tuple[int, str]:
    """``referee ARGS``: (exit code, stdout and stderr); a UserError exits 2 as in main()."""
    r = Runner().invoke(app, [str(a) for a in args])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        if isinstance(r.exception, UserError):
            return getattr(r.exception, "exit_code", 2), str(r.exception)
        raise r.exception
    return r.exit_code, r.output


@dataclass
class Table:
    """A game on the referee's disk, with the players' keys."""

    root: Path
    module: Path
    sides: tuple[str, ...]
    sent: list[Path] = field(default_factory=list)

    @property
    def game(self) -> Path:
        return self.root / "game"

    def key(self, name: str) -> Path:
        return self.root / "keys" / f"{name}.key"

    def new(self, scenario: str = "skirmish") -> str:
        for name in [*(s.lower() for s in self.sides), "referee"]:
            code, out = cli("keygen", name, "--out", self.root / "keys")
            assert code == 0, out
        players = [
            a for s in self.sides for a in ("--player", f"{s}={self.root}/keys/{s.lower()}.pub")
        ]
        code, out = cli(
            "new",
            self.game,
            "--module",
            self.module,
            "--scenario",
            scenario,
            *players,
            "--referee-key",
            self.key("referee"),
            "--referee-dir",
            self.root / "referee-secret",
            "--game-id",
            "g",
            "--picture-dpi",
            "20",
        )
        assert code == 0, out
        return out

    def send(self, side: str, *lines: str, expect: int = 0) -> str:
        """Write, sign (``referee sign --game-dir``) and adjudicate one orders file."""
        path = self.root / f"orders-{len(self.sent):03d}-{side}.txt"
        path.write_text("\n".join(lines) + "\n")
        code, out = cli("sign", path, "--key", self.key(side.lower()), "--game-dir", self.game)
        assert code == 0, out
        self.sent.append(path)
        code, out = cli(
            "adjudicate",
            self.game,
            path,
            "--key",
            self.key("referee"),
            "--module",
            self.module,
            "--referee-dir",
            self.root / "referee-secret",
        )
        assert code == expect, out
        return out

    def verify(self, game: Path | None = None) -> tuple[int, dict[str, Any]]:
        code, out = cli("verify", game or self.game, "--module", self.module, "--json")
        return code, json.loads(out)

    def opened(self, name: str = "opened-copy") -> Path:
        """The referee's copy with every side's part unpacked in its turn folder."""
        return opened_copy(self.game, name, [self.key(s.lower()) for s in self.sides])

    def player_copy(self, name: str = "player-copy") -> Path:
        """What a player has: the archive as git would publish it (no ``secret/``)."""
        out = self.root / name
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(self.game, out, ignore=shutil.ignore_patterns("secret", ".lock"))
        return out


def readable(path: Path) -> str:
    """A published file as text a person (or a program) could read out of it: a VASSAL save
    unzipped and de-obfuscated; a picture (``position.svg``) the text it shows, node by node
    (its attributes are coordinates and colours, whose digits would match hex ids by chance;
    what it draws where is checked against the side's view by the tests of the picture);
    anything else decoded leniently."""
    data = path.read_bytes()
    if path.suffix == ".svg":
        from xml.etree import ElementTree

        return "\n".join(ElementTree.fromstring(data).itertext())
    if path.suffix == ".vsav":
        parts = []
        with zipfile.ZipFile(path) as z:
            for n in z.namelist():
                raw = z.read(n)
                parts.append(
                    deobfuscate(raw).decode("utf-8", "replace")
                    if n == "savedGame"
                    else raw.decode("utf-8", "replace")
                )
        return "\n".join(parts)
    return data.decode("utf-8", "replace")


def age_decrypt(path: Path, key: Path) -> bytes | None:
    """What Debian's ``age -d -i KEY`` makes of ``path``: the plaintext, or ``None`` when the
    key opens nothing in it (the interop a player relies on: docs/pbem.md)."""
    import shutil
    import subprocess

    age = shutil.which("age")
    assert age, "Debian's age is needed to open a part as a player does: apt-get install age"
    r = subprocess.run(
        [age, "-d", "-i", str(key), str(path)], capture_output=True, check=False, timeout=60
    )
    return r.stdout if r.returncode == 0 else None


def unpack_into(tar_bytes: bytes, out: Path) -> list[Path]:
    """A part's files, written into ``out`` (what ``| tar x`` does)."""
    from referee.pbem.parts import unpack

    out.mkdir(parents=True, exist_ok=True)
    files = []
    for name, data in sorted(unpack(tar_bytes, str(out)).items()):
        (out / name).write_bytes(data)
        files.append(out / name)
    return files


def received_by(
    folder: Path, side: str, sides: tuple[str, ...], key: Path | None = None
) -> list[Path]:
    """The files of one turn folder that ``side`` can read: the public ones and what
    ``side``'s key decrypts of the encrypted parts with Debian's ``age`` (by default the
    Table's key, ``ROOT/keys/SIDE.key``), unpacked beside the game (a part it cannot open is
    random bytes to it).
    In an archive made before parts, the files of the other sides are left out."""
    key = key or folder.parents[2] / "keys" / f"{side.lower()}.key"
    out = []
    for p in sorted(folder.iterdir()):
        own = any(
            p.name.startswith(f"{k}-{s}.")
            for k in ("view", "position", "viewer")
            for s in sides
            if s != side
        )
        if own:
            continue
        if p.suffix != ".age":
            out.append(p)
            continue
        plain = age_decrypt(p, key)  # a part it cannot open is random bytes to it
        if plain is not None:
            where = folder.parents[2] / "opened" / side / folder.name / p.stem
            out += unpack_into(plain, where)
    return out


def opened_copy(game: Path, name: str, keys: list[Path]) -> Path:
    """A copy of ``game`` with every side's part the ``keys`` open unpacked in its turn
    folder (what the tests of files inside a side's part read; not a copy to verify)."""
    out = game.parent / name
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(game, out, ignore=shutil.ignore_patterns(".lock"))
    for part in sorted(out.glob("turns/*/*.age")):
        for key in keys:
            plain = age_decrypt(part, key)
            if plain is not None:
                unpack_into(
                    plain, part.parent if part.name != "referee.age" else part.parent / "referee"
                )
                break
    return out


def verify_as_player(t: Table, side: str) -> dict[str, Any]:
    """The published archive, whole (as Git publishes it: no ``secret/``), verified by one
    player with his own key: exit 0, his part of every step opened and checked, every other
    part listed as not opened; then the same with the other sides' parts deleted: still exit
    0, each deleted part listed as missing. Returns the first run's JSON."""
    copy = t.player_copy(f"published-{side}")
    steps = len(list((copy / "turns").iterdir()))
    mine = ("--key", t.key(side.lower()))
    code, out = cli("verify", copy, "--module", t.module, "--json", *mine)
    assert code == 0, out
    got = json.loads(out)
    assert got["parts"]["opened"] == {side: steps}, got["parts"]
    assert got["parts"]["unopened"].get("referee") == steps and not got["parts"]["missing"]
    others = [s for s in t.sides if s != side]
    for s in others:
        assert got["parts"]["unopened"].get(s) == steps, got["parts"]
    deleted = sorted(copy.glob("turns/*/side-*.age"))
    deleted = [p for p in deleted if p.name != f"side-{side}.age"]
    for p in deleted:
        p.unlink()
    code, out = cli("verify", copy, "--module", t.module, "--json", *mine)
    assert code == 0, out
    cut = json.loads(out)
    assert cut["parts"]["opened"] == {side: steps}
    assert sorted(cut["parts"]["missing"]) == sorted(
        p.relative_to(copy).as_posix() for p in deleted
    )
    code, text = cli("verify", copy, "--module", t.module, *mine)
    assert code == 0 and f"{side}'s part opened with {side}'s key" in text, text
    assert not deleted or "missing from this copy, not checked" in text
    return got


def plain_tree(game: Path) -> dict[str, bytes]:
    """Every file of a game folder, for comparing two runs: an encrypted part replaced by
    its plaintext (opened with the step's parts key, from the hidden seed the referee's
    working copy or the reveal holds), a manifest's hashes of parts blanked and its
    signature left out. age draws a fresh file key for every encryption (by design), so the
    ciphertexts of two honest runs differ; everything else, and every plaintext, must not."""
    from referee.pbem import parts as pt

    out: dict[str, bytes] = {}
    for p in sorted(game.rglob("*")):
        if not p.is_file() or p.name == ".lock":
            continue
        rel = p.relative_to(game).as_posix()
        if p.suffix == ".age":
            seed = None
            for root in ("secret", "revealed"):
                s = game / root / "turns" / p.parent.name / "secrets.json"
                if s.is_file():
                    seed = bytes.fromhex(json.loads(s.read_text())["hidden_seed"])
            assert seed is not None, f"{rel}: no hidden seed to open it"
            key = pt.x25519_identity(pt.parts_identity(seed))
            plain = pt.decrypt(p.read_bytes(), [key])
            assert plain is not None, rel
            out[rel] = plain
        elif p.name == "manifest.json.sig" and (p.parent / "referee.age").is_file():
            continue
        elif p.name == "manifest.json" and (p.parent / "referee.age").is_file():
            m = json.loads(p.read_bytes())
            m["files"] = {n: ("(age)" if n.endswith(".age") else h) for n, h in m["files"].items()}
            out[rel] = json.dumps(m, sort_keys=True).encode()
        else:
            out[rel] = p.read_bytes()
    return out


def first_steps_differ(full: Path, first: Path) -> list[str]:
    """The files in which ``first``, a game replayed from the same inputs over the first steps
    of ``full`` only, differs from ``full``: its set-up (``game.toml``) and each of its step
    folders, public and the referee's own (``secret/turns``), by :func:`plain_tree`. The same
    bytes out for the same inputs, shown on a prefix of the game so a test need not play the
    whole game a second time; the step folders must be the first ones of ``full``."""
    steps = sorted(p.name for p in (first / "turns").iterdir())
    assert steps, f"{first}: no step was played"
    assert steps == sorted(p.name for p in (full / "turns").iterdir())[: len(steps)], steps
    mine = plain_tree(first)
    theirs = plain_tree(full)
    inside = tuple(f"{root}turns/{s}/" for s in steps for root in ("", "secret/"))
    kept = {rel for rel in mine if rel == "game.toml" or rel.startswith(inside)}
    wanted = {rel for rel in theirs if rel == "game.toml" or rel.startswith(inside)}
    return sorted(rel for rel in kept | wanted if mine.get(rel) != theirs.get(rel))


def unpacked_part(part: Path, key: Path) -> dict[str, bytes]:
    """The files of one encrypted part, opened with Debian's ``age`` and ``key``."""
    from referee.pbem.parts import unpack

    plain = age_decrypt(part, key)
    assert plain is not None, f"{part} does not open with {key}"
    return unpack(plain, str(part))


def unsealed(game: Path, out: Path) -> Path:
    """A copy of the referee's ``game`` with every side's part unpacked in its turn folder,
    each opened with the step's parts key (from the hidden seeds in ``secret/``): the
    files each player reads, for tests that look into them (real VASSAL, the viewer)."""
    from referee.pbem import parts as pt

    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(game, out, ignore=shutil.ignore_patterns(".lock"))
    for part in sorted(out.glob("turns/*/side-*.age")):
        s = out / "secret" / "turns" / part.parent.name / "secrets.json"
        seed = bytes.fromhex(json.loads(s.read_text())["hidden_seed"])
        plain = pt.decrypt(part.read_bytes(), [pt.x25519_identity(pt.parts_identity(seed))])
        assert plain is not None, part
        unpack_into(plain, part.parent)
    return out
