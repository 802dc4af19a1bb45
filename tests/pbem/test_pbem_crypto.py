"""Keys, the orders envelope and the verifiable dice."""

from __future__ import annotations

import hashlib
import hmac
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import app
from referee.errors import UserError
from referee.pbem import dice as dicemod
from referee.pbem.envelope import (
    decode_orders,
    normalise_body,
    open_envelope,
    set_header,
    sign_body,
)
from referee.pbem.keys import (
    CONTEXT_ORDERS,
    CONTEXT_REPORT,
    generate,
    load_private,
    load_public,
    write_key_pair,
)
from referee.pbem.problems import Refusal
from tests.clirun import Runner

# ---- keys


def test_keygen_writes_a_0600_private_key_and_never_prints_it(tmp_path):
    r = Runner().invoke(app, ["keygen", "alice", "-o", str(tmp_path)])
    assert r.exit_code == 0, r.output
    key, pub = tmp_path / "alice.key", tmp_path / "alice.pub"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert "PRIVATE" not in r.output and key.read_text() not in r.output
    # OpenSSH formats: a `ssh-ed25519 AAAA... alice` line and an OpenSSH private key
    assert pub.read_text().startswith("ssh-ed25519 AAAA") and pub.read_text().endswith(" alice\n")
    assert key.read_text().startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    pk = load_private(key)
    assert load_public(pub).fingerprint == pk.public.fingerprint
    assert pk.public.short in r.output
    again = Runner().invoke(app, ["keygen", "alice", "-o", str(tmp_path)])
    assert again.exit_code != 0 and load_private(key).public == pk.public
    forced = Runner().invoke(app, ["keygen", "alice", "-o", str(tmp_path), "--force"])
    assert forced.exit_code == 0 and load_private(key).public != pk.public
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_keys_refuse_the_wrong_file(tmp_path):
    k = generate("bob")
    write_key_pair(k, tmp_path)
    with pytest.raises(UserError, match="PRIVATE"):
        load_public(tmp_path / "bob.key")
    with pytest.raises(UserError):
        load_private(tmp_path / "bob.pub")
    with pytest.raises(UserError):
        generate("../evil")


def test_signatures_are_bound_to_their_context():
    k = generate("c")
    sig = k.sign(CONTEXT_ORDERS, b"hello")
    assert k.public.verify(CONTEXT_ORDERS, b"hello", sig)
    assert not k.public.verify(CONTEXT_REPORT, b"hello", sig)
    assert not k.public.verify(CONTEXT_ORDERS, b"hellO", sig)
    assert "PRIVATE" not in repr(k)


# ---- envelope


def test_signing_survives_mail_clients():
    k = generate("m")
    body = "game: g\nturn: 1\nside: NATO\n\nplace A 0101\n"
    block = sign_body(body, k)
    mangled = "\r\n\r\n" + body.replace("\n", "  \r\n") + "\r\n" + block.armour() + "-- \nBob\n"
    env = open_envelope(mangled, "m.txt")
    assert env.signed_by(k.public) and env.header.side == "NATO" and env.header.turn == 1
    assert env.stored_text() == normalise_body(body) + block.armour()
    wrapped = block.armour().replace("\n", "\n\n")  # extra blank lines inside the block
    assert open_envelope(body + wrapped, "m.txt").signed_by(k.public)
    detached = open_envelope(body, "m.txt", detached=block.armour())
    assert detached.signed_by(k.public)


def test_tampered_or_doubled_signatures():
    k = generate("t")
    body = "game: g\nside: NATO\nplace A 0101\n"
    block = sign_body(body, k)
    assert not open_envelope(body.replace("0101", "0102") + block.armour(), "x").signed_by(k.public)
    with pytest.raises(Refusal, match="more than one"):
        open_envelope(body + block.armour() + block.armour(), "x")
    with pytest.raises(Refusal, match="END"):
        open_envelope(body + block.armour().split("-----END")[0], "x")


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"a\x00b", "NUL"),
        (b"\xff\xfe", "UTF-8"),
        (b"move A\x1b[31m 0101", "U+001B"),
        ("move A \u202e1010".encode(), "U+202E"),
        (b"x" * 1_000_001, "1,000,000"),
    ],
)
def test_bad_orders_bytes_are_refused(data, what):
    with pytest.raises(Refusal) as info:
        decode_orders(data, "o.txt")
    assert what in str(info.value) and "o.txt" in str(info.value)


def test_set_header_adds_or_replaces():
    body = "# my orders\ngame: g\nturn: 1\n\nplace A 0101\n"
    out = set_header(body, "previous-report", "ab" * 32)
    assert out.index("previous-report") < out.index("place")
    assert set_header(out, "previous-report", "cd" * 32).count("previous-report") == 1


# ---- dice


def test_the_documented_derivation_by_hand():
    """docs/dice.md, step by step with the standard library only."""
    seed, orders = bytes(32), hashlib.sha256(b"orders\n").digest()
    mac = hmac.new(seed, orders + (0).to_bytes(4, "big") + (0).to_bytes(4, "big"), "sha256")
    x = int.from_bytes(mac.digest()[:4], "big")
    assert dicemod.derive(seed, orders, 0, 6) == (x % 6 + 1, 0, mac.hexdigest())


def test_the_seed_chain_links():
    root = bytes(range(32))
    seeds = [dicemod.seed_at(root, 10, i) for i in range(11)]
    assert seeds[10] == root
    assert all(dicemod.links(seeds[i], seeds[i - 1]) for i in range(1, 11))
    assert not dicemod.links(seeds[2], seeds[0])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    orders=st.binary(min_size=32, max_size=32),
    sides=st.integers(2, 100),
    n=st.integers(1, 8),
)
def test_rolls_are_in_range_reproducible_and_checkable(seed, orders, sides, n):
    a = dicemod.CommittedDice(seed, 3, orders.hex())
    b = dicemod.CommittedDice(seed, 3, orders.hex())
    va = [a.roll(sides, f"r{i}") for i in range(n)]
    assert va == [b.roll(sides, f"r{i}") for i in range(n)]
    assert all(1 <= v <= sides for v in va)
    rolls = [r.to_json() for r in a.rolls]
    assert dicemod.check_rolls(rolls, seed, 3, orders.hex()) == []
    other = hashlib.sha256(orders).hexdigest()
    assert dicemod.check_rolls(rolls, seed, 3, other) != [] or n * sides < 4


def test_a_roll_changes_when_the_orders_change():
    seed = bytes(range(32))
    base = [dicemod.derive(seed, hashlib.sha256(b"a").digest(), i, 6)[0] for i in range(20)]
    other = [dicemod.derive(seed, hashlib.sha256(b"b").digest(), i, 6)[0] for i in range(20)]
    assert base != other


def test_faces_are_about_equally_likely():
    seed, orders = bytes(32), bytes(32)
    counts = [0] * 6
    for i in range(6000):
        counts[dicemod.derive(seed, orders, i, 6)[0] - 1] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_the_seed_secret_is_private_and_checked(tmp_path):
    s = dicemod.SeedSecret.new("g", 16, bytes(32))
    path = dicemod.save_secret(s, tmp_path / "r")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert dicemod.load_secret(tmp_path / "r", "g", s.head.hex(), 16).root == bytes(32)
    with pytest.raises(UserError, match="do not match"):
        dicemod.load_secret(tmp_path / "r", "g", "00" * 32, 16)
    with pytest.raises(UserError, match="exists"):
        dicemod.save_secret(s, tmp_path / "r")
