"""``referee vocabulary RULESET``: the orders a ruleset's players may write.

Made from the ruleset's declared :class:`~referee.engine.vocabulary.Vocabulary` (found
through the registry): the sections and one usage line per verb form for people
(``--format text``; ``--quiet`` leaves out the title and the location line), the whole
declaration for programs that build orders (``--format json``), and the verb table of
``docs/orders/<ruleset>.md`` (``--format markdown``). Exit 0, or 2 for an unknown ruleset.
"""

from __future__ import annotations

import enum

import typer

from referee.commands.common import json_option, quiet_option
from referee.errors import UserError


class VocabularyFormat(enum.StrEnum):
    """``--format`` of ``referee vocabulary``."""

    text = "text"
    json = "json"
    markdown = "markdown"


def register(app: typer.Typer) -> None:
    @app.command()
    def vocabulary(
        ruleset: str = typer.Argument(
            ...,
            metavar="MODULE|RULESET",
            help="A bundled module (sixth_fleet, as every other command takes it), a module "
            "source folder, or a ruleset id (sixth_fleet_1975).",
        ),
        fmt: VocabularyFormat = typer.Option(
            "text",
            "--format",
            metavar="text|json|markdown",
            help="How to print it: text for people, json for scripts, markdown for the docs.",
        ),
        as_json: bool = json_option(),
        quiet: bool = quiet_option("Print the usage lines only."),
    ) -> None:
        """Sections, verbs and argument shapes of a ruleset's orders."""
        from referee.commands.common import output_format, print_json
        from referee.engine.ruleset import get_ruleset
        from referee.engine.vocabulary import verb_table

        how = output_format(fmt, as_json)
        ruleset = ruleset_named(ruleset)
        rs = get_ruleset(ruleset)
        vocab = rs.vocabulary
        if vocab is None:
            raise UserError(
                f"ruleset {ruleset!r} reads orders in a language of its own",
                hint=f"see docs/orders/{ruleset}.md",
            )
        if how == "json":
            print_json(vocab.to_json())
            return
        if how == "markdown":
            typer.echo(verb_table(vocab), nl=False)
            return
        if not quiet:
            typer.echo(f"{rs.name}: orders (docs/orders/{ruleset}.md)")
            typer.echo("locations: " + vocab.describe_location())
        for section in vocab.all_sections():
            typer.echo(f"[{section}]")
            for v in vocab.verbs:
                for text, sections, _meaning in v.form_usages(vocab):
                    if section in sections:
                        typer.echo(f"  {text}")


def ruleset_named(name: str) -> str:
    """The ruleset id ``name`` means: a ruleset id as it is; a bundled module's name
    (``sixth_fleet``) or a module source folder: the ruleset its ``module.toml`` names. The
    module name is what every other command takes (``--example``), so it is accepted here
    too; anything else is a UserError naming both kinds."""
    import tomllib
    from pathlib import Path

    from referee.engine.ruleset import ruleset_ids
    from referee.resources import example_names, example_path

    if name in ruleset_ids():
        return name
    folder = example_path(name) or Path(name)
    toml = folder / "module.toml"
    if toml.is_file():
        try:
            found = tomllib.loads(toml.read_text("utf-8"))["module"]["ruleset"]
        except (OSError, KeyError, TypeError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            found = None
        if isinstance(found, str):
            return found
    from referee.source.diagnostics import did_you_mean

    known = [*example_names(), *ruleset_ids()]
    raise UserError(
        f"no bundled module or ruleset {name!r}",
        hint=did_you_mean(name, known)
        or "modules: " + ", ".join(example_names()) + "; rulesets: " + ", ".join(ruleset_ids()),
    )
