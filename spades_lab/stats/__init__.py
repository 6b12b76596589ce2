"""Statistics over played hands and games."""

from spades_lab.stats.intervals import mean_interval, wilson
from spades_lab.stats.summary import HandStats
from spades_lab.stats.tally import GameTally, side_measures

__all__ = ["GameTally", "HandStats", "mean_interval", "side_measures", "wilson"]
