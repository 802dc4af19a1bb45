"""Text typed above the headers of signed orders (a mail greeting, "Hi ref,") is left out as
the mail footer after the signature block is, and the orders are accepted (issue 31); the
same greeting signed into the file is refused with what to remove."""

from __future__ import annotations

from collections.abc import Callable

from referee.pbem.envelope import drop_greeting, normalise_body, open_envelope, sign_body
from referee.pbem.signing import sign_orders
from tests.pbem.conftest import Game

GREETING = "Hi ref,\n\nhere are my set-up orders. Good luck!\n\n"


def test_a_greeting_above_signed_orders_is_left_out_and_the_orders_accepted(
    make_game: Callable[..., Game],
) -> None:
    g = make_game()
    path = g.signed("NATO", ["place US-DD-1 0202", "place US-F4.2 0203"])
    path.write_text(GREETING + path.read_text() + "\n-- \nsent from my phone\n")
    env = open_envelope(path.read_text(), path.name)
    assert env.greeting == 3 and env.body.startswith("game: ")
    results = g.run(path)
    assert [r.status for r in results] == ["adjudicated"], results


def test_comments_above_the_headers_stay_signed() -> None:
    text = "# my set-up\ngame: g\nturn: 0\n"
    assert drop_greeting(text) == (text, 0)
    assert drop_greeting("Hi ref\n# my set-up\ngame: g\n") == ("# my set-up\ngame: g\n", 1)
    assert drop_greeting("no headers at all\n") == ("no headers at all\n", 0)


def test_a_greeting_signed_into_the_orders_says_what_to_remove(
    make_game: Callable[..., Game],
) -> None:
    g = make_game()
    key = g.keys["nato"]
    body = GREETING + "game: g1\nturn: 0\nside: NATO\n[setup]\nplace US-DD-1 0202\n"
    # signed greeting and all, as another tool would: the kept orders are not what was signed
    text = normalise_body(body) + sign_body(body, key).armour()
    env = open_envelope(text, "o.txt")
    assert env.greeting == 3 and not env.signed_by(key.public)
    hint = env.signature_hint(key.public)
    assert "lines 1-3 above the headers (a mail greeting)" in hint and "remove them" in hint
    # `referee sign` leaves the greeting out itself, and says so
    signed = sign_orders(body, "o.txt", key)
    assert "left out lines 1-3 above the headers (not orders)" in signed.notes
    assert signed.body.startswith("game: ")
