"""Whole naval campaigns by the scripted player, with the issue's invariants checked after every
step: no ship over its capacity [28.13], port capacity never negative (nor over the port's
capacity) [26.25], a sunk ship never returns (a transport only from the Cadre Box, Sailed with 2
damage at a major port [27.44]), a transport's passengers lost with it (eliminated unless they
went ashore first) [27.33], Sailed ships never moving in any step but a forced sortie [26.31],
[26.12b], no ship afloat past its Protection Rating or a flotilla at three damage [27.31],
[32.12], no flotilla Sailed [32.1], an air unit in the Flown Box never flying, a Reaction
Phase attack only on a ship at sea [31.22]. Each invariant is shown to fail on a doctored step."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from referee.engine.core import Event, GameState, SeededDice
from referee.engine.ruleset import get_ruleset
from referee.engine.steps import WithheldDice
from referee.rules.naval_module.context import Game, place, set_ship
from referee.rules.naval_module.movement import capacity_now
from referee.rules.naval_module.scripted import scripted_orders
from referee.rules.naval_module.ships import sinks_at
from referee.rules.naval_module.transport import points_28_13
from referee.rules.naval_module.work import Work
from referee.source.loader import load_module
from referee.source.model import Module

SRC = Path(__file__).resolve().parents[2] / "module_src" / "naval_module"


@cache
def module() -> Module:
    m, diags = load_module(SRC)
    assert m is not None, diags
    return m


def invariants(
    game: Game, before: GameState, after: GameState, events: tuple[Event, ...] = ()
) -> None:
    """Every property that holds after any step, rule by rule."""
    _cargo_holds(game, after)
    _sunk_stay_sunk(game, before, after)
    _sailed_ships_stay(before, after, events)
    _afloat_ships_are_whole(game, after)
    _ports_within_capacity(game, after)


def _cargo_holds(game: Game, after: GameState) -> None:
    """Cargo within capacity, aboard a ship in play, listed both ways [28.13]."""
    ships = after.data.get("ships") or {}
    for sid, facts in ships.items():
        s = game.ship(after, sid)
        cargo = list(facts.get("cargo", []))
        assert sum(points_28_13(game.unit(c)) for c in cargo) <= s.capacity, (sid, cargo)
        u = after.units[sid]
        if u.location is None:
            assert not cargo, f"{sid} is out of play with passengers {cargo}"
        for c in cargo:
            assert after.units[c].box == f"aboard:{sid}", (c, after.units[c])
    for uid, u in after.units.items():
        if (u.box or "").startswith("aboard:"):
            carrier = u.box[7:]  # type: ignore[index]
            assert after.units[carrier].location is not None, f"{uid} aboard sunk {carrier}"
            assert uid in ships.get(carrier, {}).get("cargo", []), uid


def _sunk_stay_sunk(game: Game, before: GameState, after: GameState) -> None:
    """A sunk ship stays sunk, but a transport may come back by repair [27.44]; passengers
    are lost with their ship [27.33]."""
    ships = after.data.get("ships") or {}
    for sid in before.data.get("sunk", []):
        u = after.units[sid]
        if before.units[sid].box == "eliminated" or not game.ship(after, sid).is_transport:
            assert u.location is None and u.box == "eliminated", f"{sid} came back"
        elif u.location is not None and before.units[sid].location is None:
            # a transport comes back from the Cadre Box only by repair: Sailed, 2 damage, at
            # a major port [27.44]
            f = ships[sid]
            assert u.location in game.ports, (sid, u.location)
            assert game.ports[u.location].type == "major_port", (sid, u.location)
            assert f["status"] == "sailed" and f["damage"] == 2 and not f["cargo"], (sid, f)
    for sid, facts in (before.data.get("ships") or {}).items():
        # a transport's passengers are lost with it [27.33]: every unit aboard a ship that
        # left play this step is eliminated unless it went ashore first
        if before.units[sid].location is not None and after.units[sid].location is None:
            for c in facts.get("cargo", []):
                u = after.units[c]
                assert u.location is not None or u.box == "eliminated", (sid, c, u)


def _sailed_ships_stay(before: GameState, after: GameState, events: tuple[Event, ...]) -> None:
    """Sailed ships never move [26.31] unless forced to sortie [26.12b]."""
    sortied = {e.data.get("ship") for e in events if e.kind == "forced_sortie"}
    for sid, facts in (before.data.get("ships") or {}).items():
        # Sailed ships never move, in any step [26.31]; only an enemy capture of their port
        # sends them out (turned Ready) [26.12b]; sinking takes them off the map
        was = before.units[sid].location
        if facts.get("status") == "sailed" and was is not None and sid not in sortied:
            now = after.units[sid].location
            assert now in (was, None), f"Sailed {sid} moved: {was} -> {now}"


def _afloat_ships_are_whole(game: Game, after: GameState) -> None:
    """In play means afloat [27.31], [32.12], [32.1]."""
    ships = after.data.get("ships") or {}
    for sid in ships:
        s = game.ship(after, sid)
        if after.units[sid].location is not None:
            # in play means afloat: damage at most the Protection Rating, a flotilla under
            # three [27.31], [32.12]; a flotilla has no Ready/Sailed status [32.1]
            assert s.damage < sinks_at(s), (sid, s.damage)
            assert not (s.is_flotilla and s.status == "sailed"), sid


def _ports_within_capacity(game: Game, after: GameState) -> None:
    """Transport points used at a port never exceed its capacity [26.25]."""
    w = Work(game, after, "", WithheldDice())
    for port, used in (after.data.get("port_used") or {}).items():
        assert used >= 0
        side = after.data["phasing"]
        cap = max(
            capacity_now(w, port, side, loading=True).value,
            capacity_now(w, port, side, loading=False).value,
        )
        assert used <= cap, (port, used, cap)


def flown_never_flies(game: Game, before: GameState, events: list) -> None:
    """An air unit in the Flown Box flies no mission until it is Ready again [31.13], [31.22],
    [31.26]; a Reaction Phase attack hits only a ship at sea [31.22]."""
    gone = {p for units in (before.data.get("flown") or {}).values() for p in units}
    for e in events:
        if e.kind == "shipping_attack":
            assert e.data["air"] not in gone, (e.data["air"], "flew from the Flown Box")
            if before.phase == "reaction":
                where = before.units[e.data["ship"]].location
                assert where is not None and where not in game.ports, where
        if e.kind == "interdiction" and before.phase == "interdiction":
            assert not set(e.data["units"]) & gone, (e.data["units"], "from the Flown Box")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scripted_campaigns_keep_the_invariants(seed: int) -> None:
    m = module()
    game = Game.of(m)
    rs = get_ruleset("naval_module")
    state = rs.new_game(m, "kerch_feodosia", f"prop-{seed}")
    seen: set[str] = set()
    for k in range(400):
        text = scripted_orders(rs, m, state)
        if text is None:
            break
        doc = rs.parse_orders(text, f"step-{k}.txt")
        assert not rs.validate(m, state, doc), text
        out = rs.resolve(m, state, doc, SeededDice(seed * 1000 + k))
        assert not out.violations
        invariants(game, state, out.state, out.events)
        flown_never_flies(game, state, list(out.events))
        seen.update(e.kind for e in out.events)
        seen.update(f"phase:{state.phase}" for _ in out.events[:1])
        state = out.state
    assert state.phase == "game_over"
    # the campaign exercised the rules the issue names
    assert {"readiness", "loss_roll", "load", "move", "interdiction", "flotilla_move"} <= seen, seen
    # the opposed box and its signed air combat [31.13], the Axis Reaction Phase [31.22]
    assert {"phase:aircombat_confirm", "phase:reaction", "no_opposition"} <= seen, seen


def _doctored(kind: str) -> tuple[GameState, GameState]:
    """A legal position and a position one step could never make from it."""
    m = module()
    game = Game.of(m)
    st = get_ruleset("naval_module").new_game(m, "kerch_feodosia", "bad")
    st = st.evolve(phase="movement", active_side="Soviet").with_data(phasing="Soviet")
    if kind == "sailed_moved":
        before = set_ship(st, "SU-DD-BO", status="sailed")
        return before, place(before, "SU-DD-BO", "Caucasus Sea Zone")
    if kind == "passengers_kept":
        before = place(st, "SU-INF-1330", None, "aboard:SU-T-GPB")
        before = set_ship(before, "SU-T-GPB", cargo=["SU-INF-1330"])
        after = place(before, "SU-T-GPB", None, "cadre")
        after = set_ship(after, "SU-T-GPB", cargo=[])
        return before, place(after, "SU-INF-1330", None, "unplaced")
    if kind == "flotilla_sailed":
        return st, set_ship(st, "SU-FL-AZ", status="sailed")
    if kind == "afloat_past_protection":
        return st, set_ship(st, "SU-CL-KK", damage=game.ship(st, "SU-CL-KK").protection + 1)
    if kind == "cadre_back_ready":
        before = place(st, "SU-T-GPB", None, "cadre").with_data(sunk=["SU-T-GPB"])
        before = set_ship(before, "SU-T-GPB", damage=3)
        return before, set_ship(place(before, "SU-T-GPB", "Sevastopol"), "SU-T-GPB", damage=2)
    raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind",
    [
        "sailed_moved",
        "passengers_kept",
        "flotilla_sailed",
        "afloat_past_protection",
        "cadre_back_ready",
    ],
)
def test_the_invariants_catch_a_broken_step(kind: str) -> None:
    """Each invariant can fail: a step that broke it would stop the campaign."""
    before, after = _doctored(kind)
    with pytest.raises(AssertionError):
        invariants(Game.of(module()), before, after)
