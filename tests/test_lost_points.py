"""`strong_pimc.py lost-points`: which DD tricks lost change the hand score, on three hand-made plays."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiments"))
from strong_pimc import lost_points  # noqa: E402


def test_a_trick_lost_is_ours_theirs_or_only_a_bag(tmp_path: Path) -> None:
    """Seat 0 leads each time; contracts 4 + 3 = 7 for us against 3 + 3 = 6 (they make it with 13 - k >= 6).
    The side has 3 tricks. Play 0: 4 more after the best card, 3 after the card played: final 7 -> 6, our
    contract set. Play 1: 5 -> 4 more, final 8 -> 7: they make theirs. Play 2: 6 -> 5 more, final 9 -> 8: only
    a bag (ours made, theirs set either way). Play 3 (side-hand 1) loses nothing."""
    values = np.full((4, 52), -1, dtype=np.int8)
    best, played = [4, 5, 6, 2], [3, 4, 5, 2]
    for i in range(4):
        values[i, 10], values[i, 20] = best[i], played[i]
    np.savez(
        tmp_path / "lost_0.npz",
        done=np.array(1),
        key=np.array("made up"),
        side_hand=np.array([0, 0, 0, 1]),
        leader=np.zeros(4, dtype=np.int64),
        pos=np.array([0, 0, 0, 1]),
        card=np.array([20, 20, 20, 20]),
        loss=np.array(best) - np.array(played),
        values=values,
        bids=np.tile([4, 3, 3, 3], (4, 1)),
        won=np.tile([2, 2, 1, 1], (4, 1)),
    )
    table = lost_points([tmp_path])
    row = next(line for line in table.splitlines() if line.startswith("| `made up`"))
    cells = [c.strip().split(" ")[0] for c in row.strip("|").split("|")[1:]]
    # side-hands, lost, changing the score, ours, theirs, penalty, bags only: per side-hand (2 side-hands)
    assert cells[:7] == ["2", "1.50", "1.00", "0.50", "0.50", "0.00", "0.50"]


def test_the_floor_is_the_true_loss_when_the_voids_leave_one_deal() -> None:
    """`strong_pimc.py floor`: the last two tricks, seat 0 to lead AH or 2C. The shown voids leave one deal of the
    six unseen cards (seat 1 only clubs, seat 2 only diamonds, seat 3 only hearts), so every world is the true deal:
    the best card (AH: it wins, then 2C loses to the KC) loses nothing in the worlds and on the true deal, and the
    2C played (KC wins, 3C follows and the AH is thrown) loses its one trick in both."""
    from strong_pimc import FLOOR_COLUMNS, floor_rows

    import spades_lab as sl
    from spades_lab import dd

    def mask(*ids: int) -> np.uint64:
        return np.uint64(sum(1 << i for i in ids))

    hands = np.array([[mask(38, 0), mask(1, 11), mask(13, 14), mask(26, 27)]], dtype=np.uint64)  # AH 2C | 3C KC | ...
    trick = np.full((1, 4), -1, dtype=np.int64)
    voids = sum(
        1 << (4 * seat + suit) for seat, suits in ((1, (1, 2, 3)), (2, (0, 2, 3)), (3, (0, 1, 3))) for suit in suits
    )
    solver = dd.Solver(sl.Rules())
    values = dd.card_values(hands, trick, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool), solver=solver)
    assert values[0, 38] == 1 and values[0, 0] == 0
    z = {"hands": hands, "trick": trick, "leader": np.zeros(1, dtype=np.int64), "pos": np.zeros(1, dtype=np.int64),
         "t": np.array([11]), "voids": np.array([voids]), "broken": np.zeros(1, dtype=bool), "card": np.array([0]),
         "values": values, "bids": np.array([[3, 3, 3, 3]])}  # fmt: skip
    row = dict(zip([name for name, _ in FLOOR_COLUMNS], floor_rows(z, np.array([0]), 8, solver)[0], strict=True))
    assert row == {
        "floor": 0,
        "half_heldout": 0,
        "half_true": 0,
        "choice_true": 0,
        "played_worlds": 1,
        "played_true": 1,
    }


def test_the_true_deal_explains_every_expert_play() -> None:
    """`strong_pimc.py floor --play-weight`: replayed on the hands as dealt, the expert would have made every
    play of a hand that four expert seats played, at every point of the hand and for every acting seat; a
    world with two seats' unplayed hands swapped makes the expert miss some of them."""
    from strong_pimc import _play_misses

    import spades_lab as sl

    log = next(sl.simulate_hands(sl.Rules(), sl.make_players("counting+expert"), 3, 6))
    for r in range(len(log)):
        history = (log.plays[r], log.play_seats[r], int(log.dealer[r]))
        dealt = log.held[r][None, :].astype(np.uint64)
        for steps, seat in ((13, 0), (30, 1), (51, 2)):
            assert _play_misses(dealt, log.bids[r], history, steps, seat)[0] == 0
    # worlds as the sampler makes them: two unplayed cards of one suit traded between seats 1 and 3 (so every
    # play through trick 2 stays legal); in some of them the expert would have played otherwise
    plays, seats, held = log.plays[0], log.play_seats[0], log.held[0].astype(np.uint64)
    history = (plays, seats, int(log.dealer[0]))
    early = {int(c) for c in plays[:8]}
    suit = sl.cards.deck_for(sl.Rules().deck).suit_of
    ones, threes = ([c for c in range(52) if int(held[s]) >> c & 1 and c not in early] for s in (1, 3))
    misses = []
    for a in ones:
        for b in (b for b in threes if suit[b] == suit[a]):
            world = held.copy()
            world[1] ^= np.uint64((1 << a) | (1 << b))
            world[3] ^= np.uint64((1 << a) | (1 << b))
            misses.append(_play_misses(world[None, :], log.bids[0], history, 8, 0)[0])
    assert misses and max(misses) > 0 and min(misses) == 0


def test_simple_rules_are_valued_at_the_plays_of_each_family(tmp_path: Path) -> None:
    """`strong_pimc.py lost-alternatives` on two hand-made plays (one per side-hand) and one it skips.

    Side-hand 0: seat 0 leads the 9C (the AC is out, so not a master) from 2C 9C AH 2S; the solver's values
    2C 3, 9C 2, AH 3, 2S 1 (tricks the side keeps). Side-hand 1: seat 1, second and void in diamonds under seat
    0's KD, ruffs with the 9S from 8C 3H 4S 9S; values 8C 0, 3H 1, 4S 2, 9S 1 (the lowest discard is the 3H, by
    rank). Seat 3 following clubs fourth is in no family.
    """
    from strong_pimc import lost_alternatives

    def mask(*ids: int) -> np.uint64:
        return np.uint64(sum(1 << i for i in ids))

    c2, c8, c9, ca, dk, h3, ha, s2, s4, s9 = 0, 6, 7, 12, 24, 27, 38, 39, 41, 46
    deal = [mask(c2, c9, ha, s2), mask(c8, h3, s4, s9), mask(ca, 8, 9, 10), mask(4, 13, 14, 15)]
    values = np.full((3, 52), -1, dtype=np.int8)
    for card, v in ((c2, 3), (c9, 2), (ha, 3), (s2, 1)):
        values[0, card] = v
    for card, v in ((c8, 0), (h3, 1), (s4, 2), (s9, 1)):
        values[1, card] = v
    values[2, 4] = 0  # the 6C, the fourth seat following the 3C 4C 5C
    np.savez(
        tmp_path / "lost_0.npz",
        done=np.array(1),
        key=np.array("made up"),
        hands=np.array([deal, deal, deal], dtype=np.uint64),
        trick=np.array([[-1, -1, -1, -1], [dk, -1, -1, -1], [1, 2, 3, -1]]),
        leader=np.array([0, 0, 0]),
        pos=np.array([0, 1, 3]),
        card=np.array([c9, s9, 4]),
        side_hand=np.array([0, 1, 1]),
        values=values,
    )
    rows = {}
    family = ""
    for line in lost_alternatives(tmp_path).splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[1] and cells[2][:1].isdigit():
            family = cells[0] or family
            rows[(family.split(" (")[0], cells[1])] = (cells[2], cells[3].split(" ")[0])
    lead, void = "lead of a side card that is not a master", "2nd seat void in the led suit"
    assert rows == {
        (lead, "card played"): ("0.500", ""),
        (lead, "lowest of its suit"): ("0.000", "-0.500"),
        (lead, "highest of its suit"): ("0.500", "+0.000"),
        (lead, "lowest trump"): ("1.000", "+0.500"),
        (lead, "lowest side master"): ("0.000", "-0.500"),
        (void, "card played"): ("0.500", ""),
        (void, "lowest side discard"): ("0.500", "+0.000"),
        (void, "lowest winning trump"): ("0.000", "-0.500"),
    }
