"""A real session in a terminal (pexpect), in the plain view (the scrolling log): wrong input, a whole
hand, end of input, Ctrl-C; three players without the clubs, at the terminal and in a checked record; and
the hint typed at the prompt (cli/hint.py), saved with the game, or refused with --no-hints.
The full-screen view has its own session tests in test_fullscreen.py."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect
import pytest

from israeli_whist.core.cards import parse_card
from israeli_whist.core.records import VERSION

WHIST = [sys.executable, "-m", "israeli_whist.cli"]  # the whist command, from this checkout

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a Unix terminal")

PROMPT = re.compile(r"(Your call|Your contract|Your bid|Your play|Choose [^(\r\n]*) \(legal: ([^)\r\n]*)\): ")
# A choice of the hint: the card or call, "best" beside the first, its points and their error.
CHOICE_ROW = re.compile(r"^\s*(\S+)\s+(?:best\s+)?(-?\d+\.\d)\s+±(\d+\.\d)\s*$", re.MULTILINE)
SHOWN_CARD = re.compile(r"\d+:((?:10|[2-9JQKA])[♣♦♥♠])")


def spawn(*args: str) -> tuple[pexpect.spawn, io.StringIO]:
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "120", "NO_COLOR": "1"}
    child = pexpect.spawn(sys.executable, ["-m", "israeli_whist.cli", "play", "--view", "plain", *args], env=env,
                          encoding="utf-8", timeout=60, dimensions=(50, 120))
    log = io.StringIO()
    child.logfile_read = log
    return child, log


def first_choice(legal: str) -> str:
    return legal.replace(",", " ").replace(";", " ").split()[0].split("-")[0]


def card_not_held(screen: str) -> str:
    held = {parse_card(name) for name in SHOWN_CARD.findall(screen.split("Your hand")[-1])}
    assert held, screen
    return next(f"{rank}{suit}" for suit in "SHDC" for rank in "AKQJ" if parse_card(f"{rank}{suit}") not in held)


def check_json(path: Path) -> dict[str, object]:
    done = subprocess.run([*WHIST, "check", str(path), "--json"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_a_hand_with_wrong_input_along_the_way(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    child, log = spawn("--seed", "3", "--hands", "1", "--save", str(path))
    mistakes = {
        "Your call": ("14S", "There are only 13 tricks: the highest level is 13"),
        "Your contract": ("20", "There are only 13 tricks: you cannot bid 20"),
        "Your play": ("banana", "Not a card: 'banana'"),
    }
    tried: set[str] = set()
    held_tried = False
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        kind, legal = child.match.group(1), child.match.group(2)
        if kind == "Your play" and not held_tried:
            held_tried = True
            child.sendline(card_not_held(child.before))
            child.expect("You don't hold the ")
        elif kind in mistakes and kind not in tried:
            tried.add(kind)
            text, message = mistakes[kind]
            child.sendline(text)
            child.expect_exact(message)
        else:
            child.sendline(first_choice(legal))
    child.close()
    output = log.getvalue()
    assert child.exitstatus == 0, output[-2000:]
    assert "Traceback" not in output
    assert tried == set(mistakes) and held_tried
    assert "Hand 1 is over" in output
    assert "Final scores" in output
    summary = check_json(path)
    assert summary["complete"] is True


def test_end_of_input_mid_game_leaves_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    child, log = spawn("--seed", "3", "--save", str(path))
    child.expect(PROMPT)
    child.sendline("pass")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("End of input")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "Traceback" not in log.getvalue()
    assert check_json(path)["complete"] is False


def test_ctrl_c_leaves_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "interrupted.json"
    child, log = spawn("--seed", "3", "--save", str(path))
    child.expect(PROMPT)
    child.sendintr()
    try:
        child.expect("Interrupted")
    except pexpect.TIMEOUT:
        # Seen twice under heavy load and never reproduced: say what the child was doing.
        pytest.fail(f"no answer to Ctrl-C; the child's threads: {thread_states(child.pid)}; "
                    f"its output: {log.getvalue()[-500:]!r}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in log.getvalue()
    assert check_json(path)["complete"] is False


def thread_states(pid: int) -> list[str]:
    """Each thread of ``pid``: where it waits, and its signals (pending, blocked, caught)."""
    tasks = Path(f"/proc/{pid}/task")
    if not tasks.is_dir():  # no /proc (macOS), or the child is gone
        return [f"no {tasks}"]
    states = []
    for task in sorted(tasks.iterdir()):
        fields = [line for line in (task / "status").read_text().splitlines()
                  if line.startswith(("State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt"))]
        states.append(f"{task.name} {(task / 'wchan').read_text()} " + " ".join(fields))
    return states


def run_check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*WHIST, "check", str(path)], capture_output=True, text=True,
                          check=False)


def test_the_terminal_offers_and_takes_no_clubs_bid() -> None:
    child, log = spawn("--players", "3", "--seed", "3", "--hands", "1")
    child.expect(PROMPT)
    assert child.match.group(1) == "Your call"
    legal = child.match.group(2)
    assert "C " not in legal + " " and "D and higher" in legal, legal
    child.sendline("13C")
    child.expect_exact("There are no clubs in this pack: clubs cannot be bid")
    child.expect(PROMPT)  # asked again, still at the trump auction
    assert child.match.group(1) == "Your call"
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in log.getvalue()


def record(call: str) -> dict[str, Any]:
    return {"format": "whist-record", "version": VERSION, "game": "israeli", "rules": {"form": "three_no_clubs"},
            "seed": 1, "first_dealer": 0, "players": ["Ann", "Ben", "Dan"],
            "hands": [{"number": 1, "dealer": 0, "actions": [[1, call]]}]}


def test_whist_check_refuses_a_clubs_bid(tmp_path: Path) -> None:
    path = tmp_path / "clubs.json"
    path.write_text(json.dumps(record("5C")))
    done = run_check(path)
    assert done.returncode == 1
    assert "Hand 1, action 1, seat 1" in done.stderr and "no clubs in this pack" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    path.write_text(json.dumps(record("5D")))
    assert run_check(path).returncode == 0


def test_a_hint_typed_in_the_play_is_shown_and_saved(tmp_path: Path) -> None:
    path = tmp_path / "hinted.json"
    child, log = spawn("--seed", "3", "--hands", "1", "--save", str(path))
    hinted = 0
    while child.expect([PROMPT, pexpect.EOF]) == 0:
        kind, legal = child.match.group(1), child.match.group(2)
        if kind == "Your play" and hinted < 2:  # twice in the play: two hints used
            hinted += 1
            child.sendline("hint")
            child.expect_exact("Hint: the expert's choices")
            child.expect(PROMPT)  # the question again, after the hint
            shown = child.before
            rows = CHOICE_ROW.findall(shown)
            assert 1 <= len(rows) <= 3, shown
            values = [float(value) for _, value, _ in rows]
            assert values == sorted(values, reverse=True), shown  # best first
            assert "best" in shown and "deals drawn to fit what you have seen" in shown
            assert all(choice in legal.replace(",", " ").split() or choice[-1] in "♣♦♥♠" for choice, _, _ in rows)
            assert re.search(r"takes a trick for sure|is a safe discard|trumps? (is|are) still out|No trumps", shown)
            legal = child.match.group(2)
        child.sendline(first_choice(legal))
    child.close()
    assert child.exitstatus == 0, log.getvalue()[-2000:]
    assert "Traceback" not in log.getvalue()
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["version"] == 2 and len(record["hands"][0]["hints"]) == 2
    assert all(seat == 0 for _, seat in record["hands"][0]["hints"])
    assert check_json(path)["complete"] is True


def test_no_hints_refuses_and_saves_a_record_as_before(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    child, log = spawn("--seed", "3", "--hands", "1", "--no-hints", "--save", str(path))
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect_exact("Hints are off in this game (whist play --no-hints).")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Hint: the expert's choices" not in log.getvalue()
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == 1
