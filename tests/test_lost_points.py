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
