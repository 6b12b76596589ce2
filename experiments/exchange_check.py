"""Does the corrected `high` exchange stop handing the same cards back, and help the nil?

Four `counting+tips` players, 300 games per rules, with the exchange before this change (highest
trick values both ways, re-created here as `OldHigh`) and the corrected one. Run:
`.venv/bin/python experiments/exchange_check.py`.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

import spades_lab
from spades_lab.engine.views import ExchangeView
from spades_lab.policies.draft import trick_values
from spades_lab.rules import PRESETS


class OldHigh:
    """The exchange before the correction: both sides pass their highest cards by trick value."""

    name = "old-high"

    def exchange(self, view: ExchangeView) -> np.ndarray:
        values = trick_values(view.deck)
        held = ((view.hand[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)).astype(bool)
        ranked = np.argsort(np.where(held, -values, np.inf), axis=1, kind="stable")[:, : view.cards]
        return np.bitwise_or.reduce(np.left_shift(np.uint64(1), ranked.astype(np.uint64)), axis=1)


def main(games: int = 300, seed: int = 11) -> None:
    warnings.simplefilter("ignore")
    for label, rules in [
        ("pagat (blind nil, 2 cards)", PRESETS["pagat"]),
        ("nil_exchange = 2", spades_lab.Rules(nil_exchange=2)),
    ]:
        for name in ("old", "new"):
            base = spades_lab.make_player("counting+tips")
            player = dataclasses.replace(base, exchanger=OldHigh()) if name == "old" else base
            log = spades_lab.HandLog.concat(list(spades_lab.simulate_games(rules, [player] * 4, games, seed)))
            nil = log.bids == 0
            same = total = 0
            exchanged_nil = np.zeros_like(nil)
            for seat in range(4):
                partner = (seat + 2) % 4
                both = (log.passed[:, seat] != 0) & (log.passed[:, partner] != 0) & nil[:, seat] & ~nil[:, partner]
                exchanged_nil[:, seat] = both
                total += int(both.sum())
                same += int(((log.passed[both, seat] & log.passed[both, partner]) != 0).sum())
            made = (nil & (log.tricks == 0))[exchanged_nil].mean()
            print(f"{label:28s} {name}: {total} exchanges, the nil bidder passed back a card it was given"
                  f" {same / total:.1%}, exchanged nils made {made:.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
