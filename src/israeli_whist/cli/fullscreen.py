"""The full-screen view of ``whist play``: a card table (Textual) in front of the same game.

The game itself is ``TerminalGame`` (bots through ``bots.matches.runner.play_match``, the same inputs and
commands, the same saving); it runs in a worker thread and this view only changes where its words
go: the table is redrawn after every action, the narration goes to a log beside it, blocks (the
hand's summary, the score sheet, help) go to the board or an overlay, and each question is asked
at the input line at the bottom. The bots' actions come one by one, ``delay`` seconds apart.
"""

from __future__ import annotations

import contextlib
import io
import queue
import threading
from collections import deque
from collections.abc import Sequence
from typing import ClassVar

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widgets import Footer, Header, Input, RichLog, Static

from israeli_whist.cli.play import HELP, TerminalGame, rules_text
from israeli_whist.cli.scores import hand_heading, score_sheet
from israeli_whist.cli.session import Seats
from israeli_whist.cli.table import display_order, hand_lines, last_trick_text, numbering_note
from israeli_whist.cli.tablelayout import auction_panel, board
from israeli_whist.core.actions import Action
from israeli_whist.core.cards import Card
from israeli_whist.core.match import Match
from israeli_whist.core.views import SeatView, seat_view

# What the keys put in the answer queue instead of a line: leaving as Ctrl-C and as Ctrl-D do.
INTERRUPT, END_OF_INPUT = object(), object()
KEYS = """

Keys: F1 help, F2 the score sheet (every player's column and total; the arrows
scroll a long one), F3 the last trick, F4 a hint at your turn, Ctrl-C leave.
Your hand stays in view below the table, whatever the terminal's size."""
# Terminal rows under which the seats are drawn in three lines: about ten go to the hand, the
# question, the input line, the header and the footer, and the five-line seats need twenty more.
COMPACT_BELOW = 30
LOG_KEPT = 2000  # lines of the log kept to wrap again when the terminal changes size (a game tells fewer)


class LogFile(io.StringIO):
    """A file for a rich Console whose every print becomes a line of the view's log."""

    def __init__(self, app: TableApp) -> None:
        super().__init__()
        self.app = app

    def write(self, text: str) -> int:
        if text:
            self.app.call_from_thread(self.app.log_line, Text.from_ansi(text.rstrip("\n")))
        return len(text)


class TableLog(RichLog):
    """The log beside the table: each entry wrapped at its spaces, the lines after its first indented so
    that it reads as one, and wrapped again when its width changes (a RichLog keeps its lines as first
    wrapped, cut once the terminal is narrower). The console that writes here does not wrap."""

    def __init__(self, *, id: str) -> None:
        super().__init__(id=id, wrap=True, min_width=20)
        self.entries: deque[Text] = deque(maxlen=LOG_KEPT)
        self.wrapped_at = 0  # the width the lines shown were wrapped at; 0 before the log is laid out

    def add(self, line: Text) -> None:
        self.entries.append(line)
        if self.wrapped_at:
            self.put(line)

    def put(self, line: Text) -> None:
        for entry in line.split("\n"):
            rows = entry.wrap(self.app.console, self.wrapped_at - 2)
            self.write(Text("\n  ").join(rows) if rows else Text(""))

    def on_resize(self, event: Resize) -> None:  # RichLog's own handler runs after this one
        width = max(self.scrollable_content_region.width, self.min_width)
        if self.scrollable_content_region.width and width != self.wrapped_at:
            self.wrapped_at = width
            self.clear()
            for line in self.entries:
                self.put(line)


class Overlay(ModalScreen[None]):
    """A block over the table (the score sheet, help, rules) until Escape, Enter or q; scrolled to
    its end (the score sheet's totals) when it is taller than the screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q,f1,f2", "app.pop_screen", "Close"),
    ]
    DEFAULT_CSS = """
    Overlay { align: center middle; }
    Overlay > Vertical { width: auto; height: auto; border: round $accent; background: $surface; padding: 0 1; }
    Overlay VerticalScroll { width: auto; height: auto; }
    Overlay Static { width: auto; }
    """

    def __init__(self, block: RenderableType) -> None:
        super().__init__()
        self.block = block

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Static(self.block, id="block")
            yield Static(Text("Escape or Enter: back to the table; arrows scroll", style="dim"))

    def on_mount(self) -> None:
        # Sized here from the block's own measure: Textual's width: auto took the hint's width for
        # a rich Table, cutting the score sheet after two players. Wider than the screen, the
        # table is given the screen and condenses its columns.
        console = self.app.console
        room = self.app.size
        natural = Measurement.get(console, console.options.update_width(room.width), self.block).maximum
        self.query_one("#block", Static).styles.width = min(natural, room.width - 4)
        scroll = self.query_one(VerticalScroll)
        scroll.styles.max_height = max(room.height - 4, 3)  # the border and the hint below it
        scroll.scroll_end(animate=False, immediate=False)


class TableApp(App[int]):
    """The screen; ``read`` and ``pause`` are called from the game's thread, the rest on the screen's."""

    TITLE = "whist"
    # The hand, the question and the input line take the rows they need, whatever the terminal's
    # size; the table, the auction and the log share what is left (80x24 is the size to fit).
    CSS = """
    #main { height: 1fr; }
    #table-side { width: 2fr; }
    #board { height: auto; border: round $primary; padding: 0 1; }
    #hand { height: auto; padding: 0 1; }
    #side { width: 1fr; min-width: 26; }
    #auction-side { height: auto; max-height: 60%; }
    #auction { height: auto; }
    #log { height: 1fr; min-height: 3; border: round $secondary; }
    #prompt { height: auto; padding: 0 1; }
    #answer { height: 1; border: none; padding: 0 1; background: $boost; }
    #table-side, #auction-side { scrollbar-size-vertical: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "show_help", "Help"),
        Binding("f2", "show_score", "Score sheet"),
        Binding("f3", "show_last", "Last trick"),
        Binding("f4", "hint", "Hint"),
        Binding("ctrl+c,ctrl+q", "leave", "Leave", priority=True),
        Binding("ctrl+d", "end_of_input", "Leave", show=False, priority=True),
    ]

    def __init__(self, game: TableGame) -> None:
        super().__init__()
        self.game = game
        self.answers: queue.Queue[str | object] = queue.Queue()
        self.leaving = threading.Event()
        self.asking = False
        self.drawn: tuple[SeatView, Sequence[str]] | None = None  # the last table drawn, again on a resize

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with VerticalScroll(id="table-side"):
                yield Static(id="board")
            with Vertical(id="side"):
                with VerticalScroll(id="auction-side"):
                    yield Static(id="auction")
                yield TableLog(id="log")
        yield Static(id="hand")
        yield Static(id="prompt")
        yield Input(id="answer", placeholder="a card (QH, 10c, 3), a call (pass, 5S), a number; help")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#answer", Input).focus()
        self.run_worker(self.play, thread=True, exit_on_error=True)

    def play(self) -> None:
        self.call_from_thread(self.exit, self.game.run())

    # Called from the game's thread -------------------------------------------------------

    def read(self, prompt: str) -> str:
        self.call_from_thread(self.ask, prompt)
        answer = self.answers.get()
        if answer is INTERRUPT:
            raise KeyboardInterrupt
        if answer is END_OF_INPUT:
            raise EOFError
        assert isinstance(answer, str)
        return answer

    def pause(self, seconds: float) -> None:
        """Wait between the bots' actions; a player who leaves meanwhile leaves at once."""
        if self.leaving.wait(seconds):
            raise KeyboardInterrupt

    # On the screen's thread --------------------------------------------------------------

    def ask(self, prompt: str) -> None:
        self.query_one("#prompt", Static).update(Text(prompt, style="bold"))
        self.asking = True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if not self.asking:
            self.notify("Wait for your turn: the bots are playing.")
            return
        self.asking = False
        self.query_one("#prompt", Static).update("")
        event.input.clear()
        self.answers.put(event.value)

    def draw(self, view: SeatView, names: Sequence[str], heading: str) -> None:
        self.drawn = (view, names)
        self.sub_title = heading
        compact = self.size.height < COMPACT_BELOW  # an 80x24 terminal: the seats take three lines, not five
        self.query_one("#board", Static).update(board(view, names, compact))
        self.query_one("#auction", Static).update(auction_panel(view, names))
        self.scroll_to_end("#auction-side")
        hand = self.query_one("#hand", Static)
        hand.display = view.seat >= 0 and view.hand != 0  # the table takes the room of an empty hand
        if hand.display:
            shown: list[Card] = display_order(view)
            hand.update(Group(Text.assemble(("Your hand", "bold"), (f" ({numbering_note(view)})", "dim")),
                              hand_lines(view, shown)))

    def on_resize(self) -> None:
        if self.drawn is not None:  # the board's compact form depends on the room it has
            self.call_after_refresh(self.draw, *self.drawn, self.sub_title)  # once the app has its new size

    def show_under_table(self, block: RenderableType) -> None:
        """``block`` on the board under the table, which stays in view (a hint)."""
        if self.drawn is not None:
            view, names = self.drawn
            self.query_one("#board", Static).update(Group(board(view, names, self.size.height < COMPACT_BELOW), block))

    def show_on_board(self, blocks: Sequence[RenderableType]) -> None:
        self.query_one("#board", Static).update(Group(*blocks))
        self.scroll_to_end("#table-side")  # the final scores below the last hand's summary

    def scroll_to_end(self, selector: str) -> None:
        """Once what was just put there is laid out: the newest calls, the final scores."""
        scroll = self.query_one(selector, VerticalScroll)
        self.call_after_refresh(scroll.scroll_end, animate=False)

    def log_line(self, line: Text) -> None:
        self.query_one("#log", TableLog).add(line)

    def action_show_help(self) -> None:
        self.push_screen(Overlay(Text(HELP + KEYS)))

    def action_show_score(self) -> None:
        self.push_screen(Overlay(score_sheet(self.game.match, self.game.names)))

    def action_show_last(self) -> None:
        view = seat_view(self.game.match.hand, self.game.seats.human)
        self.push_screen(Overlay(last_trick_text(view, self.game.names)))

    def action_hint(self) -> None:
        """A hint, as if ``hint`` were typed: the game's thread works it out and shows it on the board."""
        if not self.asking:
            self.notify("A hint is for your turn: the bots are playing.")
            return
        self.asking = False
        self.answers.put("hint")

    def action_leave(self) -> None:
        self.leave(INTERRUPT)

    def action_end_of_input(self) -> None:
        self.leave(END_OF_INPUT)

    def leave(self, how: object) -> None:
        self.leaving.set()
        self.answers.put(how)


class TableGame(TerminalGame):
    """``TerminalGame`` with its table, words and questions on the full-screen view."""

    def __init__(self, match: Match, seats: Seats, delay: float, hints: bool = True,
                 no_hints: str | None = None) -> None:
        self.app = TableApp(self)
        # Wide enough never to wrap: the log wraps each entry to its own width (LogFile, log_line).
        console = Console(file=LogFile(self.app), width=1000, force_terminal=True, color_system="standard")
        # saved by run_full_screen, after the view
        super().__init__(match, seats, console, self.app.read, None, hints, no_hints)
        self.delay = delay
        self.blocks: list[RenderableType] = []  # shown on the board together, until the table is drawn again

    def run(self) -> int:
        code = super().run()
        if not self.farewell:  # the last scores stay on the board until the player has read them
            with contextlib.suppress(EOFError, KeyboardInterrupt):
                self.read("The game is over. Press Enter to leave: ")
        return code

    def draw(self, view: SeatView, heading: str = "") -> None:
        self.blocks = []
        match = self.match
        heading = heading or (f"{match.game.title} · the game is over" if match.over
                              else hand_heading(match, self.names))
        self.app.call_from_thread(self.app.draw, view, self.names, heading)

    def refuse(self, message: str) -> None:
        super().refuse(message)  # in the log, and beside the input line where the eyes are
        self.app.call_from_thread(self.app.notify, message, severity="error")

    def show_table(self, view: SeatView, shown: Sequence[Card]) -> None:
        self.draw(view)

    def tell(self, seat: int, action: Action, after: Match) -> None:
        hands = len(self.match.results)
        super().tell(seat, action, after)
        if len(self.match.results) == hands:  # the end of a hand is drawn by end_of_hand
            self.draw(seat_view(self.match.hand, self.seats.human))
            if seat != self.seats.human:
                self.app.pause(self.delay)

    def end_of_hand(self, view: SeatView) -> None:
        # The last trick, before the summary takes the board (the match already counts the next hand).
        self.draw(view, f"{self.match.game.title} · hand {self.match.results[-1].number} is over")
        self.app.pause(self.delay)
        super().end_of_hand(view)

    def show_block(self, block: RenderableType) -> None:
        """On the board, below what it shows already: the last hand's summary stays above the final scores."""
        self.blocks.append(block)
        self.app.call_from_thread(self.app.show_on_board, list(self.blocks))

    def show_hint(self, block: RenderableType) -> None:
        """Under the table, until it is drawn again (the player's move)."""
        self.app.call_from_thread(self.app.show_under_table, block)

    def announce_hand(self) -> None:
        self.console.print(Text(hand_heading(self.match, self.names), style="bold"))
        self.draw(seat_view(self.match.hand, self.seats.human))

    def command(self, word: str, view: SeatView | None, shown: Sequence[Card]) -> None:
        if word in ("help", "?"):
            self.app.call_from_thread(self.app.action_show_help)
        elif word == "score":
            self.app.call_from_thread(self.app.action_show_score)
        elif word == "rules":
            self.app.call_from_thread(self.app.push_screen, Overlay(Text(rules_text(self.match))))
        else:
            super().command(word, view, shown)


def run_full_screen(match: Match, seats: Seats, delay: float, hints: bool = True,
                    no_hints: str | None = None) -> tuple[TableGame, int]:
    """Play in the full-screen view. The game as it ended and the exit code are returned, so that the
    caller tells the end and saves the record on the terminal's own screen, where it stays."""
    game = TableGame(match, seats, delay, hints, no_hints)
    code = game.app.run()
    return game, 1 if code is None else code
