"""`make demo-westpac`: a signed play-by-email game of Westpac [DTP 11.5], the DTP rules' third
scenario, on the Western Pacific map.

The variant of ``referee.demos.sixth_fleet_dtp`` for ``module_src/dtp_westpac`` (ruleset
``sixth_fleet_dtp``; East Block is player A, SEATO player B [DTP 11.502]):

1. check the module source; build the VASSAL module, counter sheets and charts (the scenario's
   readiness chart and victory table [DTP 11.5124] among them);
2. make the demo keys and a game of the scenario with a fixed dice seed root;
3. step by step, write each side's orders, sign them with the side's key and adjudicate them
   (``referee sign``, ``referee adjudicate``), until the game has shown the four things the
   scenario adds to the DTP rules (or the demo fails, saying what is missing):

   * **PRC entry** [DTP 11.51021]: the East Block announces hostilities and the PRC's entry at
     the beginning of Game-Turn 1 [DTP 11.5101];
   * **a convoy docking** [DTP 11.50922]: the Soviet AK #78 sails from Sovetskaya Gavan to
     Korsakov (4227), a destination of the victory table [DTP 11.5124], and is set aside there
     with its points at the start of the East Block's next ship and sub movement;
   * **an amphibious landing** [DTP 11.50942]: the LPH Okinawa (US #28) sails from Sasebo
     (2748) to Pohang (2744), a South Korean destination of the victory table, and lands its
     troops at the start of SEATO's next ship and sub movement;
   * **a reinforcement phase** [DTP 11.5041, 11.506]: on AM Game-Turn 4, the first turn of
     the reinforcement track, the East Block then SEATO place the track's units and the
     variable air unit [DTP 11.5063, 11.5065, 11.507], before any movement;

4. verify the whole archive (``referee verify``: "replay matches"), write each side's game
   viewer, and list where everything is.

The orders are the ruleset's seeded scripted player's (``RULESET.scripted_orders``, the lawful
random player of the whole-game tests), except where :class:`WestpacDirector` writes
*directed* ones: the announcement (``commence``, ``commence prc``), a move for each of the
two ships above in its side's ship and sub movement (of the moves the ruleset's ``options``
lists for it, the one ending nearest its destination) and ``pass`` in every combat impulse
[DTP 8.2]. Passing keeps the game short: a Westpac step costs seconds of CPU (the map is 60 x
73 hexes with some 400 pieces: ``docs/performance.md``), so the demo plays the 30 or so steps
the four events need and no more. Every directed file is kept only if ``validate`` accepts it;
no die is assumed: the director reads each new position before choosing.

Deterministic like ``make demo`` (fixed public keys and seed root: demo only). Usage:
``python -m referee.demos.dtp_westpac [OUT_DIR] [--no-play-aids]`` (default
``build/demo-westpac``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.demos import base
from referee.demos.sixth_fleet_dtp import Director
from referee.engine.core import GameState

GAME = base.Game(
    "of Westpac [DTP 11.5]",
    base.ROOT / "module_src" / "dtp_westpac",
    "westpac",
    "westpac-demo",
    "referee demo: DTP Westpac, game westpac-demo",
    {"EastBlock": "eastblock", "SEATO": "seato"},
)
DEFAULT_OUT = base.BUILD / "demo-westpac"
OUT_ENV = "REFEREE_DEMO_WESTPAC_DIR"
MAX_STEPS = 60
"""The four events come by about step 30; a game past this has gone wrong."""

VOYAGES = {
    "SO-AK-78": "4227",  # Sovetskaya Gavan to Korsakov: an AK destination [DTP 11.5124]
    "US-LPH-28": "2744",  # Sasebo to Pohang: a USN landing in South Korea [DTP 11.5124]
}
"""The directed ships and the destination hex each sails for."""


@dataclass(frozen=True, slots=True)
class Wanted:
    """One thing the demo must show: its name, and the cases of the events that show it."""

    what: str
    cases: tuple[str, ...]


WANTED = {
    "prc": Wanted("PRC entry", ("DTP 11.51021",)),
    "dock": Wanted("a convoy docking", ("DTP 11.50922",)),
    "landing": Wanted("an amphibious landing", ("DTP 11.50942",)),
    "reinforcement": Wanted(
        "a reinforcement phase", ("DTP 11.5063", "DTP 11.5064", "DTP 11.5065", "DTP 11.507")
    ),
}


def shows(event: dict[str, Any]) -> str | None:
    """Which of :data:`WANTED` a report's event shows (``None``: none of them)."""
    kind, rule = event.get("kind"), event.get("rule")
    if kind == "hostilities" and rule in WANTED["prc"].cases:
        return "prc"
    if kind == "unload" and rule in WANTED["dock"].cases:
        return "dock"
    if kind == "unload" and rule in WANTED["landing"].cases:
        return "landing"
    if kind == "reinforce" and rule in WANTED["reinforcement"].cases:
        return "reinforcement"
    return None


class WestpacDirector(Director):
    """The demo's directed player (module docstring): the announcement, the voyages of
    :data:`VOYAGES` and a pass in every combat impulse; the scripted player's orders for the
    rest. Reuses :class:`~referee.demos.sixth_fleet_dtp.Director`'s reading of the position
    and its ``validate`` check."""

    def orders(self, state: GameState, seen: set[str]) -> str | None:
        """The orders text for the step ``state`` awaits (``None``: the game is over)."""
        text = self.rs.scripted_orders(self.module, state)  # type: ignore[attr-defined]
        if text is None:
            return None
        head, rest = text.split("]\n", 1)
        head += "]\n"  # the header and the section line
        scripted = [x.strip() for x in rest.splitlines() if x.strip()]
        body = self.westpac(head, state, base.example_side(text), scripted)
        return text if body is None else head + "".join(f"{x}\n" for x in body)

    def westpac(
        self, head: str, state: GameState, side: str, scripted: list[str]
    ) -> list[str] | None:
        """The directed lines for this step, or ``None`` to play the scripted ones."""
        if state.phase == "hostilities":
            lines: list[str] = []
            self.keep(head, state, lines, ["commence", "commence prc"])  # [DTP 11.5101]
            return lines
        if state.phase == "combat":
            return ["pass"]  # [DTP 8.2]: the demo seeks no battle
        if state.phase.startswith("ship_movement"):
            return self.voyages(head, state, side, scripted)
        return None

    def voyages(
        self, head: str, state: GameState, side: str, scripted: list[str]
    ) -> list[str] | None:
        """The scripted file without its lines for ``side``'s ships of :data:`VOYAGES`, and
        for each of them the listed move ending nearest its destination."""
        mine = {
            u
            for u in VOYAGES
            if u in state.units
            and state.units[u].side == side
            and state.units[u].location not in (None, VOYAGES[u])
        }
        lines = [x for x in scripted if not set(x.split()) & mine]
        if not mine or not self.legal(head, state, lines):
            return None  # nothing to sail, or the file needed one of those lines
        for u in sorted(mine):
            there = VOYAGES[u]
            moves = self.options(state, u)["moves"]
            ranked = sorted(
                moves, key=lambda m: (self.board.distance(m["hex"], there), m["mp"], m["hex"])
            )
            for m in ranked:
                if self.legal(head, state, [*lines, m["order"]]):
                    lines.append(m["order"])
                    break
        return lines


SHOWN = ("hostilities", "unload", "unload-barred", "reinforce", "delay")


class Directed(base.Player):
    """The :class:`WestpacDirector`'s orders until every event of :data:`WANTED` has
    happened and the reinforcement phase is over; for each wanted thing seen, it keeps the
    lines that show it (``turns/NNN: text [case]``)."""

    shown_kinds = SHOWN

    def __init__(self, director: WestpacDirector) -> None:
        self.director = director
        self.found: dict[str, list[str]] = {}
        self.max_steps = MAX_STEPS

    def orders(self, state: GameState) -> str | None:
        if len(self.found) == len(WANTED) and not state.phase.startswith("reinforcement"):
            return None
        return self.director.orders(state, set(self.found))

    def heard(self, state: GameState, folder: Path, report: dict[str, Any]) -> None:
        for ev in report.get("events") or []:
            what = shows(ev)
            if what is not None:
                line = f"{folder.parent.name}/{folder.name}: {ev['text']} [{ev['rule']}]"
                self.found.setdefault(what, []).append(line)


def play(out: Path, game_dir: Path, keys: Path, secret: Path, game: base.Game = GAME) -> list[str]:
    """Orders, signed and adjudicated, until every event of :data:`WANTED` has happened and
    the reinforcement phase is over (:class:`Directed`); prints where each was shown and
    returns what the game did not show."""
    from referee.source.loader import load_module

    module, _ = load_module(game.src)
    assert module is not None
    player = Directed(WestpacDirector(module))
    base.play_steps(out, game, game_dir, keys, secret, player)
    shown_events(player.found)
    return [w.what for key, w in WANTED.items() if key not in player.found]


def shown_events(found: dict[str, list[str]]) -> None:
    """Where the game showed each wanted thing: the report and the event, with its case."""
    print("\n== What the game showed, and where (each event as its report gives it)")
    for key, wanted in WANTED.items():
        print(f"   {wanted.what}:")
        for line in found.get(key, []):
            print(f"      {line}")


def demo(out: Path, *, play_aids_too: bool = True, seed: int | None = None) -> Path:
    """Run the whole demo into ``out``; returns the game archive folder."""
    return base.run_demo(
        out, GAME.on_seed(seed), play, play_aids_too=play_aids_too, with_viewers=True
    )


def main(argv: Sequence[str] | None = None) -> int:
    return base.demo_main(argv, __name__)


if __name__ == "__main__":
    raise SystemExit(main())
