"""The orders envelope: the header that ties an orders file to one point of one game, and the
signature that ties it to one player.

An orders file is plain text that a player can paste into an email. Its first lines are
headers (``game:``, ``turn:``, ``side:``, optional ``phase:``, ``previous-report:``,
``nonce:``, ``nonce-commit:``); the signature is an SSH signature (:mod:`referee.pbem.sshsig`,
namespace ``referee-orders-v1``) armoured at the end::

    -----BEGIN SSH SIGNATURE-----
    <base64, wrapped at 70 columns>
    -----END SSH SIGNATURE-----

or the same block alone in a detached ``ORDERS.sig`` file (what ``ssh-keygen -Y sign -n
referee-orders-v1 ORDERS`` writes). Files signed before the switch carry the project's own
block, still accepted::

    -----BEGIN REFEREE SIGNATURE-----
    Key: <64 hex digits: SHA-256 of the signer's public key>
    <base64 Ed25519 signature over context + body, wrapped at 64 columns>
    -----END REFEREE SIGNATURE-----

**What is signed** (see ``docs/pbem.md``): the *normalised body*, the text above the block
with line endings made LF, trailing spaces and tabs removed from every line, leading and
trailing blank lines removed, and exactly one final LF, encoded as UTF-8 (an old block signed
it prefixed with the context ``referee-orders-v1\\n``). Normalising keeps a signature valid
through mail clients that re-wrap line endings or strip trailing blanks. The *orders hash* is
SHA-256 of the normalised body (without the context); dice rolls are derived from it
(``docs/dice.md``).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from referee.numerals import read_whole
from referee.pbem import sshsig
from referee.pbem.keys import CONTEXT_ORDERS, PrivateKey, PublicKey, namespace
from referee.pbem.problems import Refusal
from referee.pbem.sshsig import SshSigError, SshSignature
from referee.safeio import UnsafeInput, decode_text

BEGIN = "-----BEGIN REFEREE SIGNATURE-----"
END = "-----END REFEREE SIGNATURE-----"
MAX_ORDERS_BYTES = 1_000_000
HEADER_KEYS = ("game", "turn", "side", "phase", "previous-report", "nonce", "nonce-commit")
HEADER_RE = re.compile(
    r"^(game|turn|side|phase|previous-report|nonce|nonce-commit)\s*:\s*(.*)$", re.IGNORECASE
)
HASH_RE = re.compile(r"^[0-9a-f]{64}$")
# Characters that can make text display differently from what it is ("Trojan Source"),
# or that drive a terminal: refused anywhere in an orders file.
_FORBIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]"
)


@dataclass(frozen=True, slots=True)
class SignatureBlock:
    """The project's old signature block (archives made before SSH signatures)."""

    fingerprint: str
    signature: bytes

    def armour(self) -> str:
        b64 = base64.b64encode(self.signature).decode("ascii")
        lines = [BEGIN, f"Key: {self.fingerprint}"]
        lines += [b64[i : i + 64] for i in range(0, len(b64), 64)]
        lines.append(END)
        return "\n".join(lines) + "\n"


Signature = SignatureBlock | SshSignature


def signature_ok(block: Signature, key: PublicKey, context: bytes, message: bytes) -> bool:
    """Is ``block`` a valid signature of ``message`` by ``key`` for ``context``'s kind of file?
    An SSH signature must carry the context's namespace; an old block signed
    ``context + message``."""
    if block.fingerprint != key.fingerprint:
        return False
    if isinstance(block, SshSignature):
        return block.verifies(key.raw, namespace(context), message)
    return key.verify(context, message, block.signature)


@dataclass(frozen=True, slots=True)
class Header:
    """The envelope headers, with the 1-based line each came from."""

    game: str | None
    turn: int | None
    side: str | None
    phase: str | None
    previous_report: str | None
    lines: dict[str, int]
    nonce: str | None = None
    nonce_commit: str | None = None
    turn_written: str | None = None  # the 'turn:' value as written (``turn`` None if malformed)


@dataclass(frozen=True, slots=True)
class Envelope:
    """An opened orders file: the normalised body, its hash and its signature block."""

    file: str
    body: str
    block: Signature | None
    header: Header
    signed_text: str = ""  # what was signed as given: the text above the block, or the file
    name: str = ""  # the name kept in the report (the base name); ``file`` is as the user typed it

    @property
    def message(self) -> bytes:
        return self.body.encode("utf-8")

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.message).hexdigest()

    def signed_by(self, key: PublicKey) -> bool:
        return self.block is not None and signature_ok(
            self.block, key, CONTEXT_ORDERS, self.message
        )

    def signature_hint(self, key: PublicKey) -> str:
        """What to do about a signature that does not verify (a hint for the refusal)."""
        block = self.block
        if isinstance(block, SshSignature):
            want = namespace(CONTEXT_ORDERS)
            if block.namespace != want:
                return (
                    f"it was made for namespace {block.namespace!r}: sign with "
                    f"`ssh-keygen -Y sign -n {want}` or `referee sign`"
                )
            as_given = self.signed_text.encode("utf-8")  # CRLF was made LF on reading
            if self.signed_text and any(
                block.verifies(key.raw, want, m)
                for m in (as_given, as_given.replace(b"\n", b"\r\n"))
            ):
                return (
                    "the signature covers the file as it is, but what is signed and kept is "
                    "the normalised text (LF line ends, no trailing blanks, no blank lines at "
                    "the start or end, one final newline): normalise it and sign again, or use "
                    "`referee sign`"
                )
        return "sign the final text again with `referee sign`"

    def stored_text(self) -> str:
        """The canonical file kept in the archive: normalised body plus the armoured block."""
        assert self.block is not None
        return self.body + self.block.armour()


def normalise_body(text: str) -> str:
    lines = [ln.rstrip(" \t") for ln in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def decode_orders(data: bytes, file: str) -> str:
    """Bytes of an orders (or signature) file to text, refusing what no person writes."""
    if len(data) > MAX_ORDERS_BYTES:
        raise Refusal(
            "too-large",
            f"{file}: {len(data):,} bytes; an orders file may have at most {MAX_ORDERS_BYTES:,}",
            hint="is this the right file?",
        )
    try:
        text = decode_text(data, file)
    except UnsafeInput as exc:
        raise Refusal("bad-input", str(exc)) from None
    m = _FORBIDDEN.search(text)
    if m:
        before = text[: m.start()]
        line = before.count("\n") + 1
        col = m.start() - (before.rfind("\n") + 1) + 1
        raise Refusal(
            "bad-input",
            f"{file}:{line}:{col}: control or bidirectional character "
            f"U+{ord(m.group()):04X} is not allowed in orders",
            hint="type orders as plain text",
        )
    return text


def read_orders_file(path: Path) -> str:
    try:
        st = path.stat()
    except OSError:
        raise Refusal("bad-input", f"{path}: file not found or unreadable") from None
    if not path.is_file():
        raise Refusal("bad-input", f"{path}: not a regular file")
    if st.st_size > MAX_ORDERS_BYTES:
        raise Refusal(
            "too-large",
            f"{path}: {st.st_size:,} bytes; an orders file may have at most {MAX_ORDERS_BYTES:,}",
            hint="is this the right file?",
        )
    with open(path, "rb") as fh:
        data = fh.read(MAX_ORDERS_BYTES + 1)
    return decode_orders(data, str(path))


def split_block(text: str, file: str) -> tuple[str, Signature | None]:
    """``(text above the block, block)``: an SSH signature or an old referee block. Text after
    the END line (a mail footer) is not signed and is dropped. More than one block is
    refused."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts = [i for i, ln in enumerate(lines) if ln.strip() in (BEGIN, sshsig.BEGIN)]
    if not starts:
        return text, None
    if len(starts) > 1:
        raise Refusal(
            "bad-signature",
            f"{file}:{starts[1] + 1}: more than one signature block",
            hint="sign the file once; remove old signature blocks before signing again",
        )
    start = starts[0]
    ssh = lines[start].strip() == sshsig.BEGIN
    end_line = sshsig.END if ssh else END
    ends = [i for i, ln in enumerate(lines) if i > start and ln.strip() == end_line]
    if not ends:
        raise Refusal("bad-signature", f"{file}:{start + 1}: signature block has no END line")
    inner = lines[start + 1 : ends[0]]
    if ssh:
        try:
            block: Signature = sshsig.decode_armour_lines(inner)
        except SshSigError as exc:
            raise Refusal("bad-signature", f"{file}:{start + 2}: {exc}") from None
    else:
        block = parse_block(inner, file, start + 2)
    return "\n".join(lines[:start]) + "\n", block


def parse_block(inner: list[str], file: str, first_line: int) -> SignatureBlock:
    fp: str | None = None
    b64 = ""
    for n, raw in enumerate(inner, start=first_line):
        ln = raw.strip()
        if not ln:
            continue
        if ln.lower().startswith("key:"):
            fp = ln[4:].strip().lower()
            if not HASH_RE.match(fp):
                raise Refusal(
                    "bad-signature",
                    f"{file}:{n}: 'Key:' must be the 64-hex-digit key fingerprint",
                )
        else:
            b64 += ln
    if fp is None:
        raise Refusal("bad-signature", f"{file}:{first_line}: signature block has no 'Key:' line")
    try:
        sig = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        raise Refusal("bad-signature", f"{file}: signature is not valid base64") from None
    if len(sig) != 64:
        raise Refusal("bad-signature", f"{file}: an Ed25519 signature has 64 bytes, not {len(sig)}")
    return SignatureBlock(fp, sig)


def read_header(body: str) -> Header:
    """The envelope headers at the top of the body (blank and ``#`` lines may come between)."""
    found: dict[str, str] = {}
    lines: dict[str, int] = {}
    for n, ln in enumerate(body.split("\n"), start=1):
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        m = HEADER_RE.match(s)
        if not m:
            break
        key = m.group(1).lower()
        if key not in found:
            found[key] = m.group(2).strip()
            lines[key] = n
    turn = read_whole(found.get("turn"))  # None when absent or not ASCII digits
    return Header(
        game=found.get("game"),
        turn=turn,
        side=found.get("side"),
        phase=found.get("phase") or None,
        previous_report=(found.get("previous-report") or "").lower() or None,
        lines=lines,
        nonce=(found.get("nonce") or "").lower() or None,
        nonce_commit=(found.get("nonce-commit") or "").lower() or None,
        turn_written=found.get("turn"),
    )


def set_header(body: str, key: str, value: str) -> str:
    """Set one header line (replace it, or add it after the last header line)."""
    assert key in HEADER_KEYS
    out = body.split("\n")
    last = -1
    for i, ln in enumerate(out):
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        m = HEADER_RE.match(s)
        if not m:
            break
        if m.group(1).lower() == key:
            out[i] = f"{key}: {value}"
            return "\n".join(out)
        last = i
    out.insert(last + 1, f"{key}: {value}")
    return "\n".join(out)


def open_envelope(
    text: str, file: str, detached: str | None = None, *, name: str | None = None
) -> Envelope:
    """Split an orders text into body and signature (embedded, or from ``detached``).

    ``file`` names the orders in messages, as the user typed the path (so a CI annotation
    lands on the right file); ``name`` (default ``file``) is what the report records: a
    base name only, so that no local folder of the referee's machine enters the archive."""
    above, block = split_block(text, file)
    if block is None and detached is not None:
        d_above, block = split_block(detached, file + ".sig")
        if block is None or d_above.strip():
            raise Refusal(
                "bad-signature",
                f"{file}.sig: a detached signature file holds only the signature block",
            )
    body = normalise_body(above)
    return Envelope(
        file=file,
        body=body,
        block=block,
        header=read_header(body),
        signed_text=above,
        name=name or file,
    )


def sign_body(body: str, key: PrivateKey) -> SshSignature:
    """An SSH signature (namespace ``referee-orders-v1``) of the normalised body."""
    return key.sign_ssh(CONTEXT_ORDERS, normalise_body(body).encode("utf-8"))


def sign_body_old(body: str, key: PrivateKey) -> SignatureBlock:
    """The old block (tests of archives made before SSH signatures)."""
    sig = key.sign(CONTEXT_ORDERS, normalise_body(body).encode("utf-8"))
    return SignatureBlock(key.public.fingerprint, sig)
