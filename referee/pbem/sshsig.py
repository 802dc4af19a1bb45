"""SSH signatures (``ssh-keygen -Y sign``), byte for byte, for Ed25519 keys.

The wire format is OpenSSH's ``PROTOCOL.sshsig``; only the Ed25519 primitive comes from
``cryptography``. A signature file is the armoured blob::

    -----BEGIN SSH SIGNATURE-----
    <base64 of the blob, wrapped at 70 columns>
    -----END SSH SIGNATURE-----

and the blob is ``"SSHSIG" || uint32 1 || string publickey || string namespace ||
string reserved || string hash_algorithm || string signature``. What the key signs is
``"SSHSIG" || string namespace || string reserved || string hash_algorithm || string
H(message)``, so a signature is bound to its *namespace*: one per kind of file
(``referee-orders-v1``, ``referee-report-v1``, ``referee-manifest-v1``), and an orders
signature can never pass for a report's. ``string`` is a 4-byte big-endian length and the
bytes. A player checks any signed file with plain OpenSSH::

    ssh-keygen -Y verify -f allowed_signers -I NATO -n referee-orders-v1 -s FILE.sig < FILE

This module writes ``sha512`` (what ``ssh-keygen`` writes) and accepts ``sha256`` and
``sha512``; it accepts only ``ssh-ed25519`` keys (the keys ``referee keygen`` makes).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
MAGIC = b"SSHSIG"
VERSION = 1
KEY_TYPE = "ssh-ed25519"
HASHES = {"sha256": hashlib.sha256, "sha512": hashlib.sha512}
WRAP = 70


class SshSigError(ValueError):
    """A blob that is not an SSH signature this tool can check (the message says why)."""


def string(data: bytes) -> bytes:
    """SSH ``string``: 4-byte big-endian length, then the bytes."""
    return len(data).to_bytes(4, "big") + data


def ed25519_blob(raw: bytes) -> bytes:
    """The SSH wire encoding of an Ed25519 public key (what ``.pub`` lines hold in base64)."""
    return string(KEY_TYPE.encode("ascii")) + string(raw)


class _Reader:
    def __init__(self, data: bytes, what: str) -> None:
        self.data, self.pos, self.what = data, 0, what

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise SshSigError(f"{self.what} is cut short")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def string(self) -> bytes:
        return self.take(int.from_bytes(self.take(4), "big"))

    def end(self) -> None:
        if self.pos != len(self.data):
            raise SshSigError(f"{self.what} has {len(self.data) - self.pos} bytes too many")


def parse_key_blob(blob: bytes) -> bytes:
    """The 32 raw bytes of an ``ssh-ed25519`` key blob."""
    r = _Reader(blob, "the public key")
    kind = r.string()
    if kind != KEY_TYPE.encode("ascii"):
        shown = kind.decode("ascii", "replace")[:40]
        raise SshSigError(f"a {shown!r} key; only {KEY_TYPE} keys are accepted")
    raw = r.string()
    r.end()
    if len(raw) != 32:
        raise SshSigError(f"an Ed25519 public key has 32 bytes, this one {len(raw)}")
    return raw


def signed_data(namespace: str, message: bytes, hash_algorithm: str = "sha512") -> bytes:
    """What the key signs (``PROTOCOL.sshsig``: the signed data)."""
    digest = HASHES[hash_algorithm](message).digest()
    return (
        MAGIC
        + string(namespace.encode("utf-8"))
        + string(b"")
        + string(hash_algorithm.encode("ascii"))
        + string(digest)
    )


@dataclass(frozen=True, slots=True)
class SshSignature:
    """One decoded SSH signature: the signer's key, namespace, hash and the Ed25519 signature."""

    public_raw: bytes
    namespace: str
    hash_algorithm: str
    signature: bytes

    @property
    def fingerprint(self) -> str:
        """The project's key fingerprint (SHA-256 of the 32 raw key bytes, hex)."""
        return hashlib.sha256(self.public_raw).hexdigest()

    def blob(self) -> bytes:
        return (
            MAGIC
            + VERSION.to_bytes(4, "big")
            + string(ed25519_blob(self.public_raw))
            + string(self.namespace.encode("utf-8"))
            + string(b"")
            + string(self.hash_algorithm.encode("ascii"))
            + string(string(KEY_TYPE.encode("ascii")) + string(self.signature))
        )

    def armour(self) -> str:
        """The armoured text exactly as ``ssh-keygen -Y sign`` writes it."""
        b64 = base64.b64encode(self.blob()).decode("ascii")
        lines = [BEGIN, *(b64[i : i + WRAP] for i in range(0, len(b64), WRAP)), END]
        return "\n".join(lines) + "\n"

    def verifies(self, raw_key: bytes, namespace: str, message: bytes) -> bool:
        """Is this a valid signature of ``message`` by ``raw_key`` in ``namespace``?"""
        if self.public_raw != raw_key or self.namespace != namespace:
            return False
        try:
            Ed25519PublicKey.from_public_bytes(raw_key).verify(
                self.signature, signed_data(namespace, message, self.hash_algorithm)
            )
        except (InvalidSignature, ValueError):
            return False
        return True


def decode(blob: bytes) -> SshSignature:
    """Parse a signature blob; :class:`SshSigError` says what is wrong."""
    r = _Reader(blob, "the SSH signature")
    if r.take(6) != MAGIC:
        raise SshSigError("the SSH signature does not start with 'SSHSIG'")
    version = int.from_bytes(r.take(4), "big")
    if version != VERSION:
        raise SshSigError(f"SSH signature version {version}; this tool reads version {VERSION}")
    raw = parse_key_blob(r.string())
    try:
        namespace = r.string().decode("utf-8")
    except UnicodeDecodeError:
        raise SshSigError("the namespace is not UTF-8") from None
    r.string()  # reserved: ignored, as ssh-keygen does
    hash_alg = r.string().decode("ascii", "replace")
    if hash_alg not in HASHES:
        raise SshSigError(f"hash algorithm {hash_alg!r}; expected sha512 or sha256")
    sig = _Reader(r.string(), "the signature")
    kind = sig.string()
    if kind != KEY_TYPE.encode("ascii"):
        raise SshSigError(f"a {kind.decode('ascii', 'replace')[:40]!r} signature, not {KEY_TYPE}")
    ed = sig.string()
    sig.end()
    r.end()
    if len(ed) != 64:
        raise SshSigError(f"an Ed25519 signature has 64 bytes, not {len(ed)}")
    return SshSignature(raw, namespace, hash_alg, ed)


def decode_armour_lines(inner: list[str]) -> SshSignature:
    """The lines between BEGIN and END (blank lines and surrounding spaces ignored)."""
    b64 = "".join(ln.strip() for ln in inner)
    try:
        blob = base64.b64decode(b64, validate=True)
    except (binascii.Error, ValueError):
        raise SshSigError("the SSH signature is not valid base64") from None
    return decode(blob)
