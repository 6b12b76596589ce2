"""Every plot of a tournament written as PNG, SVG or PDF files: what `spades-lab plot DIR` runs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from spades_lab.plots.bidding import bid_errors, bid_totals
from spades_lab.plots.data import HandsRequired, Source, load
from spades_lab.plots.dd import dd_bid_error
from spades_lab.plots.games import bags, score_trajectories
from spades_lab.plots.matchups import matchups
from spades_lab.plots.outcomes import nil_outcomes, set_rate_by_contract, win_rates
from spades_lab.progress import bar, wanted

PLOTS: dict[str, Callable[[Source], Figure]] = {
    "matchups": matchups,
    "win_rates": win_rates,
    "set_rate_by_contract": set_rate_by_contract,
    "bid_errors": bid_errors,
    "bags": bags,
    "bid_totals": bid_totals,
    "score_trajectories": score_trajectories,
    "nil_outcomes": nil_outcomes,
}
"""Every plot by name; each file is named after its plot."""

DD_PLOTS: dict[str, Callable[[Source], Figure]] = {"dd_bid_error": dd_bid_error}
"""Plots of runs that solved their hands double dummy (dd=True); `write_all` draws them for those runs only."""

NO_DATE = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}
"""Metadata that leaves the creation date out (PNG files carry none)."""
DPI = 110
FORMATS = ("png", "svg", "pdf")


@dataclass
class Written:
    written: list[Path] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    """Plot name -> why it was not drawn (a run without the hands table)."""


def write_all(
    source: Source, out: str | Path | None = None, format: str = "png", progress: bool | None = None
) -> Written:
    """Draw every plot into `out` (default: the tournament directory's plots/) as NAME.png (or .svg, .pdf).

    Plots that need the per-hand table are skipped, with the reason, when the run kept none, so
    a --no-hands run still gets the plots its tables can support. A run made with dd=True (--dd)
    also gets the DD_PLOTS. `progress`: a bar over the plots (None: where someone watches, as for
    tournaments); the first plot needing the hands loads them, seconds for a million hands.
    """
    if format not in FORMATS:
        raise ValueError(f"plot format must be one of {', '.join(FORMATS)}, got {format!r}")
    result = load(source)
    folder = Path(out) if out is not None else Path(result.out) / "plots"
    folder.mkdir(parents=True, exist_ok=True)
    report = Written()
    plots = {**PLOTS, **(DD_PLOTS if result.manifest["config"].get("dd", False) else {})}
    with bar(total=len(plots), unit="plot", desc="plots", disable=not wanted(progress), dynamic_ncols=True) as shown:
        for name, plot in plots.items():
            shown.set_postfix_str(name)
            try:
                fig = plot(result)
            except HandsRequired as exc:
                report.skipped[name] = str(exc)
                shown.update()
                continue
            path = folder / f"{name}.{format}"
            # no creation date in SVG or PDF files, so a re-run rewrites identical files
            fig.savefig(path, dpi=DPI, format=format, metadata=NO_DATE.get(format))
            report.written.append(path)
            shown.update()
    return report
