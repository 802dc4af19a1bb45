"""Issue 31, "slow inputs": a small mutated save must not stall ``show-vsav``.

A 21 KB mutated ``.vsav`` took 6.6 s: the sequence decoder counted (and copied) the whole
rest of the text for every token, so a command stream of many tokens holding escaped
delimiters cost quadratic time. The decoder now keeps a position; the command parser caps
the number of commands and the length of the text, refusing more (exit 2) before parsing.
Figures: docs/performance.md (bench/bench_hostile.py).
"""

from __future__ import annotations

import io
import zipfile

import pytest

from referee.vassal.codec.commands import MAX_COMMAND_CHARS, MAX_COMMANDS, parse_command
from referee.vassal.codec.errors import VassalFormatError
from referee.vassal.codec.obfuscation import obfuscate
from referee.vassal.codec.sequence import SequenceDecoder, decode_sequence
from tests.test_hostile_numbers import run_cli


def test_many_tokens_with_escaped_delimiters_decode_in_one_pass():
    token = "a\\;" * 50  # one token holding 50 escaped delimiters
    n = 20_000  # 3 MB: about 0.2 s in one pass; the old decoder needed minutes
    got = decode_sequence((token + ";") * n, ";")
    assert len(got) == n + 1 and got[0] == "a;" * 50 and got[-1] == ""


def test_decoder_keeps_java_semantics():
    d = SequenceDecoder("a\\;b;'q';;7;x", ";")
    assert d.next_token() == "a;b" and d.remainder == "'q';;7;x"
    assert d.next_token() == "q" and d.next_token() == ""
    assert d.next_int(0) == 7 and d.next_int(5) == 5 and not d.has_more()
    assert d.remainder is None and d.next_token("end") == "end"
    assert decode_sequence("", ";") == [""] and decode_sequence(";", ";") == ["", ""]


def test_too_many_commands_are_refused_before_parsing():
    with pytest.raises(VassalFormatError, match=f"more than {MAX_COMMANDS} commands"):
        parse_command("\x1b" * MAX_COMMANDS)
    parse_command("\x1b" * (MAX_COMMANDS - 1))  # at the cap: accepted


def test_too_long_a_command_text_is_refused():
    with pytest.raises(VassalFormatError, match=r"over the \d+ limit"):
        parse_command("x" * (MAX_COMMAND_CHARS + 1))


def _save(body: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("savedGame", obfuscate(body.encode("utf-8")))
    return buf.getvalue()


def test_show_vsav_refuses_a_small_save_of_many_commands(tmp_path):
    """The issue's shape: a few KB that inflate to hundreds of thousands of commands."""
    p = tmp_path / "crafted.vsav"
    p.write_bytes(_save("begin_save\x1b" + ("chat\\\x1b" * 50 + "\x1b") * 3000 + "end_save"))
    assert p.stat().st_size < 21_000
    code, out = run_cli(["show-vsav", str(p)])
    assert code == 2, out
    assert f"crafted.vsav: entry savedGame: more than {MAX_COMMANDS} commands" in out


def test_show_vsav_reads_a_save_of_many_unknown_commands(tmp_path):
    p = tmp_path / "many.vsav"
    p.write_bytes(_save("begin_save\x1b" + ("chat\\\x1b" * 50 + "\x1b") * 500 + "end_save"))
    code, out = run_cli(["show-vsav", str(p)])
    assert code == 0 and "0 counters" in out, out


def test_show_vsav_refuses_a_zip_version_zipfile_does_not_know(tmp_path):
    """Found by the long fuzz run (issue 31, docs/reliability.md): one flipped bit in the
    central directory's "version needed to extract" (8.4) made zipfile raise
    NotImplementedError, an internal error (exit 70). Now one clear message, exit 2."""
    data = bytearray(_save("begin_save\x1bend_save"))
    at = data.find(b"PK\x01\x02") + 6  # the central record's "version needed to extract"
    data[at : at + 2] = (84).to_bytes(2, "little")
    p = tmp_path / "flipped.vsav"
    p.write_bytes(bytes(data))
    code, out = run_cli(["show-vsav", str(p)])
    assert code == 2, out
    assert "flipped.vsav" in out and "not a readable zip archive (zip file version 8.4)" in out
    assert "internal error" not in out
