"""The contract between the engine and a policy, and the checks the engine applies to answers.

A policy is any object with a `name` and the decision methods a game needs; each method gets a
read-only view of a batch of tables and returns one action per table. The engine never
corrects an answer: a wrong shape, dtype, an illegal action or an exception stops the run with a
`PolicyError` naming the policy, seat, table and what was legal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from spades_lab.engine.kernels import is_legal_card
from spades_lab.engine.views import BidView, BlindBidView, BlindView, DraftView, ExchangeView, PlayView

AnyView = Any
"""Any of the views (they share seat, tables, hand_number, deck, len); views.py is being redesigned."""


@runtime_checkable
class Policy(Protocol):
    @property
    def name(self) -> str:
        """The label results carry (read-only: a plain attribute or a property both satisfy it)."""
        ...

    def bid(self, view: BidView) -> np.ndarray:
        """One bid per table: 0 for nil, else a legal number of tricks."""
        ...

    def play(self, view: PlayView) -> np.ndarray:
        """One card id per table, a member of `view.legal`."""
        ...


# Optional decisions, asked only where the rules need them:
#   blind(view: BlindView) -> bool array      (blind nil allowed; a policy without it never bids blind)
#   blind_bid(view: BlindBidView) -> int array (blind_bids: 0 looks first, else a blind number; optional)
#   exchange(view: ExchangeView) -> uint64 masks of exactly view.cards cards (blind-nil exchange)
#   draft(view: DraftView) -> bool array      (Duel: True keeps the top card)
#   decider(method: str) -> object            (the object that really makes decision `method`; seats whose
#                                              deciders are one object are asked in one batch, as `Player` does)


class PolicyError(RuntimeError):
    """A policy answered something the rules do not allow, or failed; nothing was corrected."""

    def __init__(self, message: str, *, policy: str, seat: int | None = None, table: int | None = None) -> None:
        super().__init__(message)
        self.policy = policy
        self.seat = seat
        self.table = table


class NoLegalActionError(RuntimeError):
    """The engine found no legal action for a seat: the rules (or a position) allow none.

    Raised before the policy is asked, so no policy is ever handed an empty set to choose from
    (Rules refuses bid limits that could lead here; this is the engine's own guard).
    """


def _require_options(view: AnyView, any_legal: np.ndarray | np.bool_, what: str) -> None:
    if not any_legal.all():
        row = int(np.argmin(any_legal))
        raise NoLegalActionError(
            f"no legal {what} for seat {int(view.seat[row])} at table {int(view.tables[row])}: the rules allow none here"
            " (check min_bid, max_bid, min_team_contract and max_team_contract)"
        )


def _fail(policy: Policy, view: AnyView, row: int, what: str, legal: str) -> PolicyError:
    seat, table, hand = int(view.seat[row]), int(view.tables[row]), int(view.hand_number[row])
    return policy_error(policy.name, (seat, table, hand), what, legal)


def policy_error(name: str, where: tuple[int, int, int], what: str, legal: str) -> PolicyError:
    """The error of policy `name` at (seat, table, hand): what it did, and what the rules allowed."""
    seat, table, hand = where
    return PolicyError(
        f"policy {name!r} at seat {seat}, table {table} (hand {hand}): {what}; legal: {legal}",
        policy=name,
        seat=seat,
        table=table,
    )


def _ask(policy: Policy, method: str, view: AnyView, doing: str, legal: Callable[[int], str], dtype: Any) -> np.ndarray:
    """Call a decision and check the answer's form; a failure names the first table of the batch."""
    try:
        answer = getattr(policy, method)(view)
    except PolicyError:
        raise
    except Exception as exc:
        raise _fail(policy, view, 0, f"raised {exc!r} while {doing} ({len(view)} tables asked)", legal(0)) from exc
    actions = np.asarray(answer)
    if actions.shape != (len(view),) or not np.issubdtype(actions.dtype, dtype):
        expected = {np.bool_: "a bool", np.uint64: "a uint64 card-mask"}.get(dtype, "an integer")
        raise _fail(
            policy, view, 0,
            f"returned shape {actions.shape} and dtype {actions.dtype} while {doing};"
            f" expected {expected} array of shape ({len(view)},), one answer per table",
            legal(0),
        )  # fmt: skip
    if dtype is np.integer and actions.dtype.kind == "u" and len(actions) and int(actions.max()) > INT64_MAX:
        row = int(np.argmax(actions))  # an unsigned answer no int64 holds: name it before the cast wraps it
        raise _fail(policy, view, row, f"answered {int(actions[row])} while {doing}, which is not allowed", legal(row))
    return actions.astype(np.int64, copy=False) if dtype is np.integer else actions


INT64_MAX = int(np.iinfo(np.int64).max)


def _bid_options(legal: np.ndarray) -> Callable[[int], str]:
    return lambda row: (
        ("nil (0), " if legal[row, 0] else "") + ", ".join(str(b) for b in np.flatnonzero(legal[row]) if b)
    )


def _card_options(view: AnyView, mask: np.ndarray) -> Callable[[int], str]:
    return lambda row: " ".join(view.deck.labels(int(mask[row])))


def ask_bids(policy: Policy, view: BidView) -> np.ndarray:
    legal = view.legal_bids.copy()  # checked against our copy: the policy may scribble on its view
    _require_options(view, legal.any(axis=1), "bid")
    options = _bid_options(legal)
    bids = _ask(policy, "bid", view, "bidding", options, np.integer)
    in_range = (bids >= 0) & (bids < legal.shape[1])
    ok = in_range & legal[np.arange(len(bids)), np.where(in_range, bids, 0)]
    if not ok.all():
        row = int(np.argmin(ok))
        raise _fail(policy, view, row, f"bid {int(bids[row])} is not allowed", options(row))
    return bids


def ask_plays(policy: Policy, view: PlayView) -> np.ndarray:
    legal = view.legal.copy()  # checked against our copy: the policy may scribble on its view
    _require_options(view, legal != 0, "card")
    options = _card_options(view, legal)
    cards = _ask(policy, "play", view, "playing", options, np.integer)
    ok = is_legal_card(legal, cards)
    if not ok.all():
        row = int(np.argmin(ok))
        card = int(cards[row])
        label = view.deck.cards[card] if 0 <= card < 52 else f"id {card}"
        raise _fail(policy, view, row, f"card {label} is not a legal play", options(row))
    return cards


def ask_blind(policy: Policy, view: BlindView) -> np.ndarray:
    if not hasattr(policy, "blind"):
        return np.zeros(len(view), dtype=bool)
    return _ask(policy, "blind", view, "deciding blind nil", lambda row: "True or False", np.bool_)


def ask_blind_bid(policy: Policy, view: BlindBidView) -> np.ndarray:
    """A blind number bid: 0 (look first) or a legal blind number; a policy without the method looks."""
    if not hasattr(policy, "blind_bid"):
        return np.zeros(len(view), dtype=np.int64)
    legal = view.legal_bids.copy()
    legal[:, 0] = True  # 0: look at the cards first
    options = _bid_options(legal)
    bids = _ask(policy, "blind_bid", view, "deciding a blind bid", options, np.integer)
    in_range = (bids >= 0) & (bids < legal.shape[1])
    ok = in_range & legal[np.arange(len(bids)), np.where(in_range, bids, 0)]
    if not ok.all():
        row = int(np.argmin(ok))
        raise _fail(policy, view, row, f"blind bid {int(bids[row])} is not allowed", options(row))
    return bids.astype(np.int64)


def ask_draft(policy: Policy, view: DraftView) -> np.ndarray:
    if not hasattr(policy, "draft"):
        raise PolicyError(f"policy {policy.name!r} has no draft decision, which Duel needs", policy=policy.name)
    return _ask(policy, "draft", view, "drafting", lambda row: "True (keep the top card) or False", np.bool_)


def ask_exchange(policy: Policy, view: ExchangeView) -> np.ndarray:
    if not hasattr(policy, "exchange"):
        raise PolicyError(
            f"policy {policy.name!r} has no exchange decision, which an exchange of {view.cards} card(s) needs",
            policy=policy.name,
        )
    hand = view.hand.copy()
    held = _card_options(view, hand)

    cards = view.cards

    def options(row: int) -> str:
        return f"exactly {cards} card(s) of {held(row)}"

    passed = _ask(policy, "exchange", view, "passing cards", options, np.uint64)
    ok = ((passed & ~hand) == 0) & (np.bitwise_count(passed) == cards)
    if not ok.all():
        row = int(np.argmin(ok))
        raise _fail(
            policy, view, row, f"passed {' '.join(view.deck.labels(int(passed[row]))) or 'nothing'}", options(row)
        )
    return passed
