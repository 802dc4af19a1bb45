"""Run the ``referee`` CLI with the toy ruleset installed (for subprocess tests)."""

from tests.pbem import toy

toy.install()

from referee.cli import main  # noqa: E402

main()
