"""The strategies that ship with spades_lab, registered under their player names.

Strategies (`spades_lab.policies`) know nothing of names: each is a class built from its parameter
dataclass. This table is where a shipped name meets its strategy, the line `spades-lab policies` shows
for it, and its parameters; a researcher's `register` call adds to the same registry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from spades_lab.players.registry import register
from spades_lab.policies.baseline import RandomBid, RandomBidParams, RandomDraft, RandomExchange, RandomPlay
from spades_lab.policies.bidding import CautiousParams, CountingBidder, CountingParams, OptimistParams
from spades_lab.policies.calibrated import CalibratedBidder, CalibratedParams
from spades_lab.policies.ddbid import DDBidder, DDBidParams
from spades_lab.policies.draft import HighExchange, ValueDraft, ValueDraftParams
from spades_lab.policies.expert import ExpertParams, ExpertPlay
from spades_lab.policies.params import NoParams
from spades_lab.policies.pimc import PimcParams, PimcPlay
from spades_lab.policies.play import GreedyPlay, TipsParams, TipsPlay

SHIPPED: tuple[tuple[str, str, type, Callable[[Any], Any], str], ...] = (
    ("bid", "counting", CountingParams, CountingBidder,
     "The full expert bidder: section 1 count, 2 nil, 3 bag-aware rounding, 4 blind-nil comeback (each switchable)."),
    ("bid", "optimist", OptimistParams, CountingBidder,
     "The counting bidder plus one trick (shift=1); nil decisions unchanged."),
    ("bid", "cautious", CautiousParams, CountingBidder,
     "The counting bidder minus one trick, never below 1 (shift=-1); nil decisions unchanged."),
    ("bid", "calibrated", CalibratedParams, CalibratedBidder,
     "The count with DD-fitted weights (`spades_lab.fit.counts`), less dd_margin, rounded half up; counting's nil"
     " and bag rules."),
    ("bid", "dd", DDBidParams, DDBidder,
     "Expected double-dummy tricks over sampled deals of the other hands, minus a margin; DD-checked nils."),
    ("bid", "random", RandomBidParams, RandomBid,
     "Uniformly random legal bid (nil included); blind nil at blind_rate where allowed."),
    ("play", "tips", TipsParams, TipsPlay,
     "The expert's play: the sheet's eleven tips, nil play, nil coverage and setting opposing nils (each"
     " switchable)."),
    ("play", "expert", ExpertParams, ExpertPlay,
     "A strong human's play: the tips plus voids memory, third hand high, ruffs, covers, setting, safe nil leads."),
    ("play", "pimc", PimcParams, PimcPlay,
     "Perfect-information Monte Carlo on the double-dummy solver over sampled worlds (expert play elsewhere)."),
    ("play", "greedy", NoParams, GreedyPlay,
     "Win cheaply if you can, else play low (the baseline for measuring the tips)."),
    ("play", "random", NoParams, RandomPlay, "Uniformly random legal card."),
    ("draft", "value", ValueDraftParams, ValueDraft,
     "Keep the top card when its trick value reaches the threshold, else take the next card."),
    ("draft", "random", NoParams, RandomDraft, "Keep or discard the top card with even odds."),
    ("exchange", "high", NoParams, HighExchange,
     "Partner passes its lowest cards; the nil bidder passes back its highest spades, then aces, kings."),
    ("exchange", "random", NoParams, RandomExchange, "Pass cards drawn uniformly from the hand."),
)  # fmt: skip
"""(role, name, parameter class, factory, the line `spades-lab policies` shows) of every shipped policy."""

for _role, _name, _params, _build, _doc in SHIPPED:
    register(_role, _name, _params, _doc)(_build)
