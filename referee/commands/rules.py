"""``referee rules RULESET``: which numbered cases of a rulebook the referee enforces.

Prints the ruleset's coverage page (``docs/rules-coverage/<ruleset>.md``, generated from its
``cases.toml``, its code and its tests by ``python -m referee.coverage.generate``) for a
moderator: every case enforced, provisional (with its switch), partly enforced or not built
(with what the players must do), or none of the referee's business. ``--status`` keeps the
rows of some statuses (``--status partly --status not-built``: what to watch); ``--json``
prints the page's data for scripts. Exit 0, or 2 for a ruleset without a page.
"""

from __future__ import annotations

import typer

from referee.commands.common import TextOrJson, format_option, json_option, quiet_option
from referee.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command()
    def rules(
        ruleset: str = typer.Argument(
            ..., metavar="RULESET", help="Ruleset id, e.g. sixth_fleet_1975."
        ),
        status: list[str] = typer.Option(
            [],
            "--status",
            metavar="STATUS",
            help="Show only rows of this status (repeatable): enforced, provisional, partly, "
            "host, player, text, not-built, deleted.",
        ),
        fmt: TextOrJson = format_option(),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print the summary only."),
    ) -> None:
        """The rule cases of a ruleset: enforced, provisional, partly, not built."""
        import json

        from referee.commands.common import output_format, print_json
        from referee.coverage.cases import STATUSES
        from referee.coverage.page import to_markdown
        from referee.resources import coverage_dir
        from referee.safeio import read_text

        unknown = [s for s in status if s not in STATUSES]
        if unknown:
            raise UserError(f"unknown status {unknown[0]!r}", hint="one of " + ", ".join(STATUSES))
        pages = coverage_dir()
        path = pages / f"{ruleset}.json"
        if not path.is_file():
            have = sorted(p.stem for p in pages.glob("*.json")) if pages.is_dir() else []
            raise UserError(
                f"no rules coverage page for ruleset {ruleset!r}",
                hint="pages: " + (", ".join(have) or "none"),
            )
        page = json.loads(read_text(path))
        if status:
            page["rows"] = [r for r in page["rows"] if r["status"] in status]
        if output_format(fmt, as_json) == "json":
            print_json(page)
            return
        text = to_markdown(page)
        if quiet:
            text = text.split("\n## ", 1)[0]
        typer.echo(text, nl=False)
