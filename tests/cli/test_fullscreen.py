"""A real session in the full-screen view: ``whist play`` in a pseudo-terminal (pexpect), its screen
read through a terminal emulator (pyte), played by reading the prompt and typing as a person does;
at the common terminal sizes (80x24 and 120x40) the whole hand and the whole score sheet in view; the
hint at F4 (cli/hint.py), saved with the game, or refused with --no-hints; and an event's board
(``whist event play``) at the same table."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pyte
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a Unix terminal")

ROWS, COLUMNS = 45, 130
SIZES = [(24, 80), (40, 120)]  # (rows, columns): most terminals' default, and a roomier one
# The question, which may wrap at 80 columns (the legal cards are then read across the break).
PROMPT = re.compile(r"(Your call|Your contract|Your bid|Your play|Choose [^(\n]*) \(legal: ([^)]*)\): *$",
                    re.MULTILINE)
GAME_OVER = "The game is over. Press Enter to leave"
NEXT_HAND = "Press Enter for the next hand"
HAND_CARD = re.compile(r"\b(\d+):((?:10|[2-9JQKA])[♣♦♥♠])")  # a card of the hand with its number: 6:10♣
TYPED = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


class Terminal:
    """``whist play`` on a screen of ROWS x COLUMNS (or ``size``), as a person sees it."""

    def __init__(self, *args: str, size: tuple[int, int] = (ROWS, COLUMNS), command: tuple[str, ...] = ("play",)
                 ) -> None:
        rows, columns = size
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES", "NO_COLOR")}
        env["TERM"] = "xterm-256color"
        self.child = pexpect.spawn(sys.executable, ["-m", "israeli_whist.cli", *command, *args], env=env,
                                   dimensions=(rows, columns), timeout=60)
        self.output = bytearray()

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def read(self) -> None:
        try:
            data = self.child.read_nonblocking(65536, timeout=0.1)
        except pexpect.TIMEOUT:
            return
        self.output += data
        self.stream.feed(data)

    def wait_for(self, found: re.Pattern[str] | str, seconds: float = 60) -> re.Match[str] | None:
        """The first match on the screen, waiting for it; None for a plain string found."""
        deadline = time.monotonic() + seconds
        while True:
            if isinstance(found, str):
                if found in self.text:
                    return None
            elif (match := found.search(self.text)) is not None:
                return match
            if time.monotonic() > deadline:
                raise AssertionError(f"{found!r} not on the screen:\n{self.text}")
            try:
                self.read()
            except pexpect.EOF:
                raise AssertionError(f"The game ended before {found!r}:\n{self.text}") from None

    def type(self, line: str) -> None:
        self.child.send(line + "\r")

    def finish(self) -> int:
        while True:
            try:
                self.read()
            except pexpect.EOF:
                break
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)


def first_choice(legal: str) -> str:
    return legal.replace(",", " ").replace(";", " ").split()[0].split("-")[0]


def prompt_or_end(terminal: Terminal) -> re.Match[str] | None:
    """The question on the screen now, or None once the game is over."""
    deadline = time.monotonic() + 60
    while GAME_OVER not in terminal.text:
        match = PROMPT.search(terminal.text)
        if match:
            return match
        assert time.monotonic() < deadline, terminal.text
        terminal.read()
    return None


def test_a_whole_hand_at_the_card_table(tmp_path: Path) -> None:
    """The default in a terminal is the card table; a hand is played to the end and the record saved."""
    path = tmp_path / "table.json"
    terminal = Terminal("--seed", "3", "--hands", "1", "--delay", "0", "--save", str(path))
    terminal.wait_for(PROMPT)
    terminal.type("14S")  # refused, said on the screen, and asked again
    terminal.wait_for("There are only 13 tricks: the highest level is 13")
    seen: set[str] = set()
    asked = ""
    while (match := prompt_or_end(terminal)) is not None:
        if match.group(0) == asked:  # the answer is not taken yet: the screen still shows the last question
            terminal.read()
            continue
        asked = match.group(0)
        seen.add(match.group(1).split()[0])
        screen = terminal.text
        # The table: the seats by name, the player's numbered cards at the bottom, the auction beside.
        assert "Your hand" in screen and "Bot 2" in screen and "Bot 4" in screen  # bots named by seat, as on the web
        assert "Auction and contracts" in screen
        assert HAND_CARD.search(screen), screen
        terminal.type(first_choice(match.group(2)))
    assert {"Your", "Choose"} & seen
    screen = terminal.text
    assert "Hand 1 is over" in screen
    assert "Final scores" in screen and ("Winner" in screen or "Shared first place" in screen)
    terminal.type("")
    assert terminal.finish() == 0
    after = terminal.output.decode("utf-8", "replace")
    assert "Traceback" not in after
    assert f"Saved the game to {path}" in after  # said on the terminal's own screen, after the table
    record = json.loads(path.read_text())
    assert len(record["hands"]) == 1


def test_the_score_sheet_is_a_key_away_and_ctrl_c_leaves() -> None:
    terminal = Terminal("--seed", "3", "--delay", "0", "--view", "table")
    terminal.wait_for(PROMPT)
    terminal.child.send("\x1bOQ")  # F2
    terminal.wait_for("Score sheet")
    terminal.wait_for("Escape or Enter: back to the table")
    terminal.type("")  # Enter closes it (a lone Escape waits to see whether a key sequence follows)
    terminal.wait_for(re.compile(r"^(?![\s\S]*Escape or Enter)"))
    terminal.type("help")  # a typed command opens the same overlay as F1
    terminal.wait_for("leave the game (saved first if you gave --save)")
    terminal.child.send("\x03")
    assert terminal.finish() == 130
    assert "Interrupted: leaving the game." in terminal.output.decode("utf-8", "replace")


def test_a_pipe_gets_the_plain_log() -> None:
    done = subprocess.run([sys.executable, "-m", "israeli_whist.cli", "play", "--seed", "3", "--hands", "1"],
                          input="quit\n", capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert "Your call (legal: " in done.stdout and "You left the game." in done.stdout
    assert "\x1b[?1049h" not in done.stdout + done.stderr  # no switch to the full screen


def test_quit_leaves_and_saves_the_unfinished_game(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    terminal = Terminal("--seed", "3", "--delay", "0", "--view", "table", "--save", str(path))
    terminal.wait_for(PROMPT)
    terminal.type("quit")
    assert terminal.finish() == 0
    after = terminal.output.decode("utf-8", "replace")
    assert "You left the game." in after and "(unfinished;" in after
    assert json.loads(path.read_text())["hands"]


def test_watching_the_bots_at_the_card_table() -> None:
    terminal = Terminal("--watch", "--seed", "5", "--hands", "1", "--delay", "0")
    terminal.wait_for(GAME_OVER)
    screen = terminal.text
    assert "Hand 1 is over" in screen and "Final scores" in screen and "As dealt" in screen
    assert "Your hand" not in screen  # seen from no seat
    terminal.type("")
    assert terminal.finish() == 0


def typed_as_shown(typed: str) -> str:
    """``10C`` as the screen shows it: ``10♣``."""
    return typed[:-1] + TYPED[typed[-1]]


def answer(kind: str, legal: str, frisch_seen: bool) -> str:
    """Pass the trump auction until a Frisch has been played, then bid the lowest bid, so that the
    hand goes through every phase: the auction, a Frisch, the contracts and the play."""
    if kind == "Your call":
        lowest = re.search(r"or (\S+) and higher", legal)
        return lowest.group(1) if frisch_seen and lowest else "pass"
    return first_choice(legal)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
def test_every_card_of_the_hand_is_in_view_in_every_phase(size: tuple[int, int]) -> None:
    """At 80x24 and 120x40, at each question the whole hand is on the screen with its numbers: 13 cards
    in the auction, the Frisch and the contracts, one fewer after each card played; the legal cards are
    among them; and in the play a card's number stays the same from trick to trick."""
    terminal = Terminal("--seed", "8", "--hands", "1", "--delay", "0", size=size)
    phases: set[str] = set()
    plays = 0
    numbers: dict[str, str] = {}  # card -> its number, in the play
    asked = ""
    while (match := prompt_or_end(terminal)) is not None:
        if match.group(0) == asked:  # the answer is not taken yet: the screen still shows the last question
            terminal.read()
            continue
        asked = match.group(0)
        kind, legal = match.group(1), " ".join(match.group(2).split())
        phase = kind.split()[0] if kind.startswith("Choose") else kind
        phases.add(phase)
        screen = terminal.text
        hand = HAND_CARD.findall(screen)
        cards = [card for _number, card in hand]
        held = 13 - plays if phase == "Your play" else 13
        assert len(cards) == len(set(cards)) == held, (phase, held, screen)
        assert len({number for number, _card in hand}) == held, screen
        if phase in ("Choose", "Your play"):
            assert {typed_as_shown(card) for card in legal.split()} <= set(cards), (legal, screen)
        if phase == "Your play":
            for number, card in hand:
                assert numbers.setdefault(card, number) == number, f"{card} was {numbers[card]}, now {number}"
            plays += 1
        terminal.type(answer(phase, legal, "Choose" in phases))
    assert phases == {"Your call", "Choose", "Your contract", "Your play"}, phases
    assert plays == 13
    terminal.type("")
    assert terminal.finish() == 0


def total_cells(screen: str) -> list[str]:
    """The cells of the score sheet's Total row, up to the overlay's border."""
    row = next(line for line in screen.splitlines() if re.search(r" Total +│ +│", line))  # the dealer cell is empty
    return [cell.strip() for cell in row.split(" Total ", 1)[1].split("│")[2:]]


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[1]}x{size[0]}")
def test_f2_shows_every_players_total(size: tuple[int, int]) -> None:
    """After a hand, F2 shows the score sheet with a column for each of the four players and the
    total of each (80 columns and 120 cut it after two and a half players)."""
    terminal = Terminal("--seed", "3", "--hands", "2", "--delay", "0", "--name", "Noa", size=size)
    asked = ""
    while NEXT_HAND not in terminal.text:
        match = terminal.wait_for(re.compile(PROMPT.pattern + "|" + NEXT_HAND, re.MULTILINE))
        if match is None or match.group(1) is None or match.group(0) == asked:
            terminal.read()
            continue
        asked = match.group(0)
        terminal.type(first_choice(match.group(2)))
    terminal.child.send("\x1bOQ")  # F2
    terminal.wait_for("Escape or Enter: back to the table")
    screen = terminal.text
    header = next(line for line in screen.splitlines() if "Hand" in line and "Dealer" in line)
    for name in ("Noa", "Bot 2", "Bot 3", "Bot 4"):
        assert name in header, screen
    totals = total_cells(screen)[:4]
    assert len(totals) == 4 and all(re.fullmatch(r"[+-]?\d+", total) for total in totals), screen
    assert any(total != "0" for total in totals), screen  # a hand was scored
    terminal.child.send("\x03")
    assert terminal.finish() == 130


def test_a_terminal_made_smaller_keeps_the_hand_whole_and_wraps_the_log_again() -> None:
    """From 120x40 to 80x24 during a game: the seats go compact, the whole hand stays in view, and the
    log's lines are wrapped again at the new width (they were cut: "Type help at any prompt" lost "for the")."""
    terminal = Terminal("--seed", "3", "--delay", "0", size=(40, 120))
    terminal.wait_for(PROMPT)
    terminal.child.setwinsize(24, 80)
    terminal.screen.resize(24, 80)
    terminal.wait_for("You · dealer")  # the compact seat: its tags on the name's line
    terminal.wait_for(re.compile(r"Type help at any\s.*prompt\s.*for the\s.*commands\.", re.DOTALL), seconds=10)
    terminal.wait_for(PROMPT)
    screen = terminal.text
    assert len(set(HAND_CARD.findall(screen))) == 13, screen
    terminal.child.send("\x03")
    assert terminal.finish() == 130


F4 = "\x1bOS"


def test_f4_shows_the_hint_at_the_card_table(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    terminal = Terminal("--seed", "3", "--delay", "0", "--view", "table", "--hands", "1", "--save", str(path))
    terminal.wait_for(PROMPT)
    terminal.wait_for("f4 Hint")  # the footer names the key (it may be drawn after the prompt)
    terminal.child.send(F4)
    terminal.wait_for(re.compile(r"Hint: (the expert's choices|nothing here needs weighing)"))
    terminal.wait_for(PROMPT)  # asked again, the hint on the board above
    terminal.type("quit")
    assert terminal.finish() == 0
    record = json.loads(path.read_text(encoding="utf-8"))
    hand = record["hands"][0]  # left at the prompt where the hint was asked: after every action saved
    assert record["version"] == 2 and hand["hints"] == [[len(hand["actions"]), 0]]
    checked = subprocess.run([sys.executable, "-m", "israeli_whist.cli", "check", str(path)], capture_output=True,
                             text=True, check=False)
    assert checked.returncode == 0 and "valid record" in checked.stdout, checked.stdout + checked.stderr


def test_f4_at_a_table_without_hints_says_so() -> None:
    terminal = Terminal("--seed", "3", "--delay", "0", "--view", "table", "--no-hints")
    terminal.wait_for(PROMPT)
    terminal.child.send(F4)
    terminal.wait_for("Hints are off in this game")
    terminal.child.send("\x03")
    assert terminal.finish() == 130


def test_an_event_board_at_the_card_table(tmp_path: Path) -> None:
    """``whist event play`` in a terminal: the board at the card table, no hint at F4, the result in
    the file once the board is over, and the board's field on the terminal's own screen after it."""
    path = tmp_path / "club.json"
    subprocess.run([sys.executable, "-m", "israeli_whist.cli", "event", "create", str(path), "--seed", "club",
                    "--boards", "2"], check=True, capture_output=True)
    terminal = Terminal(str(path), "--player", "Ann", "--board", "2", "--delay", "0",
                        command=("event", "play"))
    terminal.wait_for(PROMPT)
    terminal.wait_for("Your hand")
    terminal.child.send(F4)
    terminal.wait_for("Hints are off on an event's boards")
    asked = ""
    while (match := prompt_or_end(terminal)) is not None:
        if match.group(0) == asked:
            terminal.read()
            continue
        asked = match.group(0)
        terminal.type(first_choice(match.group(2)))
    assert "Hand 1 is over" in terminal.text
    terminal.type("")
    assert terminal.finish() == 0
    after = terminal.output.decode("utf-8", "replace")
    assert "Traceback" not in after and "Board 2 recorded for Ann." in after and "club: board 2" in after
    results = json.loads(path.read_text(encoding="utf-8"))["results"]
    assert [(r["player"], r["board"]) for r in results] == [("Ann", 2)]


def test_ctrl_c_at_an_event_board_records_nothing(tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    subprocess.run([sys.executable, "-m", "israeli_whist.cli", "event", "create", str(path), "--seed", "club"],
                   check=True, capture_output=True)
    before = path.read_bytes()
    terminal = Terminal(str(path), "--player", "Ann", "--view", "table", command=("event", "play"))
    terminal.wait_for(PROMPT)
    terminal.child.send("\x03")
    assert terminal.finish() == 130
    assert "Board 1 is not recorded: Ann may play it again." in terminal.output.decode("utf-8", "replace")
    assert path.read_bytes() == before
