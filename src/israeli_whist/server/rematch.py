"""Play again: a finished table's people start a new game together, same seats and rules, new deal.

Over the finished table's socket (``docs/server-protocol.md``, "Play again"):

- ``{"type": "rematch", "do": "accept"}`` from a seated person asks for the new game, or accepts
  the one asked for. Bots accept at once; a person not at the table when it is asked (no
  connection) counts as gone until they open it again. Once every person has accepted, the new
  table is made with the same game, rules, seats and privacy, a new seed, each person in their
  seat, and every connection is told its id.
- ``{"do": "decline"}`` says no (a person may change their mind until the game starts); a person
  whose last connection closes while the question is open has gone.
- ``{"do": "start"}``, from a person who accepted, once someone declined or went: the new game
  starts at once, the stand-in bot (``standin.STAND_IN_LEVEL``) in the seat of each person who
  has not accepted. The others may instead go back to the lobby: the pages offer both.

After every change each connection of the finished table gets the question as it stands
(``message``), and a connection that opens while it is open gets it too. A finished game gives at
most one new table, so the socket cannot be used to make tables without end. The question lives
in the memory of the node the connections are on, and a restart forgets it: in a cluster each node
asks the people connected to it (a finished table is rebuilt on every node that shows it).
"""

from __future__ import annotations

import asyncio
import enum
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from israeli_whist.server.hub import Hub, TableRequest, TableRequestError
from israeli_whist.server.live import ActionRefused, LiveTable, Send
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.standin import STAND_IN_LEVEL

log = logging.getLogger("whist.server")


class Answer(enum.StrEnum):
    """Where a seat stands on the new game; the value is what the client reads."""

    BOT = "bot"  # a bot's seat, or a person's that nobody took (the stand-in played it): yes at once
    ACCEPTED = "accepted"
    WAITING = "waiting"  # a person at the table who has not answered
    DECLINED = "declined"
    LEFT = "left"  # a person not at the table (no connection) who has not accepted


@dataclass
class Question:
    asked_by: int  # the seat that asked first
    answers: list[Answer]
    next_table: str | None = None  # the new table, once started

    def ready(self) -> bool:
        return all(answer in (Answer.BOT, Answer.ACCEPTED) for answer in self.answers)


class Rematches:
    """The open questions of every finished table of one node, by table id."""

    def __init__(self, hub: Hub, max_open_tables: int | None) -> None:
        self.hub = hub
        self.max_open_tables = max_open_tables
        self.questions: dict[str, Question] = {}
        self.telling: set[asyncio.Task[None]] = set()  # the news of a person gone, on its way

    async def handle(self, table: LiveTable, seat: int, message: dict[str, Any]) -> dict[str, Any] | None:
        """Carry out one rematch message from ``seat``, and tell everyone; raises ``ActionRefused``
        with the reason. Returns the question for the sender alone where nothing changed."""
        verb = message.get("do")
        if not isinstance(verb, str) or verb not in ("accept", "decline", "start"):
            raise ActionRefused(Refusal.MALFORMED, "'rematch' needs 'do': 'accept', 'decline' or 'start'")
        if not table.match.over:
            raise ActionRefused(Refusal.STILL_PLAYING, "The game is still being played")
        if seat < 0:
            raise ActionRefused(Refusal.SPECTATOR, "Spectators watch; only the players start a new game")
        question = self.questions.get(table.id)
        if question is not None and question.next_table is not None:
            if verb == "accept":  # the page missed the start (a reconnect): told again
                return told(table, question, seat)
            raise ActionRefused(Refusal.REMATCH_STARTED, "The new game has already started")
        if verb == "accept":
            if question is None:
                question = self.questions[table.id] = self.ask(table, seat)
            question.answers[seat] = Answer.ACCEPTED
            if question.ready():
                try:
                    self.start(table, question)
                except ActionRefused:  # not started, but accepted: the others see it
                    await self.tell(table, question)
                    raise
        elif question is None:
            raise ActionRefused(Refusal.NO_REMATCH, "Nobody has asked for a new game")
        elif verb == "decline":
            question.answers[seat] = Answer.DECLINED
        else:
            self.start_without_others(table, question, seat)
        await self.tell(table, question)
        return None

    @staticmethod
    def ask(table: LiveTable, seat: int) -> Question:
        answers = [Answer.BOT if s.is_bot or s.user_id is None
                   else Answer.WAITING if s.connections else Answer.LEFT for s in table.seats]
        return Question(seat, answers)

    def start_without_others(self, table: LiveTable, question: Question, seat: int) -> None:
        if question.answers[seat] != Answer.ACCEPTED:
            raise ActionRefused(Refusal.NO_REMATCH, "Accept the new game before you start it")
        if not any(answer in (Answer.DECLINED, Answer.LEFT) for answer in question.answers):
            raise ActionRefused(Refusal.REMATCH_UNDECIDED,
                                "Everyone is still to answer: a bot takes a seat only once its player declined or left")
        self.start(table, question)

    def start(self, table: LiveTable, question: Question) -> None:
        """The new table, each person who accepted in their seat, a bot in every other person's."""
        old = table.row
        seats: list[dict[str, Any]] = []
        for seat, answer in zip(table.seats, question.answers, strict=True):
            if seat.is_bot:
                seats.append({"kind": "bot", "level": seat.bot_level})
            elif answer == Answer.ACCEPTED:
                seats.append({"kind": "human"})
            else:
                seats.append({"kind": "bot", "level": STAND_IN_LEVEL})
        # The new table is made by the one who asked, or by the first who accepted if they went.
        accepted = [s for s, a in zip(table.seats, question.answers, strict=True) if a == Answer.ACCEPTED]
        asker = table.seats[question.asked_by]
        maker = asker if question.answers[asker.number] == Answer.ACCEPTED else accepted[0]
        assert maker.user_id is not None  # a person's accepted seat: taken
        if self.max_open_tables is not None and self.hub.open_tables_of(maker.user_id) >= self.max_open_tables:
            raise ActionRefused(Refusal.TOO_MANY_TABLES, f"{maker.name} has {self.max_open_tables} unfinished tables, "
                                                         "the most one player may have: finish a game first")
        request = TableRequest(old.game, old.preset, dict(old.options), seats, old.public, old.move_timer,
                               hints=old.hints)  # a practice table stays one
        try:
            new = self.hub.create(request, maker.user_id)
            for seat, answer in zip(table.seats, question.answers, strict=True):
                if answer == Answer.ACCEPTED and seat.user_id is not None:
                    new.take_seat(seat.number, seat.user_id, seat.name)
        except (TableRequestError, ActionRefused) as error:  # the rules and seats of a game just played: not expected
            log.exception("table %s: the new game could not be made", table.id)
            raise ActionRefused(Refusal.UNAVAILABLE, f"The new game could not be made: {error}") from None
        except SQLAlchemyError:
            log.exception("table %s: the new game could not be stored", table.id)
            raise ActionRefused(Refusal.UNAVAILABLE, "The new game could not be saved; please try again") from None
        question.next_table = new.id
        new.schedule_turn()
        log.info("table %s: played again as table %s", table.id, new.id)

    async def connected(self, table: LiveTable, seat: int, send: Send) -> None:
        """A connection just opened: it is shown the open question; a person who had gone is back."""
        question = self.questions.get(table.id)
        if question is None:
            return
        if seat >= 0 and question.next_table is None and question.answers[seat] == Answer.LEFT:
            question.answers[seat] = Answer.WAITING
            await self.tell(table, question)
        else:
            await send(told(table, question, seat))

    def disconnected(self, table: LiveTable, seat: int) -> None:
        """A connection closed: a person whose last connection it was has gone, unless they declined.
        The others are told by a task of its own: the closed connection's handler may be cancelled."""
        question = self.questions.get(table.id)
        if question is None or question.next_table is not None or seat < 0 or table.seats[seat].connections:
            return
        if question.answers[seat] in (Answer.WAITING, Answer.ACCEPTED):
            question.answers[seat] = Answer.LEFT
            task = asyncio.get_running_loop().create_task(self.tell(table, question))
            self.telling.add(task)
            task.add_done_callback(self.telling.discard)

    async def tell(self, table: LiveTable, question: Question) -> None:
        sends = [(-1, send) for send in table.spectators]
        sends += [(seat.number, send) for seat in table.seats for send in seat.connections]
        for seat, send in sends:
            try:
                await send(told(table, question, seat))
            except Exception:  # a connection closing as we write: its own handler cleans up
                log.debug("table %s: rematch message to seat %d failed", table.id, seat)


def told(table: LiveTable, question: Question, seat: int) -> dict[str, Any]:
    """The question as ``seat`` is told it. ``next``, the new table, is for the players, and for
    spectators of a public table (a private one's new invite is its creator's to share)."""
    shown = question.next_table if seat >= 0 or table.row.public else None
    return {"type": "rematch", "asked_by": question.asked_by, "answers": [str(a) for a in question.answers],
            "next": shown}
