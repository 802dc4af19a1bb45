"""Ed25519 keys for the referee and the players: generate, store, load, sign, check.

Keys come from the ``cryptography`` library; nothing here is hand-rolled. The formats:

* private key ``NAME.key``: PEM, PKCS#8, unencrypted (``-----BEGIN PRIVATE KEY-----``), so
  ``openssl pkey -in NAME.key`` reads it; created with mode 0600;
* public key ``NAME.pub``: one line ``referee-ed25519 <base64 of the 32 raw bytes> NAME``;
* fingerprint: SHA-256 of the 32 raw public-key bytes, in hex. People are shown the first 16
  hex digits (:func:`short_fingerprint`); files record all 64.

Every signature is made over a *domain-separated* message (``context`` + bytes), so an orders
signature can never be passed off as a report signature or the other way round.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from referee.errors import UserError
from referee.safeio import write_bytes_atomic

PUBLIC_PREFIX = "referee-ed25519"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
MAX_KEY_FILE = 16 * 1024

# Signing contexts: the first bytes of every signed message.
CONTEXT_ORDERS = b"referee-orders-v1\n"
CONTEXT_REPORT = b"referee-report-v1\n"


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A public key with the name it was made for."""

    raw: bytes
    name: str = ""

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.raw)

    @property
    def short(self) -> str:
        return short_fingerprint(self.fingerprint)

    def line(self) -> str:
        """The one-line ``.pub`` spelling."""
        b64 = base64.b64encode(self.raw).decode("ascii")
        return f"{PUBLIC_PREFIX} {b64} {self.name}".rstrip()

    def verify(self, context: bytes, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, context + message)
        except (InvalidSignature, ValueError):
            return False
        return True


@dataclass(frozen=True, slots=True)
class PrivateKey:
    """A private key; never printed, never written into a game archive."""

    key: Ed25519PrivateKey
    name: str = ""

    def __repr__(self) -> str:  # keep the secret out of tracebacks and logs
        return f"PrivateKey(name={self.name!r}, fingerprint={self.public.short})"

    @property
    def public(self) -> PublicKey:
        raw = self.key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return PublicKey(raw, self.name)

    def sign(self, context: bytes, message: bytes) -> bytes:
        return self.key.sign(context + message)

    def pem(self) -> bytes:
        return self.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )


def fingerprint(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def short_fingerprint(fp: str) -> str:
    """What people compare by eye: the first 16 hex digits in groups of four."""
    head = fp[:16]
    return ":".join(head[i : i + 4] for i in range(0, 16, 4))


def generate(name: str) -> PrivateKey:
    check_name(name)
    return PrivateKey(Ed25519PrivateKey.generate(), name)


def check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise UserError(
            f"key name {name!r} is not allowed",
            hint="use letters, digits, '-', '_' or '.', starting with a letter or digit",
        )


def parse_public_line(text: str, *, source: str = "public key") -> PublicKey:
    """Read ``referee-ed25519 <base64> NAME`` (the name is optional)."""
    parts = text.strip().split()
    if len(parts) not in (2, 3) or parts[0] != PUBLIC_PREFIX:
        raise UserError(
            f"{source}: not a referee public key",
            hint=f"expected one line '{PUBLIC_PREFIX} <base64> NAME', as `referee keygen` writes",
        )
    try:
        raw = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise UserError(f"{source}: the key is not valid base64") from None
    if len(raw) != 32:
        raise UserError(f"{source}: an Ed25519 public key has 32 bytes, this one {len(raw)}")
    return PublicKey(raw, parts[2] if len(parts) == 3 else "")


def _read_small(path: Path, what: str) -> bytes:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise UserError(f"{path}: {what} not found") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read {what}: {exc.strerror}") from None
    if not path.is_file():
        raise UserError(f"{path}: {what} is not a regular file")
    if st.st_size > MAX_KEY_FILE:
        raise UserError(f"{path}: too large for a {what} ({st.st_size:,} bytes)")
    return path.read_bytes()


def load_public(path: Path) -> PublicKey:
    data = _read_small(path, "public key")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise UserError(f"{path}: a public key file is one line of ASCII text") from None
    if "PRIVATE KEY" in text:
        raise UserError(
            f"{path}: this is a PRIVATE key",
            hint="give the .pub file; never share the .key file",
        )
    return parse_public_line(text, source=str(path))


def load_private(path: Path) -> PrivateKey:
    data = _read_small(path, "private key")
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise UserError(
            f"{path}: not an unencrypted PEM private key",
            hint="use the .key file that `referee keygen` wrote",
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise UserError(f"{path}: not an Ed25519 key", hint="make one with `referee keygen`")
    return PrivateKey(key, path.stem)


def write_key_pair(key: PrivateKey, folder: Path, *, force: bool = False) -> tuple[Path, Path]:
    """Write ``NAME.key`` (mode 0600, created 0600 from the start) and ``NAME.pub`` (shared:
    its mode follows the umask).

    Both are written atomically: a temporary file in ``folder``, fsync, rename. Refuses to
    overwrite an existing key unless ``force``.
    """
    folder.mkdir(parents=True, exist_ok=True)
    key_path = folder / f"{key.name}.key"
    pub_path = folder / f"{key.name}.pub"
    if not force:
        for p in (key_path, pub_path):
            if p.exists():
                raise UserError(
                    f"{p} exists; refusing to overwrite a key",
                    hint="use another name, or --force if you really mean to replace it",
                )
    write_bytes_atomic(key_path, key.pem(), private=True)
    write_bytes_atomic(pub_path, (key.public.line() + "\n").encode("ascii"))
    return key_path, pub_path
