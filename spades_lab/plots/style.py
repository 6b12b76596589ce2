"""What every plot shares: figures rendered by Agg without pyplot, one colour per entrant, run captions.

Figures are built from `matplotlib.figure.Figure` with an Agg canvas rather than through pyplot,
so drawing a plot never registers a figure in pyplot's global list (nothing to close, no leak in
long sessions or tests) and never depends on, or changes, the interactive backend. A notebook
still shows them: IPython's inline display renders any Figure.
"""

from __future__ import annotations

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from spades_lab.plots.data import entrants, rules_of
from spades_lab.tournament import TournamentResult


def new_figure(width: float, height: float) -> Figure:
    """A figure with constrained layout, drawn by Agg and unknown to pyplot."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def colours(result: TournamentResult) -> dict[str, tuple]:
    """The same colour for an entrant in every plot of a tournament (its place in the entrant list)."""
    palette = colormaps["tab10"]
    return {name: palette(i % 10) for i, name in enumerate(entrants(result))}


def caption(result: TournamentResult) -> str:
    """One line saying what was played, for a figure's title: entrants, size, duplicate, seed, cap."""
    config = result.manifest["config"]
    rules = rules_of(result)
    count = f"{config['count']:,} {'hands' if config['unit'] == 'hands' else 'games'} per pairing"
    if config["duplicate"]:
        count += " in each seating (duplicate)"
    extra = f", hand cap {rules.hand_cap}" if rules.hand_cap is not None and config["unit"] == "games" else ""
    return f"{len(config['entrants'])} entrants, {count}, seed {config['seed']}{extra}"


def side_label(side: int, players: int) -> str:
    """Where a side sat: its seats in partnership Spades, its seat in Duel."""
    if players == 2:
        return f"seat {side}"
    return "seats 0+2" if side == 0 else "seats 1+3"
