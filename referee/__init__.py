"""referee: module builder, play-aid printer and PBEM referee for hex-and-counter wargames."""

from referee.codecache import install as _install_code_cache

_install_code_cache()  # before any dataclass of the package is made (referee/codecache.py)

__version__ = "0.1.0"
