"""`python -m spades_lab.cli`: the `spades-lab` command."""

import sys

from spades_lab.cli import main

sys.exit(main())
