"""Naval Base units [32.2]: where they may be and what happens to them.

A Naval Base is a ground unit of type ``NB`` with no combat, artillery or stacking value
(``units.csv``). What the text gives, and where the referee applies it:

* it stands on a friendly controlled port hex, at most one per hex [32.21]: checked here for
  the scenario's set-up (:func:`setup_32_21`) and by ``movement.unload`` when one is landed;
* it increases the port's capacity from the Game-Turn after its placement [32.22]
  (``movement.capacity_now``); one set up with the scenario counts at once (NM-22); the
  increase goes with the base: once it is loaded on a ship it stands on no port hex;
* it moves only by naval transport or evacuation [32.23]: the referee moves ground units in no
  other way (the host game's rail and air transport never reach it), so a base only ever
  boards a ship in port (``movement.load``) and lands from one (``movement.unload``); it may
  not make an amphibious assault or a special transport [30.13a], [30.3];
* the text says nothing of a base whose port the enemy takes: it cannot retreat or move over
  land [32.23] and it is no longer on a friendly port [32.21], so it is eliminated when its
  port is captured (:func:`captured_32_2`, docs/interpretations.md NM-26).
"""

from __future__ import annotations

from referee.engine.core import GameState
from referee.engine.steps import WithheldDice
from referee.rules.naval_module.context import Game, place
from referee.rules.naval_module.movement import naval_bases_at, port_friendly
from referee.rules.naval_module.work import Work

NAVAL_BASE = "NB"


def setup_32_21(game: Game, state: GameState) -> list[str]:
    """What is wrong with the Naval Bases of a set-up: each on a port hex its side controls,
    at most one per hex [32.21]."""
    problems: list[str] = []
    seen: dict[tuple[str, str], str] = {}
    ports_by_hex = {sp.hex: name for name, sp in game.ports.items()}
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.location is None or game.unit(u.id).type != NAVAL_BASE:
            continue
        hex_id = game.hex_of(u.location)
        port = u.location if u.location in game.ports else ports_by_hex.get(hex_id or "")
        w = Work(game, state, u.side, WithheldDice())
        if port is None or not port_friendly(w, port, u.side):
            problems.append(
                f"the Naval Base {u.id} is set up at {u.location}, not on a port hex its side "
                "controls [32.21]"
            )
            continue
        key = (u.side, str(hex_id))
        if key in seen:
            problems.append(
                f"the Naval Bases {seen[key]} and {u.id} are both at {port}: at most one per "
                "port hex [32.21]"
            )
        seen.setdefault(key, u.id)
    return problems


def captured_32_2(w: Work, port: str, loser: str) -> None:
    """The enemy takes ``port``: the loser's Naval Base there is eliminated (NM-26)."""
    hex_id = w.game.hex_of(port) or ""
    for pid in naval_bases_at(w, hex_id, loser):
        w.state = place(w.state, pid, None, "eliminated")
        w.note(
            "base_lost",
            "32.21",
            f"{pid} is eliminated with {port}: a Naval Base stands only on a friendly port "
            "and moves only by naval transport [32.23]",
            unit=pid,
            port=port,
        )
