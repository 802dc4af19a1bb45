"""The bundled games as fuzzing material: every ruleset's positions, orders, answers,
game archives and module sources (issue 31).

:func:`real_world` plays each module source's first scenario a few steps with the ruleset's
own scripted player and keeps every position it passes through (``state.json``) with the
orders that were written for it, the positions that wait for an answer to a pending
decision, and a fresh signed game archive per module source. Built once per process; the
targets in :mod:`tests.fuzz.fuzz` mutate copies.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
SOURCES = ROOT / "module_src"
MAX_STEPS = 10  # scripted steps played per module source


@dataclass(frozen=True)
class Position:
    """One position of a real game: the module source, the state and orders written for it."""

    source: Path
    state: dict[str, Any]
    orders: str
    units: tuple[str, ...]


@dataclass
class RealWorld:
    positions: list[Position] = field(default_factory=list)
    pending: list[Position] = field(default_factory=list)  # positions awaiting an answer
    games: dict[str, Path] = field(default_factory=dict)  # module source name -> archive
    keys: dict[str, dict[str, Any]] = field(default_factory=dict)  # source -> side -> key
    referee_key: dict[str, Path] = field(default_factory=dict)  # source -> referee key file
    first: dict[str, Position] = field(default_factory=dict)  # source -> its first position
    sources: list[Path] = field(default_factory=list)


_WORLD: list[RealWorld] = []


def real_world() -> RealWorld:
    """The material, made once per process in a temporary folder removed at exit."""
    if not _WORLD:
        root = Path(tempfile.mkdtemp(prefix="referee-fuzz-real-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        _WORLD.append(_make(root))
    return _WORLD[0]


def _make(root: Path) -> RealWorld:
    from referee.source.loader import load_module

    w = RealWorld(sources=sorted(p for p in SOURCES.iterdir() if (p / "module.toml").is_file()))
    for src in w.sources:
        module, _ = load_module(src)
        assert module is not None, src
        _play(w, src, module)
        _archive(w, root / "games" / src.name, module, src)
    return w


def game_id(src: Path) -> str:
    return f"fuzz-{src.name}".replace("_", "-")


def _play(w: RealWorld, src: Path, module: Any) -> None:
    from referee.engine.orders import parse_orders
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.dice import CommittedDice

    rs = get_ruleset(module.ruleset)
    scenario = next(iter(module.scenarios))
    state = rs.new_game(module, scenario, game_id(src))
    examples = _example_orders(src)
    for k in range(MAX_STEPS):
        text = _next_orders(rs, module, state, examples, k)
        if text is None:
            break
        pos = Position(src, state.to_json(), text, tuple(sorted(state.units)))
        w.positions.append(pos)
        w.first.setdefault(src.name, pos)
        if state.pending:
            w.pending.append(pos)
        doc = parse_orders(text, "o.txt", rs.vocabulary)
        seed = hashlib.sha256(f"{src.name}:{k}".encode()).digest()
        dice = CommittedDice(seed, k, hashlib.sha256(text.encode()).hexdigest(), b"h" * 32)
        state = rs.resolve(module, state, doc, dice).state


def _example_orders(src: Path) -> list[str]:
    """The module source's example orders files in play order (``examples/NN-*.txt``), for a
    ruleset with no scripted player (a declared game), with this game's id in the header."""
    folder = src / "examples"
    files = sorted(folder.glob("[0-9][0-9]-*.txt")) if folder.is_dir() else []
    return [
        re.sub(r"^game: .*$", f"game: {game_id(src)}", f.read_text("utf-8"), count=1, flags=re.M)
        for f in files
    ]


def _next_orders(rs: Any, module: Any, state: Any, examples: list[str], k: int) -> str | None:
    """The orders for step ``k``: the ruleset's scripted player's, or the source's k-th
    example file where the ruleset has no scripted player; ``None`` when there are no more."""
    from referee.engine.ruleset import ScriptedPlayer

    if isinstance(rs, ScriptedPlayer):
        return rs.scripted_orders(module, state)
    return examples[k] if k < len(examples) else None


def _archive(w: RealWorld, game: Path, module: Any, src: Path) -> None:
    """A fresh game archive of ``module`` with one key per player (``create_game``)."""
    from referee.engine.ruleset import get_ruleset
    from referee.pbem.game import create_game, referee_sides
    from referee.pbem.keys import generate, write_key_pair

    automatic = referee_sides(get_ruleset(module.ruleset))
    keys = {s.id: generate(s.id.lower()) for s in module.sides if s.id not in automatic}
    ref = generate("ref")
    shutil.rmtree(game, ignore_errors=True)
    game.parent.mkdir(parents=True, exist_ok=True)
    create_game(
        game,
        module,
        scenario=next(iter(module.scenarios)),
        players={side: k.public for side, k in keys.items()},
        referee_key=ref,
        game_id=game_id(src),
        dice_length=16,
        referee_dir=game.parent / f"{game.name}-secret",
        seed_root=bytes(range(32)),
        picture_dpi=0,
    )
    w.games[src.name] = game
    w.keys[src.name] = keys
    w.referee_key[src.name] = write_key_pair(ref, game.parent / f"{game.name}-keys")[0]


def answers_text(pos: Position) -> str:
    """Orders answering every decision the position waits for (the first option each)."""
    head = [f"game: {pos.state['game_id']}", f"turn: {pos.state['turn']}"]
    pending = pos.state.get("pending") or []
    if pending:
        head.append(f"side: {pending[0]['side']}")
    lines = [*head, "", "[answer]"]
    for d in pending:
        options = d.get("options") or ["yes"]
        lines.append(f"answer {d['id']} {options[0]}")
    return "\n".join(lines) + "\n"


def write_state(pos: Position, doc: Any, where: Path) -> Path:
    p = where / "state.json"
    p.write_text(json.dumps(doc), encoding="utf-8")
    return p
