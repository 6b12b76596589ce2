"""Letting registered players act inside an environment: their answers as OpenSpiel actions.

Environments seat fixed bots next to the learner (Gymnasium), give hints (`spades-lab play`) and
play for a person whose clock ran out. A bot is asked through the engine's own views and checks,
with the decision numbers the engine uses, so a bot seated in an environment plays exactly the
cards it plays in `simulate_hands` for the same deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from spades_lab.engine.protocol import ask_bids, ask_blind, ask_draft, ask_exchange, ask_plays
from spades_lab.engine.state import LOOK_ACTION, NIL_ACTION, Phase, State
from spades_lab.engine.views import BidView, BlindView, DraftView, ExchangeView, PlayView, ViewContext
from spades_lab.players import make_player
from spades_lab.players.registry import PolicyNameError

_ASK: dict[Phase, tuple[type, Callable[..., Any], type]] = {
    Phase.DRAFT: (DraftView, ask_draft, np.bool_),
    Phase.BLIND: (BlindView, ask_blind, np.bool_),
    Phase.BID: (BidView, ask_bids, np.int64),
    Phase.EXCHANGE: (ExchangeView, ask_exchange, np.uint64),
    Phase.PLAY: (PlayView, ask_plays, np.int64),
}

PREFERRED_BOT = "counting+expert"
FALLBACK_BOT = "counting+tips"


def default_bot_name() -> str:
    """`counting+expert` when that player exists in the registry, else `counting+tips`."""
    try:
        make_player(PREFERRED_BOT)
    except PolicyNameError:
        return FALLBACK_BOT
    return PREFERRED_BOT


def bot_answers(state: State, policies: Sequence[Any], context: ViewContext | None = None) -> np.ndarray:
    """Each acting seat's policy answer at the current point (what `State.apply` takes), per table.

    Tables whose acting seat has no policy (None) get a zero answer; apply only where bots act.
    """
    phase = state.point[0]
    view_cls, ask, dtype = _ASK[phase]
    context = context or ViewContext(state.rules, state.deck)
    answers: np.ndarray = np.zeros(state.n, dtype=dtype)
    for seat, policy in enumerate(policies):
        if policy is None:
            continue
        rows = np.flatnonzero(state.to_act == seat)
        if len(rows):
            answers[rows] = ask(policy, view_cls(state, rows, np.full(len(rows), seat), state.decision, context))
    return answers


def answers_to_actions(state: State, answers: np.ndarray) -> list[list[int]]:
    """Per table, the OpenSpiel action(s) of an answer: one action, or the cards of an exchange pass."""
    phase, _, index = state.point
    out: list[list[int]] = []
    for t in range(state.n):
        a = answers[t]
        if phase == Phase.BID:
            out.append([NIL_ACTION + int(a)])
        elif phase == Phase.BLIND:
            out.append([NIL_ACTION if bool(a) else LOOK_ACTION])
        elif phase == Phase.DRAFT:
            out.append([int(state.stock[t, 2 * index if bool(a) else 2 * index + 1])])
        elif phase == Phase.EXCHANGE:
            out.append([c for c in range(52) if int(a) >> c & 1])
        else:
            out.append([int(a)])
    return out
