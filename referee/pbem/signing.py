"""``referee sign``: a player signs an orders file, with its envelope filled in.

With ``--game-dir GAME_DIR`` the envelope is checked and completed from the archive: ``game:``
and ``side:`` (the side whose key signs) and ``turn:`` are added when missing and must agree
when present; ``previous-report:`` is set to the SHA-256 of the latest report; in a game with
player nonces, ``nonce:`` and ``nonce-commit:`` are set from the key
(:mod:`referee.pbem.nonces`). An existing signature block is replaced (the body is signed
again).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.errors import UserError
from referee.numerals import HINT, read_whole, shown, why_not
from referee.pbem import nonces
from referee.pbem.archive import Archive, sha256_hex
from referee.pbem.envelope import (
    Header,
    Signature,
    drop_greeting,
    normalise_body,
    read_header,
    set_header,
    sign_body,
    split_block,
)
from referee.pbem.keys import PrivateKey
from referee.pbem.ledger import ledger


@dataclass(frozen=True, slots=True)
class _Where:
    turn: int
    active_side: str | None


@dataclass(frozen=True, slots=True)
class Signed:
    body: str
    block: Signature
    notes: tuple[str, ...]

    @property
    def text(self) -> str:
        return self.body + self.block.armour()


def sign_orders(text: str, file: str, key: PrivateKey, game_dir: Path | None = None) -> Signed:
    above, old = split_block(text, file)
    notes: list[str] = []
    if old is not None:
        notes.append("replaced the old signature block")
    above, greeting = drop_greeting(above)  # what the referee would leave out unsigned
    if greeting:
        notes.append(f"left out lines 1-{greeting} above the headers (not orders)")
    body = normalise_body(above)
    if game_dir is not None:
        body = _fill_envelope(body, file, key, Archive(game_dir), notes)
    return Signed(body, sign_body(body, key), tuple(notes))


def _fill_envelope(
    body: str, file: str, key: PrivateKey, archive: Archive, notes: list[str]
) -> str:
    archive.require()
    cfg = archive.config()
    side = cfg.side_of(key.public.fingerprint)
    if side is None:
        raise UserError(
            f"{key.name}.key is not a player key of game {cfg.game_id}",
            hint="players: " + ", ".join(f"{s} {k.short}" for s, k in sorted(cfg.players.items())),
        )
    turns = archive.turn_dirs()
    report_bytes = archive.read(turns[-1].path / "report.json")
    latest = sha256_hex(report_bytes)
    # the published report says where the game stands (a game that hides information
    # publishes no state.json)
    after = (archive.read_json(turns[-1].path / "report.json").get("after")) or {}
    turn = read_whole(after.get("turn", 0))
    if turn is None:
        raise UserError(
            f"turns/{turns[-1].name}/report.json: $.after.turn: expected a Game-Turn number, "
            f"got {shown(after.get('turn'))}",
            hint="the game folder is damaged: run referee verify on it",
        )
    state = _Where(turn, after.get("active_side"))
    h = read_header(body)
    if "turn" in h.lines and h.turn is None:
        written = h.turn_written
        raise UserError(
            f"{file}:{h.lines['turn']}: expected a Game-Turn number after 'turn:', got "
            f"{shown(written)}{why_not(written)}",
            hint=f"{HINT}; the game is at Game-Turn {state.turn}",
        )
    for name, have, want in (
        ("game", h.game, cfg.game_id),
        ("side", h.side, side),
        ("turn", None if h.turn is None else str(h.turn), str(state.turn)),
    ):
        if have is None:
            body = set_header(body, name, want)
            notes.append(f"added '{name}: {want}'")
        elif have != want and name == "side":
            raise UserError(
                f"{file}:{h.lines.get(name, 1)}: these orders are for {have}, but "
                f"{key.name}.key is {want}'s key in game {cfg.game_id}",
                hint=f"sign {have}'s orders with {have}'s key",
            )
        elif have != want:
            raise UserError(
                f"{file}:{h.lines.get(name, 1)}: '{name}: {have}' does not match game "
                f"{cfg.game_id} ({name} should be {want})",
                hint=f"the game waits for {state.active_side} in Game-Turn {state.turn}",
            )
    if h.previous_report != latest:
        body = set_header(body, "previous-report", latest)
        notes.append(f"set 'previous-report:' to turns/{turns[-1].name}")
    if cfg.player_nonces:
        body = _fill_nonces(body, file, key, archive, cfg.game_id, side, h, notes)
    return normalise_body(body)


def _fill_nonces(
    body: str,
    file: str,
    key: PrivateKey,
    archive: Archive,
    game_id: str,
    side: str,
    h: Header,
    notes: list[str],
) -> str:
    """Reveal this side's last committed nonce and commit to the next, both derived from the
    key (``docs/dice.md``), so they need not be stored anywhere. Headers the player wrote
    himself are kept when they are valid (a nonce of his own making)."""
    turns = archive.turn_dirs()
    led = ledger(
        len(turns),
        lambda i: archive.read_json(turns[i].path / "report.json").get("orders"),
        lambda i: sha256_hex(archive.read(turns[i].path / "report.json")),
        "report",
    )
    mine = led.get(side, [])
    i = len(mine)
    if not i and h.nonce is not None:
        raise UserError(
            f"{file}:{h.lines.get('nonce', 1)}: 'nonce:' in {side}'s first orders of the game: "
            "there is nothing to reveal yet",
            hint="remove the 'nonce:' line",
        )
    if i and (h.nonce is None or nonces.commit_of_or_none(h.nonce) != mine[-1]):
        derived = nonces.derive_nonce(key, game_id, side, i - 1)
        if nonces.commit_of(derived) != mine[-1]:
            raise UserError(
                f"{side}'s previous orders committed to a nonce that this key does not derive "
                "and this file does not reveal",
                hint="they were signed with other tools: put the nonce you committed to in a "
                "'nonce:' header yourself",
            )
        body = set_header(body, "nonce", derived)
        notes.append(f"set 'nonce:' (reveals dice nonce {i - 1} of {side})")
    used = set(mine)
    own = h.nonce_commit
    if own is None or not nonces.HEX64.match(own) or own in used:
        fresh = nonces.commit_of(nonces.derive_nonce(key, game_id, side, i))
        body = set_header(body, "nonce-commit", fresh)
        notes.append(f"set 'nonce-commit:' (dice nonce {i} of {side}, derived from the key)")
    return body
