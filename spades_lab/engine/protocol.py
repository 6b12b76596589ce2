"""The contract between the engine and a policy, and the checks the engine applies to answers.

A policy is any object with a `name` and the decision methods a game needs; each method gets a
read-only view of a batch of tables and returns one action per table. The engine never
corrects an answer: a wrong shape, dtype, an illegal action or an exception stops the run with a
`PolicyError` naming the policy, seat, table and what was legal.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from spades_lab.engine.kernels import is_legal_card
from spades_lab.engine.views import BidView, PlayView


@runtime_checkable
class Policy(Protocol):
    name: str

    def bid(self, view: BidView) -> np.ndarray:
        """One bid per table: 0 for nil, else a legal number of tricks."""
        ...

    def play(self, view: PlayView) -> np.ndarray:
        """One card id per table, a member of `view.legal`."""
        ...


class PolicyError(RuntimeError):
    """A policy answered something the rules do not allow, or failed; nothing was corrected."""

    def __init__(self, message: str, *, policy: str, seat: int | None = None, table: int | None = None) -> None:
        super().__init__(message)
        self.policy = policy
        self.seat = seat
        self.table = table


def _as_actions(policy: Policy, kind: str, answer: object, n: int) -> np.ndarray:
    actions = np.asarray(answer)
    if actions.shape != (n,) or not np.issubdtype(actions.dtype, np.integer):
        raise PolicyError(
            f"policy {policy.name!r} returned {kind}s of shape {actions.shape} and dtype {actions.dtype};"
            f" expected an integer array of shape ({n},), one {kind} per table",
            policy=policy.name,
        )
    return actions.astype(np.int64, copy=False)


def _fail(policy: Policy, view, row: int, what: str, legal: str) -> PolicyError:
    seat, table, hand = int(view._seat[row]), int(view.tables[row]), int(view.hand_number[row])
    return PolicyError(
        f"policy {policy.name!r} at seat {seat}, table {table} (hand {hand}): {what}; legal: {legal}",
        policy=policy.name,
        seat=seat,
        table=table,
    )


def ask_bids(policy: Policy, view: BidView) -> np.ndarray:
    try:
        answer = policy.bid(view)
    except PolicyError:
        raise
    except Exception as exc:
        raise PolicyError(f"policy {policy.name!r} raised {exc!r} while bidding", policy=policy.name) from exc
    bids = _as_actions(policy, "bid", answer, len(view))
    legal = view.legal_bids
    in_range = (bids >= 0) & (bids < legal.shape[1])
    ok = in_range & legal[np.arange(len(bids)), np.where(in_range, bids, 0)]
    if not ok.all():
        row = int(np.argmin(ok))
        options = "nil (0) or " + ", ".join(str(b) for b in np.flatnonzero(legal[row]) if b)
        raise _fail(policy, view, row, f"bid {int(bids[row])} is not allowed", options)
    return bids


def ask_plays(policy: Policy, view: PlayView) -> np.ndarray:
    try:
        answer = policy.play(view)
    except PolicyError:
        raise
    except Exception as exc:
        raise PolicyError(f"policy {policy.name!r} raised {exc!r} while playing", policy=policy.name) from exc
    cards = _as_actions(policy, "card", answer, len(view))
    legal = view.legal
    ok = is_legal_card(legal, cards)
    if not ok.all():
        row = int(np.argmin(ok))
        card = int(cards[row])
        label = view.deck.cards[card] if 0 <= card < 52 else f"id {card}"
        raise _fail(policy, view, row, f"card {label} is not a legal play", " ".join(view.deck.labels(int(legal[row]))))
    return cards
