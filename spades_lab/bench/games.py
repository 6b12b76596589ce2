"""The simulator's bench workloads: hands and games of shipped players under each preset, timed by `run`."""

from __future__ import annotations

from spades_lab.engine import simulate_games, simulate_hands
from spades_lab.players import make_players
from spades_lab.policies.pimc import PimcPlay
from spades_lab.rules import Rules, preset


def random_hands(n: int, seed: int, rules: Rules | None = None) -> dict[str, int]:
    """Random hands; also counts the cards played, so rule sets with other hand sizes compare per card."""
    rules = rules or Rules()
    players = make_players("random", seats=rules.players)
    hands = cards = 0
    for log in simulate_hands(rules, players, n, seed):
        hands += len(log)
        cards += int((log.plays >= 0).sum())
    return {"hands": hands, "cards": cards}


def cutthroat_hands(n: int, seed: int) -> dict[str, int]:
    """The `random` workload under the cutthroat preset (four players, each for themselves)."""
    return random_hands(n, seed, preset("cutthroat"))


def three_player_hands(n: int, seed: int) -> dict[str, int]:
    """The `random` workload under the three-player preset (51 cards, 17 tricks a hand)."""
    return random_hands(n, seed, preset("three-player"))


def duel_hands(n: int, seed: int) -> int:
    """Duel hands: random draft, bids and plays."""
    rules = preset("duel")
    players = make_players("random", seats=2)
    return sum(len(log) for log in simulate_hands(rules, players, n, seed))


def heuristic_games(n: int, seed: int, player: str = "counting+tips") -> int:
    """Complete games of four counting+tips players; n is a number of hands, rounded up to whole games."""
    players = make_players(player)
    played = 0
    games = max(1, n // 15)
    for log in simulate_games(Rules(hand_cap=500), players, games, seed):
        played += len(log)
    return played


def expert_games(n: int, seed: int) -> int:
    """The `heuristic` workload with four counting+expert players."""
    return heuristic_games(n, seed, "counting+expert")


def pimc_hands(n: int, seed: int) -> dict[str, int]:
    """Single hands of counting+pimc (seats 0+2) against counting+expert; counts the searched decisions."""
    players = make_players(["counting+pimc", "counting+expert"])
    hands = sum(len(log) for log in simulate_hands(Rules(), players, n, seed))
    pimc = players[0].player
    assert isinstance(pimc, PimcPlay)
    return {"hands": hands, "decisions": pimc.searched}
