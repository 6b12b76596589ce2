"""An alias left at an old public path: `spades-lab compare` lives in `spades_lab.cli.compare`."""

from spades_lab.cli.compare import add_parser, parse_claim, run

__all__ = ["add_parser", "parse_claim", "run"]
