"""OpenSSH keys and SSH signatures (issue 11 §5): every file the referee signs verifies with
plain ``ssh-keygen -Y verify``, and orders signed with ``ssh-keygen -Y sign`` (from a key
file with a passphrase, or from ``ssh-agent``) are accepted. Needs OpenSSH's ``ssh-keygen``
(``.ci/run`` installs openssh-client); skipped without it, except under CI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import app
from referee.errors import UserError
from referee.pbem.envelope import open_envelope
from referee.pbem.keys import load_private, load_public, write_key_pair
from referee.pbem.problems import Refusal
from referee.pbem.signing import sign_orders
from referee.pbem.sshsig import BEGIN
from tests.clirun import Runner
from tests.pbem.conftest import Game

SSH_KEYGEN = shutil.which("ssh-keygen")
if SSH_KEYGEN is None and os.environ.get("CI"):
    raise RuntimeError("ssh-keygen is missing under CI: .ci/run installs openssh-client")
needs_ssh = pytest.mark.skipif(SSH_KEYGEN is None, reason="OpenSSH ssh-keygen not installed")
RUN = Runner()
SETUP = ["place US-DD-1 0202", "place US-F4.2 0203"]


def _ssh(*args: str, stdin: bytes | None = None, env: dict[str, str] | None = None):
    assert SSH_KEYGEN is not None
    return subprocess.run(
        [SSH_KEYGEN, *args], input=stdin, capture_output=True, env=env, timeout=60, check=False
    )


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "REFEREE_PASSPHRASE"}
    return subprocess.run(
        [sys.executable, "-c", "from referee.cli import main; main()", *args],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, env={**base, **(env or {})},
        timeout=120, check=False,
    )  # fmt: skip


def _allowed(tmp: Path, principal: str, pub_line: str) -> Path:
    path = tmp / f"allowed-{principal}"
    parts = pub_line.split()
    path.write_text(f"{principal} {parts[0]} {parts[1]}\n")
    return path


def _verify(allowed: Path, principal: str, ns: str, sig: Path, data: bytes):
    return _ssh("-Y", "verify", "-f", str(allowed), "-I", principal, "-n", ns, "-s", str(sig),
                stdin=data)  # fmt: skip


@needs_ssh
def test_keygen_keys_are_openssh_keys(tmp_path: Path) -> None:
    """ssh-keygen reads the private key (with its passphrase) and derives the same public
    line; a wrong or missing passphrase is a clear message, exit 2, never a traceback."""
    (tmp_path / "pass").write_text("correct horse\n")
    r = RUN.invoke(app, ["keygen", "nato", "-o", str(tmp_path),
                         "--passphrase-file", str(tmp_path / "pass")])  # fmt: skip
    assert r.exit_code == 0, r.output
    key, pub = tmp_path / "nato.key", tmp_path / "nato.pub"
    out = _ssh("-y", "-P", "correct horse", "-f", str(key))
    assert out.returncode == 0, out.stderr
    assert out.stdout.decode().split()[:2] == pub.read_text().split()[:2]
    assert _ssh("-y", "-P", "wrong", "-f", str(key)).returncode != 0  # really encrypted
    # referee reads it back with the passphrase, and says clearly when it is wrong or absent
    from referee.pbem.keys import passphrase_source

    assert load_private(key, passphrase_source(tmp_path / "pass")).public == load_public(pub)
    (tmp_path / "bad").write_text("wrong\n")
    with pytest.raises(UserError, match="wrong passphrase"):
        load_private(key, passphrase_source(tmp_path / "bad"))
    with pytest.raises(UserError, match="protected by a passphrase"):
        load_private(key)
    orders = tmp_path / "o.txt"
    orders.write_text("place A 0101\n")
    # the real command line: one clear line, exit 2, nothing written
    r = _cli("sign", str(orders), "--key", str(key), "--passphrase-file", str(tmp_path / "bad"))
    assert r.returncode == 2 and "wrong passphrase" in r.stderr and "Traceback" not in r.stderr
    r = _cli("sign", str(orders), "--key", str(key))  # no terminal, no passphrase
    assert r.returncode == 2 and "--passphrase-file" in r.stderr, r.stderr
    assert orders.read_text() == "place A 0101\n"
    r = _cli("sign", str(orders), "--key", str(key), env={"REFEREE_PASSPHRASE": "correct horse"})
    assert r.returncode == 0, r.stderr
    assert BEGIN in orders.read_text()


@needs_ssh
def test_a_key_made_by_ssh_keygen_signs_for_referee(tmp_path: Path) -> None:
    """A player's existing OpenSSH key (passphrase-protected) works in `referee sign`."""
    key = tmp_path / "id_ed25519"
    assert (
        _ssh("-q", "-t", "ed25519", "-N", "s3cret", "-C", "alice@host", "-f", str(key)).returncode
        == 0
    )
    pub = load_public(Path(str(key) + ".pub"))
    assert pub.name == "alice@host"
    (tmp_path / "pass").write_text("s3cret\n")
    from referee.pbem.keys import passphrase_source

    assert load_private(key, passphrase_source(tmp_path / "pass")).public.raw == pub.raw


@needs_ssh
def test_every_signed_file_of_a_game_verifies_with_ssh_keygen(make_game, tmp_path) -> None:
    """Reports and manifests (namespaces referee-report-v1, referee-manifest-v1) and the
    players' orders kept in the archive (referee-orders-v1: the text above the block)."""
    g: Game = make_game()
    g.run(g.signed("NATO", SETUP))
    ref = _allowed(tmp_path, "referee", g.keys["ref"].public.line())
    nato = _allowed(tmp_path, "NATO", g.keys["nato"].public.line())
    checked = 0
    for t in g.archive.turn_dirs():
        for name, ns in (("report.json", "referee-report-v1"),
                         ("manifest.json", "referee-manifest-v1")):  # fmt: skip
            data = (t.path / name).read_bytes()
            res = _verify(ref, "referee", ns, t.path / f"{name}.sig", data)
            assert res.returncode == 0, (t.name, name, res.stderr)
            # the namespace binds the kind of file: a report signature is no manifest's
            other = "referee-manifest-v1" if ns == "referee-report-v1" else "referee-report-v1"
            assert _verify(ref, "referee", other, t.path / f"{name}.sig", data).returncode != 0
            checked += 1
        stored = t.path / "orders.txt"
        if stored.is_file():
            text = stored.read_text()
            body, block = text.split(BEGIN)
            (tmp_path / "o.sig").write_text(BEGIN + block)
            res = _verify(nato, "NATO", "referee-orders-v1", tmp_path / "o.sig", body.encode())
            assert res.returncode == 0, res.stderr
            bad = body.replace("0202", "0203").encode()
            assert _verify(nato, "NATO", "referee-orders-v1", tmp_path / "o.sig", bad).returncode
            checked += 1
    assert checked == 5  # two turns x (report, manifest) + one orders file


def _ssh_signed_orders(g: Game, tmp: Path, key: Path, *extra: str, env=None) -> Path:
    """Orders with a complete envelope, signed by ssh-keygen -Y sign (ORDERS.sig beside)."""
    orders = tmp / "nato.txt"
    orders.write_text(sign_orders("\n".join(SETUP) + "\n", "o", g.keys["nato"], g.dir).body)
    res = _ssh("-Y", "sign", "-f", str(key), "-n", "referee-orders-v1", *extra, str(orders),
               env=env)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert (tmp / "nato.txt.sig").is_file()
    return orders


@needs_ssh
def test_orders_signed_by_ssh_keygen_with_a_passphrase_are_adjudicated(make_game, tmp_path):
    g: Game = make_game()
    write_key_pair(g.keys["nato"], tmp_path / "k", passphrase=b"pw")
    orders = _ssh_signed_orders(g, tmp_path, tmp_path / "k" / "nato.key", "-P", "pw")
    (result,) = g.run(orders)
    assert result.status == "adjudicated"
    kept = (g.archive.turn_dirs()[-1].path / "orders.txt").read_text()
    assert kept == orders.read_text() + (tmp_path / "nato.txt.sig").read_text()


@needs_ssh
def test_orders_signed_from_ssh_agent_are_adjudicated(make_game, tmp_path) -> None:
    agent = shutil.which("ssh-agent")
    add = shutil.which("ssh-add")
    if agent is None or add is None:
        pytest.skip("ssh-agent or ssh-add not installed")
    g: Game = make_game()
    key_path, pub_path = write_key_pair(g.keys["nato"], tmp_path / "k")
    sock = tmp_path / "agent.sock"
    proc = subprocess.Popen([agent, "-D", "-a", str(sock)], stdout=subprocess.DEVNULL)
    try:
        env = {**os.environ, "SSH_AUTH_SOCK": str(sock)}
        for _ in range(100):
            if sock.exists():
                break
            import time

            time.sleep(0.05)
        assert subprocess.run([add, str(key_path)], env=env, capture_output=True).returncode == 0
        # -f names the PUBLIC key: ssh-keygen asks the agent to sign
        orders = _ssh_signed_orders(g, tmp_path, pub_path, env=env)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    (result,) = g.run(orders)
    assert result.status == "adjudicated"


@needs_ssh
def test_a_signature_in_the_wrong_namespace_or_of_the_raw_file_is_refused(make_game, tmp_path):
    g: Game = make_game()
    key, _ = write_key_pair(g.keys["nato"], tmp_path / "k")
    orders = tmp_path / "nato.txt"
    orders.write_text(sign_orders("\n".join(SETUP) + "\n", "o", g.keys["nato"], g.dir).body)
    assert _ssh("-Y", "sign", "-f", str(key), "-n", "file", str(orders)).returncode == 0
    with pytest.raises(Refusal, match="does not match") as info:
        g.run(orders)
    assert "namespace 'file'" in str(info.value)
    # a file not in normal form (CRLF) signed as it is: the refusal says what to do
    (tmp_path / "nato.txt.sig").unlink()
    orders.write_bytes(orders.read_bytes().replace(b"\n", b"\r\n"))
    assert (
        _ssh("-Y", "sign", "-f", str(key), "-n", "referee-orders-v1", str(orders)).returncode == 0
    )
    with pytest.raises(Refusal) as info:
        g.run(orders)
    assert "normalised text" in str(info.value)
    assert len(g.archive.turn_dirs()) == 1  # nothing written


def test_referee_signatures_are_what_ssh_keygen_would_write(make_game, tmp_path) -> None:
    """Ed25519 is deterministic, so the same key, namespace and file give the same bytes."""
    if SSH_KEYGEN is None:
        pytest.skip("OpenSSH ssh-keygen not installed")
    g: Game = make_game()
    key, _ = write_key_pair(g.keys["nato"], tmp_path / "k")
    orders = tmp_path / "nato.txt"
    orders.write_text(sign_orders("\n".join(SETUP) + "\n", "o", g.keys["nato"], g.dir).body)
    assert (
        _ssh("-Y", "sign", "-f", str(key), "-n", "referee-orders-v1", str(orders)).returncode == 0
    )
    mine = sign_orders(orders.read_text(), "o", g.keys["nato"]).block.armour()
    assert mine == (tmp_path / "nato.txt.sig").read_text()
    env = open_envelope(orders.read_text(), "o", mine)
    assert env.signed_by(g.keys["nato"].public)


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_the_passphrase_is_asked_in_a_terminal(tmp_path: Path) -> None:
    """keygen --ask-passphrase asks twice (refuses two different answers); sign asks for the
    key's passphrase, naming the key, and a wrong one is exit 2 without a traceback."""
    import pty
    import select

    def run(args: list[str], answers: list[bytes]) -> tuple[int, str]:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the real command line, in the pseudo-terminal
            os.chdir(tmp_path)
            os.environ.pop("REFEREE_PASSPHRASE", None)
            code = "from referee.cli import main; main()"
            os.execv(sys.executable, [sys.executable, "-c", code, *args])
        out, todo = b"", list(answers)
        while select.select([fd], [], [], 60)[0]:
            try:
                data = os.read(fd, 1024)
            except OSError:
                break
            if not data:
                break
            out += data
            if b"passphrase" in data and todo:
                os.write(fd, todo.pop(0) + b"\n")
        _, status = os.waitpid(pid, 0)
        return os.waitstatus_to_exitcode(status), out.decode(errors="replace")

    code, out = run(["keygen", "dave", "--ask-passphrase"], [b"abc", b"abd"])
    assert code == 2 and "differ" in out and not (tmp_path / "dave.key").exists()
    code, out = run(["keygen", "carol", "--ask-passphrase"], [b"abc", b"abc"])
    assert code == 0 and "protected by a passphrase" in out and "abc" not in out
    (tmp_path / "o.txt").write_text("hello\n")
    code, out = run(["sign", "o.txt", "--key", "carol.key"], [b"nope"])
    assert code == 2 and "passphrase for carol.key" in out and "wrong passphrase" in out
    assert "Traceback" not in out and (tmp_path / "o.txt").read_text() == "hello\n"
    code, out = run(["sign", "o.txt", "--key", "carol.key"], [b"abc"])
    assert code == 0 and BEGIN in (tmp_path / "o.txt").read_text()


@needs_ssh
def test_referee_sign_detached_verifies_with_ssh_keygen(make_game, tmp_path) -> None:
    """`referee sign --detached` (with the envelope already complete, so the file is left as
    it is) writes ORDERS.sig that plain ssh-keygen accepts for the file as it is."""
    g: Game = make_game()
    key, _ = write_key_pair(g.keys["nato"], tmp_path / "k", passphrase=b"pw")
    orders = tmp_path / "nato.txt"
    orders.write_text(sign_orders("\n".join(SETUP) + "\n", "o", g.keys["nato"], g.dir).body)
    r = _cli("sign", str(orders), "--key", str(key), "--detached", "--game-dir", str(g.dir),
             env={"REFEREE_PASSPHRASE": "pw"})  # fmt: skip
    assert r.returncode == 0, r.stderr
    nato = _allowed(tmp_path, "NATO", g.keys["nato"].public.line())
    res = _verify(nato, "NATO", "referee-orders-v1", tmp_path / "nato.txt.sig", orders.read_bytes())
    assert res.returncode == 0, res.stderr
    assert b"Good" in res.stdout + res.stderr
