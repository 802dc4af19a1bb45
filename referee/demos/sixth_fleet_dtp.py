"""`make demo-dtp`: a signed play-by-email game under the DTP revised rules, in the North.

The variant of ``referee.demos.sixth_fleet_1975`` for the DTP rules
(``module_src/dtp_denmark_strait``, ruleset
``sixth_fleet_dtp``):

1. check the module source; build the VASSAL module, counter sheets and charts;
2. make the demo keys and a game of Iceland [DTP 11.31] -- the Denmark Strait scenario
   [DTP 11.3] with the Kiev TF and its Forgers starting within 3 hexes of Keflavik -- with a
   fixed dice seed root;
3. step by step, write each side's orders, sign them with the side's key and adjudicate them
   (``referee sign``, ``referee adjudicate``), until at least one whole Game-Turn is over and
   the game has shown a detection attempt [DTP 6.3], a combat phase of several impulses
   [DTP 8.2] with a bounce [DTP 8.232], a Hit Table result [DTP 8.52] and a readiness roll
   [DTP 9.23] (or the demo fails, saying what is missing);
4. verify the whole archive (``referee verify``: "replay matches"), write each side's game
   viewer, and list where everything is.

The orders are the ruleset's seeded scripted player's (``RULESET.scripted_orders``, the lawful
random player of the whole-game tests), except where :class:`Director` writes *directed*
orders so that the game shows a bounce, which random play never did: the side whose fighters
fly CAP over its own ships (the Forgers over the Kiev TF) holds them there; the other side's
strike aircraft that cannot fight air (AA 0, so [DTP 8.233] does not stop them) fly next to
that stack and strike it; the defender bounces every strike that makes contact with every
fighter allowed; and, until a Hit Table result has been seen, each impulse makes the attack
with the best differential on offer. Every directed order is picked from what the ruleset's
``options`` lists for a unit (the moves, detection attempts and attacks its own checks
accept) and kept only if ``validate`` accepts the whole file; no die is ever assumed: the dice
follow the signed record, and the director reads each new position before choosing, so
whatever the dice do (contact missed, a striker aborted) it plays on, and the demo fails only
if the game ends without every event.

Deterministic like ``make demo`` (fixed public keys and seed root: demo only). Usage:
``python -m referee.demos.sixth_fleet_dtp [OUT_DIR] [--no-play-aids]`` (default ``build/demo-dtp``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.demos import base
from referee.engine.board import HexBoard
from referee.engine.core import GameState
from referee.engine.ruleset import get_ruleset
from referee.source.model import Module, UnitDef

GAME = base.Game(
    "under the DTP rules",
    base.ROOT / "module_src" / "dtp_denmark_strait",
    "iceland",
    "dtp-demo",
    "referee demo: DTP revised rules, game dtp-demo",
)
DEFAULT_OUT = base.BUILD / "demo-dtp"
OUT_ENV = "REFEREE_DEMO_DTP_DIR"
MAX_STEPS = 300
WANTED = {
    "detect": "a detection attempt [DTP 6.3]",
    "bounce": "a bounce [DTP 8.232]",
    "hit": "a Hit Table result [DTP 8.52]",
    "readiness": "a readiness roll [DTP 9.23]",
}
MIN_IMPULSES = 2
"""Impulses [DTP 8.2] the combat phase with the bounce must have (attacks, strikes, passes)."""
STRENGTH_8_43 = {"surface": "AS", "submarine": "ASW", "air": "AA"}
"""The attack strength used against each target category [8.43, kept by DTP]."""


class Director:
    """The demo's directed player: orders chosen from the ruleset's ``options`` and the
    position, each file checked by ``validate`` before it is used (module docstring)."""

    def __init__(self, module: Module) -> None:
        self.module = module
        self.rs = get_ruleset(module.ruleset)
        self.board = HexBoard(module.map)
        self.pieces: dict[str, UnitDef] = {pid: p.unit for pid, p in module.pieces().items()}

    # ---- reading the position ---------------------------------------------------------------
    def value(self, pid: str, key: str) -> int:
        return int(self.pieces[pid].values.get(key, 0))

    def category(self, pid: str) -> str:
        return self.pieces[pid].category

    def fighter(self, pid: str) -> bool:
        return self.category(pid) == "air" and self.value(pid, "AA") > 0

    def bait(self, state: GameState) -> tuple[str, str] | None:
        """(defender, hex): the first hex (by id) where a side's fighters fly over its own
        surface ships -- CAP that may bounce a strike on them [DTP 8.232, 8.233]."""
        for hex_id in sorted(state.stacks):
            stack = state.stacks[hex_id]
            for side in sorted({state.units[u].side for u in stack}):
                own = [u for u in stack if state.units[u].side == side]
                if any(self.fighter(u) for u in own) and any(
                    self.category(u) == "surface" for u in own
                ):
                    return side, hex_id
        return None

    def strikers(self, state: GameState, side: str) -> list[str]:
        """``side``'s air units with no air strength but a strike one: CAP does not stop them
        [DTP 8.233]."""
        return sorted(
            u
            for u, s in state.units.items()
            if s.side == side
            and s.location is not None
            and self.category(u) == "air"
            and self.value(u, "AA") == 0
            and self.value(u, "AS") > 0
        )

    def options(self, state: GameState, unit: str) -> dict[str, Any]:
        return dict(self.rs.options(self.module, state, unit, limit=0).data)  # type: ignore[attr-defined]

    def legal(self, head: str, state: GameState, lines: Sequence[str]) -> bool:
        """``validate`` accepts the file with these lines (and reads every one of them)."""
        text = head + "".join(f"{x}\n" for x in lines)
        return base.accepted(self.rs, self.module, state, text, len(lines))

    def keep(self, head: str, state: GameState, lines: list[str], cands: Sequence[str]) -> None:
        """Add each candidate the file still accepts, in order."""
        for cand in cands:
            if self.legal(head, state, [*lines, cand]):
                lines.append(cand)

    # ---- choosing --------------------------------------------------------------------------
    def orders(self, state: GameState, seen: set[str]) -> str | None:
        """The orders text for the step ``state`` awaits (``None``: the game is over)."""
        text = self.rs.scripted_orders(self.module, state)  # type: ignore[attr-defined]
        if text is None:
            return None
        head = text[: text.index("]\n") + 2]  # header and the section line
        side = base.example_side(text)
        body = self.directed(head, state, side, seen)
        return text if body is None else head + "".join(f"{x}\n" for x in body)

    def directed(self, head: str, state: GameState, side: str, seen: set[str]) -> list[str] | None:
        """The directed lines for this step, or ``None`` to play the scripted ones."""
        phase = state.phase
        plan = None if "bounce" in seen else self.bait(state)
        if plan is not None:
            defender, hex_id = plan
            if phase.endswith("movement_a") or phase.endswith("movement_b"):
                if side == defender:
                    return self.hold(head, state, side)
                if phase.startswith("air"):
                    return self.close_in(head, state, side, hex_id)
            if phase == "combat":
                strike = state.data.get("strike")
                if strike and side == defender:
                    return self.bounce(head, state, side, list(strike["units"]))
                if not strike and side != defender:
                    picked = self.strike(head, state, side, hex_id)
                    if picked is not None:
                        return picked
                if not strike:
                    return self.best_attack(head, state, side, spare_fighters=side == defender)
        if phase == "combat" and not state.data.get("strike") and "hit" not in seen:
            return self.best_attack(head, state, side, spare_fighters=False)
        return None

    def detections(self, head: str, state: GameState, side: str, lines: list[str]) -> None:
        """Every detection attempt the options list for ``side``'s units [DTP 6.2, 6.3]."""
        for u in sorted(u for u, s in state.units.items() if s.side == side and s.location):
            found = self.options(state, u)["detections"]
            self.keep(head, state, lines, [d["order"] for d in found])

    def hold(self, head: str, state: GameState, side: str) -> list[str]:
        """The defender's movement phase: detection attempts only; the TF stays under its CAP
        and the fighters stay over it [DTP 6.2, 8.233]."""
        lines: list[str] = []
        self.detections(head, state, side, lines)
        return lines

    def close_in(self, head: str, state: GameState, side: str, hex_id: str) -> list[str] | None:
        """The attacker's air movement: each striker to the cheapest hex next to the bait it
        may end in [5.23, DTP 5.25], then its detection attempts on the ships there [DTP 6.2a]."""
        lines: list[str] = []
        self.detections(head, state, side, lines)
        movers: list[str] = []
        for u in self.strikers(state, side):
            ends = [
                m
                for m in self.options(state, u)["moves"]
                if self.board.distance(m["hex"], hex_id) == 1
            ]
            for m in sorted(ends, key=lambda m: (m["mp"], m["hex"])):
                if self.legal(head, state, [*lines, m["order"]]):
                    lines.append(m["order"])
                    movers.append(u)
                    break
        if not movers:
            return None
        ships = sorted(
            u
            for u in state.stacks.get(hex_id, ())
            if state.units[u].side != side and self.category(u) == "surface"
        )
        self.keep(head, state, lines, [f"detect {u} -> {t}" for u in movers for t in ships])
        return lines

    def strike(self, head: str, state: GameState, side: str, hex_id: str) -> list[str] | None:
        """A strike on the bait's ships by a striker, on the weakest DEF it may reach
        [DTP 8.15, 8.2]; ``None`` when none is on offer."""
        cands: list[tuple[int, str]] = []
        for u in self.strikers(state, side):
            for a in self.options(state, u)["attacks"]:
                if a["hex"] == hex_id and self.category(a["target"]) == "surface":
                    cands.append((self.value(a["target"], "DEF"), a["order"]))
        for _, order in sorted(cands):
            if self.legal(head, state, [order]):
                return [order]
        return None

    def bounce(self, head: str, state: GameState, side: str, strikers: list[str]) -> list[str]:
        """Every fighter allowed bounces the strike that made contact [DTP 8.232]."""
        lines: list[str] = []
        fighters = sorted(
            u
            for u, s in state.units.items()
            if s.side == side and s.location is not None and self.fighter(u)
        )
        self.keep(head, state, lines, [f"bounce {f} -> {' '.join(strikers)}" for f in fighters])
        return lines

    def best_attack(
        self, head: str, state: GameState, side: str, *, spare_fighters: bool
    ) -> list[str]:
        """The impulse's attack with the best differential (the attackers' strength against
        the target's category [8.43] minus its DEF) above 0, on ships and subs first (only
        they roll on the Hit Table [DTP 8.52]; air aborts [DTP 8.51]); else a pass [DTP 8.2].
        Attacks on bases and Defended hexes [DTP 10.44] are left to the scripted player. Each
        attack one unit's options list, or the units of one hex whose options all list
        the same attack on the same target, together [8.12] (kept only if ``validate`` accepts
        it). ``spare_fighters``: the defender keeps its fighters for bounces."""
        groups: dict[tuple[str, str, str], list[str]] = {}
        for u in sorted(u for u, s in state.units.items() if s.side == side and s.location):
            if spare_fighters and self.fighter(u):
                continue
            for a in self.options(state, u)["attacks"]:
                if a["target"].startswith("hex:"):  # a base [DTP 10.44]: the demo seeks ships
                    continue
                verb, mode = a["order"].split()[0], a["order"].split("->")[1].split()[1:]
                if not mode:  # the plain form; a first strike is one unit's [DTP 8.231]
                    groups.setdefault((verb, a["target"], state.units[u].location or ""), [])
                    groups[(verb, a["target"], state.units[u].location or "")].append(u)
        cands: list[tuple[bool, int, str]] = []
        for (verb, t, _), units in groups.items():
            stat = STRENGTH_8_43[self.category(t)]
            for team in ([units] if len(units) > 1 else []) + [[u] for u in units]:
                diff = sum(self.value(u, stat) for u in team) - self.value(t, "DEF")
                cands.append((self.category(t) == "air", -diff, f"{verb} {' '.join(team)} -> {t}"))
        for _, neg, order in sorted(cands):
            if neg < 0 and self.legal(head, state, [order]):
                return [order]
        return ["pass"]


SHOWN = ("detect", "contact", "bounce", "attack", "hit", "abort", "pass", "readiness")


class Directed(base.Player):
    """The :class:`Director`'s orders until Game-Turn 1 is over and every event of
    :data:`WANTED` has happened; it notes the kinds of event seen and, per Game-Turn, the
    impulses of the combat phase [DTP 8.2] (``state.data["impulses"]["count"]``)."""

    shown_kinds = SHOWN

    def __init__(self, director: Director) -> None:
        self.director = director
        self.seen: set[str] = set()
        self.impulses: dict[int, int] = {}
        self.bounce_turn: int | None = None
        self.max_steps = MAX_STEPS

    def orders(self, state: GameState) -> str | None:
        if state.turn > 1 and self.done():
            return None
        return self.director.orders(state, self.seen)

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        kinds = {e.get("kind", "") for e in report.get("events") or []}
        if "bounce" in kinds and self.bounce_turn is None:
            self.bounce_turn = state.turn
        self.seen |= kinds
        if state.phase == "combat":
            after = json.loads((folder / "state.json").read_text("utf-8"))
            count = int(((after.get("data") or {}).get("impulses") or {}).get("count", 0))
            self.impulses[state.turn] = max(self.impulses.get(state.turn, 0), count)

    def done(self) -> bool:
        """Every wanted event, and the bounce's combat phase had :data:`MIN_IMPULSES`."""
        return (
            all(w in self.seen for w in WANTED)
            and self.bounce_turn is not None
            and self.impulses.get(self.bounce_turn, 0) >= MIN_IMPULSES
        )

    def lacking(self) -> list[str]:
        """What the game has not shown yet."""
        lacking = [what for w, what in WANTED.items() if w not in self.seen]
        if not self.done():
            lacking.append(f"a combat phase of {MIN_IMPULSES} impulses with the bounce [DTP 8.2]")
        return lacking


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game = GAME) -> list[str]:
    """Orders, signed and adjudicated, until Game-Turn 1 is over and every event of
    :data:`WANTED` has happened (:class:`Directed`); what the game did not show."""
    from referee.source.loader import load_module

    module, _ = load_module(game.src)
    assert module is not None
    player = Directed(Director(module))
    base.play_steps(out, game, game_dir, keys, secret, player)
    return player.lacking()


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    return base.run_demo(
        out, GAME.on_seed(seed), play, play_aids_too=play_aids_too, with_viewers=True
    )


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
