"""Look at one hand: text for a terminal, an HTML table for Jupyter, a self-contained replay page.

`show(record)` returns the text view of a hand record (docs/records.md); `read_hand` finds a record in a
records file; `tournament_hand` rebuilds any hand of a tournament directory by replaying its game
(every game depends only on seed, game id and players, so nothing needs to have been recorded).
"""

from spades_lab.viewer.hand import Hand, Trick
from spades_lab.viewer.html import hand_table, replay_page
from spades_lab.viewer.source import HandNotFound, HandRecord, read_hand, tournament_hand
from spades_lab.viewer.text import show

__all__ = ["Hand", "HandNotFound", "HandRecord", "Trick", "hand_table", "read_hand", "replay_page", "show",
           "tournament_hand"]  # fmt: skip
