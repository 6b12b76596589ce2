"""spades_lab: simulate Spades at batch speed and measure which bidding and play ideas win."""

# isort: off
import spades_lab.compiled  # noqa: F401  (first: keys numba's cache to the package's sources, see there)

# isort: on
from spades_lab._version import __version__
from spades_lab.cards import STANDARD_DECK, Deck, parse_card, parse_cards
from spades_lab.compare import Claim, Comparison, beside, combine, compare, sweep
from spades_lab.dd.hands import simulate
from spades_lab.engine import HandLog, Policy, PolicyError, masks, simulate_games, simulate_hands
from spades_lab.players import Player, bid_policy, from_functions, make_player, make_players, play_policy
from spades_lab.players.check import PolicyCheckError, check_policy
from spades_lab.players.decide import decide
from spades_lab.players.plugins import import_policies
from spades_lab.policies.counting import count_tricks, count_tricks_batch
from spades_lab.rules import PRESETS, Rules, RulesError, load_rules, preset
from spades_lab.tournament import TournamentResult, tournament
from spades_lab.viewer import show

__all__ = [
    "__version__",
    "Claim", "Comparison", "beside", "combine", "compare", "sweep",
    "PRESETS", "STANDARD_DECK", "Deck", "HandLog", "Player", "Policy", "PolicyError", "Rules", "RulesError",
    "PolicyCheckError", "bid_policy", "check_policy", "count_tricks", "count_tricks_batch", "decide", "import_policies", "masks", "play_policy", "from_functions", "load_rules", "make_player", "make_players", "parse_card", "parse_cards",
    "preset", "show", "simulate", "simulate_games", "simulate_hands", "tournament", "TournamentResult",
]  # fmt: skip
