"""Turn reports for people: Markdown for an email body, HTML with the position picture.

Both render from the Jinja2 templates in ``templates/reports/`` and only from the signed
record (``report.json``), the position after it and the module, so ``referee verify`` can
render the Markdown again and compare it byte for byte: the words a player reads say what
the signed record says.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

import jinja2

from referee.pbem.keys import short_fingerprint
from referee.pbem.scoreboard import scoreboard
from referee.resources import templates_dir
from referee.source.memo import per_module
from referee.source.model import Module


class _CompiledTemplates(jinja2.BytecodeCache):
    """Jinja2's compiled report templates kept in the active cache (``referee.cache``),
    keyed by the template's name and source checksum, Jinja2's and Python's versions:
    compiling the report templates is a fifth of a turn's adjudication, and the rendered
    text is the same either way. No active cache: compiled each time."""

    def _key(self, bucket: jinja2.bccache.Bucket) -> str:
        import sys

        from referee.cache import digest

        return digest("jinja", bucket.key, bucket.checksum, jinja2.__version__, sys.version)

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from referee.cache import active

        cache = active()
        data = cache.get("jinja", self._key(bucket)) if cache.enabled else None
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from referee.cache import active

        cache = active()
        if cache.enabled:
            cache.put("jinja", self._key(bucket), bucket.bytecode_to_string())


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir() / "reports")),
        bytecode_cache=_CompiledTemplates(),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2")),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["short"] = short_fingerprint
    return env


@lru_cache(maxsize=1)
def templates_sha256() -> str:
    """The hash of the report templates. Recorded in every report, so ``verify`` re-renders
    and compares the Markdown only when it has the very templates the referee used."""
    h = hashlib.sha256()
    for p in sorted((templates_dir() / "reports").glob("*.j2")):
        h.update(p.name.encode() + b"\x00" + p.read_bytes().replace(b"\r\n", b"\n") + b"\x00")
    return h.hexdigest()


def piece_names(module: Module) -> dict[str, str]:
    """Every counter's unit name by piece id, made once per module object (each report
    and view of a run lists the pieces)."""
    return per_module(
        module, "piece_names", lambda: {k: p.unit.name for k, p in module.pieces().items()}
    )


def positions(module: Module, state: dict[str, Any]) -> list[dict[str, Any]]:
    """Each side's pieces from a state's JSON: on the map by hex, off the map by box; then
    the pieces of no playing side (neutrals [2019 2.3]), so that every piece of the state is
    listed (issue 31)."""
    names = piece_names(module)
    out: list[dict[str, Any]] = []
    sides = [(s.id, s.name) for s in module.sides]
    known = {s for s, _ in sides}
    others = sorted({str(u.get("side")) for u in state.get("units", [])} - known)
    for side_id, side_name in [*sides, *((o, f"Pieces of no side: {o}") for o in others)]:
        on: list[dict[str, str]] = []
        off: list[dict[str, str]] = []
        for u in state.get("units", []):
            if str(u.get("side")) != side_id:
                continue
            row = {
                "id": u["id"],
                "name": names.get(u["id"], ""),
                "location": u.get("location") or "",
                "box": u.get("box") or "",
                "status": ", ".join(u.get("status", [])),
            }
            (on if u.get("location") else off).append(row)
        on.sort(key=lambda r: (r["location"], r["id"]))
        off.sort(key=lambda r: (r["box"], r["id"]))
        out.append({"id": side_id, "name": side_name, "on_board": on, "off_board": off})
    return out


def next_side(report: dict[str, Any], viewer: str | None = None) -> str | None:
    """The side whose header the report shows: the viewer when the game waits for the
    viewer among several sides (``awaiting.due``), else the first side awaited."""
    aw = report.get("awaiting")
    if not aw:
        return None
    due = [d.get("side") for d in aw.get("due", []) if isinstance(d, dict)]
    return viewer if viewer is not None and viewer in due else aw["side"]


def next_header(
    report: dict[str, Any], report_sha256: str, viewer: str | None = None
) -> str | None:
    """The header lines the awaited player copies to the top of the next orders."""
    side = next_side(report, viewer)
    if side is None:
        return None
    lines = [
        f"game: {report['game_id']}",
        f"turn: {report['after']['turn']}",
        f"side: {side}",
    ]
    if not report.get("pending"):
        lines.append(f"phase: {report['after']['phase']}")
    lines.append(f"previous-report: {report_sha256}")
    if report.get("pending"):
        lines += ["", "[answer]"] + [f"answer {p['id']} OPTION" for p in report["pending"]]
    return "\n".join(lines)


def _context(
    module: Module,
    report: dict[str, Any],
    report_sha256: str,
    state: dict[str, Any],
    viewer: str | None,
) -> dict[str, Any]:
    return {
        "r": report,
        "report_sha256": report_sha256,
        "viewer": viewer,
        "positions": positions(module, state),
        "next_header": next_header(report, report_sha256, viewer),
        "next_side": next_side(report, viewer),
        "module_name": module.name,
        "after_phase": phase_name(module, state),
        "place": place_word(module),
        "score": scoreboard(module, report["score"], str(report.get("scenario", "")))
        if report.get("score")
        else None,
    }


def place_word(module: Module) -> str:
    """What a location on this map is called in the position tables: a hex, a zone (area
    map) or a space (point-to-point map)."""
    m = module.map
    if m.grid is not None:
        return "Hex"
    return "Zone" if m.zones is not None else "Space"


def phase_name(module: Module, state: dict[str, Any]) -> str:
    """The phase of the position shown, as its ruleset names it ("Soviet Random Events
    Phase": ``phase_title_of``); the phase id where the ruleset names none."""
    from referee.engine.core import GameState
    from referee.engine.ruleset import get_ruleset, names_phases, phase_title_of
    from referee.errors import UserError

    try:
        ruleset = get_ruleset(module.ruleset)
        if not names_phases(ruleset):  # the id: no need to read the state
            return str(state.get("phase", ""))
        return phase_title_of(ruleset, module, GameState.from_json(state))
    except (UserError, ValueError):  # a ruleset not installed here, a state of another shape
        return str(state.get("phase", ""))


def render_markdown(
    module: Module,
    report: dict[str, Any],
    report_sha256: str,
    state: dict[str, Any],
    viewer: str | None = None,
) -> str:
    ctx = _context(module, report, report_sha256, state, viewer)
    return _env().get_template("report.md.j2").render(ctx)


def render_html(
    module: Module,
    report: dict[str, Any],
    report_sha256: str,
    state: dict[str, Any],
    picture: str | None,
) -> str:
    ctx = _context(module, report, report_sha256, state, None)
    ctx["picture"] = picture
    return _env().get_template("report.html.j2").render(ctx)
