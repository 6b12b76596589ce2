"""The batch engine: deal, bid, play and score many tables in lockstep."""

from spades_lab.engine.protocol import Policy, PolicyError
from spades_lab.engine.scoring import HandScore, game_end, score_hands
from spades_lab.engine.simulate import MAX_HANDS, HandLog, MaxHandsWarning, play_hand, simulate_games, simulate_hands
from spades_lab.engine.state import N_ACTIONS, Phase, State
from spades_lab.engine.views import BidView, PlayView, TableView, table_views

__all__ = [
    "MAX_HANDS", "N_ACTIONS", "BidView", "HandLog", "HandScore", "MaxHandsWarning", "Phase", "PlayView", "Policy",
    "PolicyError", "State", "TableView",
    "game_end", "play_hand", "score_hands", "simulate_games", "simulate_hands", "table_views",
]  # fmt: skip
