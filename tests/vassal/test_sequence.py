"""SequenceEncoder port (vassal-format.md §1): examples, typed readers and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.vassal.codec.sequence import (
    ESC,
    SequenceDecoder,
    SequenceEncoder,
    decode_sequence,
    decode_string_array,
    encode_sequence,
    encode_string_array,
    java_double_str,
)

DELIMITERS = [";", ",", "\t", "/", ESC]

# Text biased towards the characters that matter: every delimiter, backslash, quote.
_CHARS = st.sampled_from([";", ",", "\t", "/", ESC, "\\", "'", "a", "b", " ", "é", "|", "="])
TOKEN = st.one_of(st.text(_CHARS, max_size=12), st.text(max_size=8))


def java_reference_decode(text: str | None, delimiter: str) -> list[str]:
    """Literal transcription of ``SequenceEncoder.Decoder.nextToken`` (loop form)."""
    tokens = []
    val = text
    while val is not None:
        i = val.find(delimiter)
        if i < 0:
            value, val = val, None
        else:
            buffer, begin, end = [], 0, i
            while begin < end:
                if val[end - 1] == "\\":
                    buffer.append(val[begin : end - 1])
                    begin = end
                    end = val.find(delimiter, end + 1)
                else:
                    break
            if end < 0:
                buffer.append(val[begin:])
                val = None
            else:
                buffer.append(val[begin:end])
                val = "" if end >= len(val) - 1 else val[end + 1 :]
            value = "".join(buffer)
        if value.startswith("'") and value.endswith("'") and len(value) > 1:
            value = value[1:-1]
        tokens.append(value)
    return tokens


# ------------------------------------------------------------------ examples from §1


def test_javadoc_nesting_example() -> None:
    inner = SequenceEncoder(",").append("B").append("C").value
    assert SequenceEncoder(",").append("A").append(inner).value == "A,B\\,C"
    outer = SequenceDecoder("A,B\\,C", ",")
    assert outer.next_token() == "A"
    assert decode_sequence(outer.next_token(), ",") == ["B", "C"]


def test_empty_sequence_is_none_and_one_empty_token_is_empty_string() -> None:
    assert encode_sequence([], ";") is None
    assert encode_sequence([""], ";") == ""
    assert encode_sequence([None], ";") == ""
    assert decode_sequence(None, ";") == []
    assert decode_sequence("", ";") == [""]


def test_trailing_empty_token() -> None:
    assert decode_sequence("a;", ";") == ["a", ""]
    assert encode_sequence(["a", None], ";") == "a;"


def test_only_the_delimiter_is_escaped() -> None:
    assert encode_sequence(["a;b", "c,d\\e"], ";") == "a\\;b;c,d\\e"


def test_quote_wrapping() -> None:
    # Java wraps tokens that END with a backslash (the reference says "starts"), or that
    # both start and end with a quote.
    assert encode_sequence(["x\\", "y"], ";") == "'x\\';y"
    assert encode_sequence(["\\x"], ";") == "\\x"
    assert encode_sequence(["'q'"], ";") == "''q''"
    assert encode_sequence(["'"], ";") == "'''"
    assert decode_sequence("'x\\';y", ";") == ["x\\", "y"]
    assert decode_sequence("'quoted'", ";") == ["quoted"]


def test_numbers_and_booleans_use_java_formatting() -> None:
    assert encode_sequence([1, -1, True, False, 1.0, 0.5, 1e10, 1e-5], ";") == (
        "1;-1;true;false;1.0;0.5;1.0E10;1.0E-5"
    )
    # An "ugly" delimiter escapes numbers like strings (§1.1 step 4).
    assert encode_sequence([-1, 2], "-") == "\\-1-2"
    assert decode_sequence("\\-1-2", "-") == ["-1", "2"]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (100.0, "100.0"),
        (0.001, "0.001"),
        (1234567.0, "1234567.0"),
        (12345678.0, "1.2345678E7"),
        (-2.5e-7, "-2.5E-7"),
        (float("nan"), "NaN"),
        (float("-inf"), "-Infinity"),
    ],
)
def test_java_double_str(value: float, text: str) -> None:
    assert java_double_str(value) == text


def test_typed_readers_return_defaults() -> None:
    decoder = SequenceDecoder("12;x;true;TRUE;;3.5;+7;99999999999", ";")
    assert decoder.next_int(0) == 12
    assert decoder.next_int(-1) == -1  # "x" does not parse but is consumed
    assert decoder.next_bool(False) is True
    assert decoder.next_bool(True) is False  # only the exact text "true"
    assert decoder.next_char("d") == "d"  # empty token
    assert decoder.next_float(0.0) == 3.5
    assert decoder.next_int(0) == 7
    assert decoder.next_int(5) == 5  # out of Java int range
    assert not decoder.has_more()
    assert decoder.next_int(4) == 4
    assert decoder.next_bool(True) is True
    assert decoder.next_token("dflt") == "dflt"
    assert decoder.next_token(None) is None
    with pytest.raises(IndexError):
        decoder.next_token()


def test_next_long_and_float_edge_cases() -> None:
    decoder = SequenceDecoder("99999999999;1_0;2.5d;NaN; 4 ", ";")
    assert decoder.next_long(0) == 99999999999
    assert decoder.next_float(-1.0) == -1.0  # Java rejects underscores
    assert decoder.next_float(0.0) == 2.5
    assert str(decoder.next_float(0.0)) == "nan"
    assert decoder.next_float(0.0) == 4.0  # Java trims whitespace


def test_string_arrays() -> None:
    assert encode_string_array([]) == ""
    assert encode_string_array(["a", None, "b,c"]) == "a,,b\\,c"
    assert decode_string_array("") == []
    assert decode_string_array("a,,b\\,c") == ["a", "", "b,c"]
    assert SequenceDecoder("x,y;z", ";").next_string_array(3) == ["x", "y", ""]


def test_single_character_delimiter_required() -> None:
    with pytest.raises(ValueError):
        SequenceEncoder(";;")
    with pytest.raises(ValueError):
        SequenceDecoder("a", "")


# ------------------------------------------------------------------ properties


@settings(max_examples=300)
@given(tokens=st.lists(TOKEN, min_size=1, max_size=8), delimiter=st.sampled_from(DELIMITERS))
def test_decode_inverts_encode(tokens: list[str], delimiter: str) -> None:
    encoded = encode_sequence(tokens, delimiter)
    assert encoded is not None
    assert decode_sequence(encoded, delimiter) == tokens


@settings(max_examples=200)
@given(
    outer=st.lists(TOKEN, min_size=1, max_size=4),
    inner=st.lists(TOKEN, min_size=1, max_size=4),
    delimiters=st.tuples(st.sampled_from(DELIMITERS), st.sampled_from(DELIMITERS)),
)
def test_nested_sequences_decode_one_level_at_a_time(
    outer: list[str], inner: list[str], delimiters: tuple[str, str]
) -> None:
    outer_d, inner_d = delimiters
    inner_text = encode_sequence(inner, inner_d)
    encoded = encode_sequence([*outer, inner_text], outer_d)
    decoded = decode_sequence(encoded, outer_d)
    assert decoded[:-1] == outer
    assert decode_sequence(decoded[-1], inner_d) == inner


@settings(max_examples=300)
@given(text=st.text(_CHARS, max_size=20), delimiter=st.sampled_from(DELIMITERS))
def test_decoder_matches_java_transcription_on_any_text(text: str, delimiter: str) -> None:
    assert decode_sequence(text, delimiter) == java_reference_decode(text, delimiter)


@settings(max_examples=100)
@given(tokens=st.lists(st.integers(-(2**31), 2**31 - 1), min_size=1, max_size=5))
def test_int_tokens_round_trip_through_typed_reader(tokens: list[int]) -> None:
    decoder = SequenceDecoder(encode_sequence(tokens, ";"), ";")
    assert [decoder.next_int(0) for _ in tokens] == tokens
