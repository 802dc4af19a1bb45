"""``python -m referee.demos`` (``make demo``): every bundled game's demo, then a table."""

import sys

from referee.demos import main

sys.exit(main())
