"""``verify``: every file a player opens is what the referee's code renders from the record.

A turn folder's Markdown and HTML reports, per-side views (JSON and Markdown), the position
picture, the VASSAL saves and the game viewers (``viewer-SIDE.html``, made from the views of
every step so far) are rendered again here from the signed ``report.json`` and the
replayed position, with the same function that wrote them
(:func:`referee.pbem.record.player_files`), and compared byte for byte. A file that differs
is named. Where an exact re-render is impossible the check that could not be made is said,
never passed silently:

* ``position.png`` depends on the Pillow build that drew it (the fonts are bundled). The
  manifest records that Pillow's version; when this machine has another, the picture is not
  compared and a note says so. With the same version a different picture fails.
* A report rendered by an earlier referee version records the hash of its templates
  (``templates_sha256``). Only the template sets listed in :data:`KNOWN_TEMPLATES` are
  accepted, each with the one section today's templates render differently, which is cut
  out of both sides before comparing (a note says so); any other value fails, and a game
  never goes back to older templates than a report before it used.
* A viewer file embeds the board picture and depends on the viewer's templates: the
  manifest records both (``viewer``); with others here it is not compared and a note says so.

Whoever changes ``templates/reports/`` adds today's ``templates_sha256()`` to
:data:`KNOWN_TEMPLATES` (with what the change renders differently), so that the archives
played with it keep verifying.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
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


KNOWN_TEMPLATES: dict[str, tuple[str, Callable[[str, bytes], bytes]]] = {
    "cd777dd0e35ca150d2c70c6d8557fe87f77211d538cf7a1320995ffde4efc867": (
        "the Score section (raw JSON before issue 12 §3, tables since)",
        _without_score,
    ),
}
TEMPLATE_ORDER = (*KNOWN_TEMPLATES, "current")


class RenderMismatch(Exception):
    """``file`` is not what the record renders to; ``check`` and ``message`` say why."""

    def __init__(self, file: str, message: str) -> None:
        super().__init__(f"{file}: {message}")
        self.file = file
        self.message = message


def viewer_manifest() -> dict[str, str]:
    from referee.pbem.viewer import viewer_manifest as made

    return made()


def pillow_version() -> str:
    import PIL

    return str(PIL.__version__)


def drawing_fingerprint() -> str:
    """SHA-256 over the code and fonts that draw a turn's pictures (``referee/render``,
    ``referee/pbem/picture.py``, the shipped fonts): a picture drawn by another referee
    version cannot be drawn again byte for byte here, so ``verify`` says so instead of
    failing an honest archive (issue 11: "say which check could not be made and why")."""
    import hashlib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    files = [*sorted((root / "render").glob("*.py")), root / "pbem" / "picture.py"]
    files += sorted((root / "fonts").glob("*.ttf"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


@functools.cache
def vassal_fingerprint() -> str:
    """SHA-256 over the code that writes a step's VASSAL save (``referee/vassal``, the core's
    and every ruleset's schema: the markers, layers and boxes a save shows): a save another
    referee version wrote cannot be written again byte for byte here, so ``verify`` says so,
    as it does for a picture (:func:`drawing_fingerprint`)."""
    import hashlib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    files = [*sorted((root / "vassal").glob("*.py")), root / "source" / "schema.py"]
    files += sorted((root / "rules").glob("*/schema.py"))
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def renderer() -> dict[str, str]:
    """What a manifest records of how its pictures and saves were made: the Pillow version,
    the drawing code (:func:`drawing_fingerprint`) and the VASSAL writer
    (:func:`vassal_fingerprint`)."""
    return {
        "pillow": pillow_version(),
        "drawing": drawing_fingerprint(),
        "vassal": vassal_fingerprint(),
    }


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


def compare(
    base: str,
    rendered: dict[str, bytes],
    on_disk: Callable[[str], bytes],
    listed: dict[str, str],
    rep: dict[str, Any],
    manifest: dict[str, Any],
    notes: list[str],
) -> None:
    """Compare the re-rendered ``rendered`` with the folder's files; raises
    :class:`RenderMismatch` naming the first file that differs."""
    tsha = rep.get("templates_sha256")
    cut = KNOWN_TEMPLATES[tsha][1] if tsha in KNOWN_TEMPLATES else None
    for name in sorted(rendered):
        if name not in listed:
            raise RenderMismatch(f"{base}/{name}", "missing: the record renders it")
    for name, want in sorted(rendered.items()):
        got = on_disk(name)
        if got == want:
            continue
        if name == "position.png":
            made = manifest.get("renderer") or {}
            here = renderer()
            if made.get("pillow") != here["pillow"]:
                why = (
                    f"drawn with Pillow {made.get('pillow') or '(unrecorded)'}, this machine "
                    f"has Pillow {here['pillow']}, and a picture is exact only with the same build"
                )
            elif made.get("drawing") != here["drawing"]:
                why = (
                    "drawn by another referee version (drawing code "
                    f"{str(made.get('drawing') or '(unrecorded)')[:16]}..., this one "
                    f"{here['drawing'][:16]}...), and a picture is exact only with the same code"
                )
            else:
                raise RenderMismatch(
                    f"{base}/{name}", "does not show the position the record renders to"
                )
            notes.append(
                f"{base}/position.png: not compared: {why}; its hash is checked against the "
                "signed manifest"
            )
            continue
        if name.endswith(".vsav") and cut is None:  # older templates: their note covers it
            made_by = (manifest.get("renderer") or {}).get("vassal")
            if made_by != vassal_fingerprint():
                notes.append(
                    f"{base}/{name}: not compared: written by another referee version's VASSAL "
                    f"writer ({str(made_by or '(unrecorded)')[:16]}..., this one "
                    f"{vassal_fingerprint()[:16]}...); its hash is checked against the signed "
                    "manifest"
                )
                continue
        if name.startswith("viewer-"):
            made = manifest.get("viewer") or {}
            here = viewer_manifest()
            if made != here:
                if made.get("templates_sha256") != here["templates_sha256"]:
                    why = "other viewer templates"
                elif made.get("pillow") != here["pillow"]:
                    why = f"Pillow {made.get('pillow')} (this machine has {here['pillow']})"
                else:
                    why = "another referee version's drawing code (the board picture)"
                notes.append(
                    f"{base}/{name}: not compared: made with {why}, and the viewer is exact "
                    "only with the same ones; its hash is checked against the signed manifest"
                )
                continue
            raise RenderMismatch(
                f"{base}/{name}", "does not show what the views of this game's steps record"
            )
        if (
            cut is not None
            and name.endswith((".md", ".html"))
            and cut(name, got) == cut(name, want)
        ):
            continue
        if cut is not None and name.endswith(".vsav"):
            # an earlier referee version's VASSAL writer (saves gained the turn tracker since):
            # checked by hash and signature only, which verify's note on the templates says
            continue
        raise RenderMismatch(f"{base}/{name}", "does not say what report.json records")


def check_viewers(
    base: str,
    module: Any,
    ruleset: Any,
    rep: dict[str, Any],
    views: dict[str, bytes],
    history: dict[str, list[dict[str, Any]]],
    manifest: dict[str, Any],
    on_disk: Callable[[str], bytes],
    notes: list[str],
    *,
    required: bool,
) -> bool:
    """A folder's ``viewer-SIDE.html`` files, made again from its checked ``views`` and the
    views of every step before (``history``), compared with :func:`compare`. ``required``:
    the steps before had viewers, so this one must too. Returns whether it has them."""
    from referee.pbem.viewer import step_viewers

    listed = dict(manifest["files"])
    has = any(n.startswith("viewer-") for n in listed)
    if required and not has:
        raise RenderMismatch(base, "no viewer-SIDE.html, though the steps before have them")
    if has:
        made = step_viewers(module, ruleset, views, history, rep["referee"]["fingerprint"])
        compare(base, made, on_disk, listed, rep, manifest, notes)
    return has


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
    manifest: dict[str, Any],
    notes: list[str],
    *,
    skip: set[str] | frozenset[str] = frozenset(),
) -> tuple[int, dict[str, bytes]]:
    """A turn folder of a game with commitments whose position is known (sealed orders only,
    or revealed): every file a player opens rendered again from the (full) ``record`` and
    the replayed ``state`` with the function that wrote it, then :func:`compare`. Returns
    (1 when the report used an earlier referee version's templates, for ``verify``'s note,
    else 0; the files rendered, which checks of files made from them can reuse); raises
    :class:`RenderMismatch`."""
    from referee.pbem.publish import published_player_files
    from referee.pbem.record import player_files

    template_rank(rep, f"{base}/report.json")  # no referee version's templates: fails
    if hides:
        want = published_player_files(
            module, ruleset, record, rep, rsha, state, before, events, picture_dpi
        )
    else:
        want = player_files(module, ruleset, rep, rsha, state, before, events, picture_dpi)
    # ``skip``: files of a part this verify run holds no key for (parts_open.py), which
    # verify reports as not opened; never read from the archive
    want = {n: b for n, b in want.items() if n not in skip}
    compare(base, want, on_disk, dict(manifest.get("files") or {}), rep, manifest, notes)
    return (0 if rep.get("templates_sha256") == templates_sha256() else 1), want
