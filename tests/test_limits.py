"""What happens at each limit (docs/limits.md): runs that must end, inputs that must be refused.

Each test drives the toolkit the way a user would (the API or `spades_lab.cli.main`) and checks
the outcome a user would see: the run ends, the count is right, the error names the field.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from spades_lab.cli import main
from spades_lab.engine import MAX_HANDS, MaxHandsWarning, simulate_games
from spades_lab.policies import make_players
from spades_lab.rules import Rules

# --------------------------------------------------------------------------- max_hands


def test_max_hands_stops_games_unfinished_with_one_warning() -> None:
    players = make_players(["random"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        logs = list(simulate_games(Rules(), players, 6, seed=11, batch_size=4, max_hands=3))
    hands = np.concatenate([log.hand for log in logs])
    unfinished = np.concatenate([log.unfinished for log in logs])
    over = np.concatenate([log.game_over for log in logs])
    winner = np.concatenate([log.winner for log in logs])
    assert hands.max() == 2 and len(hands) == 18  # three hands for each of the six games, then stopped
    assert unfinished.sum() == 6 and not over.any() and (winner == -1).all()
    assert len(caught) == 1 and issubclass(caught[0].category, MaxHandsWarning)
    assert "6 of 6 games reached max_hands = 3" in str(caught[0].message)


def test_max_hands_does_not_touch_games_that_end_before_it() -> None:
    players = make_players(["counting+tips"])
    rules = Rules(target=100)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MaxHandsWarning)
        capped = list(simulate_games(rules, players, 8, seed=3, max_hands=MAX_HANDS))
    free = list(simulate_games(rules, players, 8, seed=3, max_hands=None))
    assert sum(len(log) for log in capped) == sum(len(log) for log in free)
    assert sum(int(log.game_over.sum()) for log in capped) == 8


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_max_hands_must_be_a_positive_count(bad) -> None:
    with pytest.raises(ValueError, match="max_hands"):
        next(simulate_games(Rules(), make_players(["random"]), 2, seed=1, max_hands=bad))


def test_cli_random_games_end_at_the_default_max_hands(capsys) -> None:
    """Random play rarely reaches 500: without the safety net this run would not end."""
    assert main(["simulate", "--games", "2", "--seed", "11"]) == 0
    out, err = capsys.readouterr()
    assert f"{2 * MAX_HANDS} hands" in out
    assert (
        err.strip()
        == f"spades-lab: warning: 2 of 2 games reached max_hands = {MAX_HANDS} hands and stopped unfinished (no winner)"
    )


def test_cli_max_hands_flag(capsys) -> None:
    assert main(["simulate", "--games", "3", "--seed", "11", "--max-hands", "5"]) == 0
    out, err = capsys.readouterr()
    assert "15 hands" in out and "0 games finished, 3 stopped unfinished" in out
    assert err.count("\n") == 1 and "3 of 3 games reached max_hands = 5" in err
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--games", "3", "--seed", "11", "--max-hands", "0"])
    assert exit_info.value.code == 2
    assert "--max-hands" in capsys.readouterr().err


def test_tournament_warns_once_for_the_run(tmp_path) -> None:
    from spades_lab.tournament import tournament

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tournament(["random", "random(blind_rate=0.0)+random"], games=4, seed=2, out=tmp_path / "t",
                            chunk_games=2, max_hands=4)  # fmt: skip
    assert int(result.summary["unfinished"].sum()) == 2 * 4
    messages = [str(w.message) for w in caught if issubclass(w.category, MaxHandsWarning)]
    assert messages == ["4 games reached max_hands = 4 hands and stopped unfinished (no winner)"]
