"""Fitting the data files the package ships, each from a recipe of seeds, by one command.

| file (`spades_lab/policies/data/`) | what reads it | recipe | command |
|---|---|---|---|
| `expert_leads.json` | the expert's `lead_model`, `lead_weights=dd` | `DdRecipe` | `python -m spades_lab.fit dd` |
| `expert_leads_continuation.json` | `lead_weights=continuation` | `ContinuationRecipe` | `python -m spades_lab.fit continuation` |
| `calibrated_weights.json` | the `calibrated` bidder | `CountRecipe` | `python -m spades_lab.fit counts --raw DIR` |

Each command refits from the recipe and then `--check`s the result against the shipped file (exit 1 when they
differ, naming what differs), `--write`s it over the shipped file, or writes it to `--out FILE`. The same recipe
gives the same bytes: a fit depends only on its seeds. The count calibration solves 100,000 deals double dummy
first (about an hour with DDS installed, `pip install -e .[dev]`); its solved deals are kept under `--raw` and
reused.
"""

from spades_lab.fit.leads import (
    BASE,
    DD_TARGETS,
    PLAYER,
    SUITS,
    TARGETS,
    ContinuationRecipe,
    DdRecipe,
    Leads,
    continuation_data,
    dd_data,
    differences,
    fit,
    fit_continuation,
    local_gain,
    play_with_weights,
    rollout_leads,
    shipped_path,
)

__all__ = [
    "BASE", "DD_TARGETS", "PLAYER", "SUITS", "TARGETS", "ContinuationRecipe", "DdRecipe", "Leads",
    "continuation_data", "dd_data", "differences", "fit", "fit_continuation", "local_gain", "main",
    "play_with_weights", "rollout_leads", "shipped_path",
]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """`python -m spades_lab.fit` (see `spades_lab.fit.__main__`)."""
    from spades_lab.fit.__main__ import main as run

    return run(argv)
