"""CLI command modules. Each has ``register(app)``; add new ones to this list, and the
command names each registers to :data:`COMMAND_NAMES` (a test checks the two agree)."""

COMMAND_MODULES: list[str] = [
    "check",
    "build",
    "sheets",
    "charts",
    "mapprint",
    "pbem",
    "reveal",
    "validate",
    "state",
    "options",
    "vocabulary",
    "vsav",
    "vlog",
    "map_from_geo",
    "import_vmod",
    "viewer",
    "rules",
    "new_source",
]

COMMAND_NAMES: dict[str, str] = {
    "check": "check",
    "build": "build",
    "sheets": "sheets",
    "charts": "charts",
    "map": "mapprint",
    "keygen": "pbem",
    "new": "pbem",
    "sign": "pbem",
    "adjudicate": "pbem",
    "verify": "pbem",
    "reveal": "reveal",
    "validate": "validate",
    "state": "state",
    "options": "options",
    "vocabulary": "vocabulary",
    "show-vsav": "vsav",
    "import-vlog": "vsav",
    "log": "vlog",
    "map-from-geo": "map_from_geo",
    "import-vmod": "import_vmod",
    "viewer": "viewer",
    "rules": "rules",
    "new-source": "new_source",
}
"""Which module registers each command: running one command imports and registers only its
module (:func:`referee.cli.app_for`), so a process pays for one command, not fourteen."""
