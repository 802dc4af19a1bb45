"""The game archive on disk: plain, git-friendly files.

::

    GAME_DIR/
      game.toml                  game id, module id/version/hash, ruleset, scenario, options,
                                 public keys of the referee and the players, dice commitment
      state.json                 the current position (canonical JSON), a copy of the latest
                                 turn's state.json, replaced last in every adjudication
      turns/000-setup-request/   one folder per adjudication, numbered from 000
        report.json              the record (signed: report.json.sig)
        report.md, report.html   the same report for people (HTML with position.svg)
        view-<SIDE>.json/.md     what each side may see (fog of war)
        orders.txt               the signed orders that were adjudicated (not in 000)
        state.json               the position after this step
        manifest.json            SHA-256 of every file of the folder (signed: manifest.json.sig)
      .gitignore                 ignores .lock and unfinished turns/.tmp-* folders
                                 (and secret/, in a game with commitments)
      secret/                    a game with commitments only: the referee-only part, never
                                 published (full positions, full records, sealed orders,
                                 hidden seeds); in a game hiding information the current
                                 position is secret/state.json and turn folders hold none
      revealed/                  what `referee reveal` released: a copy of secret/turns/

Reading is defensive: an archive may come from anyone (``referee verify``), so files are size
limited, symlinks are refused and folder names must match the numbering scheme.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import UserError
from referee.pbem.keys import PublicKey, parse_public_line
from referee.pbem.problems import Refusal
from referee.shapes import (
    HEX64,
    ShapeError,
    boolean,
    check,
    integer,
    list_of,
    map_of,
    obj,
    string,
)

GAME_FORMAT = "referee-game/1"
TURN_RE = re.compile(r"^([0-9]{3,6})-([A-Za-z0-9][A-Za-z0-9_.\-]*)$")
TMP_PREFIX = ".tmp-"
MAX_ARCHIVE_FILE = 32 * 1024 * 1024
GITIGNORE = ".lock\nturns/.tmp-*/\n"
# Games with commitments keep a referee-only part that must never be published.
SECRET_DIR = "secret"
REVEALED_DIR = "revealed"
GITIGNORE_SECRET = GITIGNORE + f"{SECRET_DIR}/\n"
# game.toml [secrets] parts: the steps are split into encrypted parts (referee/pbem/parts.py)
PARTS_FORMAT = "referee-parts/1"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def slug(text: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_.\-]+", "-", text).strip("-.")
    return s or "x"


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything ``game.toml`` says; it never changes after ``referee new``."""

    game_id: str
    ruleset: str
    scenario: str
    options: tuple[str, ...]
    module_id: str
    module_name: str
    module_version: str
    module_sha256: str
    referee: PublicKey
    players: dict[str, PublicKey]  # side -> key
    dice_algorithm: str
    dice_head: str
    dice_length: int
    picture_dpi: int
    secrets: Secrets | None = None
    # every orders file mixes a player nonce into the dice (referee/pbem/nonces.py); games
    # made before player nonces have no such line in game.toml
    player_nonces: bool = False

    @property
    def hides_information(self) -> bool:
        return self.secrets is not None and self.secrets.hides_information

    def side_of(self, fingerprint: str) -> str | None:
        for side, key in sorted(self.players.items()):
            if key.fingerprint == fingerprint:
                return side
        return None

    def to_toml(self) -> str:
        q = _toml_str
        lines = [
            "# A referee play-by-email game. Written once by `referee new`; report 000 records",
            "# the SHA-256 of this file, so do not edit it.",
            "[game]",
            f"format = {q(GAME_FORMAT)}",
            f"id = {q(self.game_id)}",
            f"ruleset = {q(self.ruleset)}",
            f"scenario = {q(self.scenario)}",
            f"options = [{', '.join(q(o) for o in self.options)}]",
            "",
            "[module]",
            f"id = {q(self.module_id)}",
            f"name = {q(self.module_name)}",
            f"version = {q(self.module_version)}",
            f"sha256 = {q(self.module_sha256)}",
            "",
            "[referee]",
            f"key = {q(self.referee.line())}",
            f"fingerprint = {q(self.referee.fingerprint)}",
            "",
        ]
        for side in sorted(self.players):
            k = self.players[side]
            lines += [
                f"[players.{q(side)}]",
                f"key = {q(k.line())}",
                f"fingerprint = {q(k.fingerprint)}",
                "",
            ]
        lines += [
            "[dice]",
            f"algorithm = {q(self.dice_algorithm)}",
            f"head = {q(self.dice_head)}",
            f"length = {self.dice_length}",
            *(["player_nonces = true"] if self.player_nonces else []),
            "",
            "[reports]",
            f"picture_dpi = {self.picture_dpi}",
        ]
        if self.secrets is not None:
            sec = self.secrets
            lines += [
                "",
                "[secrets]",
                f"hides_information = {'true' if sec.hides_information else 'false'}",
                f"hidden_algorithm = {q(sec.hidden_algorithm)}",
                f"hidden_head = {q(sec.hidden_head)}",
                f"referee_sides = [{', '.join(q(s) for s in sec.referee_sides)}]",
            ]
            if sec.parts:
                lines.append(f"parts = {q(sec.parts)}")
        return "\n".join(lines) + "\n"

    @staticmethod
    def parse(text: str, file: str = "game.toml") -> GameConfig:
        try:
            d = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise Refusal("archive", f"{toml_where(file, exc, text)}: malformed TOML") from None
        try:
            check(d, GAME_TOML, "game.toml")
        except ShapeError as exc:
            raise Refusal("archive", f"{file}: {exc}") from None
        try:
            g, m, r, dice = d["game"], d["module"], d["referee"], d["dice"]
            if g.get("format") != GAME_FORMAT:
                raise Refusal("archive", f"{file}: not a {GAME_FORMAT} game file")
            referee = parse_public_line(r["key"], source=f"{file} [referee]")
            players = {
                str(side): parse_public_line(p["key"], source=f"{file} [players.{side}]")
                for side, p in d.get("players", {}).items()
            }
            return GameConfig(
                game_id=str(g["id"]),
                ruleset=str(g["ruleset"]),
                scenario=str(g["scenario"]),
                options=tuple(str(o) for o in g.get("options", [])),
                module_id=str(m["id"]),
                module_name=str(m.get("name", m["id"])),
                module_version=str(m["version"]),
                module_sha256=str(m["sha256"]),
                referee=referee,
                players=players,
                dice_algorithm=str(dice["algorithm"]),
                dice_head=str(dice["head"]),
                dice_length=int(dice["length"]),
                picture_dpi=int(d.get("reports", {}).get("picture_dpi", 0)),
                secrets=_secrets(d.get("secrets")),
                player_nonces=bool(dice.get("player_nonces", False)),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Refusal("archive", f"{file}: missing or malformed entry ({exc})") from None
        except UserError as exc:
            raise Refusal("archive", str(exc)) from None


@dataclass(frozen=True, slots=True)
class Secrets:
    """The ``[secrets]`` table of a game with commitments (``docs/pbem.md``): whether the
    ruleset hides information, the head of the hidden-dice chain, the referee-run sides."""

    hides_information: bool
    hidden_algorithm: str
    hidden_head: str
    referee_sides: tuple[str, ...] = ()
    # the format of the game's parts (referee/pbem/parts.py): each step is then split into
    # a public part, one encrypted part per side and an encrypted referee-only part; games
    # made before parts have none (their layout is the old one)
    parts: str = ""


# The declared shape of game.toml (GameConfig.to_toml writes it); paths read game.toml.dice...
GAME_TOML = obj(
    {
        "game": obj(
            {"format": string, "id": string, "ruleset": string, "scenario": string},
            {"options": list_of(string)},
        ),
        "module": obj({"id": string, "version": string, "sha256": string}, {"name": string}),
        "referee": obj({"key": string}),
        "dice": obj(
            {"algorithm": string, "head": HEX64, "length": integer}, {"player_nonces": boolean}
        ),
    },
    {
        "players": map_of(obj({"key": string})),
        "reports": obj({}, {"picture_dpi": integer}),
        "secrets": obj(
            {"hides_information": boolean, "hidden_algorithm": string, "hidden_head": HEX64},
            {"referee_sides": list_of(string), "parts": string},
        ),
    },
)


def toml_where(file: str, exc: Exception, text: str | None = None) -> str:
    """``file:line:col: what`` from a :class:`tomllib.TOMLDecodeError` (whose message ends
    in ``(at line L, column C)``, or ``(at end of document)`` for a file cut short: then,
    given the ``text``, its last line)."""
    from referee.source.tomlpos import toml_error_position

    msg = str(exc)
    what = re.sub(r"\s*\(at (line [0-9]+, column [0-9]+|end of document)\)$", "", msg)
    line, col = toml_error_position(msg, text)
    if line is None:
        return f"{file}: {what}"
    return f"{file}:{line}:{col}: {what}" if col is not None else f"{file}:{line}: {what}"


def _secrets(d: Any) -> Secrets | None:
    if d is None:
        return None
    if not isinstance(d, dict) or not isinstance(d.get("hides_information"), bool):
        raise TypeError("[secrets] needs hides_information = true/false")
    head = str(d["hidden_head"])
    if not re.fullmatch(r"[0-9a-f]{64}", head):
        raise ValueError("[secrets] hidden_head must be 64 hex digits")
    sides = d.get("referee_sides", [])
    if not isinstance(sides, list):
        raise TypeError("[secrets] referee_sides must be a list")
    parts = str(d.get("parts", ""))
    if parts not in ("", PARTS_FORMAT):
        raise ValueError(f"[secrets] parts must be {PARTS_FORMAT!r} (a later referee's game?)")
    return Secrets(
        d["hides_information"],
        str(d["hidden_algorithm"]),
        head,
        tuple(str(s) for s in sides),
        parts,
    )


def _toml_str(s: str) -> str:
    """A TOML basic string (JSON's escapes are valid TOML escapes)."""
    return json.dumps(s, ensure_ascii=True)


@dataclass(frozen=True, slots=True)
class TurnDir:
    sequence: int
    name: str
    path: Path


class Archive:
    """Paths into one game folder, and safe reads from it."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def game_toml(self) -> Path:
        return self.root / "game.toml"

    @property
    def state_json(self) -> Path:
        return self.root / "state.json"

    @property
    def turns(self) -> Path:
        return self.root / "turns"

    @property
    def lock_path(self) -> Path:
        return self.root / ".lock"

    @property
    def secret(self) -> Path:
        """The referee-only part: never published (``.gitignore``d), released by reveal."""
        return self.root / SECRET_DIR

    @property
    def revealed(self) -> Path:
        """What ``referee reveal`` released: a copy of the referee-only turn folders."""
        return self.root / REVEALED_DIR

    def state_path(self, turn: TurnDir | None, hides_information: bool) -> Path:
        """Where the full position after ``turn`` (``None``: the current one) is kept."""
        base = self.secret if hides_information else self.root
        if turn is None:
            return base / "state.json"
        return (self.secret / "turns" / turn.name if hides_information else turn.path) / (
            "state.json"
        )

    def exists(self) -> bool:
        return self.game_toml.is_file()

    def require(self) -> None:
        if not self.root.is_dir() or not self.exists():
            raise UserError(
                f"{self.root}: not a game archive (no game.toml)",
                hint="create one with `referee new`",
            )

    def read(self, path: Path, limit: int = MAX_ARCHIVE_FILE) -> bytes:
        """Bytes of a file inside the archive; refuses symlinks, huge files and escapes."""
        rel = self.rel(path)
        if path.is_symlink():
            raise Refusal("archive", f"{rel}: a symbolic link; an archive holds plain files")
        try:
            st = path.stat()
        except OSError:
            raise Refusal("archive", f"{rel}: missing") from None
        if not path.is_file():
            raise Refusal("archive", f"{rel}: not a regular file")
        if st.st_size > limit:
            raise Refusal("archive", f"{rel}: {st.st_size:,} bytes, over the {limit:,} limit")
        with open(path, "rb") as fh:
            return fh.read(limit + 1)

    def read_json(self, path: Path) -> Any:
        data = self.read(path)
        try:
            return json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise Refusal("archive", f"{self.rel(path)}: not valid JSON ({exc})") from None

    def rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def config(self) -> GameConfig:
        data = self.read(self.game_toml, 1024 * 1024)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refusal("archive", "game.toml: not UTF-8") from None
        return GameConfig.parse(text)

    def turn_dirs(self) -> list[TurnDir]:
        """The numbered turn folders, in order; refuses gaps, duplicates and strangers."""
        if not self.turns.is_dir():
            raise Refusal("archive", "turns/: missing")
        out: list[TurnDir] = []
        import os

        # one directory listing: its entries say whether each is a folder or a link without
        # a stat of each (a 900-step game has 900 folders, listed at every step)
        with os.scandir(self.turns) as listing:
            entries = sorted(listing, key=lambda e: e.name)
        for e in entries:
            if e.name.startswith(TMP_PREFIX):
                continue  # an adjudication that never finished; ignored, removed on next run
            m = TURN_RE.match(e.name)
            if not m or e.is_symlink() or not e.is_dir(follow_symlinks=False):
                raise Refusal(
                    "archive",
                    f"turns/{e.name}: not a turn folder",
                    hint="turns/ holds only folders named NNN-what, as the referee writes them",
                )
            out.append(TurnDir(int(m.group(1)), e.name, self.turns / e.name))
        out.sort(key=lambda t: t.sequence)
        for i, t in enumerate(out):
            if t.sequence != i:
                raise Refusal(
                    "archive",
                    f"turns/{t.name}: expected number {i:03d} here (a folder missing or doubled)",
                )
        if not out:
            raise Refusal("archive", "turns/: no report 000")
        return out

    def stale_tmp_dirs(self) -> list[Path]:
        if not self.turns.is_dir():
            return []
        return sorted(p for p in self.turns.iterdir() if p.name.startswith(TMP_PREFIX))

    def key_files(self) -> list[Path]:
        """Private-key-looking files inside the archive (which must never hold one).

        Every file is checked by name; contents are sniffed only outside the finished turn
        folders, whose files we wrote ourselves and whose manifest ``verify`` checks, and in
        those folders only the names are read (no ``stat`` of each file). That keeps each
        adjudication's cost independent of the length of the game (issue 24: a 500-step
        archive holds some 7,000 files)."""
        import os

        found: list[Path] = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            here = Path(dirpath)
            finished = here.parent == self.turns and not here.name.startswith(TMP_PREFIX)
            dirnames.sort()
            for name in sorted(filenames):
                if finished and name != "seeds.json" and not name.endswith(".key"):
                    continue  # the referee's own file, listed in the signed manifest
                p = here / name
                if not p.is_file():
                    continue
                if name == "seeds.json" or (not p.is_symlink() and p.suffix == ".key"):
                    found.append(p)
                    continue
                if not finished and p.stat().st_size < 64 * 1024:
                    try:
                        head = p.read_bytes()[: 64 * 1024]
                    except OSError:
                        continue
                    if b"PRIVATE KEY-----" in head or b'"format": "referee-seeds/1"' in head:
                        found.append(p)
        return sorted(found)


def module_sha256(root: Path) -> str:
    """The hash of a module source: every regular file under ``root`` except dot-files,
    Markdown and the ``examples/`` folder (none of which the rules read), by relative POSIX
    path in sorted order; text files with CRLF normalised to LF, so a Windows
    checkout hashes the same. Replays use it to be sure they run the same rules data."""
    h = hashlib.sha256()
    files = sorted(
        (p.relative_to(root).as_posix(), p)
        for p in root.rglob("*")
        if p.is_file()
        and not any(
            part.startswith(".") or part == "__pycache__" for part in p.relative_to(root).parts
        )
        and p.relative_to(root).parts[0] != "examples"
        and p.suffix.lower() != ".md"
    )
    for rel, p in files:
        data = p.read_bytes()
        if b"\x00" not in data:
            data = data.replace(b"\r\n", b"\n")
        h.update(rel.encode("utf-8") + b"\x00" + hashlib.sha256(data).digest())
    return h.hexdigest()


def module_info(cfg: GameConfig) -> dict[str, str]:
    """The module a game is played with, as every report records it."""
    return {
        "id": cfg.module_id,
        "name": cfg.module_name,
        "version": cfg.module_version,
        "sha256": cfg.module_sha256,
    }
