"""[DTP 8.57] victory points with fractions, and SPI's levels of victory [13.2] as half-open
bands (digest 9.10).

A ship, sub or base scores its full value when sunk or destroyed, 1/4 of it at D1 and 1/2 at
D2; an air unit not back on the map counts as eliminated (units unable to rebase, NATO units
diverted to another NATO nation's base); all fractions are kept [DTP 8.57]. The full value is
SPI's [13.0] (reused from the SPI ruleset through the module's roster: the ECM).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from typing import Any

from referee.engine.core import GameState
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.victory import bonus_holds_13_1, unit_vp_13_0
from referee.rules.sixth_fleet_dtp import denmark_strait
from referee.rules.sixth_fleet_dtp.exits import EXITED
from referee.rules.sixth_fleet_dtp.facts import facts_of
from referee.source.diagnostics import Diagnostic
from referee.source.model import Module, VictoryBonus

DAMAGE_SHARE_8_57 = {0: Fraction(0), 1: Fraction(1, 4), 2: Fraction(1, 2)}


def unit_vp_8_57(full_value: int, damage: int, sunk_at: int = 3) -> Fraction:
    """The VP a damaged or sunk unit scores [DTP 8.57]."""
    if damage >= sunk_at:
        return Fraction(full_value)
    return full_value * DAMAGE_SHARE_8_57.get(damage, Fraction(0))


def base_vp_8_57(ecm: int, level: int) -> Fraction:
    """The VP a damaged or destroyed base or Defended hex scores [DTP 8.57]: 1/4 at D1, 1/2
    at D2, the full value at D3. Its full value is its ECM, an ECM-0 base 1: the kit's only
    schedule that values bases, Westpac's [11.5121] ("destroyed base or defended hex: ECM
    value (0 ECM = 1vp)"; D2 1/2 ECM; D1 1/4 ECM), with the ECM-0 value also halved and
    quartered (interpretation DTP-43). The Med's [13.0], Denmark Strait's and Iceland's
    schedules give bases no points, so their score does not add it."""
    return unit_vp_8_57(max(ecm, 1), level)


def level_13_2(module: Module, net: Fraction) -> str:
    """The level of victory for a net VP (Soviet minus NATO), SPI's whole-number bands read
    as half-open: a band ``min..max`` holds ``min <= net < max + 1`` (digest 9.10: a Draw is
    >= 0 and < 21; NATO Marginal -15..-1 is >= -15 and < 0, so -15.5 is NATO Substantive).
    The bands are the module's victory table [13.2]."""
    t = module.tables["victory"]
    rc = t.column("result")
    for r, key in enumerate(t.row_keys):
        lo, hi = key.lo, key.hi
        if (lo is None or net >= lo) and (hi is None or net < hi + 1):
            return str(t.cells[r][rc])
    raise ValueError(f"net VP {net} is in no band of the victory table")


# ---- the whole score: units, the scenario's bonuses, the level ---------------------------------
def scoring_sides(module: Module) -> dict[str, frozenset[str]] | None:
    """Which categories of enemy unit score for each side (``victory_units`` table), or None
    when every unit scores [13.0]. Denmark Strait: NATO scores only Soviet subs and air units,
    not surface ships, not even Kiev [DTP 11.3 victory 2, 4]."""
    t = module.tables.get("victory_units")
    if t is None:
        return None
    c = t.column("scores")
    return {k.text: frozenset(str(t.cells[r][c]).split()) for r, k in enumerate(t.row_keys)}


def unit_score_8_57(full_value: int, damage: int, lost: bool, flags: frozenset[str]) -> Fraction:
    """One enemy unit's VP: the convoy one elimination per 3 damage levels, D12 (sunk) four
    [DTP 11.3 rule 7]; any other unit its full value when lost, 1/4 at D1, 1/2 at D2
    [DTP 8.57]."""
    if denmark_strait.CONVOY_FLAG in flags:
        level = max(damage, denmark_strait.CONVOY_SUNK_AT) if lost else damage
        return denmark_strait.convoy_vp_11_3_7(level, full_value)
    return Fraction(full_value) if lost else unit_vp_8_57(full_value, damage)


def bonus_holds_11_3(state: GameState, b: VictoryBonus) -> bool:
    """The North Atlantic bonus conditions on the facts ``north_atlantic.py`` records
    [DTP 11.3 victory, 11.31 rule 8]."""
    p = b.params
    watched = facts_of(state).watched.get(b.id) or {}
    if b.condition == "no_unit_entered":  # no US CV TF ever enters 2603 (Soviet +20)
        return "entered" not in watched
    if b.condition == "unit_held":  # a US CV held 2603 with its air on CAP only (NATO +20)
        return "held" in watched
    if b.condition == "occupied":  # Tromso or Keflavik occupied at any time (Soviet +10)
        return str(p.get("place")) in facts_of(state).ever_occupied
    if b.condition == "occupied_at_end":  # Iceland: Keflavik held at the end (Soviet +10)
        return str(p.get("place")) in facts_of(state).occupied
    if b.condition == "convoy_docked":  # Tromso +20, Trondheim +10 (NATO)
        return (facts_of(state).docked or {}).get("port") == p.get("port")
    return False


def score_8_57(game: Game, state: GameState) -> dict[str, Any]:
    """[DTP 8.57] VP with fractions kept, the units that score by the scenario's table, the
    scenario's bonuses (SPI's [13.1] conditions and the North Atlantic ones), and the level:
    the scenario's ``victory_levels`` bands if the module has them (Denmark Strait: most
    points wins, NATO wins ties [DTP 11.3 victory 3]), else SPI's [13.2] as half-open bands."""
    vp: dict[str, Fraction] = {s: Fraction(0) for s in game.sides}
    lost = {
        loss["unit"]: str(loss.get("rule", ""))
        for loss in (facts_of(state).losses or ())
        if loss.get("scores", True)
    }
    damage = facts_of(state).damage
    scores = scoring_sides(game.module)
    # each scoring unit for the report's loss table, by the side it scores for
    destroyed: dict[str, list[dict[str, Any]]] = {s: [] for s in game.sides}
    for pid, u in sorted(state.units.items()):
        enemy = game.enemy_of(u.side)
        if u.box == EXITED:  # scores its own side as if eliminated [DTP 11.3 victory]
            vp[u.side] += unit_vp_13_0(game, pid)
            continue
        if scores is not None and game.category(pid) not in scores.get(enemy, frozenset()):
            continue
        gone = pid in lost or u.box == "recycle"
        level = int(damage.get(pid, 0))
        if gone or level:
            worth = unit_score_8_57(unit_vp_13_0(game, pid), level, gone, game.unit(pid).flags)
            vp[enemy] += worth
            rule = lost.get(pid) or ("DTP 8.57" if not gone else "")
            row = {"unit": pid, "vp": str(worth), "rule": rule}
            destroyed[enemy].append(row if gone else {**row, "what": f"damaged D{level}"})
    earned: set[str] = set()
    bonuses: list[dict[str, Any]] = []
    for b in game.scenario.victory_bonuses:
        if b.condition in DTP_CONDITIONS:
            holds = bonus_holds_11_3(state, b)
        else:
            holds = bonus_holds_13_1(game, state, b, earned)
        if holds:
            earned.add(b.id)
            vp[b.side] += b.vp
        bonuses.append({"id": b.id, "side": b.side, "vp": b.vp if holds else 0, "holds": holds})
    net = vp.get(game.flags.soviet_side, Fraction(0)) - vp.get(game.flags.nato_side, Fraction(0))
    penalty = neutral_airspace_14_2(game, state)
    net += penalty
    levels = game.module.tables.get("victory_levels")
    # a game without optional rule 14.2 reports as it always has
    extra = {"neutral_airspace_penalty": penalty} if "14.2" in state.options else {}
    return {
        "rule": "DTP 8.57",
        "vp": {s: str(v) for s, v in vp.items()},
        "bonuses_in_vp": True,  # vp counts the bonuses too (the report's table says so)
        "destroyed": destroyed,
        "bonuses": bonuses,
        **extra,
        "net": str(net),
        "level": level_11_3(game.module, net)
        if levels is not None
        else level_13_2(game.module, net),
    }


def neutral_airspace_14_2(game: Game, state: GameState) -> int:
    """The Soviet player's loss for violating neutral air space, once announced [14.2][13.0]
    (SPI's optional rule, kept in the Med [DTP 11.0]): ``flags.neutral_airspace_vp``."""
    return game.flags.neutral_airspace_vp if facts_of(state).neutral_airspace else 0


DTP_CONDITIONS = frozenset(
    {"no_unit_entered", "unit_held", "occupied", "occupied_at_end", "convoy_docked"}
)


def _bound(text: object) -> Fraction | None:
    s = str(text).strip()
    return Fraction(s) if s else None


def level_11_3(module: Module, net: Fraction) -> str:
    """The result from the ``victory_levels`` bands, each half-open: it holds a net VP
    (Soviet minus NATO) with ``above < net <= up_to`` (a blank bound is open). Denmark
    Strait: Soviet above 0, NATO up to 0, so a tie is NATO's [DTP 11.3 victory 3]."""
    t = module.tables["victory_levels"]
    ac, uc = t.column("above"), t.column("up_to")
    for r, key in enumerate(t.row_keys):
        lo, hi = _bound(t.cells[r][ac]), _bound(t.cells[r][uc])
        if (lo is None or net > lo) and (hi is None or net <= hi):
            return key.text
    raise ValueError(f"net VP {net} is in no band of the victory levels table")


def check_victory_levels_11_3(module: Module) -> list[Diagnostic]:
    """``referee check``: every bound a number (or blank), and the bands, read
    ``above < net <= up_to``, cover every net VP exactly once [DTP 11.3 victory 3]."""
    t = module.tables["victory_levels"]
    ac, uc = t.column("above"), t.column("up_to")
    out: list[Diagnostic] = []
    bands: list[tuple[Fraction | None, Fraction | None, int]] = []
    for r in range(len(t.row_keys)):
        line = t.lines[r] if t.lines else None
        try:
            bands.append((_bound(t.cells[r][ac]), _bound(t.cells[r][uc]), r))
        except ValueError:
            out.append(
                Diagnostic(t.file, line, None, "a band bound must be a number or blank", "e.g. 0")
            )
    if out:
        return out
    bands.sort(key=lambda b: (b[0] is not None, b[0] or 0))
    ok = bool(bands) and bands[0][0] is None and bands[-1][1] is None
    for (_, hi, _), (lo, _, _) in pairwise(bands):
        ok = ok and hi is not None and lo == hi
    if not ok:
        out.append(
            Diagnostic(
                t.file,
                None,
                None,
                "the victory bands must cover every net VP once: the first open below, the "
                "last open above, each 'above' the 'up_to' of the band below [DTP 11.3]",
                "e.g. NATO: above blank, up_to 0; Soviet: above 0, up_to blank",
            )
        )
    return out


def check_victory_units_11_3(module: Module) -> list[Diagnostic]:
    """``referee check``: each side named, each category one of the module's [DTP 11.3]."""
    t = module.tables["victory_units"]
    c = t.column("scores")
    cats = {str(ut["category"]) for ut in module.unit_types.values()}
    sides = {s.id for s in module.sides}
    out: list[Diagnostic] = []
    for r, key in enumerate(t.row_keys):
        line = t.lines[r] if t.lines else None
        if key.text not in sides:
            out.append(Diagnostic(t.file, line, 1, f"unknown side {key.text!r}", ", ".join(sides)))
        for cat in str(t.cells[r][c]).split():
            if cat not in cats:
                out.append(
                    Diagnostic(
                        t.file,
                        line,
                        None,
                        f"unknown unit category {cat!r}",
                        "categories: " + ", ".join(sorted(cats)),
                    )
                )
    return out
