"""``python -m gamecore``: the same as the ``gamecore`` console script."""

import sys

from gamecore.cli import main

sys.exit(main())
