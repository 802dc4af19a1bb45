"""An orders file as a whole: its header, its words, its answers and standing orders.

Whatever the phase, a file is for this game and Game-Turn, from the side awaited, with the
section the current phase takes (:func:`check_header`) [4.0]; its units and hexes exist and
its units belong to the sender (:func:`check_words`); an answer answers the pending decision
(:func:`check_answers`, :func:`carry_out_answer`); standing orders replace the side's earlier
ones (:func:`check_standing`, :func:`apply_standing`). The orders of each phase are checked
and carried out by that phase's module (see :mod:`phases`).
"""

from __future__ import annotations

from referee.engine.core import Event, GameState, SourcePos, Violation
from referee.engine.driver import queue_of
from referee.engine.orders import OrdersDoc
from referee.rules.sixth_fleet_1975 import sequence as seq
from referee.rules.sixth_fleet_1975.combat import HEX_TARGET, is_hex_target
from referee.rules.sixth_fleet_1975.context import Game
from referee.rules.sixth_fleet_1975.facts import SixthFleetFacts, facts_of
from referee.rules.sixth_fleet_1975.middle_east import only_with_14_3
from referee.source.diagnostics import did_you_mean

# ---- the words of an order: units and hexes exist ---------------------------------------------

_OWN_UNIT_VERBS = {"place", "move", "base", "cap", "box", "attack", "advance", "displace"}


def check_words(
    game: Game,
    state: GameState,
    doc: OrdersDoc,
    side: str | None,
    off_map: frozenset[str] = frozenset(),
) -> list[Violation]:
    """Unknown units ("did you mean ...?"), hexes not on the map, the other side's units.
    ``off_map`` names places a ruleset lets orders name beside the map's hexes (an off-map
    base), never as a target."""
    out: list[Violation] = []
    known = list(state.units)
    for o in (*doc.orders, *doc.standing):
        names = list(o.units) + ([o.carrier] if o.carrier else [])
        names += [t for t in o.targets if not is_hex_target(t)]
        for u in names:
            if u in state.units:
                continue
            if only_with_14_3(game, state, u):
                used = "14.3" in state.options
                out.append(
                    Violation(
                        "14.3",
                        f"{u} is not in this game: "
                        + (
                            "the 14.3 roll did not give it"
                            if used
                            else "it is used only with optional rule 14.3, which this game "
                            "does not use"
                        ),
                        o.pos_of(u),
                        u,
                    )
                )
                continue
            out.append(
                Violation(
                    "orders",
                    f"unknown unit {u!r}",
                    o.pos_of(u),
                    u,
                    did_you_mean(u, known)
                    or "name a unit by its counter id (`referee state show` lists them)",
                )
            )
        hexes = list(o.hexes) + [t[len(HEX_TARGET) :] for t in o.targets if is_hex_target(t)]
        for h in hexes:
            if not game.board.contains(h) and not (h in off_map and h in o.hexes):
                rule = "5.24" if o.verb == "move" else "orders"
                out.append(
                    Violation(
                        rule,
                        f"hex {h} is not on the map",
                        o.pos_of(h),
                        None,
                        _hex_id_hint(game),
                    )
                )
        if side is None:
            continue
        own_needed = o.verb in _OWN_UNIT_VERBS or (o.verb == "retreat" and o.units)
        if own_needed:
            for u in o.units:
                if u in state.units and state.units[u].side != side:
                    rule = {"move": "5.11", "attack": "8.0"}.get(o.verb, "orders")
                    out.append(
                        Violation(
                            rule,
                            f"{u} is a {state.units[u].side} unit; "
                            f"{side} orders only its own units",
                            o.pos_of(u),
                            u,
                        )
                    )
        if o.verb == "eliminate":
            for u in o.units:
                if u in state.units and state.units[u].side == side:
                    out.append(
                        Violation(
                            "7.0",
                            f"{u} is your own unit: 'eliminate' names the "
                            "enemy units you would remove first",
                            o.pos_of(u),
                            u,
                        )
                    )
        if o.carrier and o.carrier in state.units and state.units[o.carrier].side != side:
            out.append(
                Violation(
                    "9.62", f"{o.carrier} is not your carrier", o.pos_of(o.carrier), o.carrier
                )
            )
    return out


def _hex_id_hint(game: Game) -> str:
    """How this map spells its hex ids (the grid's order and extent): Sixth Fleet's is RRCC,
    the Denmark Strait map's CCRR, so a fixed hint would mislead on one of them."""
    g = game.module.map.grid
    if g is None:
        return "hex ids are RRCC, four digits, e.g. 1423"
    return (
        f"hex ids are {g.id_format}, four digits (columns {g.first_column:02d}-"
        f"{g.last_column:02d}, rows {g.first_row:02d}-{g.last_row:02d}), "
        f"e.g. {g.hex_id(g.first_column, g.first_row)}"
    )


def check_header(
    game: Game, state: GameState, doc: OrdersDoc, expected: str | None
) -> list[Violation]:
    """The file is for this game, this Game-Turn, the side and step awaited [4.0];
    ``expected`` is the section the current phase takes. The steps: the header lines, one
    step per file, then the answer a pending decision awaits or the step the phase takes."""
    out = _header_lines(game, state, doc)
    step_sections = [s for s in doc.sections if s != "standing"]
    if len(step_sections) > 1:
        out.append(
            Violation(
                "4.0",
                "one orders file covers one step of the sequence of play; "
                f"this one has {', '.join('[' + s + ']' for s in step_sections)}",
                _section_pos(doc, step_sections[1]),
            )
        )
    if state.pending:
        return out + _awaited_answer(state, doc, step_sections)
    return out + _awaited_step(state, doc, step_sections, expected)


def _header_top(doc: OrdersDoc) -> SourcePos:
    """Where a missing header line is reported: where the header is (its first line), else at
    the first section -- never at a 1:1 that may be a comment (issue 12 §2)."""
    hp = doc.header_pos
    return min(hp.values(), key=lambda p: (p.line, p.col)) if hp else SourcePos(doc.file, 1, 1)


def _section_pos(doc: OrdersDoc, name: str) -> SourcePos:
    """A problem of a section is reported at that section's header."""
    return doc.header_pos.get(f"[{name}]", _header_top(doc))


def _header_lines(game: Game, state: GameState, doc: OrdersDoc) -> list[Violation]:
    """The ``game:``, ``turn:`` and ``side:`` lines: present, this game, this Game-Turn
    [4.0], a side of the game."""
    out: list[Violation] = []
    hp = doc.header_pos
    top = _header_top(doc)
    if doc.game_id is None:
        out.append(
            Violation(
                "orders", "missing header 'game: <id>'", top, hint=f"add: game: {state.game_id}"
            )
        )
    elif doc.game_id != state.game_id:
        out.append(
            Violation(
                "orders",
                f"these orders are for game {doc.game_id!r}, not {state.game_id!r}",
                hp.get("game", top),
            )
        )
    if doc.turn is None:
        if "turn" not in hp:  # a 'turn:' line that is not a number is a syntax error already
            out.append(
                Violation(
                    "orders", "missing header 'turn: <n>'", top, hint=f"add: turn: {state.turn}"
                )
            )
    elif doc.turn != state.turn:
        out.append(
            Violation(
                "4.0",
                f"these orders are for Game-Turn {doc.turn}; the game is at Game-Turn {state.turn}",
                hp.get("turn", top),
            )
        )
    if doc.side is None:
        out.append(Violation("orders", "missing header 'side: <side>'", top))
    elif doc.side not in game.sides:
        out.append(
            Violation(
                "orders",
                f"unknown side {doc.side!r}",
                hp.get("side", top),
                hint=did_you_mean(doc.side, list(game.sides)),
            )
        )
    return out


def _awaited_answer(state: GameState, doc: OrdersDoc, step_sections: list[str]) -> list[Violation]:
    """A decision is pending: only its side's ``[answer]`` section is expected [4.0]."""
    out: list[Violation] = []
    pd = state.pending[0]
    if doc.side is not None and doc.side != pd.side and step_sections:
        out.append(
            Violation(
                "4.0",
                f"the game waits for {pd.side}'s answer to {pd.id}",
                doc.header_pos.get("side", _header_top(doc)),
            )
        )
    if step_sections and step_sections != ["answer"]:
        out.append(
            Violation(
                "4.0",
                f"the game waits for an answer to {pd.id} ({pd.prompt}); send an [answer] section",
                _section_pos(doc, step_sections[0]),
                hint=f"answer {pd.id} {pd.options[0] if pd.options else ''}",
            )
        )
    return out


def _awaited_step(
    state: GameState, doc: OrdersDoc, step_sections: list[str], expected: str | None
) -> list[Violation]:
    """No decision is pending: the section, side and phase of the step the sequence of play
    awaits [4.0]; nothing once the game is over [13.0]."""
    out: list[Violation] = []
    top = _header_top(doc)
    if "answer" in step_sections:
        out.append(
            Violation(
                "4.0",
                "no decision is pending; [answer] is not expected",
                _section_pos(doc, "answer"),
            )
        )
    elif step_sections and expected and step_sections[0] != expected:
        out.append(
            Violation(
                "4.0",
                f"the game is in the {seq.describe(state)}: expected a "
                f"[{expected}] section, not [{step_sections[0]}]",
                _section_pos(doc, step_sections[0]),
            )
        )
    if step_sections and doc.side is not None and doc.side != state.active_side:
        out.append(
            Violation(
                "4.0",
                f"it is {state.active_side}'s step ({seq.describe(state)}), not {doc.side}'s",
                doc.header_pos.get("side", top),
            )
        )
    if (
        doc.phase is not None
        and step_sections
        and doc.phase.lower() not in (state.phase, expected or "")
    ):
        out.append(
            Violation(
                "4.0",
                f"header says phase {doc.phase!r}; the game is in the {state.phase} phase",
                doc.header_pos.get("phase", top),
            )
        )
    if state.phase == seq.GAME_OVER and step_sections:
        out.append(Violation("13.0", "the game is over", _section_pos(doc, step_sections[0])))
    return out


# ---- answers and standing orders --------------------------------------------------------


def check_answers(state: GameState, doc: OrdersDoc) -> list[Violation]:
    out: list[Violation] = []
    if not state.pending:
        for a in doc.answers:
            out.append(Violation("4.0", "no decision is pending", a.pos))
        return out
    pd = state.pending[0]
    if not doc.answers:
        out.append(
            Violation(
                "4.0",
                f"expected: answer {pd.id} <one of {', '.join(pd.options)}>",
                doc.header_pos.get("[answer]")
                or min(doc.header_pos.values(), key=lambda p: (p.line, p.col), default=None)
                or SourcePos(doc.file, 1, 1),
            )
        )
    for a in doc.answers:
        if a.decision != pd.id:
            out.append(
                Violation(
                    "4.0",
                    f"decision {a.decision} is not pending (pending: {pd.id})",
                    a.pos_of(a.decision or ""),
                    hint=f"answer {pd.id} ...",
                )
            )
        elif a.value not in pd.options:
            out.append(
                Violation(
                    pd.rule,
                    f"{a.value!r} is not an option of {pd.id}: {', '.join(pd.options)}",
                    a.pos,
                    hint=did_you_mean(a.value or "", list(pd.options)),
                )
            )
        elif doc.side is not None and doc.side != pd.side:
            out.append(Violation("4.0", f"{pd.id} is {pd.side}'s decision", a.pos))
    if len(doc.answers) > 1:
        out.append(Violation("4.0", "answer one pending decision per file", doc.answers[1].pos))
    return out


def check_standing(game: Game, state: GameState, side: str, doc: OrdersDoc) -> list[Violation]:
    out: list[Violation] = []
    for o in doc.standing:
        if o.verb == "advance" and o.units:
            for u in o.units:
                if u in state.units and game.is_air(u):
                    out.append(
                        Violation(
                            "8.72",
                            f"{u}: air units do not advance after combat by standing order",
                            o.pos_of(u),
                            u,
                        )
                    )
    return out


def apply_standing(state: GameState, side: str, doc: OrdersDoc) -> GameState:
    """Standing orders replace the side's previous standing orders."""
    if "standing" not in _sections_with_standing(doc):
        return state
    standing = dict(facts_of(state).standing or {})
    standing[side] = [o.to_json() for o in doc.standing]
    return SixthFleetFacts.put(state, standing=standing)


def _sections_with_standing(doc: OrdersDoc) -> set[str]:
    return {"standing"} if doc.standing else set()


def carry_out_answer(state: GameState, side: str, doc: OrdersDoc, events: list[Event]) -> GameState:
    """The answer to the pending decision goes into the task that waits for it; the
    decision is no longer pending (the driver then resumes that task)."""
    pd = state.pending[0]
    answer = doc.answers[0]
    queue = queue_of(state)
    if queue and queue[0].get("decision") == pd.id:
        queue[0]["choice"] = answer.value
    state = SixthFleetFacts.put(state.evolve(pending=state.pending[1:]), queue=queue)
    events.append(
        Event(
            "answer",
            pd.rule,
            f"{side} answers {pd.id}: {answer.value}",
            {"decision": pd.id, "choice": answer.value},
        )
    )
    return state
