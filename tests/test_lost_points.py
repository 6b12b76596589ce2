"""DD tricks lost (`spades_lab.stats.lost`): a worked example of the score split, and the statistic on played hands."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spades_lab as sl
from spades_lab.engine import trick as trick_rules
from spades_lab.stats.lost import TricksLost, checked_plays, tricks_lost


def test_a_trick_lost_is_ours_theirs_or_only_a_bag() -> None:
    """Seat 0 leads each time; contracts 4 + 3 = 7 for us against 3 + 3 = 6 (they make it with 13 - k >= 6).
    The side has 3 tricks. Play 0: 4 more after the best card, 3 after the card played: final 7 -> 6, our
    contract set. Play 1: 5 -> 4 more, final 8 -> 7: they make theirs. Play 2: 6 -> 5 more, final 9 -> 8: only
    a bag (ours made, theirs set either way). Play 3 (side-hand 1) loses nothing."""
    values = np.full((4, 52), -1, dtype=np.int8)
    best, played = [4, 5, 6, 2], [3, 4, 5, 2]
    for i in range(4):
        values[i, 10], values[i, 20] = best[i], played[i]
    plays = {"side_hand": np.array([0, 0, 0, 1]), "leader": np.zeros(4, dtype=np.int64), "pos": np.array([0, 0, 0, 1]),
             "card": np.array([20, 20, 20, 20]), "bids": np.tile([4, 3, 3, 3], (4, 1)),
             "won": np.tile([2, 2, 1, 1], (4, 1)), "n_hands": np.array(1)}  # fmt: skip
    points = TricksLost("made up", plays, values).points()
    per = {k: points[k].value for k in ("lost", "score", "ours", "theirs", "penalty", "bags")}
    assert per == {"lost": 1.5, "score": 1.0, "ours": 0.5, "theirs": 0.5, "penalty": 0.0, "bags": 0.5}
    assert points["lost"].n == 2


def test_played_hands_checked_against_a_replay(tmp_path: Path) -> None:
    """Every play made while its side is short is checked, and only those; the card played is never worth more
    than the best; the breakdowns add up to the total; a saved run loads back the same."""
    lost = tricks_lost("counting+tips", hands=2, seed=6)
    plays = lost.plays
    short = 0
    for log in sl.simulate_hands(sl.Rules(), sl.make_players("counting+tips"), 2, 6):
        for r in range(len(log)):
            bids, won = log.bids[r], np.zeros(4, dtype=int)
            for t in range(13):
                seats = log.play_seats[r][4 * t : 4 * t + 4]
                for s in seats:
                    side = (int(s) % 2, int(s) % 2 + 2)
                    contract = sum(max(int(bids[x]), 0) for x in side)
                    short += contract > 0 and sum(won[x] for x in side if bids[x] > 0) < contract
                cards = [int(c) for c in log.plays[r][4 * t : 4 * t + 4]]
                best = trick_rules.holder(np.asarray(cards, dtype=np.int64), sl.cards.deck_for("standard").suit_masks)
                won[int(seats[cards.index(best)])] += 1
    assert len(plays["card"]) == short > 0
    assert (lost.loss >= 0).all() and (lost.values[np.arange(len(lost.values)), plays["card"]] >= 0).all()
    total = lost.estimate().value
    assert sum(e.value for e in lost.by("t")) == pytest.approx(total) == sum(e.value for e in lost.by("pos"))
    assert lost.points()["lost"].value == pytest.approx(total)
    again = TricksLost.load(lost.save(tmp_path / "lost.npz"))
    assert again.estimate() == lost.estimate() and again.key == "counting+tips" and again.player == lost.player
    last = checked_plays("counting+tips", hands=2, seed=6, last=3)
    assert set(last["t"]) <= {10, 11, 12} and len(last["card"]) == int((plays["t"] >= 10).sum())


def test_the_documented_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/statistics.md's example, at two hands in this process."""
    import re

    page = (Path(__file__).resolve().parents[1] / "docs" / "statistics.md").read_text()
    (code,) = re.findall(r"```python\n(from spades_lab.stats.lost.*?)```", page, flags=re.S)
    exec(code.replace("hands=40", "hands=2").replace("workers=2", "workers=1"), {})
    assert capsys.readouterr().out.count("95% CI") == 3
