"""Statistics over played hands and games."""

from spades_lab.stats.estimates import (
    Estimate,
    mean_estimate,
    paired_by_deal,
    paired_estimate,
    paired_ratio_estimate,
    ratio_estimate,
    wilson_estimate,
)
from spades_lab.stats.intervals import mean_interval, wilson
from spades_lab.stats.ratings import bradley_terry
from spades_lab.stats.sequential import SequentialTest
from spades_lab.stats.summary import HandStats
from spades_lab.stats.tally import GameTally, side_measures

__all__ = [
    "Estimate", "GameTally", "HandStats", "SequentialTest", "bradley_terry", "mean_estimate", "mean_interval",
    "paired_by_deal", "paired_estimate", "paired_ratio_estimate", "ratio_estimate", "side_measures", "wilson", "wilson_estimate",
]  # fmt: skip
