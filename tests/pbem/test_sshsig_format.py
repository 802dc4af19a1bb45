"""The SSH signature wire format (``referee/pbem/sshsig.py``) without OpenSSH installed:
round trips, namespaces, hostile blobs, and the old formats still read (issue 11 §5)."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives import serialization
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import UserError
from referee.pbem import sshsig
from referee.pbem.envelope import open_envelope, sign_body, sign_body_old, split_block
from referee.pbem.keys import (
    CONTEXT_ORDERS,
    CONTEXT_REPORT,
    generate,
    load_private,
    load_public,
    parse_public_line,
)
from referee.pbem.problems import Refusal

BODY = "game: g\nside: NATO\nturn: 1\nplace A 0101\n"


def test_a_signature_round_trips_and_is_bound_to_key_namespace_and_message() -> None:
    k, other = generate("a"), generate("b")
    sig = k.sign_ssh(CONTEXT_REPORT, b"data")
    again = sshsig.decode_armour_lines(sig.armour().splitlines()[1:-1])
    assert again == sig and again.namespace == "referee-report-v1"
    assert all(len(ln) <= 70 for ln in sig.armour().splitlines())
    assert sig.verifies(k.public.raw, "referee-report-v1", b"data")
    assert not sig.verifies(k.public.raw, "referee-orders-v1", b"data")
    assert not sig.verifies(k.public.raw, "referee-report-v1", b"datA")
    assert not sig.verifies(other.public.raw, "referee-report-v1", b"data")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_hostile_blobs_raise_only_the_format_error(blob: bytes) -> None:
    with pytest.raises(sshsig.SshSigError):
        sshsig.decode(blob)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 200), st.binary(min_size=1, max_size=3))
def test_a_damaged_signature_is_a_refusal_never_a_crash(at: int, junk: bytes) -> None:
    k = generate("c")
    blob = k.sign_ssh(CONTEXT_ORDERS, BODY.encode()).blob()
    at = min(at, len(blob))
    bad = blob[:at] + junk + blob[at + len(junk) :]
    b64 = base64.b64encode(bad).decode()
    text = BODY + "\n".join([sshsig.BEGIN, b64, sshsig.END]) + "\n"
    try:
        env = open_envelope(text, "o.txt")
    except Refusal as exc:
        assert exc.code == "bad-signature" and "o.txt" in str(exc)
    else:
        assert not env.signed_by(k.public) or bad == blob


def test_other_key_types_are_named() -> None:
    ecdsa = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY= me"
    with pytest.raises(UserError, match="only Ed25519"):
        parse_public_line(ecdsa)
    rsa_blob = sshsig.string(b"ssh-rsa") + sshsig.string(b"\x01\x00\x01")
    with pytest.raises(UserError, match="only ssh-ed25519"):
        parse_public_line("ssh-ed25519 " + base64.b64encode(rsa_blob).decode())


def test_orders_signed_in_the_old_block_format_are_still_accepted() -> None:
    """A player whose client writes the old `BEGIN REFEREE SIGNATURE` block."""
    k = generate("d")
    old = sign_body_old(BODY, k)
    env = open_envelope(BODY + old.armour(), "o.txt")
    assert env.signed_by(k.public) and "REFEREE SIGNATURE" in env.stored_text()
    # both kinds in one file are two blocks: refused
    with pytest.raises(Refusal, match="more than one"):
        split_block(BODY + old.armour() + sign_body(BODY, k).armour(), "o.txt")


def test_old_key_files_still_load_and_keep_their_spelling(tmp_path) -> None:
    k = generate("e")
    pem = k.key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    (tmp_path / "e.key").write_bytes(pem)
    assert load_private(tmp_path / "e.key").public == k.public
    line = "referee-ed25519 " + base64.b64encode(k.public.raw).decode() + " e"
    (tmp_path / "e.pub").write_text(line + "\n")
    old = load_public(tmp_path / "e.pub")
    assert old == k.public and old.line() == line  # an old game.toml re-spells the same
    assert k.public.line().startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5")
