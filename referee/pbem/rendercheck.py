"""``verify``: every file a player opens is what the referee's code renders from the record.

A turn folder's Markdown and HTML reports, per-side views (JSON and Markdown), the position
picture (``position.svg``) and the VASSAL saves are rendered again here from the signed
``report.json`` and the replayed position, with the same function that wrote them
(:func:`referee.pbem.record.player_files`), and compared. Nothing the archive says can turn a
comparison off (issue 24): a file is either **proved** (the same bytes; for a VASSAL save, the
same command stream, i.e. the same pieces in the same places and states) or it **fails** (the
file is named, exit 1) or, for a kind of file only earlier referee versions wrote, it is
listed as **unchecked** (``Verified.unchecked``; ``verify`` exits 3 and names it):

* ``position.png`` and per-step ``viewer-SIDE.html`` (written before pictures became SVG and
  the viewer was made on demand): drawn by Pillow, whose pixels and encoder differ between
  builds, so such a file is proved only when this machine draws the same bytes, else
  unchecked. What the manifest recorded of its making is not read.
* A VASSAL save or report of a step rendered with an earlier referee version's report
  templates (``templates_sha256`` one of :data:`KNOWN_TEMPLATES`): its Markdown and HTML are
  compared except for the one section today's templates render differently, and listed as
  unchecked when that section differs (the record's field cannot switch the comparison of
  that section off silently); a save that differs is unchecked (its VASSAL writer was
  another). A report with today's templates whose save differs fails.

Whoever changes ``templates/reports/`` adds today's ``templates_sha256()`` to
:data:`KNOWN_TEMPLATES` (with what the change renders differently), so that the archives
played with it keep verifying.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from referee.pbem.reports import templates_sha256

# Template sets of earlier referee versions: hash -> (what differs today, how to cut it out).
_SCORE_MD = re.compile(rb"\n## Score[^\n]*\n.*?(?=\n## )", re.S)
_SCORE_HTML = re.compile(rb"<h2>Score[ <].*?(?=<h2>)", re.S)


def _without_score(name: str, data: bytes) -> bytes:
    if name.endswith(".md"):
        return _SCORE_MD.sub(b"\n", data)
    if name.endswith(".html"):
        return _SCORE_HTML.sub(b"", data)
    return data


_NO_SIDE_MD = re.compile(rb"\n### Pieces of no side: .*?(?=\n##)", re.S)
_NO_SIDE_HTML = re.compile(rb"<h3>Pieces of no side: .*?(?=<h[23]>)", re.S)


def _as_before_issue_31(name: str, data: bytes) -> bytes:
    """Issue 31: the score tables of every ruleset (one VP track, losses no side scores),
    the pieces of no side listed, the sign hint spelling ``--game-dir``."""
    data = data.replace(b"--key YOUR.key --game GAME_DIR", b"--key YOUR.key --game-dir GAME_DIR")
    if name.endswith(".md"):
        data = _NO_SIDE_MD.sub(b"", data)
    elif name.endswith(".html"):
        data = _NO_SIDE_HTML.sub(b"", data)
    return _without_score(name, data)


KNOWN_TEMPLATES: dict[str, tuple[str, Callable[[str, bytes], bytes]]] = {
    "cd777dd0e35ca150d2c70c6d8557fe87f77211d538cf7a1320995ffde4efc867": (
        "the Score section (raw JSON before issue 12 §3, tables since)",
        _as_before_issue_31,
    ),
    "0345707263fb3e07e1fb3f819d01d6cf3df6eb4341d37a8976df01660ba9cdf3": (
        "the Score section, the pieces of no side and the sign hint (issue 31)",
        _as_before_issue_31,
    ),
    "68279cff41a4585c7ac53b5cacd5bb563ea1a0e034a7fdea185c9f58558fd56f": (
        "the Score section (the result line of a game that is over, issue 26)",
        _without_score,
    ),
}
TEMPLATE_ORDER = (*KNOWN_TEMPLATES, "current")
LEGACY_PICTURES = ("position.png",)
"""Raster pictures earlier referee versions wrote into every step; today's is ``position.svg``."""


class RenderMismatch(Exception):
    """``file`` is not what the record renders to; ``check`` and ``message`` say why."""

    def __init__(self, file: str, message: str) -> None:
        super().__init__(f"{file}: {message}")
        self.file = file
        self.message = message


def template_rank(rep: dict[str, Any], file: str) -> int:
    """The place of the report's templates in :data:`TEMPLATE_ORDER`; fails for a hash of
    no referee version's templates."""
    got = rep.get("templates_sha256")
    if got == templates_sha256():
        return len(TEMPLATE_ORDER) - 1
    if got in KNOWN_TEMPLATES:
        return TEMPLATE_ORDER.index(got)
    raise RenderMismatch(
        file,
        f"templates_sha256 {str(got)[:16]}... is the hash of no referee version's report "
        "templates, so its Markdown and HTML cannot be checked",
    )


def same_save(got: bytes, want: bytes) -> bool:
    """Two VASSAL saves with the same command stream: the same pieces in the same places and
    states, whatever the zip's or the obfuscation's bytes (a check of what the save shows,
    not of how it was encoded)."""
    from referee.vassal.codec.errors import VassalFormatError
    from referee.vassal.codec.savefile import read_save_bytes

    try:
        return read_save_bytes(got).stream == read_save_bytes(want).stream
    except (VassalFormatError, ValueError, KeyError, OSError):
        return False


RECORD_FILES = ("report.json", "state.json", "orders.txt")
"""Files of a step the record walk checks itself (signature, hash chain, commitments), beside
the sealed orders a step opens (``orders-SIDE.txt``)."""


def compare(
    base: str,
    rendered: dict[str, bytes],
    on_disk: Callable[[str], bytes],
    listed: dict[str, str],
    rep: dict[str, Any],
    unchecked: list[tuple[str, str]],
) -> None:
    """Compare the re-rendered ``rendered`` with the folder's files; raises
    :class:`RenderMismatch` naming the first file that differs; adds to ``unchecked`` each file of a
    kind only earlier referee versions wrote that this machine does not make the same (the
    module docstring). Nothing in the manifest is read but the file list."""
    tsha = rep.get("templates_sha256")
    cut = KNOWN_TEMPLATES[tsha][1] if tsha in KNOWN_TEMPLATES else None
    legacy = any(n in listed for n in LEGACY_PICTURES)
    for name in sorted(rendered):
        if name not in listed:
            raise RenderMismatch(f"{base}/{name}", "missing: the record renders it")
    for name, want in sorted(rendered.items()):
        got = on_disk(name)
        if got == want:
            continue
        if name.endswith(".vsav") and same_save(got, want):
            continue
        why = _unprovable(name, older_templates=cut is not None, legacy=legacy)
        if why is not None:
            unchecked.append((f"{base}/{name}", why))
            continue
        if (
            cut is not None
            and name.endswith((".md", ".html"))
            and cut(name, got) == cut(name, want)
        ):
            unchecked.append(
                (
                    f"{base}/{name}",
                    "written with an earlier referee version's report templates: all of it is "
                    f"proved but {KNOWN_TEMPLATES[str(tsha)][0]}, which today's templates "
                    "render differently",
                )
            )
            continue
        raise RenderMismatch(f"{base}/{name}", _what_differs(name))


def account_for(base: str, rendered: Mapping[str, bytes], listed: Mapping[str, str]) -> None:
    """Every file the manifest lists is one the record walk checks, one rendered again
    (``rendered``, compared by :func:`compare`) or a legacy step's viewer
    (:func:`check_viewers`): a file the referee's code does not make fails, so no file a
    player opens escapes the check."""
    legacy = any(n in listed for n in LEGACY_PICTURES)
    for name in sorted(listed):
        if name in rendered or name in RECORD_FILES:
            continue
        if name.startswith("orders-") and name.endswith(".txt"):
            continue  # sealed orders opened by this step: checked against their commitment
        if name.endswith(".age"):
            continue  # an encrypted part: its hash is signed; parts_open checks what it holds
        if legacy and name.startswith("viewer-") and name.endswith(".html"):
            continue
        raise RenderMismatch(
            f"{base}/{name}", "a file the referee's code does not make from the record"
        )


def _unprovable(name: str, *, older_templates: bool, legacy: bool) -> str | None:
    """Why a file that differs from today's rendering may still be honest, when it is of a
    kind an earlier referee version wrote differently (``legacy``: a step with
    ``position.png``, as they wrote them); ``None`` when a difference is a lie."""
    if name in LEGACY_PICTURES:
        return (
            "a PNG drawn by an earlier referee version (Pillow's pixels and encoder differ "
            "between builds): this machine does not draw the same bytes, so it is not proved; "
            "trust report.md and the views instead"
        )
    if legacy and name.startswith("viewer-"):
        return (
            "a viewer an earlier referee version wrote into the step (its board is a Pillow "
            "picture): this machine does not make the same bytes; make a checked one with "
            "`referee viewer GAME_DIR --side SIDE`"
        )
    if older_templates and name.endswith(".vsav"):
        return (
            "a VASSAL save written by an earlier referee version's VASSAL writer (the report "
            "used earlier templates): it holds other commands than today's writer writes, so "
            "it is not proved; the view files say the same position and are checked"
        )
    return None


def _what_differs(name: str) -> str:
    if name.endswith(".vsav"):
        return "does not show the position the record renders to (another command stream)"
    if name.endswith(".svg"):
        return "does not show the position the record renders to"
    if name.startswith("view-"):
        return "is not the view of the record for that side"
    return "does not say what report.json records"


def check_viewers(
    base: str,
    module: Any,
    ruleset: Any,
    rep: dict[str, Any],
    views: dict[str, bytes],
    history: dict[str, list[dict[str, Any]]],
    listed: dict[str, str],
    on_disk: Callable[[str], bytes],
    unchecked: list[tuple[str, str]],
) -> None:
    """A folder's ``viewer-SIDE.html`` files (written into each step by earlier referee
    versions; today's viewer is made on demand), made again from its checked ``views`` and
    the views of every step before (``history``), compared with :func:`compare`."""
    from referee.viewer.page import step_viewers

    if any(n.startswith("viewer-") for n in listed):
        made = step_viewers(module, ruleset, views, history, rep["referee"]["fingerprint"])
        compare(base, made, on_disk, listed, rep, unchecked)


class ViewHistory:
    """Each side's ``view-SIDE.json`` of the steps walked so far: what a legacy step's
    ``viewer-SIDE.html`` shows. Kept as the step's files (or where to read them) and parsed
    only when a step with a viewer asks, so an archive without viewers pays nothing."""

    def __init__(self) -> None:
        self._steps: list[Callable[[], dict[str, bytes]]] = []
        self._docs: dict[str, list[dict[str, Any]]] = {}
        self._parsed = 0

    def add(self, files: Mapping[str, bytes]) -> None:
        """This step's rendered (and compared) files."""
        views = {n: b for n, b in files.items() if n.startswith("view-") and n.endswith(".json")}
        self._steps.append(lambda: views)

    def add_from(self, read: Callable[[str], bytes], listed: Mapping[str, str]) -> None:
        """A step whose views were checked by hash only (``--since``, or not yet revealed):
        read from the folder if a later viewer needs them."""
        names = sorted(n for n in listed if n.startswith("view-") and n.endswith(".json"))
        self._steps.append(lambda: {n: read(n) for n in names})

    def docs(self) -> dict[str, list[dict[str, Any]]]:
        for get in self._steps[self._parsed :]:
            for _name, data in sorted(get().items()):
                doc = json.loads(data)
                self._docs.setdefault(str(doc["side"]), []).append(doc)
        self._parsed = len(self._steps)
        return self._docs


class Since:
    """``verify --since REPORT``: the files rendered from steps up to ``REPORT`` (verified
    before) are not rendered again; every later step's are."""

    def __init__(self, sha: str | None) -> None:
        self.sha = sha
        self.reached = sha is None
        self.skipped = 0

    def rendering_due(self, rsha: str) -> bool:
        """Whether the files of the step with report ``rsha`` are to be rendered and compared."""
        if self.reached:
            return True
        if rsha == self.sha:
            self.reached = True
        self.skipped += 1
        return False

    def check_reached(self, last: str) -> None:
        if not self.reached:
            raise RenderMismatch(
                last,
                f"the archive does not reach report {str(self.sha)[:16]}... given to --since: "
                "it was truncated or forked after you verified it",
            )

    def note(self) -> str:
        return (
            f"--since: the files of the first {self.skipped} step(s) (to report "
            f"{str(self.sha)[:16]}..., verified before) were checked by signature and hash, "
            "not rendered again; every record was checked"
        )


def check_step_renderings(
    base: str,
    on_disk: Callable[[str], bytes],
    module: Any,
    ruleset: Any,
    rep: dict[str, Any],
    rsha: str,
    state: Any,
    before: Any,
    events: tuple[Any, ...],
    picture_dpi: int,
    listed: dict[str, str],
    history: ViewHistory,
    unchecked: list[tuple[str, str]],
) -> None:
    """Every file a player opens in a step of a game without commitments, rendered again
    from the record and the replayed position and compared (:func:`compare`), a legacy
    step's viewers included; raises :class:`RenderMismatch`."""
    from referee.pbem.draft_options import published_version
    from referee.pbem.record import picture_kind, player_files

    drafts = published_version(listed, frozenset(), on_disk)  # 0: none (an older step)
    want = player_files(
        module,
        ruleset,
        rep,
        rsha,
        state,
        before,
        events,
        picture_dpi,
        picture=picture_kind(listed),
        draft_options=drafts > 0,
        options_version=drafts or None,
    )
    account_for(base, want, listed)
    compare(base, want, on_disk, listed, rep, unchecked)
    if any(n.startswith("viewer-") for n in listed):
        check_viewers(base, module, ruleset, rep, want, history.docs(), listed, on_disk, unchecked)
    history.add(want)


def check_committed(
    base: str,
    on_disk: Callable[[str], bytes],
    module: Any,
    ruleset: Any,
    rep: dict[str, Any],
    record: dict[str, Any],
    rsha: str,
    state: Any,
    before: Any,
    events: tuple[Any, ...],
    picture_dpi: int,
    hides: bool,
    listed: dict[str, str],
    unchecked: list[tuple[str, str]],
    *,
    skip: set[str] | frozenset[str] = frozenset(),
) -> tuple[int, dict[str, bytes]]:
    """A turn folder of a game with commitments whose position is known (sealed orders only,
    or revealed): every file a player opens rendered again from the (full) ``record`` and
    the replayed ``state`` with the function that wrote it, then :func:`compare`. Returns
    (1 when the report used an earlier referee version's templates, for ``verify``'s note,
    else 0; the files rendered, which checks of files made from them can reuse); raises
    :class:`RenderMismatch`."""
    from referee.pbem.draft_options import published_version
    from referee.pbem.publish import published_player_files
    from referee.pbem.record import picture_kind, player_files

    template_rank(rep, f"{base}/report.json")  # no referee version's templates: fails
    picture = picture_kind(listed)
    # a step written before options files lists none (0); else the format they name
    drafts = published_version(listed, skip, on_disk)
    if hides:
        want = published_player_files(
            module, ruleset, record, rep, rsha, state, before, events, picture_dpi,
            picture=picture, draft_options=drafts > 0, options_version=drafts or None,
        )  # fmt: skip
    else:
        want = player_files(
            module, ruleset, rep, rsha, state, before, events, picture_dpi, picture=picture,
            draft_options=drafts > 0, options_version=drafts or None,
        )  # fmt: skip
    # ``skip``: files of a part this verify run holds no key for (parts_open.py), which
    # verify reports as not opened; never read from the archive
    want = {n: b for n, b in want.items() if n not in skip}
    account_for(base, want, listed)
    compare(base, want, on_disk, listed, rep, unchecked)
    return (0 if rep.get("templates_sha256") == templates_sha256() else 1), want
