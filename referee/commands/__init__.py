"""CLI command modules. Each has ``register(app)``; add new ones to this list."""

COMMAND_MODULES: list[str] = [
    "check",
    "build",
    "sheets",
    "charts",
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
]
