"""`spades-lab play`: a person plays one game in the terminal against the bots.

The person holds one seat; every other seat is a registered player asked through the engine's
views, as in any simulation. Input is forgiving in notation and strict in legality: a bid is
`nil` or a number, a card is `AS`, `10h` or `th`; anything not legal gets one line naming the
legal options, and nothing is ever played for the person unless the clock (`--clock`) runs out,
in which case the hint bot's choice is played and said so. Every finished hand is saved as a
hand-record line (the file is rewritten atomically after each hand), so a game can be replayed,
verified or analysed afterwards.
"""

from __future__ import annotations

import select
import sys
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from spades_lab.cards import CardError, parse_card
from spades_lab.engine.records import hand_records, write_records
from spades_lab.engine.state import LOOK_ACTION, NIL_ACTION, Phase
from spades_lab.env.batch import BatchEnv
from spades_lab.env.bots import answers_to_actions, bot_answers, default_bot_name
from spades_lab.env.text import action_text, bid_text, describe_table, seat_name
from spades_lab.names import did_you_mean
from spades_lab.players import make_player
from spades_lab.rules import Rules, rules_label

PROMPTS = {
    Phase.BID: "your bid> ",
    Phase.BLIND: "blind nil? (blind / look)> ",
    Phase.EXCHANGE: "card to pass> ",
    Phase.DRAFT: "keep or discard the top card?> ",
    Phase.PLAY: "your card> ",
}

SEAT_WORDS = {"south": 0, "west": 1, "north": 2, "east": 3, "s": 0, "w": 1, "n": 2, "e": 3}


class Quit(Exception):
    """The person typed `quit` (or closed the input)."""


def parse_seat(text: str, players: int) -> int:
    """A seat number (0..3) or name (south, west, north, east; in Duel south, north)."""
    word = text.strip().lower()
    if word.isdigit() and int(word) < players:
        return int(word)
    if word in SEAT_WORDS:
        seat = SEAT_WORDS[word]
        if players == 2:
            seat = {0: 0, 2: 1}.get(seat, -1)
        if 0 <= seat < players:
            return seat
    names = ", ".join(seat_name(s, players).lower() for s in range(players))
    known = [seat_name(s, players).lower() for s in range(players)]
    raise ValueError(
        f"seat {text!r}{did_you_mean(word, known)} is not at this table; seats: 0..{players - 1} or {names}"
    )


MAX_CLOCK = 86_400.0
"""Longest clock: a day per decision (longer is no clock: leave it out)."""


def check_clock(clock: object) -> float | None:
    """The clock in seconds per decision: None (no limit) or a finite number above 0 and at most a day."""
    if clock is None:
        return None
    if isinstance(clock, bool) or not isinstance(clock, int | float) or not 0 < clock <= MAX_CLOCK:
        raise ValueError(
            f"clock = {clock!r} is impossible; allowed: more than 0 and at most {MAX_CLOCK:,.0f} seconds"
            " per decision (left out: no limit)"
        )
    return float(clock)


def refuse_unplayable(rules: Rules) -> None:
    """The terminal table seats two partnerships or a Duel: refuse, naming the field, rules with more sides."""
    if rules.sides > 2:
        what = "players = 3" if rules.players == 3 else "partnerships = False (cutthroat)"
        raise ValueError(
            f"rules field {what} cannot be played in the terminal, which seats two partnerships or a Duel;"
            " spades-lab simulate plays these rules"
        )


class TerminalGame:
    """One game at one table: the person's seat, the bots, the input and the output."""

    def __init__(
        self,
        rules: Rules,
        seat: int = 0,
        partner: str | None = None,
        opponents: str | None = None,
        seed: int = 0,
        *,
        clock: float | None = None,
        save: Path | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
    ) -> None:
        refuse_unplayable(rules)
        clock = check_clock(clock)
        self.rules, self.seat, self.seed, self.clock, self.save = rules, seat, seed, clock, save
        self.stdin, self.stdout = stdin or sys.stdin, stdout or sys.stdout
        p = rules.players
        self.hint_name = default_bot_name()
        self.partner_name = partner or self.hint_name
        self.opponents_name = opponents or self.hint_name
        partner_bot, opponent_bot = make_player(self.partner_name), make_player(self.opponents_name)
        self.hint_bot = make_player(self.hint_name)
        self.bots = [None if s == seat else partner_bot if (s - seat) % 2 == 0 else opponent_bot for s in range(p)]
        self.names = [seat_name(s, p) for s in range(p)]
        self.names[seat] = "You"
        self.table = BatchEnv(rules, 1, seed, observe=False)
        self.records: list[dict[str, Any]] = []
        self._pass_plan: list[int] = []

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    # --- input ----------------------------------------------------------------------------------

    def _read(self, prompt: str) -> str | None:
        """A line from the person; None when the clock ran out first."""
        self.stdout.write(prompt)
        self.stdout.flush()
        if self.clock is not None:
            ready, _, _ = select.select([self.stdin], [], [], self.clock)
            if not ready:
                self.say()
                return None
        line = self.stdin.readline()
        if not line:
            raise Quit
        return line.strip()

    def _legal(self) -> list[int]:
        return np.flatnonzero(self.table.action_mask()[0]).tolist()

    def _options(self, legal: list[int]) -> str:
        state = self.table.state
        phase = state.point[0]
        if phase == Phase.DRAFT:
            return "keep, discard"
        if phase == Phase.BLIND:
            return "blind, look"
        return " ".join(action_text(state, a) for a in legal)

    def _parse(self, text: str, legal: list[int]) -> int | str:
        """The action typed, or the one-line reason it is not one."""
        state = self.table.state
        phase, _, index = state.point
        word = text.lower()
        if phase == Phase.BID:
            bid = 0 if word in ("nil", "0", "n") else int(word) if word.isdigit() else None
            if bid is None or NIL_ACTION + bid not in legal:
                return f"{text!r} is not a legal bid; legal: {self._options(legal)}"
            return NIL_ACTION + bid
        if phase == Phase.BLIND:
            if word in ("blind", "blind nil", "b", "yes", "y"):
                return NIL_ACTION
            if word in ("look", "l", "no"):
                return LOOK_ACTION
            return f"{text!r}: type blind (bid blind nil) or look (see your cards first)"
        if phase == Phase.DRAFT:
            if word in ("keep", "k"):
                return int(state.stock[0, 2 * index])
            if word in ("discard", "d", "next"):
                return int(state.stock[0, 2 * index + 1])
            return f"{text!r}: type keep (take the top card) or discard (take the next card instead)"
        try:
            card = state.deck.card_id(parse_card(text))
        except CardError:
            return f"{text!r} is not a card; legal: {self._options(legal)}"
        if card not in legal:
            what = "pass" if phase == Phase.EXCHANGE else "play"
            return f"you cannot {what} {state.deck.cards[card]}; legal: {self._options(legal)}"
        return card

    def _bot_actions(self, policy: object) -> list[int]:
        """The actions `policy` would take for the seat to act (an exchange: every card of its pass)."""
        policies: list[object | None] = [None] * self.rules.players
        policies[int(self.table.to_act[0])] = policy
        return answers_to_actions(self.table.state, bot_answers(self.table.state, policies))[0]

    def _hint(self) -> list[int]:
        state = self.table.state
        if state.point[0] == Phase.EXCHANGE and state.cards_chosen:
            return [c for c in self._pass_plan if c in self._legal()][:1] or self._legal()[:1]
        return self._bot_actions(self.hint_bot)

    def _person(self) -> int:
        """Ask until the person gives a legal action (or asks for a hint, or quits)."""
        state = self.table.state
        phase = state.point[0]
        self.say()
        self.say(describe_table(state, self.seat, names=self.names))
        legal = self._legal()
        while True:
            text = self._read(PROMPTS[phase])
            if text is None:
                action = self._hint()[0]
                self.say(f"time is up: the table plays {action_text(state, action)} for you")
                return action
            if text.lower() in ("quit", "exit", "q"):
                raise Quit
            if text.lower() in ("hint", "h", "?"):
                shown = " ".join(action_text(state, a) for a in self._hint())
                self.say(f"hint: {self.hint_name} would {'pass' if phase == Phase.EXCHANGE else 'choose'} {shown}")
                continue
            if not text:
                continue
            parsed = self._parse(text, legal)
            if isinstance(parsed, str):
                self.say(parsed)
                continue
            return parsed

    # --- the game -------------------------------------------------------------------------------

    def _announce(self, seat: int, action: int) -> None:
        state = self.table.state
        phase = state.point[0]
        who = self.names[seat]
        if phase == Phase.BID:
            self.say(f"{who} bid{'s' if seat != self.seat else ''} {bid_text(action - NIL_ACTION)}")
        elif phase == Phase.BLIND:
            if action == NIL_ACTION:
                self.say(f"{who} bid{'s' if seat != self.seat else ''} blind nil")
        elif phase == Phase.PLAY and seat != self.seat:
            self.say(f"{who} plays {state.deck.cards[action]}")
        elif phase == Phase.EXCHANGE and seat != self.seat:
            self.say(f"{who} passes a card")
        elif phase == Phase.DRAFT and seat != self.seat:
            self.say(f"{who} takes a card from the stock")

    def _step(self, action: int) -> bool:
        """Apply one action; True when the game is over."""
        table = self.table
        seat = int(table.to_act[0])
        phase = table.state.point[0]
        self._announce(seat, action)
        _, _, terminated, truncated, info = table.step(np.array([action], dtype=np.int64))
        if phase == Phase.PLAY and not info["hand_over"][0]:
            state = table.state
            played = int((state.plays[0] >= 0).sum())
            if played % self.rules.players == 0:
                self.say(f"trick {played // self.rules.players} won by {self.names[int(state.leader[0])]}")
        if info["hand_over"][0]:
            self._hand_over(info)
        return bool(terminated[0] or truncated[0])

    def _hand_over(self, info: dict[str, Any]) -> None:
        log = self.table.last_hand_log()
        finished = self.table.finished
        assert finished is not None
        self.say(f"trick 13 won by {self.names[int(finished.leader[0])]}")
        self.records += list(hand_records(log, self.rules))
        side = self.seat % 2
        end = info["hand_end"]
        tricks = "  ".join(f"{self.names[s]} {int(finished.tricks_won[0, s])}" for s in range(self.rules.players))
        self.say(f"hand over: tricks {tricks}")
        self.say(
            f"this hand: you {int(end.hand_score[0, side]):+d}, them {int(end.hand_score[0, 1 - side]):+d}; "
            f"scores: you {int(end.score_after[0, side])} ({int(log.bags_after[0, side])} bags), "
            f"them {int(end.score_after[0, 1 - side])} ({int(log.bags_after[0, 1 - side])} bags)"
        )
        if self.save is not None:
            write_records(self.save, self.records)

    def run(self) -> int:
        p = self.rules.players
        others = (
            f"partner {self.partner_name}, opponents {self.opponents_name}"
            if p == 4
            else f"opponent {self.opponents_name}"
        )
        self.say(f"spades-lab play: you are {seat_name(self.seat, p)} (seat {self.seat}); {others}; "
                 f"rules {rules_label(self.rules)}; seed {self.seed}")  # fmt: skip
        self.say("type a bid (nil, 4), a card (AS, 10h, th), 'hint' for the bot's choice, or 'quit'")
        try:
            while True:
                if int(self.table.to_act[0]) == self.seat:
                    state = self.table.state
                    if state.point[0] == Phase.EXCHANGE and state.cards_chosen == 0:
                        self._pass_plan = self._bot_actions(self.hint_bot)
                    over = self._step(self._person())
                else:
                    over = False
                    for action in self._bot_actions(self.bots[int(self.table.to_act[0])]):
                        over = self._step(action)
                if over:
                    break
        except Quit:
            self.say("you left the game" + (f"; {len(self.records)} finished hand(s) saved to {self.save}"
                                             if self.save is not None and self.records else ""))  # fmt: skip
            return 0
        last = self.records[-1]
        side = self.seat % 2
        if last["game_over"]:
            won = last["winner"] == side
            self.say(
                f"game over: {'you win' if won else 'you lose'} {last['score_after'][side]} to {last['score_after'][1 - side]}"
            )
        else:
            self.say("game stopped unfinished (hand cap)")
        if self.save is not None:
            self.say(f"{len(self.records)} hand(s) saved to {self.save}")
        return 0


def play(
    rules: Rules, seat: int, partner: str | None, opponents: str | None, seed: int, *, clock: float | None,
    save: Path | None, stdin: TextIO | None = None, stdout: TextIO | None = None,
) -> int:  # fmt: skip
    """Play one game in the terminal; the exit code."""
    return TerminalGame(rules, seat, partner, opponents, seed, clock=clock, save=save, stdin=stdin, stdout=stdout).run()
