"""What the awaited side may order now, published for the viewer's orders mode (issue 28).

Each step that awaits orders from a side publishes ``options-SIDE.json`` beside (or, in a game
with parts, inside the side's encrypted part with) that side's ``view-SIDE.json``: the
ruleset's own ``options`` (:class:`referee.engine.ruleset.UnitOptions`, the validator's code
that ``referee options`` prints) for every unit of the side that has something to do, and the
order lines a player may point at in the viewer (``referee viewer``'s orders mode drafts the
orders file from them; ``referee validate`` and the referee stay the judge).

**Hidden stays hidden.** The options are computed on the side's own view
(``ruleset.view(module, state, side)``), the same position the side's ``view-SIDE.json``
holds, never on the full position: whatever they name (a path, a target, a detection attempt)
is a fact of that view, so they cannot reveal an undetected unit or a target the side may not
know of. A side that is not awaited gets no file.

Pure and deterministic: ``verify`` computes the file again from the replayed position and
compares the bytes (:mod:`referee.pbem.rendercheck`), as it does every view.

**Versioned.** The file names its format (``"format"``); ``verify`` renders a published file
again in the format it names (:func:`published_version`), so a file written before a
ruleset gave order lines stays verifiable. Format 1: order lines from the rulesets that gave
them then (Sixth Fleet 1975 and 2019), the others' units as marked places only. Format 2: also
the order lines a ruleset's options give since format 2 (``data["orders_since"] == 2``: DTP,
the naval module, Carrier Battlegroup). Format 3: also the composed choices (a choice with
``since`` 3: a line the player builds word by word by pointing, ``compose``: ``stack`` (the
units ending in one hex, top first, each with its ``layer``) or ``hexes`` (places picked in
order from ``from``), e.g. Sixth Fleet's ``stack`` [7.42] and standing ``retreat UNIT prefer
HEX ...`` [8.71]), and in a step that awaits answers, the units' choices that belong in
another section than ``[answer]`` (standing orders); and the side's own orders that no unit
gives (``side_choices``: DTP's ``pass`` and ``commence``, a standing order of the whole
side), from the ruleset's ``side_orders(module, view, side)`` where it has one. Format 4: also
the verbs the options give since format 4 (a choice with ``since`` 4, of a unit or of the
side: the naval module's ``load``, ``unload`` and Abort choices, ...), and a choice's
``first`` flag (its line goes at the start of its section: a load before the ship's move
[28.14a]). A format-3 file of an older game is written again without them, byte for byte.
Format 5: also the forces (:func:`force_mates`): for each unit of a ruleset whose lines a
force of several units may give (``force_verbs``), the units that may join its line of each
such verb (``force``: each pair's two-unit line accepted by the validator; ``force_not``:
the rests a pair's line is refused on, room where it ends), the most units a
line of a verb may name (``force_most``), the groups of targets one line may name together
(``alike``: 2019's enemy units of one kind in a zone [9.0]; the viewer offers the others of a
line's last target where every unit of the force has the line of each), and the choices a
ruleset gives since format 5 (2019's strike on some of the targets of one kind [6.4]). A
format-4 file is format 5's without them. Format 6: the forces searched whole (no pair left
out after three refused lines: :data:`WHOLE_FORCES`), the counts that cap a force of three
or more where it ends (``force_room``: :func:`force_rooms`, a base's room [7.1.3]), and the
forces of the verbs a ruleset gives since format 6 (``force_since``: Carrier Battlegroup's
``trade`` of several missiles [5.0 step 2c]). A format-5 file is written again as it was.
Format 7: also the partners (:func:`force_partners`): for each unit's one-unit line of a
verb, the units with no line of that verb of their own that may join it (``partners``: the
naval module's ground artillery unit beside a ship's ``defend`` [29.22]), each two-unit line
accepted by the validator. A format-6 file is format 7's without them, byte for byte.
Format 8: also the lines whose legality depends on earlier lines of the same file (issue 28
§1). A choice's ``after`` is the line it follows: offered once that line is in the draft,
and drafted right behind it (DTP's ``detect`` right after the unit's own ``move`` [DTP
6.2a], ``commence prc`` with ``commence`` [DTP 11.51021]; behind a line of the unit's own
move tree, written ``after_route``, the end of that move); a choice's ``spends`` is what it
takes of the file's ``allowances`` (by name, what the side has to spend this step, from the
ruleset's :meth:`~referee.engine.ruleset.UnitOptions.allowances`: Carrier Battlegroup's LP,
Hangar room and cruise missile room [9.1], [9.2], its one Intelligence attempt a turn
[11.0]), so the viewer offers a line only while what the draft's lines already spend leaves
room for it; and a ruleset may give a choice ``until`` a format, where format 8 gives other
lines in its place (Carrier Battlegroup's every count of a track and every piece, each repair
on the piece it repairs). A format-7 file is written again as it was, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.engine.core import GameState
from referee.engine.ruleset import Ruleset, UnitOptions, due_of, referee_sides, unit_options
from referee.errors import UserError
from referee.pbem.archive import slug
from referee.pbem.reports import next_header
from referee.source.model import Module

FORMATS = {
    1: "referee-draft-options/1",
    2: "referee-draft-options/2",
    3: "referee-draft-options/3",
    4: "referee-draft-options/4",
    5: "referee-draft-options/5",
    6: "referee-draft-options/6",
    7: "referee-draft-options/7",
    8: "referee-draft-options/8",
}
"""Each format's name, by version (the module docstring)."""
OPTIONS_VERSION = 8
"""The version a new step publishes."""
MORE_VERBS = 4
"""The format from which a ruleset's choices with ``since`` 4 are kept (the module
docstring), and the ``first`` flag."""
OPTIONS_FORMAT = FORMATS[OPTIONS_VERSION]
STANDING_IN_ANSWERS = 3
"""The format from which an answer step's file also lists the units' standing orders (of a
ruleset whose options offer them: ``standing_choices = True`` on its ruleset class; the others'
answer steps list no unit, so they cost nothing more)."""
PREFIX = "options-"
MAX_LINES = 12
"""Lines of ``referee options``'s text kept per unit (what the viewer prints beside the
choices); the choices themselves are all kept."""
MAX_CHOICES = 400
"""Order lines kept per unit (a unit of a large position has far fewer; the cap bounds the
file on any position). Since format 4 the moves of a unit's tree are not counted: a tree
holds each place of the map once, so the map bounds it."""
COMPACT = 4
"""The format from which move trees are written compactly (:func:`_encoded`), a path's
names with spaces are spelled quoted (the orders grammar's quotes, so the naval module's
zone and port moves are a tree too), and every move of a unit goes in its tree before the
:data:`MAX_CHOICES` cap."""


CHOICE_KEYS = (
    "kind",
    "label",
    "at",
    "path",
    "uses",
    "section",
    "group",
    "compose",
    "layer",
    "from",
)
"""What the viewer reads of a choice, besides its ``order`` (and ``anywhere``, a flag)."""


def options_file(side: str) -> str:
    """``options-nato.json``: a side's file (a side file to :func:`referee.pbem.parts.side_file`,
    so a game with parts seals it into the side's part)."""
    return f"{PREFIX}{slug(side)}.json"


def is_options_file(name: str) -> bool:
    return name.startswith(PREFIX) and name.endswith(".json")


def awaited_sides(module: Module, ruleset: Ruleset, state: GameState) -> list[str]:
    """The player sides the position waits for (orders, answers or sealed orders), each once;
    none when the game is over."""
    if state.active_side is None and not state.pending:
        return []
    auto = set(referee_sides(ruleset))
    out: list[str] = []
    for d in due_of(ruleset, module, state):
        if d.side and d.side not in auto and d.side not in out:
            out.append(d.side)
    return out


def _subjects(view: GameState, side: str, anyones: bool = False) -> list[str]:
    """The side's units its view shows, in id order (a face-down marker the view shows of
    another side is not the side's); with ``anyones``, pieces of no side too (a declared
    game's imported module, whose unclaimed pieces either side may order [G1])."""
    return sorted(
        uid for uid, u in view.units.items() if u.side == side or (anyones and not u.side)
    )


def _unclaimed_pieces_offered(ruleset: Ruleset, view: GameState) -> bool:
    """Whether the options offer the pieces of no side, for a ruleset whose players may order
    them (``Ruleset.orders_unclaimed_pieces``: a declared game [G1]): in games begun at VASSAL
    piece version 6 or later (an older game's published options stay as ``verify``
    recomputes them)."""
    from referee.vassal.module.piece_versions import has_piece_commands, recorded_version

    return ruleset.orders_unclaimed_pieces and has_piece_commands(recorded_version(view.data))


def _offered(c: Mapping[str, Any], version: int) -> bool:
    """Whether a format-``version`` file lists choice ``c`` (given since its ``since``, and
    until its ``until`` where a later format gives other lines in its place: Carrier
    Battlegroup's one ``buy`` at the most of a track, written up to format 7, each count
    since format 8)."""
    return int(c.get("since", 1)) <= version <= int(c.get("until", version))


FORCES = 5
"""The format from which the file lists the forces (``force``, ``force_most``, ``alike``:
the module docstring)."""
FORCE_TRIES = 3
"""Lines two units share that the validator is asked of their two-unit force before the pair
is left out (the first, the middle and the last, in order): whether two units may form a
force is the same on every line they share but where the end decides (a base's room), so a
pair of other nationalities costs three checks, not one a line; a pair it accepts is then
asked every other line (:func:`force_mates`). Format 5's search; format 6 asks no fewer
than needed (:data:`WHOLE_FORCES`)."""
WHOLE_FORCES = 6
"""The format from which the forces are searched whole: a pair's line is asked on every
rest the two share (none left out after :data:`FORCE_TRIES` refusals) unless the ruleset's
:meth:`~referee.engine.ruleset.UnitOptions.force_joins` proves, on the first, that the
validator refuses the two on every line (its check of the force itself); and the file lists
``force_room``, the counts that cap a force of three or more where each pair of it is
accepted (a base's room [7.1.3]: :func:`force_rooms`)."""


AFTER_A_LINE = 8
"""The format from which a choice may depend on the draft (the module docstring): its
``after`` (the line it is offered behind) and its ``spends`` (what it takes of the file's
``allowances``)."""


def _choice(c: Mapping[str, Any], version: int) -> dict[str, Any]:
    """One order line the ruleset offers, reduced to what the viewer reads (``section``: the
    orders file's section it goes in, when not the step's own; ``group``: the units that
    move as one, whose one ``move`` a later choice replaces; the composed lines' keys, the
    module docstring; since format 5 a composed line's ``most`` words, so a line over the
    rule's count cannot be pointed, e.g. at most 3 air units interdict [31.11])."""
    out: dict[str, Any] = {"order": str(c["order"])}
    for key in CHOICE_KEYS:
        if c.get(key) not in (None, "", []):
            v = c[key]
            out[key] = [str(x) for x in v] if isinstance(v, list | tuple) else str(v)
    if c.get("anywhere"):
        out["anywhere"] = True
    if c.get("first"):  # only choices given since format 4 carry it
        out["first"] = True
    if c.get("most") and version >= FORCES:
        out["most"] = int(c["most"])
    if version >= AFTER_A_LINE:
        if c.get("after"):
            out["after"] = str(c["after"])
        if c.get("spends"):
            out["spends"] = {str(k): int(v) for k, v in sorted(c["spends"].items())}
    return out


def spelled(word: str) -> str:
    """A place as an order line writes it: a name with spaces in double quotes (the orders
    grammar's quotes, as the rulesets' options spell a zone or a port)."""
    return f'"{word}"' if " " in word else word


def _routes(
    choices: list[dict[str, Any]], quoted: bool = False
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Choices with a ``path`` (moves: hundreds per air unit) as one tree: each hex the paths
    pass with the hex before it (``prev``, ``""`` for the first), and the hexes a move may end
    in with their labels (``ends``); the viewer spells ``ORDER PATH`` back (with ``quoted``,
    since format 4, each name with spaces in quotes: :func:`spelled`). Only when every
    path's line is ``ORDER PATH`` with one ``ORDER`` and the paths agree on each hex's
    predecessor (cheapest paths do); else the choices stay as they are. Returns the other
    choices and the tree."""
    routed = [c for c in choices if c.get("path")]
    if not routed:
        return choices, None

    def words(path: list[str]) -> str:
        return " ".join(spelled(h) for h in path) if quoted else " ".join(path)

    head = routed[0]["order"][: -len(words(routed[0]["path"])) - 1]
    kind = routed[0].get("kind", "")
    prev: dict[str, str] = {}
    ends: dict[str, str] = {}
    for c in routed:
        path = c["path"]
        if c["order"] != f"{head} {words(path)}" or c.get("kind", "") != kind:
            return choices, None
        if c.get("at") != path[-1] or any(c.get(k) for k in ("uses", "section", "group")):
            return choices, None
        for n, h in enumerate(path):
            before = path[n - 1] if n else ""
            if prev.setdefault(h, before) != before:
                return choices, None
        ends[path[-1]] = c.get("label", "")
    rest = [c for c in choices if not c.get("path")]
    return rest, {"order": head, "kind": kind, "prev": prev, "ends": ends}


def unit_entry(
    ruleset: Ruleset,
    module: Module,
    view: GameState,
    uid: str,
    version: int = OPTIONS_VERSION,
) -> dict[str, Any] | None:
    """``referee options`` of one unit on the side's view: the order lines it offers
    (``data["orders"]``, when the ruleset gives them; moves as one tree), the places its
    options mark when the ruleset gives no order lines, and the first of its text lines
    (all of them, up to :data:`MAX_LINES`, without order lines); ``None`` when it has nothing
    to offer. ``version``: the file's format (order lines a ruleset gives only since a later
    format are left out, as that format's files were written)."""
    ask = unit_options(ruleset)
    if ask is None:
        return None
    try:
        rep = ask.options(module, view, uid, limit=MAX_LINES)
    except UserError:
        return None
    offered = rep.data.get("orders")
    if int(rep.data.get("orders_since", 1)) > version:
        offered = None
    if offered is not None:
        offered = [c for c in offered if _offered(c, version)]
        if view.pending:  # an answer step: only what goes in another section (standing)
            offered = [c for c in offered if c.get("section") not in (None, "", "answer")]
    elif view.pending:
        return None
    choices = [_choice(c, version) for c in (offered or [])]
    if version < COMPACT:
        choices = choices[:MAX_CHOICES]
    if offered is not None:
        if not choices:
            return None
        rest, routes = _routes(choices, quoted=version >= COMPACT)
        rest = _behind_routes(rest[:MAX_CHOICES], routes)
        out: dict[str, Any] = {"lines": list(rep.lines[:1]), "choices": rest}
        if rep.data.get("section"):
            out["section"] = str(rep.data["section"])
        if routes is not None:
            out["routes"] = routes
        return out
    marks = {str(k): str(v) for k, v in sorted((rep.marks or {}).items())}
    if not marks:
        return None
    return {"lines": list(rep.lines[:MAX_LINES]), "marks": marks, "choices": []}


def _behind_routes(
    choices: list[dict[str, Any]], routes: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """Format 8's choices offered behind one of the unit's own moves (``after``, a DTP
    attempt behind the move [DTP 6.2a]) written compactly: ``after_route``, the end of the
    unit's move tree whose line it follows, instead of that line again (a Westpac move is
    a path of up to twenty hexes, and each of its attempts would repeat it); the viewer
    spells the line back from the tree (:func:`choice_after`)."""
    if routes is None or not any("after" in c for c in choices):
        return choices
    by_line = {line: end for end, line in tree_lines(routes, routes["order"]).items()}
    out = []
    for c in choices:
        end = by_line.get(c.get("after", ""))
        if end is not None:
            c = {k: v for k, v in c.items() if k != "after"}
            c["after_route"] = end
        out.append(c)
    return out


def choice_after(doc: Mapping[str, Any], uid: str, c: Mapping[str, Any]) -> str | None:
    """The line a choice of unit ``uid`` is offered behind (format 8): its ``after``, or
    the line of its ``after_route``, an end of the unit's move tree, as the viewer spells it;
    ``None`` for a choice offered on its own."""
    if "after_route" not in c:
        return c.get("after")
    r = doc["units"][uid]["route"]
    return tree_lines(doc["trees"][r["tree"]], r["order"])[str(c["after_route"])]


def _encoded(prev: dict[str, str], ends: dict[str, str]) -> dict[str, Any]:
    """A move tree as format 4 writes it: each place's successors under it (``kids``, the
    first places under ``""``) and the ends under their label (``labels``), each list in id
    order: every place named once, not once per key and once per value (a naval ship's
    reach is a thousand all-sea hexes under a few zones and a few labels)."""
    kids: dict[str, list[str]] = {}
    for h, before in sorted(prev.items()):
        kids.setdefault(before, []).append(h)
    labels: dict[str, list[str]] = {}
    for h, label in sorted(ends.items()):
        labels.setdefault(label, []).append(h)
    return {"kids": kids, "labels": labels}


def _shared(units: dict[str, Any], version: int = OPTIONS_VERSION) -> list[dict[str, Any]]:
    """The move trees of ``units`` kept once each (the units of a stack, or of an airbase,
    with the same reach share one), each unit's ``routes`` replaced by the tree's index
    (``route``) and its own ``order`` words; since format 4 each tree :func:`_encoded`."""
    import json

    trees: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for entry in units.values():
        r = entry.pop("routes", None)
        if r is None:
            continue
        tree = (
            _encoded(r["prev"], r["ends"])
            if version >= COMPACT
            else {"prev": r["prev"], "ends": r["ends"]}
        )
        key = json.dumps(tree, sort_keys=True)
        if key not in index:
            index[key] = len(trees)
            trees.append(tree)
        entry["route"] = {"tree": index[key], "order": r["order"], "kind": r["kind"]}
    return trees


def tree_lines(tree: Mapping[str, Any], order: str) -> dict[str, str]:
    """The order line of each end of a move ``tree`` as the viewer spells it (``ORDER PATH``,
    each name with spaces quoted), by end; a tree of any format (``prev``/``ends``, or
    format 4's ``kids``/``labels``)."""
    prev = dict(tree.get("prev") or {})
    for before, hexes in (tree.get("kids") or {}).items():
        prev.update({h: before for h in hexes})
    ends = set(tree.get("ends") or ()) | {
        h for hs in (tree.get("labels") or {}).values() for h in hs
    }
    spelt: dict[str, str] = {}  # a place's path from the first, spelled (a chain with no loop)
    out: dict[str, str] = {}
    for end in sorted(ends):
        words = _path_words(end, prev, spelt)
        out[end] = f"{order} {words}" if words else order
    return out


def _path_words(end: str, prev: Mapping[str, str], spelt: dict[str, str]) -> str:
    """The places from the first to ``end`` along ``prev``, spelled and joined: each path
    spelled once however many ends share it (a ship's tree: a thousand ends, paths of
    dozens), kept in ``spelt``. A chain that loops (never in a tree the rules drafted) is
    walked back until a place repeats, as the viewer does."""
    chain: list[str] = []
    seen: set[str] = set()
    h = end
    while h and h not in spelt:
        if h in seen:
            return " ".join(spelled(x) for x in _looped(end, prev))
        seen.add(h)
        chain.append(h)
        h = prev.get(h, "")
    words = spelt[h] if h else ""
    for x in reversed(chain):
        words = f"{words} {spelled(x)}" if words else spelled(x)
        spelt[x] = words
    return words


def _looped(end: str, prev: Mapping[str, str]) -> list[str]:
    """The places back from ``end`` along ``prev`` until one repeats, first first."""
    path: list[str] = []
    h, seen = end, set()
    while h and h not in seen:
        seen.add(h)
        path.append(h)
        h = prev.get(h, "")
    return path[::-1]


def offered_lines(doc: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every whole order line an options document offers each unit (its choices, then its
    tree's moves), as the viewer lists them: what the file's format encodes, decoded."""
    out: dict[str, list[str]] = {}
    for uid, e in doc["units"].items():
        lines = [c["order"] for c in e["choices"]]
        r = e.get("route")
        if r is not None:
            lines += tree_lines(doc["trees"][r["tree"]], r["order"]).values()
        out[uid] = lines
    return out


def force_parts(line: str) -> tuple[str, list[str], str] | None:
    """A force's line read as the orders grammar writes it, ``VERB UNIT ... -> REST``: its
    verb, its units and ``-> REST`` (what the units of one force share); ``None`` for a line
    of another shape. The viewer splits the same way."""
    head, arrow, rest = line.partition(" -> ")
    words = head.split()
    if not arrow or len(words) < 2:
        return None
    return words[0], words[1:], f"-> {rest}"


def force_mates(
    ruleset: Ruleset,
    module: Module,
    view: GameState,
    side: str,
    lines: Mapping[str, list[str]],
    version: int = OPTIONS_VERSION,
) -> tuple[dict[str, dict[str, list[str]]], dict[str, dict[str, dict[str, list[str]]]]]:
    """For each unit, by verb, the other units that may join its line in one force: two
    units whose one-unit lines of a ``force_verbs`` verb share their rest (``-> ZONE ...``:
    the same destination, the same target) and whose two-unit line the ruleset's validator
    accepts on one of the first it is asked (:data:`FORCE_TRIES`; since format 6 on any
    rest they share, :data:`WHOLE_FORCES`); then every other rest they share is asked too,
    and those it refuses (room where the force ends) are the pair's exceptions. Returns
    the mates and the exceptions (unit, verb, mate: the rests). So every two-unit line the
    viewer can form is one the validator accepts; a force of more units is offered where
    every pair of it may join (the viewer's intersection) and, since format 6, within the
    counts of ``force_room`` (:func:`force_rooms`); what holds only for the file as a whole
    (an allowance shared with other lines) stays the
    validator's to judge when the file is sent, as the viewer says."""
    if not isinstance(ruleset, UnitOptions) or not ruleset.force_verbs:
        return {}, {}
    verbs = {v for v in ruleset.force_verbs if ruleset.force_since.get(v, FORCES) <= version}
    by_rest: dict[tuple[str, str], list[str]] = {}
    for uid, offered in sorted(lines.items()):
        for line in offered:
            parts = force_parts(line)
            if parts and parts[0] in verbs and parts[1] == [uid]:
                by_rest.setdefault((parts[0], parts[2]), []).append(uid)
    shared: dict[tuple[str, str, str], list[str]] = {}
    for (verb, rest), units in sorted(by_rest.items()):
        for n, a in enumerate(units):
            for b in units[n + 1 :]:
                shared.setdefault((verb, a, b), []).append(rest)
    mates: dict[str, dict[str, list[str]]] = {}
    not_on: dict[str, dict[str, dict[str, list[str]]]] = {}
    for (verb, a, b), rests in sorted(shared.items()):
        head = f"{verb} {a} {b}"
        refused = (
            _pair_refused_on(ruleset, module, view, side, head, rests)
            if version >= WHOLE_FORCES
            else _pair_refused(ruleset, module, view, side, head, rests)
        )
        if refused is None:
            continue
        for x, y in ((a, b), (b, a)):
            mates.setdefault(x, {}).setdefault(verb, []).append(y)
            if refused:
                not_on.setdefault(x, {}).setdefault(verb, {})[y] = refused
    for by_verb in mates.values():
        for verb in by_verb:
            by_verb[verb] = sorted(by_verb[verb])
    return mates, not_on


def _pair_refused(
    ruleset: UnitOptions, module: Module, view: GameState, side: str, head: str, rests: list[str]
) -> list[str] | None:
    """The rests the validator refuses a pair's line ``HEAD REST`` on; ``None`` when it
    refuses each of the first it is asked (:data:`FORCE_TRIES`): the pair forms no force."""
    tried = sorted({0, len(rests) // 2, len(rests) - 1})[:FORCE_TRIES]
    first = next(
        (i for i in tried if ruleset.force_accepts(module, view, side, f"{head} {rests[i]}")), None
    )
    if first is None:
        return None
    known = {i for i in tried if i < first}  # asked before the first accepted: refused
    return [
        r
        for i, r in enumerate(rests)
        if i != first
        and (i in known or not ruleset.force_accepts(module, view, side, f"{head} {r}"))
    ]


def _pair_refused_on(
    ruleset: UnitOptions, module: Module, view: GameState, side: str, head: str, rests: list[str]
) -> list[str] | None:
    """The rests the validator refuses a pair's line ``HEAD REST`` on; ``None`` when it
    refuses every one: the pair forms no force. Complete (format 6): each rest is asked,
    but where the ruleset's :meth:`~referee.engine.ruleset.UnitOptions.force_joins` says
    the two may not act as one force at all (a check the validator runs on the units alone,
    before the rest), which one check of the first rest proves for all."""
    if not ruleset.force_joins(module, view, side, f"{head} {rests[0]}"):
        return None
    refused = [r for r in rests if not ruleset.force_accepts(module, view, side, f"{head} {r}")]
    return None if len(refused) == len(rests) else refused


PARTNERS = 7
"""The format from which each unit's entry lists its ``partners`` (:func:`force_partners`)."""


def force_partners(
    ruleset: Ruleset,
    module: Module,
    view: GameState,
    side: str,
    lines: Mapping[str, list[str]],
) -> dict[str, dict[str, dict[str, list[str]]]]:
    """For each unit, by verb and rest, its partners: the units the ruleset names
    (:meth:`~referee.engine.ruleset.UnitOptions.force_partners`: units with no line of the
    verb of their own that the rules let join another's, a ground artillery unit beside a
    ship in port [29.22]) whose two-unit line ``VERB UNIT PARTNER REST`` the validator
    accepts. A partner joins the one-unit line it was judged with, so the viewer offers it
    only there: every line it lets a player make with a partner is one the validator
    accepts. The cost: units with a line of the verb x their rests x candidates checks."""
    if not isinstance(ruleset, UnitOptions) or not ruleset.force_verbs:
        return {}
    out: dict[str, dict[str, dict[str, list[str]]]] = {}
    for verb in sorted(ruleset.force_verbs):
        candidates = ruleset.force_partners(module, view, side, verb)
        if not candidates:
            continue
        own = {
            uid
            for uid, offered in lines.items()
            for line in offered
            if (p := force_parts(line)) and p[0] == verb and p[1] == [uid]
        }
        for uid, offered in sorted(lines.items()):
            for line in offered:
                parts = force_parts(line)
                if not parts or parts[0] != verb or parts[1] != [uid]:
                    continue
                ok = [
                    c
                    for c in candidates
                    if c != uid
                    and c not in own
                    and ruleset.force_accepts(module, view, side, f"{verb} {uid} {c} {parts[2]}")
                ]
                if ok:
                    out.setdefault(uid, {}).setdefault(verb, {})[parts[2]] = ok
    return out


def force_rooms(
    ruleset: Ruleset,
    module: Module,
    view: GameState,
    side: str,
    lines: Mapping[str, list[str]],
    mates: Mapping[str, Mapping[str, list[str]]],
) -> dict[str, dict[str, list[list[Any]]]]:
    """By verb and rest, the counts that cap a force's line (format 6 ``force_room``): each
    ``[n, group]`` says a line of that verb and rest names at most ``n`` of the units of
    ``group``, from the ruleset's
    :meth:`~referee.engine.ruleset.UnitOptions.force_room` (a base's room for air units
    [7.1.3], a holding box's places [8.3.4]). Listed only where it binds a force of three
    or more that the pairs allow: ``n`` at least 2 (fewer, and no pair of the group is
    accepted on the rest: ``force_not``) and more than ``n`` of the group offering the
    rest with a mate. So a force the viewer lets a player point at is one every pair of
    which the validator accepts, within each count."""
    if not isinstance(ruleset, UnitOptions):
        return {}
    by_rest: dict[tuple[str, str], list[str]] = {}
    for uid, offered in sorted(lines.items()):
        for line in offered:
            parts = force_parts(line)
            if parts and parts[1] == [uid] and mates.get(uid, {}).get(parts[0]):
                by_rest.setdefault((parts[0], parts[2]), []).append(uid)
    out: dict[str, dict[str, list[list[Any]]]] = {}
    for (verb, rest), units in sorted(by_rest.items()):
        if len(units) < 3:
            continue
        caps = [
            [int(n), sorted(u for u in group if u in units)]
            for n, group in ruleset.force_room(module, view, side, verb, rest, units)
        ]
        caps = [c for c in caps if 2 <= c[0] < len(c[1])]
        if caps:
            out.setdefault(verb, {})[rest] = sorted(caps)
    return out


def _with_forces(
    ruleset: Ruleset,
    module: Module,
    view: GameState,
    side: str,
    units: dict[str, Any],
    trees: list[dict[str, Any]],
    version: int = OPTIONS_VERSION,
) -> dict[str, Any]:
    """Format 5's forces: each unit's mates (``force``, :func:`force_mates`) put in its
    entry, the file's ``force_most`` (the ruleset's caps, of the verbs that have mates) and
    ``alike`` (the ruleset's groups of targets one line may name together), when the side
    has units to order; since format 6 the complete search and ``force_room``
    (:data:`WHOLE_FORCES`)."""
    doc = {"units": units, "trees": trees}
    lines = offered_lines(doc)
    mates, not_on = force_mates(ruleset, module, view, side, lines, version)
    for uid, by_verb in mates.items():
        units[uid]["force"] = by_verb
    for uid, by_verb in not_on.items():
        units[uid]["force_not"] = by_verb
    if not units or not isinstance(ruleset, UnitOptions):
        return {}
    out: dict[str, Any] = {}
    verbs = {v for by_verb in mates.values() for v in by_verb}
    most = {v: int(n) for v, n in sorted(ruleset.force_most(module, view).items()) if v in verbs}
    if most:
        out["force_most"] = most
    alike = [[str(w) for w in group] for group in ruleset.alike(module, view, side)]
    if alike:
        out["alike"] = alike
    if version >= WHOLE_FORCES:
        room = force_rooms(ruleset, module, view, side, lines, mates)
        if room:
            out["force_room"] = room
    if version >= PARTNERS:
        for uid, by_verb in force_partners(ruleset, module, view, side, lines).items():
            units[uid]["partners"] = by_verb
    return out


SIDE_ORDERS = 3
"""The format from which the file lists the side's own orders (``side_choices``)."""


def side_choices(
    ruleset: Ruleset, module: Module, view: GameState, side: str, version: int = OPTIONS_VERSION
) -> list[Any]:
    """The order lines of the whole side, not of one unit (a ``pass``, a declaration, a
    standing order of the side), each one its validator accepts on the side's view; none
    from a ruleset without ``side_orders``; those given since a later format than
    ``version`` left out."""
    if not isinstance(ruleset, UnitOptions):
        return []
    try:
        offered = ruleset.side_orders(module, view, side)
    except UserError:
        return []
    return [_choice(c, version) for c in offered if _offered(c, version)][:MAX_CHOICES]


def draft_options(
    module: Module,
    ruleset: Ruleset,
    report: Mapping[str, Any],
    rsha: str,
    view: GameState,
    side: str,
    version: int = OPTIONS_VERSION,
) -> dict[str, Any]:
    """The ``options-SIDE.json`` document of ``side`` at this step, from its ``view`` and its
    record as it reads it (``report``: the header its next orders file starts with), in
    format ``version``."""
    header = next_header(dict(report), rsha, viewer=side)
    head = [ln for ln in (header or "").split("\n") if ":" in ln and not ln.startswith("answer ")]
    units: dict[str, Any] = {}
    # an answer step: the choices are the pending decisions' options (and, since format 3,
    # the units' standing orders)
    standing = (
        version >= STANDING_IN_ANSWERS
        and isinstance(ruleset, UnitOptions)
        and ruleset.standing_choices
    )
    if not view.pending or standing:
        for uid in _subjects(view, side, anyones=_unclaimed_pieces_offered(ruleset, view)):
            entry = unit_entry(ruleset, module, view, uid, version)
            if entry is not None:
                units[uid] = entry
    section = next((e.pop("section") for e in units.values() if "section" in e), None)
    for e in units.values():
        e.pop("section", None)
    trees = _shared(units, version)
    more: dict[str, Any] = {}
    if version >= FORCES:
        more.update(_with_forces(ruleset, module, view, side, units, trees, version))
    if version >= SIDE_ORDERS:
        more["side_choices"] = side_choices(ruleset, module, view, side, version)
        if section is None:  # a step no unit acts in (2019's Random Events Phase [5.1])
            section = next((c["section"] for c in more["side_choices"] if "section" in c), None)
    if version >= AFTER_A_LINE and isinstance(ruleset, UnitOptions):
        allowances = {str(k): int(v) for k, v in ruleset.allowances(module, view, side).items()}
        if allowances:
            more["allowances"] = dict(sorted(allowances.items()))
    section = section or view.phase
    return {
        **more,
        "format": FORMATS[version],
        "side": side,
        "trees": trees,
        "report_sha256": rsha,
        "header": head,
        "turn": view.turn,
        "phase": view.phase,
        "section": "answer" if view.pending else section,
        "answers": [
            {"id": p.id, "rule": p.rule, "prompt": p.prompt, "options": list(p.options)}
            for p in view.pending
            if p.side == side
        ],
        "units": units,
    }


def options_files(
    module: Module,
    ruleset: Ruleset,
    reports: Mapping[str, Mapping[str, Any]],
    rsha: str,
    state: GameState,
    views: Mapping[str, GameState],
    version: int | None = None,
) -> dict[str, bytes]:
    """``options-SIDE.json`` for each side ``state`` awaits: computed on ``views[side]`` (the
    side's view), with ``reports[side]`` its record as it reads it, in format ``version``
    (today's when ``None``)."""
    version = version or OPTIONS_VERSION
    out: dict[str, bytes] = {}
    for side in awaited_sides(module, ruleset, state):
        if side not in views or side not in reports:
            continue
        doc = draft_options(module, ruleset, reports[side], rsha, views[side], side, version)
        out[options_file(side)] = compact_json(doc)
    return out


def compact_json(doc: Any) -> bytes:
    """The file's bytes: JSON with sorted keys and no spaces, one line and a newline (a
    machine's file: the viewer reads it; indenting would double it)."""
    import json

    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode()


def published_in(listed: Mapping[str, str] | set[str], skip: set[str] | frozenset[str]) -> bool:
    """Whether a step's folder publishes options files: a step written before them (or by a
    game without them) lists none, and then ``verify`` expects none of it."""
    return any(is_options_file(n) for n in listed) or any(is_options_file(n) for n in skip)


def published_version(
    listed: Mapping[str, str] | set[str],
    skip: set[str] | frozenset[str],
    on_disk: Callable[[str], bytes],
) -> int:
    """The format version of a step's published options files, for ``verify`` to render
    them again in (0: the step publishes none, :func:`published_in`). Read from the first
    one it can open (one outside ``skip``, the parts it holds no key for); a file that
    names no known format is taken as today's, which then differs and fails the check."""
    if not published_in(listed, skip):
        return 0
    import json

    for name in sorted(n for n in listed if is_options_file(n) and n not in skip):
        try:
            doc = json.loads(on_disk(name))
        except (OSError, KeyError, ValueError):
            return OPTIONS_VERSION
        fmt = doc.get("format") if isinstance(doc, dict) else None
        return next((v for v, f in FORMATS.items() if f == fmt), OPTIONS_VERSION)
    return OPTIONS_VERSION
