"""An alias left at an old public path: `make run`'s main job lives in `spades_lab.cli.main_job`."""

from spades_lab.cli.main_job import DEFAULT_ENTRANTS, RULES, main_job

__all__ = ["DEFAULT_ENTRANTS", "RULES", "main_job"]
