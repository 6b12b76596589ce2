"""The `pimc` play: worlds consistent with what the seat saw, hand score rather than tricks, ties to the
cheaper card, and a searched decision in a real ending (the double-dummy solver compiles on first use)."""

from __future__ import annotations

import numpy as np

from spades_lab import Rules, make_player, make_players, simulate_hands
from spades_lab.cards import STANDARD_DECK
from spades_lab.dd import Solver, solve
from spades_lab.engine import HandLog
from spades_lab.engine.position import position_view
from spades_lab.engine.protocol import ask_plays
from spades_lab.players import decide
from spades_lab.policies.expert import ExpertParams, ExpertPlay
from spades_lab.policies.nilsearch import nil_broken_values
from spades_lab.policies.pimc import bag_price, choose_cards, rollout_values, score_by_tricks
from spades_lab.policies.worlds import sample_worlds, world_keys

DECK = STANDARD_DECK
SUITS = np.asarray(DECK.suit_masks, dtype=np.uint64)


def test_worlds_respect_hand_sizes_voids_and_seed() -> None:
    """Seat 0 holds 4 cards; 12 unseen cards go 4-4-4 to seats 1-3, seat 1 has shown out of hearts and spades."""
    mine = DECK.mask("AS KS AH 2C".split())
    unseen = np.uint64(DECK.mask("3C 4C 5C 6C 2D 3D 4D 5D 2H 3H 2S 3S".split()))
    known = np.array([[mine, 0, 0, 0]], dtype=np.uint64)
    room = np.array([[0, 4, 4, 4]], dtype=np.int64)
    forbidden = np.array([[0, SUITS[2] | SUITS[3], 0, 0]], dtype=np.uint64)
    keys = world_keys(np.array([0.25]))
    worlds = sample_worlds(keys, known, np.array([unseen]), room, forbidden, 64)[0]
    assert worlds.shape == (64, 4)
    for hands in worlds:
        assert int(hands[0]) == mine
        assert [int(np.bitwise_count(h)) for h in hands[1:]] == [4, 4, 4]
        assert int(hands[1] | hands[2] | hands[3]) == int(unseen)
        assert int(hands[1] & (SUITS[2] | SUITS[3])) == 0  # no heart or spade for the seat that showed out
    assert len({tuple(int(x) for x in w) for w in worlds}) > 10  # the worlds differ
    again = sample_worlds(keys, known, np.array([unseen]), room, forbidden, 64)[0]
    assert np.array_equal(worlds, again)  # the same key gives the same worlds


def test_score_by_tricks_is_the_hand_score_difference() -> None:
    """Seat 0 bid 4, partner 3 (contract 7); opponents 3 + 3. Worked by hand with the standard scoring."""
    bids = np.array([[4, 3, 3, 3]])
    won = np.array([[3, 2, 2, 2]])  # 9 tricks played: the side has 5, the opponents 4
    score = score_by_tricks(Rules(), bids, won, np.array([[0, 0]]), np.array([0]))[0]
    assert score[7] == 70 - 60  # made exactly; they take 6 and make theirs
    assert score[8] == 71 - (-60)  # one bag, and they are set
    assert score[6] == -70 - 61  # set; they make 6 with a bag
    nine_bags = score_by_tricks(Rules(), bids, won, np.array([[9, 0]]), np.array([0]))[0]
    assert nine_bags[8] == (71 - 100) - (-60)  # the tenth bag costs the penalty


def test_choice_is_by_score_not_tricks_and_ties_go_cheap() -> None:
    """Contract 7 against the opponents' 4 (which they have): card 4C makes the side 8 tricks in every world,
    9C and TC 7. With 9 bags the 8th trick costs the penalty: 9C (70 - 42 = 28 against 71 - 100 - 41 = -70).
    Without bags the 8th trick is a point more: 4C (71 - 41 = 30 against 28)."""
    score = score_by_tricks(Rules(), np.array([[4, 2, 3, 2]]), np.array([[3, 2, 2, 2]]), np.array([[9, 0]]),
                            np.array([0]))  # fmt: skip
    values = np.full((1, 4, 52), -1, dtype=np.int64)
    four, nine, ten = DECK.card_id("4C"), DECK.card_id("9C"), DECK.card_id("TC")
    values[0, :, four], values[0, :, nine], values[0, :, ten] = 3, 2, 2  # from the current trick on; side has 5
    legal = np.array([DECK.mask(["4C", "9C", "TC"])], dtype=np.uint64)
    ours_now = np.array([5])
    assert choose_cards(values, score, ours_now, legal, DECK).tolist() == [nine]  # 9C and TC tie: the cheaper
    no_bags = score_by_tricks(Rules(), np.array([[4, 2, 3, 2]]), np.array([[3, 2, 2, 2]]), np.array([[0, 0]]),
                              np.array([0]))  # fmt: skip
    assert choose_cards(values, no_bags, ours_now, legal, DECK).tolist() == [four]


def test_a_bag_costs_its_long_run_price_once_the_contract_is_made() -> None:
    """Both contracts made (7 and the opponents' 4) with two tricks to play: every trick left is somebody's bag.
    At its point alone (`bag_cost=0`) pimc takes both with the 4C (72 - 40 = 32 against 70 - 42 =
    28 for the 9C, which takes none); at the long-run price (100 points per 10 bags) a bag costs its taker
    10 - 1 = 9, so the 9C gives them away: (70 - 0) - (42 - 20) = 48 against (72 - 20) - 40 = 12."""
    bids, won, no_bags = np.array([[4, 2, 3, 2]]), np.array([[4, 2, 3, 2]]), np.array([[0, 0]])
    plain = score_by_tricks(Rules(), bids, won, no_bags, np.array([0]))
    priced = score_by_tricks(Rules(), bids, won, no_bags, np.array([0]), bag_cost=10.0)
    assert (plain[0, 7], plain[0, 9]) == (28, 32) and (priced[0, 7], priced[0, 9]) == (48, 12)
    values = np.full((1, 4, 52), -1, dtype=np.int64)
    four, nine = DECK.card_id("4C"), DECK.card_id("9C")
    values[0, :, four], values[0, :, nine] = 2, 0
    legal = np.array([DECK.mask(["4C", "9C"])], dtype=np.uint64)
    assert choose_cards(values, plain, np.array([7]), legal, DECK).tolist() == [four]
    assert choose_cards(values, priced, np.array([7]), legal, DECK).tolist() == [nine]


BOTH_MADE = {
    # a hand of four counting+expert players (seed 5), cut with three tricks to play: each side bid 5 and has
    # taken 5, so both contracts are made; seat 3 leads, holding JS 8C 3C, and the JS takes a trick
    "rules": "standard", "dealer": 1, "score_before": [0, 0], "bags_before": [0, 0], "bids": [2, 4, 3, 1],
    "hands": [
        "8S 7S 5S AH KH 8H 9D 6D 4D QC TC 7C 6C".split(), "AS KS TS 4S 2S 6H 2H QD JD 8D 5D JC 5C".split(),
        "QS 3S QH JH 7H 4H 3H AD KD TD AC 9C 4C".split(), "JS 9S 6S TH 9H 5H 7D 3D 2D KC 8C 3C 2C".split(),
    ],
    "plays": [[int(s), c] for s, c in (pair.split(":") for pair in (
        "2:3H 3:5H 0:KH 1:2H 0:4D 1:5D 2:KD 3:2D 2:4H 3:9H 0:AH 1:6H 0:8H 1:2S 2:7H 3:TH 1:AS 2:3S 3:6S 0:5S "
        "1:KS 2:QS 3:9S 0:7S 1:5C 2:AC 3:2C 0:6C 2:AD 3:3D 0:6D 1:8D 2:TD 3:7D 0:9D 1:JD 1:JC 2:4C 3:KC 0:7C"
    ).split())],
}  # fmt: skip


def test_with_both_contracts_made_pimc_gives_the_spare_trick_away() -> None:
    """Asked through `decide`: every trick left is a bag, so pimc leads low and lets the opponents take it;
    valuing a bag at its point alone (`bag_cost=0`) it cashes the jack of spades, a bag for its own side."""
    assert decide("counting+pimc", BOTH_MADE) == {"seat": 3, "card": "3C"}
    assert decide("counting+pimc(bag_cost=0)", BOTH_MADE) == {"seat": 3, "card": "JS"}


def test_a_side_short_of_its_contract_is_not_charged_for_its_bags() -> None:
    """The side has 5 of its 7, the opponents their 4: a trick more than 7 in a sampled world is as likely DD
    optimism as a bag, so only the opponents' bags are priced (each counts 10 for the side)."""
    bids, won, no_bags = np.array([[4, 2, 3, 2]]), np.array([[3, 2, 2, 2]]), np.array([[0, 0]])
    plain = score_by_tricks(Rules(), bids, won, no_bags, np.array([0]))
    priced = score_by_tricks(Rules(), bids, won, no_bags, np.array([0]), bag_cost=10.0)
    their_bags = np.clip(13 - np.arange(14) - 4, 0, None)
    assert np.array_equal(priced[0], plain[0] + 10 * their_bags)


def test_the_rules_price_of_a_bag() -> None:
    assert bag_price(Rules()) == 10.0
    assert bag_price(Rules(bag_penalty_enabled=False)) == 0.0
    assert bag_price(Rules(), 0.0) == 0.0 and bag_price(Rules(), 3.5) == 3.5
    assert make_player("counting+pimc").player.params.bag_cost == -1.0  # by default the rules' price


def test_trick_value_counts_tricks_only_until_the_contract_is_made() -> None:
    """The 9-bags position above: 99 points a trick outweigh the 98-point bag penalty, so the 8th trick (4C) is
    taken; once the side has its 7 tricks the bonus is gone and the table is the plain hand score."""
    bids, won, bags = np.array([[4, 2, 3, 2]]), np.array([[3, 2, 2, 2]]), np.array([[9, 0]])
    plain = score_by_tricks(Rules(), bids, won, bags, np.array([0]))
    valued = score_by_tricks(Rules(), bids, won, bags, np.array([0]), trick_value=99)
    assert np.array_equal(valued - plain, 99.0 * np.arange(14)[None, :])
    values = np.full((1, 4, 52), -1, dtype=np.int64)
    four, nine = DECK.card_id("4C"), DECK.card_id("9C")
    values[0, :, four], values[0, :, nine] = 3, 2
    legal = np.array([DECK.mask(["4C", "9C"])], dtype=np.uint64)
    assert choose_cards(values, plain, np.array([5]), legal, DECK).tolist() == [nine]
    assert choose_cards(values, valued, np.array([5]), legal, DECK).tolist() == [four]
    made = np.array([[4, 3, 3, 2]])  # 7 tricks already: the contract is in
    assert np.array_equal(score_by_tricks(Rules(), bids, made, bags, np.array([0]), trick_value=99),
                          score_by_tricks(Rules(), bids, made, bags, np.array([0])))  # fmt: skip


def test_trick_value_off_is_the_default_play() -> None:
    """`trick_value=0` is the shipped player card for card; a large value changes some cards."""
    rules = Rules()
    default = HandLog.concat(list(simulate_hands(rules, make_players("counting+pimc(worlds=4)"), 24, seed=5)))
    for value, changed in ((0, False), (50, True)):
        spec = f"counting+pimc(worlds=4,trick_value={value})"
        other = HandLog.concat(list(simulate_hands(rules, make_players(spec), 24, seed=5)))
        assert (not np.array_equal(default.plays, other.plays)) is changed


def test_pimc_searches_an_ending_and_reproduces() -> None:
    """Trick 11 of a real hand (3 tricks left): pimc searches, plays a legal card, the same one every time."""
    log = next(iter(simulate_hands(Rules(), make_players("counting+expert"), 8, seed=4)))
    row = int(np.flatnonzero((log.bids != 0).all(axis=1))[0])  # a hand with no nil: searched
    plays = [[int(s), DECK.cards[int(c)]] for s, c in zip(log.play_seats[row][:40], log.plays[row][:40])]
    position = {
        "dealer": int(log.dealer[row]), "hands": [DECK.labels(int(h)) for h in log.held[row]],
        "bids": [int(b) for b in log.bids[row]], "plays": plays, "score_before": [0, 0], "bags_before": [0, 0],
    }  # fmt: skip
    view = position_view(position)
    player = make_player("counting+pimc(worlds=8)")
    card = int(ask_plays(player, view)[0])
    assert int(view.legal[0]) >> card & 1 == 1
    assert player.player.searched == (1 if int(np.bitwise_count(view.legal[0])) > 1 else 0)
    assert int(ask_plays(make_player("counting+pimc(worlds=8)"), position_view(position))[0]) == card


def test_score_by_tricks_values_a_live_nil_made_or_broken() -> None:
    """Seat 1 (an opponent) bid nil and has no trick; seat 3 bid 3. Our side (4 + 4) has 8 of the 10 tricks played.
    Side ends with 8: they take 5 (seat 3 alone: 30 + 2 bags + nil 100 = 132) against our 80: -52. With the nil
    broken, seat 1 takes one: seat 3 makes 3 with a bag, the nil -100 and its trick a bag: -68, so 80 + 68 = 148.
    Side ends with 10: seat 3 alone makes 3 exactly (130: -48); broken, seat 3 is set (-30 - 100 + 1 = -129: 211)."""
    bids, won, bags = np.array([[4, 0, 4, 3]]), np.array([[4, 0, 4, 2]]), np.array([[0, 0]])
    made = score_by_tricks(Rules(), bids, won, bags, np.array([0]))[0]
    broken = score_by_tricks(Rules(), bids, won, bags, np.array([0]), np.array([[False, True, False, False]]))[0]
    assert (made[8], broken[8], made[10], broken[10]) == (-52, 148, -48, 211)


def test_nil_broken_values_per_card_in_an_ending() -> None:
    """Two cards each, seat 0 leads, seat 1 bid nil and holds AH 2D. Leading 2H forces the AH: broken. Leading 3D,
    seat 1 plays 2D under partner's 5D, then seat 2's 6C is won by seat 3 while seat 1 throws the AH: made."""
    hands = np.array([[DECK.mask(h.split()) for h in ("2H 3D", "AH 2D", "5D 6C", "7C 8C")]], dtype=np.uint64)
    solver = Solver(Rules())
    values = nil_broken_values(hands, np.full((1, 4), -1), np.array([0]), np.array([False]), np.array([1]), solver)[0]
    assert values[DECK.card_id("2H")] == 1 and values[DECK.card_id("3D")] == 0
    assert (values >= 0).sum() == 2  # only the two cards held are valued
    # seat 1 to play second on a 3D lead: the 2D keeps the nil (seat 2's 5D or the clubs win), the AH breaks it
    trick = np.array([[DECK.card_id("3D"), -1, -1, -1]])
    after = hands.copy()
    after[0, 0] = np.uint64(DECK.mask(["2H"]))
    second = nil_broken_values(after, trick, np.array([0]), np.array([False]), np.array([1]), solver)[0]
    assert second[DECK.card_id("2D")] == 0 and second[DECK.card_id("AH")] == -1  # must follow diamonds


def test_choice_weighs_the_nil_outcome() -> None:
    """Two legal cards with the same tricks in every world; one breaks the opponents' nil in 3 of 4 worlds."""
    scores = np.zeros((1, 16, 14), dtype=np.int64)
    scores[0, 0] = 0
    scores[0, 2] = 200  # outcome bit 1: seat 1's nil broken
    values = np.full((1, 4, 52), -1, dtype=np.int64)
    two, three = DECK.card_id("2H"), DECK.card_id("3D")
    values[0, :, two] = values[0, :, three] = 1
    outcome = np.zeros((1, 4, 52), dtype=np.int64)
    outcome[0, :3, three] = 2
    legal = np.array([DECK.mask(["2H", "3D"])], dtype=np.uint64)
    assert choose_cards(values, scores, np.array([5]), legal, DECK, outcome).tolist() == [three]
    outcome[0, :3, three] = 0
    assert choose_cards(values, scores, np.array([5]), legal, DECK, outcome).tolist() == [two]  # tie: cheaper 2H


def test_pimc_searches_while_a_nil_is_live() -> None:
    """Hands with a nil bid are searched too (no expert fallback), and replay identically."""
    rules = Rules()
    bidder = "counting(nil_max_spades=3)"
    first = make_players([f"{bidder}+pimc(worlds=4,max_tricks=3)", f"{bidder}+expert"])
    logs = list(simulate_hands(rules, first, 24, seed=11))
    nil_hands = sum(int((log.bids == 0).any(axis=1).sum()) for log in logs)
    assert nil_hands > 0 and first[0].player.searched_nil > 0
    again = make_players([f"{bidder}+pimc(worlds=4,max_tricks=3)", f"{bidder}+expert"])
    assert all(np.array_equal(a.plays, b.plays) for a, b in zip(logs, simulate_hands(rules, again, 24, seed=11)))


def _position_at(log, row: int, step: int) -> dict:
    """The position of hand `row` of `log` just before play `step` (0 = the first lead)."""
    plays = [[int(s), DECK.cards[int(c)]] for s, c in zip(log.play_seats[row][:step], log.plays[row][:step])]
    return {
        "dealer": int(log.dealer[row]), "hands": [DECK.labels(int(h)) for h in log.held[row]],
        "bids": [int(b) for b in log.bids[row]], "plays": plays, "score_before": [0, 0], "bags_before": [0, 0],
    }  # fmt: skip


def _unplayed(log, row: int, step: int) -> np.ndarray:
    """[1, 1, 4] the true unplayed hands before play `step`: the one world that is the real deal."""
    hands = np.array(log.held[row], dtype=np.uint64)
    for s, c in zip(log.play_seats[row][:step], log.plays[row][:step]):
        hands[int(s)] &= ~(np.uint64(1) << np.uint64(int(c)))
    return hands[None, None, :]


def test_a_rollout_of_the_real_deal_replays_the_expert_hand() -> None:
    """Four expert seats: a rollout from trick 3 on the true deal, with the card the seat really played,
    is the logged hand itself (each seat's view of that world is the one it had), so it ends with the
    side's logged tricks; with a DD leaf at 2 tricks it is the logged tricks up to there plus the solver's."""
    log = next(iter(simulate_hands(Rules(), make_players("counting+expert"), 8, seed=4)))
    expert = ExpertPlay(ExpertParams())
    checked = 0
    for row in range(len(log)):
        view = position_view(_position_at(log, row, 8))
        seat, card = int(view.seat[0]), int(log.plays[row][8])
        side = [seat, (seat + 2) % 4]
        before = int(view.tricks_won[0, side].sum())
        values, outcome, live = rollout_values(view, np.array([0]), _unplayed(log, row, 8), 0, expert)
        assert int(values[0, 0, card]) == int(log.tricks[row, side].sum()) - before
        assert (values[0, 0] >= 0).sum() == int(np.bitwise_count(view.legal[0]))  # every legal card, only those
        at_leaf = position_view(_position_at(log, row, 44))
        dd_rest = int(solve(_unplayed(log, row, 44)[0], at_leaf.leader, broken=at_leaf.spades_broken)[0, seat % 2])
        leaf, _, _ = rollout_values(view, np.array([0]), _unplayed(log, row, 8), 2, expert)
        assert int(leaf[0, 0, card]) == int(at_leaf.tricks_won[0, side].sum()) - before + dd_rest
        checked += 1
    assert checked == len(log) > 0


def test_early_rollouts_off_is_the_expert_and_on_reproduces_whatever_the_batch() -> None:
    """With `early_worlds=0` and nothing left to search (`max_tricks=1`) pimc plays the expert's games; with
    rollouts to the end of the hand (no DD) it plays other cards, the same ones at any batch size."""
    rules = Rules()
    expert = list(simulate_hands(rules, make_players("counting+expert"), 12, seed=3))
    off = list(simulate_hands(rules, make_players("counting+pimc(early_worlds=0,max_tricks=1)"), 12, seed=3))
    assert all(np.array_equal(a.plays, b.plays) for a, b in zip(expert, off))
    spec = "counting+pimc(early_worlds=4,max_tricks=1,leaf_tricks=0)"
    players = make_players(spec)
    searched = players[0].player.searched_early
    whole = HandLog.concat(list(simulate_hands(rules, players, 12, seed=3)))
    assert players[0].player.searched_early > searched
    assert not np.array_equal(whole.plays, HandLog.concat(expert).plays)
    small = HandLog.concat(list(simulate_hands(rules, make_players(spec), 12, seed=3, batch_size=5)))
    assert np.array_equal(whole.sorted().plays, small.sorted().plays)


def test_a_rollout_card_overturns_the_default_only_by_enough_standard_errors() -> None:
    """4 worlds, 10 points a trick: the default 4C takes 7 tricks in each, the 9C 8, 8, 7, 7: a paired gain
    of 10, 10, 0, 0 points, mean 5, standard error 5.77 / 2 = 2.89. z = 1 plays the 9C, z = 2 keeps the 4C."""
    score = (10 * np.arange(14))[None, :]
    four, nine = DECK.card_id("4C"), DECK.card_id("9C")
    values = np.full((1, 4, 52), -1, dtype=np.int64)
    values[0, :, four] = 7
    values[0, :, nine] = [8, 8, 7, 7]
    legal = np.array([DECK.mask(["4C", "9C"])], dtype=np.uint64)
    args = (values, score, np.array([0]), legal, DECK)
    assert choose_cards(*args).tolist() == [nine]
    keep = np.array([four])
    assert choose_cards(*args, keep=keep, z=1.0).tolist() == [nine]
    assert choose_cards(*args, keep=keep, z=2.0).tolist() == [four]
    values[0, :, nine] = 7  # a tie: the plain choice is the cheaper 4C, but a default 9C stays, even at z = 0
    assert choose_cards(*args).tolist() == [four]
    assert choose_cards(*args, keep=np.array([nine]), z=0.0).tolist() == [nine]


def test_search_players_ask_for_small_batches() -> None:
    """A pimc or dd seat takes a second or more a decision: a tournament process then holds 32 tables, so the
    games of a run spread over the worker processes instead of all going to the first one's batch."""
    assert make_player("counting+pimc").batch_limit == 32
    assert make_player("dd+expert").batch_limit == 32
    assert make_player("counting+expert").batch_limit is None
