"""What every plot shares: figures rendered by Agg without pyplot, one colour per entrant, run captions.

Figures are built from `matplotlib.figure.Figure` with an Agg canvas rather than through pyplot,
so drawing a plot never registers a figure in pyplot's global list (nothing to close, no leak in
long-running notebooks or tests) and never depends on, or changes, the interactive backend. A notebook
still shows them: IPython's inline display renders any Figure.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Sequence
from typing import Any

from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from spades_lab.plots.data import entrants, rules_of
from spades_lab.tournament import TournamentResult


def new_figure(width: float, height: float) -> Figure:
    """A figure with constrained layout, drawn by Agg and unknown to pyplot."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


AxesArg = Axes | Sequence[Axes] | None
"""Where to draw: None makes a new figure; an Axes draws the plot's main panel there; a sequence of
Axes (as many as the plot has panels) draws every panel."""


def figure_axes(ax: AxesArg, panels: int, width: float, height: float, **grid: Any) -> tuple[Figure, list[Axes], bool]:
    """The figure and axes to draw on, and whether the plot made the figure itself (then it may add a suptitle).

    Given one Axes for a plot of several panels, only the first (main) panel is drawn.
    """
    if ax is None:
        fig = new_figure(width, height)
        made = fig.subplots(1, panels, **grid) if panels > 1 else fig.add_subplot()
        axes = list(made.reshape(-1)) if hasattr(made, "reshape") else [made]
        return fig, axes, True
    axes = [ax] if isinstance(ax, Axes) else list(ax)
    if not axes or len(axes) not in (1, panels) or not all(isinstance(a, Axes) for a in axes):
        raise ValueError(f"ax must be one matplotlib Axes or a sequence of {panels} (one per panel), got {ax!r}")
    owner: Any = axes[0].figure  # a Figure, or a SubFigure of one
    return owner, axes, False


KNOWN_COLOURS = {
    "counting+tips": "#1f77b4",
    "optimist+tips": "#ff7f0e",
    "cautious+tips": "#2ca02c",
    "counting+greedy": "#d62728",
    "random": "#7f7f7f",
    "counting+random": "#8c564b",
}
"""Fixed colours of the players the README and notebooks use most, so they match across every figure."""


def entrant_colour(name: str) -> tuple[float, ...]:
    """An entrant's own colour, from its name alone: the same in every figure, run and notebook."""
    if name in KNOWN_COLOURS:
        return to_rgba(KNOWN_COLOURS[name])
    palette = colormaps["tab20"]
    return tuple(float(v) for v in palette(zlib.crc32(name.encode()) % palette.N))


def colour_map(names: Iterable[str]) -> dict[str, tuple[float, ...]]:
    """Colours of a set of entrants: each its own (`entrant_colour`); when two names share a colour, the later
    in the list takes the next free colour of tab20, so one figure never shows two entrants alike."""
    palette = colormaps["tab20"]
    out: dict[str, tuple[float, ...]] = {}
    for name in names:
        colour = entrant_colour(name)
        start = zlib.crc32(name.encode()) % palette.N
        k = 0
        while colour in out.values() and k < palette.N:
            colour = tuple(float(v) for v in palette((start + k) % palette.N))
            k += 1
        out[name] = colour
    return out


def colours(result: TournamentResult) -> dict[str, tuple[float, ...]]:
    """The colour of each entrant of a tournament: its own colour, kept across figures, runs and notebooks."""
    return colour_map(entrants(result))


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


def legend(ax: Axes, **options: Any) -> None:
    """A legend for the labelled lines of `ax`, or none when nothing is labelled (a small run whose
    entrants drew no line), rather than matplotlib's empty legend and its warning."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(**options)
