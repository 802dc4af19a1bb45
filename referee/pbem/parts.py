"""One part per recipient: what of a turn folder each player, and only the referee, can read.

A game with commitments (``[secrets]`` in ``game.toml``: a ruleset that hides information or
takes sealed orders) made since parts exist names, for every step (``docs/pbem.md``):

* the **public part**: ``report.json`` (the public record: dice, commitments), the reports
  and the picture drawn from the public view, the signed manifest; in the clear;
* **one part per player side** (a ruleset that hides information): every file made from that
  side's view (``view-SIDE.json``/``.md``, ``position-SIDE.vsav``, ``viewer-SIDE.html``: a
  name ending in ``-SIDE``), packed in ``side-SIDE.age``, encrypted with age to that side's
  OpenSSH key;
* the **referee-only part**: the full position, the full record, the signed orders and the
  step's hidden seed, in ``referee.age``, encrypted to the referee's key.

Every part is also encrypted to the step's **parts key**, an age X25519 key derived from the
step's hidden seed (``docs/dice.md``): only the referee knows it until ``referee reveal``
publishes the step's hidden seed (``revealed/turns/NNN-what/secrets.json``), and then anyone
can open every part of that step, and of no step after it (a ruleset may allow a reveal
before the end). The hidden seed is committed by the hidden-dice chain, so the referee did
not choose the key either.

The manifest lists each ``.age`` file with the SHA-256 of its bytes, and under ``parts`` the
names each part holds. age authenticates what it encrypts (the header is MACed with the file
key, the payload sealed with ChaCha20-Poly1305), so a signed hash of the ciphertext commits
the referee to exactly one content: whoever cannot open a part still checks it is the one
the referee signed, and whoever can open it (its side, the referee, everyone after the
reveal) checks the content.

A part is a POSIX tar file (``age -d -i nato.key side-NATO.age | tar x`` unpacks it), written
deterministically (sorted names, no times or owners). The ciphertext is not deterministic:
age draws a fresh file key each time, as it must (a deterministic encryption to a public key
would let anyone test a guess of the content). Everything signed besides the ``.age`` hashes
is the same bytes for the same inputs.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import re
import tarfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.pbem.archive import slug
from referee.pbem.keys import PrivateKey, PublicKey
from referee.pbem.problems import Refusal
from referee.pbem.sshsig import ed25519_blob

REFEREE = "referee"
PARTS_KEY_LABEL = b"referee-parts-key-v1"
REFEREE_FILES = frozenset({"orders.txt", "record.json", "secrets.json", "state.json"})
# a part unpacks to at most this much (a turn folder's file limit)
MAX_PART = 32 * 1024 * 1024
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,120}$")


def part_file(owner: str) -> str:
    """The file of a part in a turn folder: ``side-SIDE.age``, or ``referee.age``."""
    return "referee.age" if owner == REFEREE else f"side-{slug(owner)}.age"


def side_file(name: str, side: str) -> bool:
    """Is ``name`` a file made from ``side``'s view (``view-NATO.json``, ``viewer-NATO.html``,
    ``position-NATO.vsav``: a lower-case kind, a dash, the side)?"""
    return re.fullmatch(rf"[a-z]+-{re.escape(slug(side))}\.[a-z]+", name) is not None


# -- the parts key: an age X25519 identity derived from the referee's dice secret -----------
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values: Iterable[int]) -> int:
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def _bech32(hrp: str, data: bytes) -> str:
    """BIP 173 bech32, the encoding age spells its keys in (an encoding, not crypto)."""
    acc, bits, five = 0, 0, []
    for b in data:
        acc, bits = (acc << 8) | b, bits + 8
        while bits >= 5:
            bits -= 5
            five.append((acc >> bits) & 31)
    if bits:
        five.append((acc << (5 - bits)) & 31)
    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    mod = _polymod([*expanded, *five, 0, 0, 0, 0, 0, 0]) ^ 1
    check = [(mod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(_BECH32[d] for d in five + check)


def parts_identity(hidden_seed: bytes) -> str:
    """A step's parts key (``AGE-SECRET-KEY-1...``): HMAC-SHA256 of the step's hidden seed.
    Only the referee has it until ``reveal`` publishes that seed."""
    scalar = hmac.new(hidden_seed, PARTS_KEY_LABEL, hashlib.sha256).digest()
    return _bech32("age-secret-key-", scalar).upper()


def recipient_of_identity(identity: str) -> str:
    """The ``age1...`` recipient of an age X25519 identity; ``ValueError`` when malformed."""
    from pyrage import x25519

    try:
        return str(x25519.Identity.from_str(identity.strip()).to_public())
    except Exception as exc:  # pyrage raises its own IdentityError
        raise ValueError(f"not an age identity ({exc})") from None


def ssh_recipient(key: PublicKey) -> str:
    """The OpenSSH spelling of a player's or the referee's key, which age takes as recipient
    (an old ``referee-ed25519`` key is the same Ed25519 key)."""
    return "ssh-ed25519 " + base64.b64encode(ed25519_blob(key.raw)).decode("ascii")


def identity_of(key: PrivateKey) -> Any:
    """An age identity from a key ``referee`` loaded (passphrase already applied)."""
    from pyrage import ssh

    return ssh.Identity.from_buffer(key.openssh())


# -- packing ---------------------------------------------------------------------------------
def pack(files: Mapping[str, bytes]) -> bytes:
    """A deterministic POSIX tar of ``files`` (sorted, mode 0644, no owner, time 0)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name in sorted(files):
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(files[name]), 0o644, 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(files[name]))
    return out.getvalue()


def unpack(data: bytes, where: str) -> dict[str, bytes]:
    """The files of a part; refuses anything but plain files with plain names (an archive
    may come from anyone)."""
    out: dict[str, bytes] = {}
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
            for m in tar:
                if not m.isreg() or not _NAME.match(m.name) or m.name in out:
                    raise Refusal("archive", f"{where}: holds {m.name!r}, not a file of a part")
                fh = tar.extractfile(m)
                assert fh is not None
                out[m.name] = fh.read(MAX_PART + 1)
                if sum(len(b) for b in out.values()) > MAX_PART:
                    raise Refusal("archive", f"{where}: over {MAX_PART:,} bytes unpacked")
    except tarfile.TarError as exc:
        raise Refusal("archive", f"{where}: not a part ({exc})") from None
    return out


def decrypt(data: bytes, identities: Sequence[Any]) -> bytes | None:
    """The plaintext of an age file, or ``None`` when none of ``identities`` opens it."""
    import pyrage

    if not identities:
        return None
    try:
        return bytes(pyrage.decrypt(data, list(identities)))
    except pyrage.DecryptError:
        return None


# -- sealing a step --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Sealer:
    """Who each part of a step is encrypted to (from ``game.toml``)."""

    sides: Mapping[str, PublicKey]  # player sides that get a part of their own
    referee: PublicKey
    parts_recipient: str  # the step's parts key (parts_identity), as an age recipient

    def encrypt(self, files: Mapping[str, bytes], key: PublicKey) -> bytes:
        """``files`` packed and encrypted to ``key`` and the step's parts key."""
        import pyrage
        from pyrage import ssh, x25519

        to = [
            ssh.Recipient.from_str(ssh_recipient(key)),
            x25519.Recipient.from_str(self.parts_recipient),
        ]
        return bytes(pyrage.encrypt(pack(files), to))

    def seal(self, files: dict[str, bytes], referee_files: Mapping[str, bytes]) -> dict[str, Any]:
        """Move each side's files of ``files`` into its part, add the referee-only part made
        of ``referee_files``; returns the manifest's ``parts`` entry (owner -> names)."""
        listing: dict[str, list[str]] = {}
        for side, key in sorted(self.sides.items()):
            mine = {n: files.pop(n) for n in sorted(files) if side_file(n, side)}
            files[part_file(side)] = self.encrypt(mine, key)
            listing[side] = sorted(mine)
        files[part_file(REFEREE)] = self.encrypt(referee_files, self.referee)
        listing[REFEREE] = sorted(referee_files)
        return listing


def sealer_for(cfg: Any, hidden_seed: bytes) -> Sealer | None:
    """The :class:`Sealer` of a step (its ``hidden_seed``) of a game with parts
    (``[secrets] parts``), else ``None`` (a game without commitments, or one made before
    parts: the old layout)."""
    if not has_parts(cfg):
        return None
    sides = dict(cfg.players) if cfg.secrets.hides_information else {}
    return Sealer(sides, cfg.referee, recipient_of_identity(parts_identity(hidden_seed)))


def has_parts(cfg: Any) -> bool:
    return cfg.secrets is not None and bool(cfg.secrets.parts)


def part_owner(cfg: Any, file: str) -> str | None:
    """Whose part ``file`` is (a side, ``referee``), or ``None`` for no part file."""
    if file == part_file(REFEREE):
        return REFEREE
    for side in cfg.players:
        if file == part_file(side):
            return side
    return None


def x25519_identity(text: str) -> Any:
    """An age X25519 identity (the parts key) from its ``AGE-SECRET-KEY-1...`` spelling."""
    from pyrage import x25519

    return x25519.Identity.from_str(text.strip())


def open_part(archive: Any, t: Any, owner: str, identities: Sequence[Any]) -> dict[str, bytes]:
    """The files of ``owner``'s part of turn folder ``t`` (empty when it has none); refuses
    a part that ``identities`` cannot open or that holds files not of its owner."""
    path = t.path / part_file(owner)
    if not path.is_file():
        return {}
    rel = archive.rel(path)
    plain = decrypt(archive.read(path), identities)
    if plain is None:
        raise Refusal("archive", f"{rel}: does not open with the key given")
    files = unpack(plain, rel)
    for name in files:
        if not (name in REFEREE_FILES if owner == REFEREE else side_file(name, owner)):
            raise Refusal("archive", f"{rel}: holds {name}, which is not {owner}'s")
    return files


def side_files(archive: Any, t: Any, side: str, keys: Sequence[Any]) -> dict[str, bytes]:
    """:func:`open_part` for a side, with identities or parts-key spellings."""
    ids = [x25519_identity(k) if isinstance(k, str) else k for k in keys]
    return open_part(archive, t, side, ids)


def restore_referee_copy(archive: Any, cfg: Any, referee_key: PrivateKey) -> list[str]:
    """The referee's working copy (``secret/``: the full positions, records, kept orders and
    hidden seeds) made again from the referee-only parts with the referee's key, for each
    step it lacks, and the current position. So
    a fresh clone of a published game (a CI runner holding only the key and the seeds)
    adjudicates it. Each folder appears whole or not at all. Returns what it did."""
    from referee.pbem.transaction import write_referee_folder
    from referee.safeio import write_bytes_atomic

    if not has_parts(cfg):
        return []
    done: list[str] = []
    turns = archive.turn_dirs()
    ids = [identity_of(referee_key)]
    for t in turns:
        if (archive.secret / "turns" / t.name).is_dir():
            continue
        files = open_part(archive, t, REFEREE, ids)
        if not files:
            raise Refusal("archive", f"turns/{t.name}/{part_file(REFEREE)}: missing")
        write_referee_folder(archive, t.name, files)
        done.append(t.name)
    if done:
        latest = archive.secret / "turns" / turns[-1].name / "state.json"
        if cfg.hides_information and latest.is_file():
            write_bytes_atomic(archive.secret / "state.json", archive.read(latest))
    return (
        [f"restored the referee's working copy secret/ of {len(done)} step(s) from referee.age"]
        if done
        else []
    )
