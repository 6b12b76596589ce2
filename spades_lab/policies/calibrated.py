"""The `calibrated` bidder: the cheat sheet's count with each part weighted by what it is worth double dummy.

The count's parts are the sheet's (section 1), but their values come from a fit of a side's
double-dummy tricks on its parts over random deals (`spades_lab.fit.counts`; `python -m spades_lab.fit counts`
writes `data/calibrated_weights.json`). The fit predicts tricks, not a conservative count, so the hand's
expected DD tricks are

    base + sum(weight of each part held) + on_lead / 2 (each hand of the side whose seat leads first)

(`base` is half the side's intercept; where the first leader is not known at bidding time, as under
`two_of_clubs`, each hand gets on_lead / 4). The number bid is that expectation minus `dd_margin`,
rounded half up (the default margin, one trick, is the best of the margins -1 to +2 under expert play
in experiments/bid_margin.py: DD tricks are what perfect play takes). Everything around the count is the `counting` bidder's: the nil rule and suicide nil
(which read the sheet's own count, the scale their thresholds were set on), bag-aware rounding of a
borderline figure, `shift`, the nearest legal number, the blind-nil comeback.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from spades_lab.engine import BidView
from spades_lab.policies.bidding import CountingBidder, bidder_params, counting_fields
from spades_lab.policies.counting import CountParams, count_tricks_batch

WEIGHTS_RESOURCE = "calibrated_weights.json"
"""The fitted weights, in `spades_lab/policies/data/` (written by `python -m spades_lab.fit counts --write`)."""

CalibratedParams = bidder_params(
    "CalibratedParams",
    "calibrated bid",
    [
        ("dd_margin", "float", 1.0),  # tricks taken off the expected DD tricks before rounding half up (may be < 0)
        *counting_fields(0, count=False),
    ],
)
CalibratedParams.__doc__ = (
    "dd_margin (tricks taken off the DD expectation before rounding half up), then the counting bidder's "
    "switches and nil numbers; the count's values are the fitted weights, not parameters."
)


@lru_cache(maxsize=1)
def calibrated_weights() -> dict[str, float]:
    """The shipped fit: `base`, `on_lead` and one weight per value field of CountParams it fitted."""
    text = resources.files("spades_lab.policies").joinpath("data", WEIGHTS_RESOURCE).read_text()
    return dict(json.loads(text)["weights"])


def calibrated_count_params(weights: dict[str, float]) -> CountParams:
    """The sheet's count with the fitted weights as its values (its thresholds unchanged)."""
    names = {f.name for f in fields(CountParams)}
    values: dict[str, Any] = {k: float(v) for k, v in weights.items() if k in names}
    return replace(CountParams(), **values)


class CalibratedBidder(CountingBidder):
    """The counting bidder whose number bids round the hand's expected DD tricks (the fitted count) less a margin."""

    def __init__(self, params: Any, weights: dict[str, float] | None = None) -> None:
        super().__init__(params)
        self.name = "calibrated"
        self.weights = dict(weights if weights is not None else calibrated_weights())
        self.calibrated = calibrated_count_params(self.weights)

    def expected_tricks(self, view: BidView) -> np.ndarray:
        """Each seat's expected DD tricks by the fit: base, the weighted parts and its share of the lead."""
        expected = count_tricks_batch(view.hand, self.calibrated, view.deck) + self.weights["base"]
        lead = self.weights.get("on_lead", 0.0)
        if view.rules.first_lead == "left_of_dealer" and view.players == 4:
            on_lead = (view.dealer + 1) % 2 == view.seat % 2
            return expected + np.where(on_lead, lead / 2, 0.0)
        return expected + lead / 4  # the first leader is not known at bidding time: its expected share

    def number_counts(self, view: BidView, counts: np.ndarray) -> np.ndarray:
        # + 0.5: the counting bidder rounds down, so this rounds the expectation less the margin half up
        return np.asarray(self.expected_tricks(view) - self.params.dd_margin + 0.5)
