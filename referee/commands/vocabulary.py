"""``referee vocabulary RULESET``: the orders a ruleset's players may write.

Made from the ruleset's declared :class:`~referee.engine.vocabulary.Vocabulary` (found
through the registry): the sections and one usage line per verb for people, the whole
declaration with ``--json`` for programs that build orders, and with ``--markdown`` the verb
table of ``docs/orders/<ruleset>.md``. Exit 0, or 2 for an unknown ruleset.
"""

from __future__ import annotations

import typer

from referee.errors import UserError


def register(app: typer.Typer) -> None:
    @app.command()
    def vocabulary(
        ruleset: str = typer.Argument(..., help="Ruleset id, e.g. sixth_fleet_1975."),
        as_json: bool = typer.Option(False, "--json", help="The declaration as JSON."),
        markdown: bool = typer.Option(False, "--markdown", help="The docs verb table."),
    ) -> None:
        """Sections, verbs and argument shapes of a ruleset's orders."""
        from referee.commands.common import print_json
        from referee.engine.ruleset import get_ruleset
        from referee.engine.vocabulary import verb_table

        rs = get_ruleset(ruleset)
        vocab = getattr(rs, "vocabulary", None)
        if vocab is None:
            raise UserError(
                f"ruleset {ruleset!r} reads orders in a language of its own",
                hint=f"see docs/orders/{ruleset}.md",
            )
        if as_json:
            print_json(vocab.to_json())
            return
        if markdown:
            typer.echo(verb_table(vocab), nl=False)
            return
        typer.echo(f"{rs.name}: orders (docs/orders/{ruleset}.md)")
        typer.echo("locations: " + vocab.describe_location())
        for section in vocab.all_sections():
            typer.echo(f"[{section}]")
            for v in vocab.verbs:
                for text, sections, _meaning in v.form_usages(vocab):
                    if section in sections:
                        typer.echo(f"  {text}")
