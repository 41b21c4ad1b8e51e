"""The interactive game: bots act and are narrated; at the human's turn, draw the table and ask.

The human's screen is drawn only from ``seat_view(match.hand, human)``; the summary after a
hand shows every hand as dealt, which the view reveals once the hand is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console, RenderableType
from rich.text import Text

from israeli_whist.bots.matches.runner import play_match
from israeli_whist.cli.hint import hint_block, work_out
from israeli_whist.cli.inputs import parse_choice, prompt_text
from israeli_whist.cli.narrate import action_lines
from israeli_whist.cli.scores import final_results, hand_heading, hand_summary, score_sheet, side_names
from israeli_whist.cli.session import Leave, Seats, save_record
from israeli_whist.cli.table import display_order, hand_lines, last_trick_text, numbering_note, table_panel
from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import Card
from israeli_whist.core.errors import WhistError
from israeli_whist.core.match import Match
from israeli_whist.core.views import SeatView, seat_view

Reader = Callable[[str], str]

HELP = """Commands:
  a card       QH, 10c, Q♥ or its number in your hand (3); in the play a card keeps
               its number to the end of the hand (a card played leaves a gap)
  a call       pass, 5S, 6H, 7NT (in the trump auction)
  a contract   a number of tricks, like 4
  Frisch       one card at a time, or all three on one line: 2 5 9 or QH 10C 2S
  hand         show the table and your hand again
  last         show the last trick
  score        show the score sheet
  rules        show the rules this table plays by
  hint         the expert's top choices for your turn, with the points each is expected
               to bring (unless --no-hints; the saved game lists the hints used)
  help         this list
  quit         leave the game (saved first if you gave --save)"""

COMMANDS = ("help", "?", "hand", "table", "last", "score", "rules", "hint", "quit", "exit")
TURN_COMMANDS = ("hand", "table", "last", "hint")  # about the turn under way: not between hands


class TerminalGame:
    no_hints = "Hints are off in this game (whist play --no-hints)."  # said to a player who asks for one

    def __init__(self, match: Match, seats: Seats, console: Console, read: Reader, save: Path | None,
                 hints: bool = True, no_hints: str | None = None) -> None:
        self.match = match
        if no_hints is not None:  # what a player who asks for a hint is told where they are off
            self.no_hints = no_hints
        self.seats = seats
        self.console = console
        self.read = read
        self.save = save
        self.redraw = True  # draw the table at the human's next turn (not after their own Frisch pick)
        self.farewell = ""  # why the player left before the end, if they did
        self.hints = hints  # whether the player may ask for hints (``cli/hint.py``)
        self.hints_used: dict[int, list[tuple[int, int]]] = {}  # per hand number, (step, seat): the record's

    @property
    def names(self) -> list[str]:
        return self.seats.names

    def run(self) -> int:
        """Play to the end; the exit code (0, or 1 / 130 when the player leaves by end of input / Ctrl-C)."""
        code = 0
        try:
            self.console.print("Type help at any prompt for the commands.")
            if self.match.game.rules.traits.partnerships:
                side_a, side_b = side_names(self.names)
                self.console.print(f"Partners sit opposite: {side_a} against {side_b}.", markup=False)
            self.announce_hand()
            while not self.match.over:
                self.step()
            self.show_block(final_results(self.match, self.names))
        except Leave as leave:
            self.farewell, code = str(leave), leave.code
        except KeyboardInterrupt:
            self.farewell, code = "Interrupted: leaving the game.", 130
        if self.farewell:
            self.console.print(f"\n{self.farewell}", style="bold", markup=False)
        if self.save is not None and not save_record(self.console, self.match, self.seats, self.save, self.hints_used):
            code = code or 1
        return code

    def step(self) -> None:
        seat = self.match.current_player
        if seat != self.seats.human:  # the bots act up to the human's turn, each action told as taken
            play_match(self.match, self.seats.bots, on_action=self.tell)
            self.redraw = True
            return
        for action in self.human_turn():
            self.tell(seat, action, self.match.apply(action))
        # Between the human's own Frisch picks nothing else changes, so the table is not drawn again.
        hand = self.match.hand
        self.redraw = not (hand.player == seat and hand.phase == Phase.FRISCH)

    def tell(self, seat: int, action: Action, after: Match) -> None:
        """Take the match ``action`` made, and tell the human what happened as they may know it.

        The match is taken first, so a player who leaves at the end of the hand saves it."""
        human = self.seats.human
        before = seat_view(self.match.hand, human)
        finished = len(self.match.results)
        self.match = after
        hand_over = len(after.results) > finished
        shown = seat_view(after.results[-1].final if hand_over else after.hand, human)
        for line in action_lines(before, seat, action, shown, self.names):
            self.console.print(line)
        if hand_over:
            self.end_of_hand(shown)

    def show_block(self, block: RenderableType) -> None:
        """A block of its own: the summary of a hand, the final scores, the score sheet, help, rules."""
        self.console.print()
        self.console.print(block)

    def end_of_hand(self, view: SeatView) -> None:
        self.show_block(hand_summary(view, self.match.results[-1], self.match.totals, self.names))
        if self.match.over:
            return
        while True:
            word = self.ask("Press Enter for the next hand (or score, quit): ").strip().lower()
            if word in COMMANDS and word not in TURN_COMMANDS:
                self.command(word, None, [])
                continue
            break
        self.announce_hand()

    def announce_hand(self) -> None:
        self.console.print()
        self.console.rule(Text(hand_heading(self.match, self.names), style="bold"))

    # The human's turn ----------------------------------------------------------------------

    def human_turn(self) -> list[Action]:
        view = seat_view(self.match.hand, self.seats.human)
        shown = display_order(view)
        if self.redraw:
            self.show_table(view, shown)
        while True:
            line = self.ask(prompt_text(view, shown, self.frisch_target(view)))
            word = line.strip().lower()
            if word in COMMANDS:
                self.command(word, view, shown)
                continue
            try:
                actions = parse_choice(line, view, shown)
                trial = self.match
                for action in actions:  # all or nothing: several Frisch cards are checked together
                    trial = trial.apply(action)
            except WhistError as error:
                self.refuse(str(error))
                continue
            return actions

    def show_hint(self, block: RenderableType) -> None:
        self.show_block(block)

    def refuse(self, message: str) -> None:
        """Say why the line typed cannot be played; the question is asked again."""
        self.console.print(Text(message, style="bold red"))

    def frisch_target(self, view: SeatView) -> str:
        return self.names[view.frisch_to] if view.phase == Phase.FRISCH else ""

    def show_table(self, view: SeatView, shown: Sequence[Card]) -> None:
        self.console.print()
        self.console.print(table_panel(view, self.names, hand_heading(self.match, self.names)))
        self.console.print(Text.assemble(("Your hand", "bold"), (f" ({numbering_note(view)}):", "dim")))
        self.console.print(hand_lines(view, shown))

    def command(self, word: str, view: SeatView | None, shown: Sequence[Card]) -> None:
        if word in ("quit", "exit"):
            raise Leave("You left the game.", 0)
        if word in ("help", "?"):
            self.show_block(Text(HELP))
        elif word == "score":
            self.show_block(score_sheet(self.match, self.names))
        elif word == "rules":
            self.show_block(Text(rules_text(self.match)))
        elif view is not None and word in ("hand", "table"):
            self.show_table(view, shown)
        elif view is not None and word == "last":
            self.console.print(last_trick_text(view, self.names))
        elif view is not None and word == "hint":
            self.hint(view)

    def hint(self, view: SeatView) -> None:
        """The expert's top choices for the player's turn, recorded as a hint used."""
        if not self.hints:
            self.refuse(self.no_hints)
            return
        hand, step = len(self.match.results) + 1, len(self.match.hand.history)
        self.show_hint(hint_block(work_out(view, f"{self.match.seed}/hint/{hand}/{step}")))
        self.hints_used.setdefault(hand, []).append((step, view.seat))  # each hint given, as the server keeps them

    def ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            raise Leave("End of input: leaving the game.", 1) from None


def rules_text(match: Match) -> str:
    changed = match.game.rules.changed_options()
    if not changed:
        return f"{match.game.title} with the default rules (see: whist rules {match.game.name})."
    options = ", ".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                        for name, value in changed.items())
    return f"{match.game.title} with {options} (see: whist rules {match.game.name})."
