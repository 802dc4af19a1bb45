"""Ed25519 keys for the referee and the players: generate, store, load, sign, check.

Keys come from the ``cryptography`` library; nothing here is hand-rolled. The formats are
OpenSSH's, so players use the keys and tools they already have (``ssh-keygen``, ``ssh-agent``):

* private key ``NAME.key``: OpenSSH format (``-----BEGIN OPENSSH PRIVATE KEY-----``, what
  ``ssh-keygen -t ed25519`` writes), optionally protected by a passphrase (bcrypt KDF and
  AES-256, :class:`cryptography` ``BestAvailableEncryption``); created with mode 0600;
* public key ``NAME.pub``: one line ``ssh-ed25519 AAAA... NAME``;
* fingerprint: SHA-256 of the 32 raw public-key bytes, in hex. People are shown the first 16
  hex digits (:func:`short_fingerprint`); files record all 64. (``ssh-keygen -l`` shows
  another digest of the same key, :attr:`PublicKey.ssh_fingerprint`.)

Archives made before the switch hold keys of this project's own format: ``referee-ed25519
<base64 of the 32 raw bytes> NAME`` lines and unencrypted PKCS#8 PEM private keys. Both are
still read (the fingerprint of a key is the same in either spelling).

Signatures: see :mod:`referee.pbem.sshsig` (SSH signatures, one namespace per kind of file)
and :mod:`referee.pbem.envelope` (the old ``BEGIN REFEREE SIGNATURE`` blocks, made over
``context + message``, still verified).
"""

from __future__ import annotations

import base64
import binascii
import getpass
import hashlib
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from referee.errors import UserError
from referee.pbem.sshsig import KEY_TYPE, SshSigError, SshSignature, ed25519_blob, parse_key_blob
from referee.safeio import write_bytes_atomic

PUBLIC_PREFIX = KEY_TYPE
OLD_PUBLIC_PREFIX = "referee-ed25519"
PASSPHRASE_ENV = "REFEREE_PASSPHRASE"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
MAX_KEY_FILE = 16 * 1024

# Signing contexts, one per kind of file. An SSH signature's namespace is the context without
# its final LF; an old ``REFEREE SIGNATURE`` block signed ``context + message``.
CONTEXT_ORDERS = b"referee-orders-v1\n"
CONTEXT_REPORT = b"referee-report-v1\n"


def namespace(context: bytes) -> str:
    """The SSH signature namespace of a signing context (``referee-orders-v1``...)."""
    return context.decode("ascii").rstrip("\n")


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A public key with the name it was made for."""

    raw: bytes
    name: str = ""
    # read from an old ``referee-ed25519`` line: :meth:`line` spells it the same way again,
    # so an old game.toml and its report 000 still agree
    old_spelling: bool = field(default=False, compare=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.raw)

    @property
    def short(self) -> str:
        return short_fingerprint(self.fingerprint)

    @property
    def ssh_fingerprint(self) -> str:
        """What ``ssh-keygen -l`` shows: ``SHA256:`` and the unpadded base64 digest."""
        digest = hashlib.sha256(ed25519_blob(self.raw)).digest()
        return "SHA256:" + base64.b64encode(digest).decode("ascii").rstrip("=")

    def line(self) -> str:
        """The one-line ``.pub`` spelling (OpenSSH's; the old one for a key read from it)."""
        if self.old_spelling:
            old = base64.b64encode(self.raw).decode("ascii")
            return f"{OLD_PUBLIC_PREFIX} {old} {self.name}".rstrip()
        b64 = base64.b64encode(ed25519_blob(self.raw)).decode("ascii")
        return f"{PUBLIC_PREFIX} {b64} {self.name}".rstrip()

    def allowed_signers(self, principal: str, namespaces: tuple[str, ...] = ()) -> str:
        """A line of an ``ssh-keygen -Y verify`` allowed-signers file for this key."""
        opts = f'namespaces="{",".join(namespaces)}" ' if namespaces else ""
        b64 = base64.b64encode(ed25519_blob(self.raw)).decode("ascii")
        return f"{principal} {opts}{PUBLIC_PREFIX} {b64}"

    def verify(self, context: bytes, message: bytes, signature: bytes) -> bool:
        """An old-format signature: raw Ed25519 over ``context + message``."""
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
        """Raw Ed25519 over ``context + message`` (the old format; kept for tests of old
        archives)."""
        return self.key.sign(context + message)

    def sign_ssh(self, context: bytes, message: bytes) -> SshSignature:
        """An SSH signature of ``message`` in the namespace of ``context``, as
        ``ssh-keygen -Y sign -n NAMESPACE`` makes it (Ed25519 signatures are deterministic,
        so the bytes are the same too)."""
        from referee.pbem.sshsig import signed_data

        ns = namespace(context)
        sig = self.key.sign(signed_data(ns, message))
        return SshSignature(self.public.raw, ns, "sha512", sig)

    def openssh(self, passphrase: bytes | None = None) -> bytes:
        """The private key in OpenSSH format, encrypted when a passphrase is given."""
        enc: serialization.KeySerializationEncryption = (
            serialization.BestAvailableEncryption(passphrase)
            if passphrase
            else serialization.NoEncryption()
        )
        return self.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, enc
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
    """Read ``ssh-ed25519 AAAA... COMMENT`` (OpenSSH; the comment is optional and may hold
    spaces) or the old ``referee-ed25519 <base64> NAME``."""
    parts = text.strip().split(None, 2)
    if len(parts) < 2 or parts[0] not in (PUBLIC_PREFIX, OLD_PUBLIC_PREFIX) or "\n" in text.strip():
        kind = parts[0] if parts and parts[0].startswith(("ssh-", "ecdsa-", "sk-")) else ""
        raise UserError(
            f"{source}: "
            + (
                f"a {kind} key; only Ed25519 keys are accepted"
                if kind
                else "not an Ed25519 public key"
            ),
            hint="expected one line 'ssh-ed25519 AAAA... NAME', as `referee keygen` or "
            "`ssh-keygen -t ed25519` writes",
        )
    try:
        decoded = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise UserError(f"{source}: the key is not valid base64") from None
    if parts[0] == PUBLIC_PREFIX:
        try:
            raw = parse_key_blob(decoded)
        except SshSigError as exc:
            raise UserError(f"{source}: {exc}") from None
    else:
        raw = decoded
    if len(raw) != 32:
        raise UserError(f"{source}: an Ed25519 public key has 32 bytes, this one {len(raw)}")
    name = parts[2].strip() if len(parts) == 3 else ""
    if any(not c.isprintable() for c in name):
        raise UserError(f"{source}: the key's comment holds control characters")
    return PublicKey(raw, name, old_spelling=parts[0] == OLD_PUBLIC_PREFIX)


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


Passphrase = Callable[[Path], bytes | None]  # given the key file, its passphrase (or None)


def passphrase_source(file: Path | None = None, *, prompt: bool = True) -> Passphrase:
    """Where a key's passphrase comes from, asked only if the key needs one: ``file`` (its
    first line), else ``$REFEREE_PASSPHRASE``, else a prompt when standard input is a
    terminal (never echoed), else none."""

    def get(key_file: Path) -> bytes | None:
        if file is not None:
            return _read_passphrase_file(file)
        env = os.environ.get(PASSPHRASE_ENV)
        if env is not None:
            return env.encode("utf-8")
        if prompt and sys.stdin is not None and sys.stdin.isatty():
            return getpass.getpass(f"passphrase for {key_file}: ").encode("utf-8")
        return None

    return get


def _read_passphrase_file(path: Path) -> bytes:
    """The first line of ``path``: a file, or a pipe such as ``<(pass show referee)``."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_KEY_FILE)
    except FileNotFoundError:
        raise UserError(f"{path}: passphrase file not found") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot read the passphrase file: {exc.strerror}") from None
    return data.split(b"\n", 1)[0].rstrip(b"\r")


def no_passphrase(key_file: Path) -> bytes | None:
    return None


def load_private(path: Path, passphrase: Passphrase = no_passphrase) -> PrivateKey:
    """An OpenSSH private key (asking ``passphrase`` only when it is encrypted) or an old
    unencrypted PKCS#8 PEM key. A wrong or missing passphrase is a clear message (exit 2)."""
    data = _read_small(path, "private key")
    key: object
    if b"-----BEGIN OPENSSH PRIVATE KEY-----" in data:
        try:
            key = serialization.load_ssh_private_key(data, password=None)
        except TypeError:  # encrypted: ask for the passphrase
            secret = passphrase(path)
            if not secret:
                raise UserError(
                    f"{path}: the key is protected by a passphrase and none was given",
                    hint=f"use --passphrase-file FILE, set ${PASSPHRASE_ENV}, or run the "
                    "command in a terminal to be asked",
                ) from None
            try:
                key = serialization.load_ssh_private_key(data, password=secret)
            except (ValueError, TypeError):
                raise UserError(
                    f"{path}: wrong passphrase (or a damaged key file)",
                    hint="check the passphrase; `ssh-keygen -y -f KEY` tries it too",
                ) from None
        except ValueError as exc:
            raise UserError(f"{path}: not a readable OpenSSH private key ({exc})") from None
        except Exception as exc:  # cryptography's UnsupportedAlgorithm and the like
            raise UserError(f"{path}: cannot read this private key ({exc})") from None
    else:
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            raise UserError(
                f"{path}: not an OpenSSH private key (nor an old referee PEM key)",
                hint="use the .key file that `referee keygen` wrote, or your "
                "~/.ssh/id_ed25519 (not the .pub file)",
            ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise UserError(f"{path}: not an Ed25519 key", hint="make one with `referee keygen`")
    return PrivateKey(key, path.stem)


def write_key_pair(
    key: PrivateKey, folder: Path, *, force: bool = False, passphrase: bytes | None = None
) -> tuple[Path, Path]:
    """Write ``NAME.key`` (OpenSSH format, encrypted with ``passphrase`` if given; mode 0600,
    created 0600 from the start) and ``NAME.pub`` (shared: its mode follows the umask).

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
    write_bytes_atomic(key_path, key.openssh(passphrase), private=True)
    write_bytes_atomic(pub_path, (key.public.line() + "\n").encode("ascii"))
    return key_path, pub_path
