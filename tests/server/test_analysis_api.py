"""``GET /api/games/{id}/analysis``: the analysis of a finished game, lined up with its replay,
computed once and kept; the same visibility as the replay, and nothing of a game still playing.
The jobs behind it (``israeli_whist.server.analyses``): one per game and hand, shared by every asker,
holding no thread of the shared pool, a slot at a time, refused past their bounds."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import anyio
import pytest
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end, sign_in
from httpx2 import Response

from israeli_whist.bots.matches.analysis import analyze_record
from israeli_whist.server import analyses
from israeli_whist.server.analyses import AnalysisJobs
from israeli_whist.server.app import create_app
from israeli_whist.server.replies import Refused
from israeli_whist.server.settings import Limit, ServerSettings
from israeli_whist.server.workers import ThreadThinkers

T = TypeVar("T")


@pytest.fixture
def client(app_settings: ServerSettings, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    # The quick bot and short endings: the tests check the plumbing, tests/bots the analysis.
    monkeypatch.setattr(analyses, "ANALYSIS_BOT", "basic")
    monkeypatch.setattr(analyses, "ANALYSIS_MAX_TRICKS", 2)
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def finished_game(client: TestClient, game: str = "israeli", options: dict[str, Any] | None = None,
                  public: bool = True) -> dict[str, Any]:
    table = new_table(client, game, options or {"hands": 1}, [{"kind": "human"}, *BOTS], public=public)
    play_to_the_end(client, table["id"])
    return table


@pytest.mark.parametrize(("game", "options"), [("israeli", {"hands": 1}), ("classic", {"target": 1})])
def test_the_analysis_lines_up_with_the_replay(client: TestClient, game: str, options: dict[str, Any]) -> None:
    sign_in(client, "Ann")
    table_id = finished_game(client, game, options)["id"]
    response = client.get(f"/api/games/{table_id}/analysis")
    assert response.status_code == 200, response.text
    analysis = response.json()
    replay = client.get(f"/api/games/{table_id}").json()
    assert analysis["game"] == game and analysis["bot"] == "basic" and analysis["max_tricks"] == 2
    assert [h["number"] for h in analysis["hands"]] == [h["number"] for h in replay["hands"]]
    for analysed, shown in zip(analysis["hands"], replay["hands"], strict=True):
        steps = shown["steps"]
        # Each verdict's step is the replay step its card or call leads to.
        for card in analysed["cards"]:
            assert steps[card["step"]]["action"] == {"seat": card["seat"], "name": card["name"]}
            assert card["analysed"] == (steps[card["step"] - 1]["tricks_played"] >= len(steps[0]["hands"][0]) - 2)
        for bid in analysed["bids"]:
            assert [steps[s]["action"]["name"] for s in bid["steps"]] == bid["actual"]
    assert sum(c["analysed"] for h in analysis["hands"] for c in h["cards"]) == 8 * len(
        [h for h in replay["hands"] if not h["cancelled"]])


def test_the_analysis_is_computed_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    sign_in(client, "Bo")
    table_id = finished_game(client)["id"]
    first = client.get(f"/api/games/{table_id}/analysis").json()

    def no_second_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("analysed again")

    monkeypatch.setattr(analyses, "analyze_record", no_second_search)
    assert client.get(f"/api/games/{table_id}/analysis").json() == first


def test_a_game_still_playing_is_not_analysed(client: TestClient) -> None:
    sign_in(client, "Cy")
    table_id = new_table(client, "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS], take_seat=None)["id"]
    response = client.get(f"/api/games/{table_id}/analysis")
    assert response.status_code == 409 and "still being played" in response.json()["detail"]
    assert "hands" not in response.json()
    assert client.get("/api/games/nope/analysis").status_code == 404


def test_a_private_game_is_analysed_for_its_players_and_invite_holders(client: TestClient) -> None:
    sign_in(client, "Eve")
    table = finished_game(client, public=False)
    path = f"/api/games/{table['id']}/analysis"
    assert client.get(path).status_code == 200  # a player (cached from here on)
    sign_in(client, "Fay")
    response = client.get(path)
    assert response.status_code == 403 and "hands" not in response.json()  # the cache does not bypass the check
    assert client.get(f"{path}?invite=wrong").status_code == 403
    assert client.get(f"{path}?invite={table['invite']}").status_code == 200


def test_one_hand_at_a_time_for_a_page_that_shows_its_progress(client: TestClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    sign_in(client, "Gil")
    table_id = finished_game(client, options={"hands": 2})["id"]
    path = f"/api/games/{table_id}/analysis"
    numbers = [h["number"] for h in client.get(f"/api/games/{table_id}").json()["hands"]]
    hands = []
    for number in numbers:
        response = client.get(f"{path}?hand={number}")
        assert response.status_code == 200, response.text
        assert [h["number"] for h in response.json()["hands"]] == [number]
        hands.append(response.json()["hands"][0])
    beyond = client.get(f"{path}?hand={max(numbers) + 1}")
    assert beyond.status_code == 404 and beyond.json()["code"] == "no_hand"
    assert client.get(f"{path}?hand=-1").status_code == 422
    # Hand by hand, the same verdicts as the whole game at once; and a hand is cut from the whole
    # game's answer, once that is known, with no second search.
    whole = client.get(path).json()
    assert whole["hands"] == hands

    def no_second_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("analysed again")

    monkeypatch.setattr(analyses, "analyze_record", no_second_search)
    client.app.state.analyses.kept.pop((table_id, numbers[0]))  # type: ignore[attr-defined]
    assert client.get(f"{path}?hand={numbers[0]}").json()["hands"] == [hands[0]]


# Jobs: shared, holding no thread, limited -------------------------------------------------------------

class HeldAnalyses:
    """``analyze_record``, held until ``release`` is set; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.entered, self.release = threading.Event(), threading.Event()
        self.real = analyze_record

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        self.entered.set()
        assert self.release.wait(60)
        return self.real(*args, **kwargs)


def borrowed_threads(client: TestClient) -> int:
    """The threads of the app's shared pool (FastAPI's plain routes) in use now."""
    async def borrowed() -> int:
        return int(anyio.to_thread.current_default_thread_limiter().borrowed_tokens)

    portal = client.portal
    assert portal is not None
    return portal.call(borrowed)


def test_many_waiting_requests_share_one_job_and_hold_no_thread(client: TestClient,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """45 requests for one hand while its search runs (once 45 held 40 of the pool's 40 threads,
    and /api/me waited for them): one job, no thread of the shared pool held, and every plain
    route answers meanwhile."""
    sign_in(client, "Hal")
    table_id = finished_game(client)["id"]
    number = client.get(f"/api/games/{table_id}").json()["hands"][0]["number"]
    held = HeldAnalyses()
    monkeypatch.setattr(analyses, "analyze_record", held)
    answers: list[Response] = []

    def ask() -> None:
        answers.append(client.get(f"/api/games/{table_id}/analysis?hand={number}"))

    askers = [threading.Thread(target=ask) for _ in range(45)]
    for asker in askers:
        asker.start()
    try:
        assert held.entered.wait(30)
        jobs = client.app.state.analyses  # type: ignore[attr-defined]
        end = time.monotonic() + 30
        while len(jobs.jobs) != 1 or sum(t.is_alive() for t in askers) != 45 or borrowed_threads(client):
            assert time.monotonic() < end, f"{len(jobs.jobs)} jobs, {borrowed_threads(client)} threads held"
            time.sleep(0.05)
        time.sleep(0.3)  # the last requests have reached the job
        assert borrowed_threads(client) == 0
        me: list[Response] = []
        asking_me = threading.Thread(target=lambda: me.append(client.get("/api/me")))
        asking_me.start()
        asking_me.join(10)
        assert [answer.status_code for answer in me] == [200], "a plain route waited for the analyses"
        assert not answers  # all still waiting for the search
    finally:
        held.release.set()
        for asker in askers:
            asker.join(60)
    assert len(answers) == 45 and {a.status_code for a in answers} == {200}
    assert all(a.json() == answers[0].json() for a in answers)
    assert held.calls == 1 and jobs.started == 1 and not jobs.jobs


def test_analyses_past_the_limit_get_429_and_known_ones_are_free(app_settings: ServerSettings,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analyses, "ANALYSIS_BOT", "basic")
    monkeypatch.setattr(analyses, "ANALYSIS_MAX_TRICKS", 2)
    limits = dataclasses.replace(app_settings.rate_limits, analyses=Limit(2, 100, 60))
    with TestClient(create_app(dataclasses.replace(app_settings, rate_limits=limits))) as limited:
        sign_in(limited, "Ida")
        table_id = finished_game(limited, options={"hands": 3})["id"]
        path = f"/api/games/{table_id}/analysis?hand="
        numbers = [h["number"] for h in limited.get(f"/api/games/{table_id}").json()["hands"]]
        assert len(numbers) == 3
        for number in numbers[:2]:
            assert limited.get(f"{path}{number}").status_code == 200
        refused = limited.get(f"{path}{numbers[2]}")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many"
        assert 0 < int(refused.headers["Retry-After"]) <= 60
        assert "Too many analysis requests from this session" in refused.json()["detail"]
        for number in numbers[:2]:  # known: answered without a search, and not counted
            assert limited.get(f"{path}{number}").status_code == 200


class NeverThinkers(ThreadThinkers):
    """Jobs that finish when the test says: ``submit`` hands out futures the test completes."""

    def __init__(self, slots: int) -> None:
        super().__init__(analysis_workers=slots)
        self.futures: list[concurrent.futures.Future[Any]] = []

    def submit(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        self.futures.append(future)
        return future


def record_of(game: str) -> Callable[[], Awaitable[dict[str, Any]]]:
    async def record() -> dict[str, Any]:
        return {"game": game}

    return record


def answer_for(number: int) -> dict[str, Any]:
    return {"hands": [{"number": number}]}


def test_jobs_run_a_slot_at_a_time_and_past_the_waiting_bound_are_refused() -> None:
    thinkers = NeverThinkers(slots=2)
    jobs = AnalysisJobs(thinkers, kept=2, waiting=3)

    async def run() -> None:
        asked = [asyncio.ensure_future(jobs.answer(("t", n), record_of("t"))) for n in (1, 2, 3)]
        again = asyncio.ensure_future(jobs.answer(("t", 1), record_of("t")))  # joins hand 1's job
        await asyncio.sleep(0.05)
        assert len(thinkers.futures) == 2 and jobs.started == 3  # two slots: the third job waits
        with pytest.raises(Refused) as busy:
            await jobs.answer(("t", 4), record_of("t"))
        assert (busy.value.status_code, busy.value.code) == (503, "analyses_busy")
        assert busy.value.headers == {"Retry-After": "10"}
        asked[0].cancel()  # its asker went away: the job goes on for the other
        thinkers.futures[0].set_result(answer_for(1))
        assert await again == answer_for(1)
        await asyncio.sleep(0.05)
        assert len(thinkers.futures) == 3  # the slot freed went to the waiting job
        thinkers.futures[1].set_exception(RuntimeError("the search failed"))
        with pytest.raises(RuntimeError, match="the search failed"):
            await asked[1]
        thinkers.futures[2].set_result({"hands": []})  # a hand the game does not have: not kept
        assert await asked[2] == {"hands": []}
        assert list(jobs.kept) == [("t", 1)] and jobs.jobs == {}
        for number, future in ((2, 3), (5, 4)):  # a failed job is not kept: asked again, it runs again
            again = asyncio.ensure_future(jobs.answer(("t", number), record_of("t")))
            await asyncio.sleep(0.05)
            thinkers.futures[future].set_result(answer_for(number))
            assert await again == answer_for(number)
        assert list(jobs.kept) == [("t", 2), ("t", 5)] and jobs.started == 5  # the oldest of three dropped
        assert jobs.known(("t", 2)) == answer_for(2) and jobs.known(("t", 1)) is None

    asyncio.run(run())
    thinkers.close()
