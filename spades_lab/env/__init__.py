"""Reinforcement-learning environments over the engine's game state (top layer: nothing imports it).

- `BatchEnv(rules, n)`: n tables stepped together with numpy arrays (auto-reset, masks, rewards).
- `encode`: the one observation encoding (layout in docs/environments.md).
- `spades_lab.env.pettingzoo`: a PettingZoo AEC environment (needs the `rl` extra).
- `gymnasium.make("spades_lab/Spades-v0")`: one seat against fixed bots, registered on import
  when Gymnasium is installed (the `rl` extra).
"""

from spades_lab.env.batch import BatchEnv, HandEnd
from spades_lab.env.encode import LAYOUT, SIZE, encode

__all__ = ["LAYOUT", "SIZE", "BatchEnv", "HandEnd", "encode"]


def _register_gymnasium() -> None:
    """Make `gymnasium.make("spades_lab/Spades-v0")` work once this package is imported."""
    try:
        import gymnasium
    except ImportError:
        return
    if "spades_lab/Spades-v0" not in gymnasium.registry:
        gymnasium.register(id="spades_lab/Spades-v0", entry_point="spades_lab.env.gym:SpadesEnv")


_register_gymnasium()
