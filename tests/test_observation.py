"""Observations agree with a plain per-table recomputation from the view, and with a worked position."""

from __future__ import annotations

import numpy as np

import spades_lab as sl
from spades_lab.engine import masks
from spades_lab.engine.observation import LEFT, ME, PARTNER, RIGHT, observe
from spades_lab.engine.position import position_view
from spades_lab.engine.views import table_views


class Watcher:
    """Plays at random and checks every observation it gets against a slow recomputation."""

    name = "watcher"

    def __init__(self) -> None:
        self.inner = sl.make_player("random")
        self.checked = 0

    def bid(self, view):
        obs = view.observe()
        for t in range(len(view)):
            seat = int(view.seat[t])
            assert [int(b) for b in obs.bids[t]] == [int(view.bids[t, (seat + r) % 4]) for r in range(4)]
            us, them = seat % 2, 1 - seat % 2
            assert tuple(obs.scores[t]) == (view.scores[t, us], view.scores[t, them])
        return self.inner.bid(view)

    def play(self, view):
        obs = observe(view)
        deck = view.deck
        for t in range(len(view)):
            self._check_table(view, obs, deck, t)
        self.checked += len(view)
        return self.inner.play(view)

    def _check_table(self, view, obs, deck, t: int) -> None:
        seat = int(view.seat[t])
        rel = [(seat + r) % 4 for r in range(4)]
        hand = [c for c in range(52) if int(view.hand[t]) >> c & 1]
        played = [c for c in range(52) if int(view.played[t]) >> c & 1]
        order = list(masks.strength_order(deck))
        assert [c for c in obs.hand_ids[t] if c >= 0] == sorted(hand, key=order.index)
        assert obs.legal[t].sum() == bin(int(view.legal[t])).count("1")
        side = [r % 2 for r in range(4)]
        bids = [int(view.bids[t, s]) for s in rel]
        won = [int(view.tricks_won[t, s]) for s in rel]
        for s in (0, 1):
            contract = sum(max(b, 0) for b, sd in zip(bids, side) if sd == s)
            tricks = sum(w for w, sd in zip(won, side) if sd == s)
            # standard rules: a nil bidder's tricks never count toward the partner's contract
            counted = sum(w for w, b, sd in zip(won, bids, side) if sd == s and b != 0)
            assert obs.contract[t, s] == contract and obs.tricks[t, s] == tricks
            assert obs.needed[t, s] == max(contract - counted, 0)
        # voids from the history, the slow way
        voids = np.zeros((4, 4), dtype=bool)
        plays, seats = view.plays[t], view.play_seats[t]
        for i, (card, who) in enumerate(zip(plays, seats)):
            led = int(deck.suit_of[plays[i - i % 4]])
            if int(deck.suit_of[card]) != led:
                voids[(int(who) - seat) % 4, led] = True
        assert (obs.voids[t] == voids).all()
        if view.position == 0:
            assert obs.winning_card[t] == -1 and not obs.master[t] and obs.leader[t] == ME
            return
        w = int(view.winning_card[t])
        assert obs.winning_card[t] == w
        assert obs.winning_seat[t] == (int(view.winning_seat[t]) - seat) % 4
        assert obs.partner_winning[t] == (obs.winning_seat[t] == PARTNER)
        unseen = [c for c in range(52) if c not in hand and c not in played]
        ws = int(deck.suit_of[w])
        beats = [c for c in unseen if (int(deck.suit_of[c]) == ws and c > w) or (int(deck.suit_of[c]) == 3 and ws != 3)]
        assert obs.master[t] == (not beats)


def test_observations_match_a_slow_recomputation() -> None:
    watcher = Watcher()
    list(sl.simulate_games(sl.Rules(hand_cap=3), [watcher] * 4, 6, seed=5, batch_size=6))
    assert watcher.checked > 500


POSITION = {
    "dealer": 0,
    "bids": [3, 4, 2, 1],
    "hands": [
        "AS KS QS JS TS AD QD 4C 3C 9C 8C 7C 6C".split(),
        "2H 3H 4H 5D 6D 7D 8D 9D TD JD 2S 3S 4S".split(),
        "5H 6H 7H 8H 9H TH JH QH 5S 6S 7S 8S 9S".split(),
        "AH KH KD 2D 3D 4D 2C 5C TC JC QC KC AC".split(),
    ],
    # seat 1 leads 2H; seat 2 follows; seat 3 wins with AH; seat 0 has no heart and throws a club;
    # seat 3 leads KD and seat 0 is to play
    "plays": [[1, "2H"], [2, "5H"], [3, "AH"], [0, "3C"], [3, "KD"]],
}


def test_a_worked_position() -> None:
    view = position_view(POSITION)
    obs = view.observe()
    assert int(view.seat[0]) == 0 and obs.position == 1 and obs.trick == 1
    assert obs.leader[0] == RIGHT and obs.winning_seat[0] == RIGHT
    assert sl.STANDARD_DECK.cards[int(obs.winning_card[0])] == "KD"
    assert obs.master[0] is np.False_  # spades are unseen and any of them beats KD
    assert obs.voids[0, ME, 2] and not obs.voids[0, LEFT].any()  # I showed a heart void
    assert list(obs.bids[0]) == [3, 4, 2, 1] and list(obs.contract[0]) == [5, 5]
    assert list(obs.tricks_won[0]) == [0, 0, 0, 1] and list(obs.needed[0]) == [5, 4]
    legal = [sl.STANDARD_DECK.cards[c] for c in obs.legal_ids[0] if c >= 0]
    assert legal == ["QD", "AD"]  # must follow diamonds; weakest first
    table = table_views(view)[0]
    assert table.legal == ["QD", "AD"] and table.winning_card == "KD" and table.leader == RIGHT
    assert table.trick == [(RIGHT, "KD")] and table.voids[ME][2] and table.needed == (5, 4)
    assert table.hand[0] == "4C" and table.hand[-1] == "AS"
