"""The summary columns the terminal shows after a tournament (`spades-lab tournament`, `spades-lab run`)."""

SUMMARY_COLUMNS = ("entrant", "games", "win_rate", "win_lo", "win_hi", "points_per_hand", "set_rate", "nil_bids_per_hand",
                   "nil_success", "bags_per_hand", "bag_penalties_per_game", "team_bid_error", "hands_per_game",
                   "unfinished")  # fmt: skip
