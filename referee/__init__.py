"""referee: module builder, play-aid printer and PBEM referee for hex-and-counter wargames."""

__version__ = "0.1.0"
