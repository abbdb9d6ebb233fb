"""``python -m nonoqubo``: the same as the ``nonoqubo`` command."""

import sys

from .cli import main

sys.exit(main())
