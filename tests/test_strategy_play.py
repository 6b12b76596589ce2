"""The `tips` and `greedy` card play against HEURISTICS.md sections 5-7, asked through `decide`.

Each scenario is a position in the RECORDS.md format and the card the sheet (or, where the sheet
is silent, the policy's documented default) calls for, worked out by hand; the working is in the
row. Most rows also name the same position with the rule switched off and the card that the
fallback plays then, to show the rule is what decides. Seats 0+2 and 1+3 are partners and play
clockwise; with dealer 3, seat 0 bids and leads first.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from spades_lab import Rules, make_player, make_players, simulate_games
from spades_lab.players.decide import decide
from spades_lab.policies.play import TipsParams


def plays(*tricks: str) -> list[list]:
    """`plays("0:AC 1:7C 2:6C 3:5C", "0:KC")` -> [[0, "AC"], [1, "7C"], ...]: one string per trick."""
    return [[int(seat), card] for trick in tricks for seat, card in (item.split(":") for item in trick.split())]


def position(to_act: int, hands: dict[int, str], bids: list[int], played: list[list], dealer: int = 3) -> dict:
    """A play position: the acting seat's cards (and any other seat whose plays need its full hand)."""
    return {
        "dealer": dealer,
        "hands": [hands.get(seat, []) for seat in range(4)],
        "bids": bids,
        "plays": played,
        "score_before": [0, 0],
        "bags_before": [0, 0],
        "to_act": to_act,
    }


@dataclass(frozen=True)
class Scenario:
    rule: str
    position: dict
    card: str  # what `player` plays
    working: str
    player: str = "counting+tips"
    off: str | None = None  # the same player with the rule switched off ...
    off_card: str | None = None  # ... plays this instead


# Tip 11 needs ten tricks played: the whole deal, so that every play is checked for legality.
TIP11_HANDS = {
    0: "AS 3S 2S AH KH AD AC KC QC JC TC 9C 8C",
    1: "7C 4C 4S KS QS JS 3D KD QD QH JH TH 9H",
    2: "6C 3C 2D 4D JD TD 5S 7S TS 8H 7H 6H 5H",
    3: "5C 2C 2H 4H 3H 5D 9D 8D 7D 6D 6S 8S 9S",
}
TIP11_PLAYS = plays(
    "0:AC 1:7C 2:6C 3:5C",
    "0:KC 1:4C 2:3C 3:2C",
    "0:QC 1:4S 2:2D 3:2H",  # seat 1 ruffs: spades are broken
    "1:KS 2:5S 3:6S 0:2S",
    "1:QS 2:7S 3:8S 0:3S",
    "1:3D 2:4D 3:5D 0:AD",
    "0:JC 1:QH 2:8H 3:4H",
    "0:TC 1:JH 2:7H 3:3H",
    "0:9C 1:TH 2:6H 3:9D",
    "0:8C 1:9H 2:5H 3:8D",
)

SCENARIOS = [
    Scenario(
        "tip 1: do not ruff partner's ace",
        position(2, {2: "7S 3S QC JC 8C 5C 2C 9D 8D 6D 4D 3D 2D"}, [4, 3, 3, 3], plays("0:AH 1:5H")),
        "QC",
        "void in hearts under partner's AH: discard (tip 10: clubs, 5 cards, are the shorter suit without a"
        " master: its highest card QC)",
        off="counting+tips(-no_trump_partner_ace)",
        off_card="3S",
        # third seat void ruffs with its cheapest trump
    ),
    Scenario(
        "tip 2: third seat low under partner",
        position(2, {2: "AH 9H 3H KC 7C 4C QD 8D 5D 2D 9S 6S 2S"}, [3, 3, 4, 3], plays("0:KH 1:4H")),
        "3H",
        "partner's KH holds the trick: play low and keep the master AH",
        off="counting+tips(-third_seat_low_when_partner_wins)",
        off_card="AH",  # third hand high
    ),
    Scenario(
        "tip 3: third seat cheapest winner",
        position(2, {2: "AH QH 9H 2H KC 8C 3C JD 7D 4D TS 7S 3S"}, [3, 3, 3, 3], plays("0:5H 1:JH")),
        "QH",
        "opponent's JH holds: QH is the cheapest card that beats it, not the AH",
        off="counting+tips(-third_seat_cheapest_winner)",
        off_card="AH",  # "your best"
    ),
    Scenario(
        "tip 4: hold AS KS early",
        position(2, {2: "AS KS 9S 5S QC 8C 6C 3C JH 9H 7H 4H 2H"}, [3, 3, 4, 3], plays("0:4D 1:7D 2:5S 3:9D")),
        "3C",
        "seat 2 ruffed trick 1 and leads trick 2 with AS KS: not them; no side master (KC AC, QH KH AH are out),"
        " so the lowest card of the shortest side suit (clubs, 4 cards)",
        off="counting+tips(-hold_spade_honours)",
        off_card="AS",  # the default lead's master spade
    ),
    Scenario(
        "tip 5: never lead a bare king",
        position(0, {0: "KH 9C 7C 5C 4C QD 8D 6D 3D 2D 9S 6S 3S"}, [3, 3, 3, 3], []),
        "4C",
        "no master; the shortest side suit is the bare KH (AH out): skip it for clubs (4 cards before 5 diamonds)",
        off="counting+tips(-no_lead_singleton_king)",
        off_card="KH",
    ),
    Scenario(
        "tip 6: ruff early with five spades",
        position(1, {1: "9S 8S 6S 4S 2S KC 7C 3C JD 9D 7D 5D 3D"}, [3, 3, 3, 3], plays("0:7H")),
        "2S",
        "second seat, void in hearts at trick 1 with five spades: ruff at once, with the cheapest spade",
        off="counting+tips(-trump_early_when_void)",
        off_card="KC",
        # second seat does not ruff; tip 10 throws the highest club (3 clubs, shorter than 5 diamonds, no master)
    ),
    Scenario(
        "tip 7: duck once the contract is made",
        position(
            2,
            {2: "3C 8C 7C 6C 5C 3D 8D 7D 6D 5D KH 7H 2H"},
            [1, 3, 1, 3],
            plays("0:AC 1:2C 2:3C 3:4C", "0:AD 1:2D 2:3D 3:4D", "0:5H 1:9H"),
        ),
        "2H",
        "side bid 1 + 1 and seat 0 has won 2 tricks: play low, refuse the trick",
        off="counting+tips(-duck_after_contract)",
        off_card="KH",  # tip 3: the cheapest heart over the opponent's 9H
    ),
    Scenario(
        "tip 8: pull trumps on a big bid",
        position(2, {2: "2S 9S 7S 4S 3S AC 8C 6C 9H 8H 6H 5H 4H"}, [6, 1, 5, 1], plays("0:4D 1:3D 2:2S 3:5D")),
        "3S",
        "side bid 11, spades broken, opponents not shown out: lead a spade; 9S is not the master, so the lowest",
        off="counting+tips(-pull_trumps_on_big_bid)",
        off_card="AC",  # the default lead cashes the side master
    ),
    Scenario(
        "tip 9: lead low against a nil",
        position(0, {0: "AH KH 8H 5H 3H AC 7C 4C QD 6D 2D KS 2S"}, [3, 0, 3, 3], []),
        "3H",
        "seat 1 bid nil: hearts are the longest suit, its lowest card; AH AC are kept, 2D too (for the end)",
        off="counting+tips(-lead_low_against_nil, -set_opposing_nil)",
        off_card="AC",  # the default lead cashes a master, clubs having more cards out than hearts
    ),
    Scenario(
        "set a nil: lead low without tip 9",
        position(0, {0: "AH KH 8H 5H 3H AC 7C 4C QD 6D 2D KS 2S"}, [3, 0, 3, 3], []),
        "2D",
        "tip 9 off, set_opposing_nil on: the lowest-ranked card that is not an ace",
        player="counting+tips(-lead_low_against_nil)",
    ),
    Scenario(
        "tip 10: discard to make a void",
        position(3, {3: "8S 7S 6S 4S 3S 2S AC 9C 6C 3C 2C QH 4H"}, [3, 3, 3, 3], plays("0:5D 1:AD 2:7D")),
        "QH",
        "partner's AD holds, fourth seat does not ruff it: hearts have no master (AH KH out), clubs have AC:"
        " throw the highest heart",
        off="counting+tips(-discard_to_void)",
        off_card="2C",  # play low
    ),
    Scenario(
        "tip 11: cash masters, keep the spade",
        position(0, TIP11_HANDS, [5, 3, 4, 3], TIP11_PLAYS),
        "AH",
        "trick 11 on lead with AS AH KH, every heart else played: cash the heart masters first",
        off="counting+tips(-cash_masters_last_spade)",
        off_card="AS",  # the default lead's master spade
    ),
    Scenario(
        "nil: the highest card that still loses",
        position(1, {1: "KH TH 8H 4H QC 7C 3C JD 8D 5D 9S 5S 3S"}, [3, 0, 3, 3], plays("0:9H")),
        "8H",
        "seat 1 bid nil, 9H led: 8H is the highest heart under it",
        off="counting+tips(-nil_play)",
        off_card="4H",  # second seat low
    ),
    Scenario(
        "nil: void, throw the most dangerous card",
        position(1, {1: "KD 9D 6D 5D 2D QC 8C 4C 3C 2C 5S 3S 2S"}, [3, 0, 3, 3], plays("0:9H")),
        "KD",
        "void in hearts: every side card loses, a spade would win; KD has one card above it out (AD), QC two",
        off="counting+tips(-nil_play)",
        off_card="QC",  # tip 10: clubs and diamonds both 5 cards without a master, clubs first
    ),
    Scenario(
        "nil: lead the card easiest to cover",
        position(0, {0: "3C 2H QD TD 9D 7D 5D 4D 2D 6S 4S 3S 2S"}, [0, 3, 4, 3], []),
        "2H",
        "seat 0 bid nil: 2H has 12 hearts above it out, 3C 11 clubs, 2D 6 diamonds",
        off="counting+tips(-nil_play)",
        off_card="3C",  # lowest of the shortest side suit, clubs before hearts
    ),
    Scenario(
        "coverage: overtake the nil partner",
        position(0, {0: "AH QH 7H 3H KC 9C 5C JD 8D 4D 8S 5S 2S"}, [3, 3, 0, 3], plays("1:4H 2:JH 3:6H"), dealer=0),
        "QH",
        "partner (seat 2, nil) holds with JH: play over it, as cheaply as possible",
        off="counting+tips(-nil_coverage)",
        off_card="3H",  # fourth seat plays low under partner
    ),
    Scenario(
        "coverage: play high before the nil partner",
        position(0, {0: "KD 8D 3D AC 9C 4C QH 7H 5H 2H 9S 6S 3S"}, [3, 3, 0, 3], plays("3:5D"), dealer=2),
        "KD",
        "partner (nil) plays after me: make the trick high so it can duck under",
        off="counting+tips(-nil_coverage)",
        off_card="3D",  # second seat low
    ),
    Scenario(
        "coverage: take the lead",
        position(0, {0: "KH 9H 5H QC 8C 4C 3C JD 9D 7D 5D 2D 4S"}, [3, 3, 0, 3], []),
        "KH",
        "partner bid nil: lead the strongest card, KH (only AH above it out)",
        off="counting+tips(-nil_coverage)",
        off_card="5H",  # lowest of the shortest side suit
    ),
    Scenario(
        "set a nil: play low before it",
        position(2, {2: "KC 7C 2C AH 8H 4H QD 9D 6D 3D TS 7S 4S"}, [3, 3, 3, 0], plays("0:6C 1:9C")),
        "2C",
        "seat 3 bid nil and plays after me: my lowest club, so it must come in under a low card",
        off="counting+tips(-set_opposing_nil)",
        off_card="KC",  # tip 3: the cheapest club over the opponent's 9C
    ),
    Scenario(
        "set a nil: never overtake it",
        position(2, {2: "AD 9D 4D KC 8C 5C QH 7H 3H 2H JS 8S 5S"}, [3, 0, 3, 3], plays("0:3D 1:TD")),
        "9D",
        "seat 1 (nil) holds the trick with TD: the highest diamond that still loses",
        off="counting+tips(-set_opposing_nil)",
        off_card="AD",  # tip 3
    ),
    Scenario(
        "default: second seat low",
        position(1, {1: "KH QH TH 3H 9C 7C 4C 8D 6D 5D 7S 5S 2S"}, [3, 3, 3, 3], plays("0:9H")),
        "3H",
        "the sheet is silent: second hand low",
    ),
    Scenario(
        "default: fourth seat wins cheaply",
        position(3, {3: "AH QH 7H 2H KC 9C 4C JD 8D 3D 9S 6S 4S"}, [3, 3, 3, 3], plays("0:5H 1:8H 2:JH")),
        "QH",
        "the sheet is silent: seat 2 (an opponent) holds with JH, QH is the cheapest heart over it",
    ),
    Scenario(
        "default: fourth seat low under partner",
        position(3, {3: "AH QH 7H 2H KC 9C 4C JD 8D 3D 9S 6S 4S"}, [3, 3, 3, 3], plays("0:5H 1:JH 2:8H")),
        "2H",
        "the sheet is silent: partner (seat 1) holds with JH, the trick is ours",
    ),
    Scenario(
        "greedy: win cheaply",
        position(1, {1: "KH QH TH 3H 9C 7C 4C 8D 6D 5D 7S 5S 2S"}, [3, 3, 3, 3], plays("0:9H")),
        "TH",
        "TH is the cheapest heart over 9H",
        player="counting+greedy",
    ),
    Scenario(
        "greedy: ruff cheaply",
        position(1, {1: "9S 8S 6S 4S 2S KC 7C 3C JD 9D 7D 5D 3D"}, [3, 3, 3, 3], plays("0:7H")),
        "2S",
        "void in hearts: the cheapest winner is the lowest spade",
        player="counting+greedy",
    ),
    Scenario(
        "greedy: cannot win, play low",
        position(1, {1: "8H 5H 2H KC 7C 3C JD 9D 7D 5D 9S 6S 2S"}, [3, 3, 3, 3], plays("0:9H")),
        "2H",
        "no heart beats 9H: the lowest",
        player="counting+greedy",
    ),
    Scenario(
        "greedy: overtakes its own partner",
        position(2, {2: "AH 9H 3H KC 7C 4C QD 8D 5D 2D 9S 6S 2S"}, [3, 3, 4, 3], plays("0:KH 1:4H")),
        "AH",
        "greedy does not look at who holds the trick (tips plays 3H here, tip 2)",
        player="counting+greedy",
    ),
    Scenario(
        "greedy: lead low",
        position(0, {0: "AS KS QS AH KH QH 9H 7C 6C 4D 3D 8D 9D"}, [3, 3, 3, 3], []),
        "3D",
        "leading: the lowest-ranked side card",
        player="counting+greedy",
    ),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.rule for s in SCENARIOS])
def test_card(scenario: Scenario) -> None:
    seat = scenario.position["to_act"]
    assert decide(scenario.player, scenario.position) == {"seat": seat, "card": scenario.card}, scenario.working
    if scenario.off is not None:
        assert decide(scenario.off, scenario.position) == {"seat": seat, "card": scenario.off_card}


def test_every_rule_has_a_switch_and_a_scenario() -> None:
    switches = [name for name, value in vars(TipsParams()).items() if isinstance(value, bool)]
    assert switches == [
        "no_trump_partner_ace", "third_seat_low_when_partner_wins", "third_seat_cheapest_winner",
        "hold_spade_honours", "no_lead_singleton_king", "trump_early_when_void", "duck_after_contract",
        "pull_trumps_on_big_bid", "lead_low_against_nil", "discard_to_void", "cash_masters_last_spade",
        "nil_play", "nil_coverage", "set_opposing_nil",
    ]  # fmt: skip
    switched_off = " ".join(s.off or "" for s in SCENARIOS) + " ".join(s.player for s in SCENARIOS)
    assert all(f"-{name}" in switched_off for name in switches)


def test_player_names() -> None:
    for name in ("random", "counting+tips", "optimist+tips", "cautious+tips", "counting+greedy"):
        assert make_player(name).name == name
    player = make_player("counting(margin=2)+tips(-duck_after_contract)")
    assert player.bidder.params.margin == 2 and player.player.params.duck_after_contract is False
    assert player.player.params.nil_play is True
    assert make_player("counting+tips:no_duck_after_contract").player.params.duck_after_contract is False
    assert make_player("optimist+tips").bidder.params.shift == 1
    assert make_player("cautious+tips").bidder.params.shift == -1


def test_expert_beats_random() -> None:
    """The full expert side (seats 0 and 2) against random: it won 2,000 of 2,000 measured games.

    300 games to 500 with a 200-hand cap (an unfinished game is no win). Needing 285 wins (95%)
    cannot pass by luck: a player that truly won 90% would reach 285 with probability about 0.2%.
    """
    wins = 0
    for log in simulate_games(Rules(hand_cap=200), make_players(["counting+tips", "random"]), 300, seed=11):
        wins += int(np.sum(log.game_over & (log.winner == 0)))
    assert wins >= 285
