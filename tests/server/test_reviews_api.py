"""Reviews of games as the server's jobs (issue 45): ``POST``/``GET /api/history/{id}/review`` for a
finished game, ``/api/tables/{id}/hands/{n}/review`` for a hand that is over at a table in play.
One job per game whoever asks, its progress stored as its hands finish, its review stored with the
game; taken up again by a new app on the same database without redoing the hands stored; the same
visibility as the replay; a hand in play reviewed for its seat's own player only, nothing of
another seat's hidden decisions."""

from __future__ import annotations

import dataclasses
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from history_kit import BOTS, new_table, play_to_the_end
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_kit import CHANGE, COOKIE, Player, sign_in, use

from israeli_whist.bots.review import ReviewSettings
from israeli_whist.server import reviews
from israeli_whist.server.app import create_app
from israeli_whist.server.db import Store
from israeli_whist.server.reviewstore import review_hands, review_row
from israeli_whist.server.settings import Limit, ServerSettings

# The engine at its smallest budget: these tests check the jobs, tests/bots the review itself.
TINY = ReviewSettings(deals=2, par_playouts=2, par_deals=8)


class Reviewer:
    """``reviews.reviewed_hand``, counting the hands it reviews; the hands in ``held`` wait for ``release``."""

    def __init__(self, held: set[int] | None = None, fail: set[int] | None = None) -> None:
        self.real = reviews.reviewed_hand
        self.held, self.fail = held or set(), fail or set()
        self.release = threading.Event()
        self.reviewed: list[int] = []
        self.entered = threading.Event()

    def __call__(self, record: dict[str, Any], number: int, seed: str, budget: dict[str, Any]) -> dict[str, Any]:
        self.reviewed.append(number)
        if number in self.fail:
            raise RuntimeError(f"hand {number} could not be reviewed")
        if number in self.held:
            self.entered.set()
            assert self.release.wait(60)
        return self.real(record, number, seed, budget)


@pytest.fixture
def reviewer(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reviewer]:
    monkeypatch.setattr(reviews, "REVIEW_SETTINGS", TINY)
    found = Reviewer()
    monkeypatch.setattr(reviews, "reviewed_hand", found)
    yield found
    found.release.set()


@pytest.fixture
def client(app_settings: ServerSettings, reviewer: Reviewer) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def finished_game(client: TestClient, player: Player, hands: int = 2, public: bool = True) -> dict[str, Any]:
    use(client, player)
    table = new_table(client, "israeli", {"hands": hands}, [{"kind": "human"}, *BOTS], public=public)
    play_to_the_end(client, table["id"])
    return table


def review_path(table_id: str) -> str:
    return f"/api/history/{table_id}/review"


def wait_for(check: Callable[[], Any], timeout: float = 60.0) -> Any:
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)
    return found


def state_of(client: TestClient, table_id: str, wanted: str, player: Player | None = None) -> dict[str, Any]:
    """The review's answer once its state is ``wanted``."""
    def check() -> dict[str, Any] | None:
        answer: dict[str, Any] = use(client, player).get(review_path(table_id)).json() if player else \
            client.get(review_path(table_id)).json()
        return answer if answer["state"] == wanted else None

    found: dict[str, Any] = wait_for(check)
    return found


def test_a_review_runs_to_done_with_its_progress_stored(client: TestClient, reviewer: Reviewer,
                                                        app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    table_id = finished_game(client, ann, hands=2)["id"]
    replay = use(client, ann).get(f"/api/games/{table_id}").json()
    numbers = [h["number"] for h in replay["hands"]]
    assert client.get(review_path(table_id)).json() == {"state": "none", "done": 0, "total": 0, "review": None}
    reviewer.held = {numbers[-1]}
    started = client.post(review_path(table_id), headers=CHANGE)
    assert started.status_code == 200, started.text
    assert started.json()["state"] in ("queued", "running") and started.json()["total"] == len(numbers)
    assert reviewer.entered.wait(30)
    # The first hands are stored as they finish: the progress shows them while the last one runs.
    halfway = wait_for(lambda: (a := client.get(review_path(table_id)).json())["done"] == len(numbers) - 1 and a)
    assert halfway["state"] == "running" and halfway["total"] == len(numbers) and halfway["review"] is None
    reviewer.release.set()
    done = state_of(client, table_id, "done")
    assert done["done"] == done["total"] == len(numbers)
    review = done["review"]
    assert review["kind"] == "review" and [h["number"] for h in review["hands"]] == numbers
    assert review["budget"]["deals"] == TINY.deals
    assert sorted(reviewer.reviewed) == numbers  # each hand once
    # Stored with the game: read back by a new store, and the same answer again with no new job.
    store = Store(app_settings.database_url)
    try:
        row = review_row(store, table_id)
    finally:
        store.close()
    assert row is not None and row.state == "done" and row.review == review
    assert client.post(review_path(table_id), headers=CHANGE).json() == done
    assert sorted(reviewer.reviewed) == numbers


def test_two_askers_share_one_job(client: TestClient, reviewer: Reviewer) -> None:
    ann, bea = sign_in(client, "Ann"), sign_in(client, "Bea")
    table_id = finished_game(client, ann, hands=2)["id"]
    numbers = [h["number"] for h in use(client, ann).get(f"/api/games/{table_id}").json()["hands"]]
    reviewer.held = set(numbers)
    answers = []

    use(client, None)

    def ask(player: Player) -> None:
        cookie = {"cookie": f"{COOKIE}={player.cookie}"}
        answers.append(client.post(review_path(table_id), headers={**CHANGE, **cookie}).json())

    askers = [threading.Thread(target=ask, args=(p,)) for p in (ann, bea, ann)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join(30)
    assert [a["state"] in ("queued", "running") for a in answers] == [True] * 3
    jobs = client.app.state.reviews  # type: ignore[attr-defined]
    assert len(jobs.games) == 1
    reviewer.release.set()
    done = state_of(client, table_id, "done", bea)
    assert sorted(reviewer.reviewed) == numbers and done["done"] == len(numbers)
    assert use(client, ann).get(review_path(table_id)).json() == done


def test_two_analysis_workers_review_two_hands_at_once(app_settings: ServerSettings, reviewer: Reviewer) -> None:
    """Both cores work: with two analysis workers (the default from two bot workers on), two hands of
    a game are in the workers at once, and the third waits for a slot."""
    with TestClient(create_app(dataclasses.replace(app_settings, analysis_workers=2))) as client:
        ann = sign_in(client, "Ann")
        table_id = finished_game(client, ann, hands=3)["id"]
        numbers = [h["number"] for h in use(client, ann).get(f"/api/games/{table_id}").json()["hands"]]
        reviewer.held = set(numbers)
        client.post(review_path(table_id), headers=CHANGE)
        jobs = client.app.state.reviews  # type: ignore[attr-defined]
        wait_for(lambda: len(reviewer.reviewed) == 2)
        time.sleep(0.3)  # the third would have started by now, were there a slot
        assert sorted(reviewer.reviewed) == numbers[:2] and len(jobs.in_workers) == 2
        reviewer.release.set()
        assert state_of(client, table_id, "done")["done"] == 3


def test_a_new_app_finishes_a_review_left_running_without_redoing_stored_hands(
        database_url: str, app_settings: ServerSettings, reviewer: Reviewer) -> None:
    on_the_database = dataclasses.replace(app_settings, database_url=database_url)
    with TestClient(create_app(on_the_database)) as first:
        ann = sign_in(first, "Ann")
        table_id = finished_game(first, ann, hands=3)["id"]
        numbers = [h["number"] for h in use(first, ann).get(f"/api/games/{table_id}").json()["hands"]]
        reviewer.held = {numbers[1]}
        assert first.post(review_path(table_id), headers=CHANGE).status_code == 200
        assert reviewer.entered.wait(30)
        progress = wait_for(lambda: (a := first.get(review_path(table_id)).json())["done"] >= 1 and a)
        assert progress["state"] == "running"
    # The app stopped with hand 2 in a worker: the row still says running, hand 1 stored.
    reviewer.release.set()
    reviewed_before = list(reviewer.reviewed)
    assert reviewed_before == numbers[:2]
    reviewer.held = set()
    with TestClient(create_app(on_the_database)) as second:
        done = state_of(second, table_id, "done", ann)
        assert [h["number"] for h in done["review"]["hands"]] == numbers
    assert reviewer.reviewed[len(reviewed_before):] == numbers[1:]  # hand 1 was not reviewed again


def test_a_failed_review_says_so_and_runs_again_when_asked(client: TestClient, reviewer: Reviewer) -> None:
    ann = sign_in(client, "Ann")
    table_id = finished_game(client, ann, hands=2)["id"]
    numbers = [h["number"] for h in use(client, ann).get(f"/api/games/{table_id}").json()["hands"]]
    reviewer.fail = {numbers[1]}
    client.post(review_path(table_id), headers=CHANGE)
    failed = state_of(client, table_id, "failed")
    assert failed["review"] is None and failed["done"] == 1
    reviewer.fail = set()
    assert client.post(review_path(table_id), headers=CHANGE).json()["state"] in ("queued", "running")
    assert state_of(client, table_id, "done")["done"] == len(numbers)
    assert sorted(reviewer.reviewed) == [numbers[0], numbers[1], numbers[1]]  # hand 1 kept from the first try


def test_a_game_in_play_or_unknown_has_no_review(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table_id = new_table(use(client, ann), "israeli", {"hands": 1}, [{"kind": "human"}, *BOTS])["id"]
    for method in ("GET", "POST"):
        playing = client.request(method, review_path(table_id), headers=CHANGE)
        assert playing.status_code == 409 and playing.json()["code"] == "still_playing"
        unknown = client.request(method, review_path("nope"), headers=CHANGE)
        assert unknown.status_code == 404 and unknown.json()["code"] == "no_game"
    assert client.app.state.reviews.games == {}  # type: ignore[attr-defined]


def test_a_private_games_review_is_for_those_who_see_its_replay(client: TestClient) -> None:
    eve, fay = sign_in(client, "Eve"), sign_in(client, "Fay")
    table = finished_game(client, eve, hands=1, public=False)
    path = review_path(table["id"])
    assert use(client, eve).post(path, headers=CHANGE).status_code == 200
    state_of(client, table["id"], "done", eve)
    for method in ("GET", "POST"):
        refused = use(client, fay).request(method, path, headers=CHANGE)
        assert refused.status_code == 403 and refused.json()["code"] == "private" and "review" not in refused.json()
        assert use(client, fay).request(method, f"{path}?invite=wrong", headers=CHANGE).status_code == 403
        answer = use(client, fay).request(method, f"{path}?invite={table['invite']}", headers=CHANGE)
        assert answer.status_code == 200 and answer.json()["state"] == "done"
    anyone = use(client, None).get(path)
    assert anyone.status_code == 403


def test_a_start_from_another_site_is_refused(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    table_id = finished_game(client, ann, hands=1)["id"]
    refused = use(client, ann).post(review_path(table_id), headers={**CHANGE, "origin": "http://evil.example"})
    assert refused.status_code == 403 and refused.json()["code"] == "origin"
    assert client.get(review_path(table_id)).json()["state"] == "none"


def test_new_jobs_are_counted_and_bounded(app_settings: ServerSettings, reviewer: Reviewer) -> None:
    limits = dataclasses.replace(app_settings.rate_limits, analyses=Limit(1, 100, 60))
    with TestClient(create_app(dataclasses.replace(app_settings, rate_limits=limits))) as limited:
        ann = sign_in(limited, "Ann")
        first, second = (finished_game(limited, ann, hands=1)["id"] for _ in range(2))
        assert limited.post(review_path(first), headers=CHANGE).status_code == 200
        assert limited.post(review_path(first), headers=CHANGE).status_code == 200  # joined: not counted
        refused = limited.post(review_path(second), headers=CHANGE)
        assert refused.status_code == 429 and refused.json()["code"] == "too_many"
        assert 0 < int(refused.headers["Retry-After"]) <= 60
        jobs = limited.app.state.reviews  # type: ignore[attr-defined]
        reviewer.held = {1}
        jobs.waiting_at_most = 0  # full: a new job is refused before it is counted
        busy = limited.post(review_path(second), headers=CHANGE)
        assert busy.status_code == 503 and busy.json()["code"] == "analyses_busy"
        assert busy.headers["Retry-After"] == "10"
        assert limited.get(review_path(second)).json()["state"] == "none"


# A hand that is over, at a table in play -------------------------------------------------------------

def play_hands(client: TestClient, table_id: str, hands: int) -> dict[str, Any]:
    """Play our seat (the first legal action each turn) until ``hands`` hands are over."""
    acted = -1
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        for _ in range(20000):
            message = socket.receive_json()
            if message["type"] == "error":
                message = message["state"]
            if message["type"] != "state":
                continue
            if len(message["score"]["hands"]) >= hands:
                return dict(message)
            view = message["view"]
            if view["player"] == message["you"] >= 0 and view["legal"] and message["version"] != acted:
                acted = message["version"]
                socket.send_json({"type": "act", "action": view["legal"][0]["action"], "version": acted,
                                  "id": f"a{acted}"})
    raise AssertionError("the hands did not end")


def hand_path(table_id: str, number: object) -> str:
    return f"/api/tables/{table_id}/hands/{number}/review"


def test_a_hand_over_at_a_table_in_play_is_reviewed_for_its_seats_player(client: TestClient,
                                                                          reviewer: Reviewer) -> None:
    ann, bea = sign_in(client, "Ann"), sign_in(client, "Bea")
    table = new_table(use(client, ann), "israeli", {"hands": 2}, [{"kind": "human"}, *BOTS])
    table_id = table["id"]
    state = play_hands(client, table_id, 1)
    number = state["score"]["hands"][0]["number"]
    path = hand_path(table_id, number)
    assert client.get(path).json() == {"state": "none", "done": 0, "total": 1, "review": None}
    assert client.post(path, headers=CHANGE).json()["state"] in ("queued", "running")
    done = wait_for(lambda: (a := client.get(path).json())["state"] == "done" and a)
    review = done["review"]
    # The review's own seed, never the table's, which deals the hands to come.
    table_seed = client.app.state.store.table(table_id).seed  # type: ignore[attr-defined]
    assert table_seed not in client.get(path).text and review["budget"]["seed"] != table_seed
    assert [h["number"] for h in review["hands"]] == [number] and review["seat"] == 0
    assert {d["seat"] for d in review["hands"][0]["decisions"]} == {0}  # its own decisions only
    assert [len(line) > 0 for line in review["timeline"]] == [True, False, False, False]
    for other in review["hands"][0]["seats"][1:]:
        assert set(other) <= {"name", "score", "par", "par_error"}
    # The hand under way is not over; the hands to come do not exist yet.
    for later in (number + 1, number + 2, 0, 2**31 - 1):
        refused = client.post(hand_path(table_id, later), headers=CHANGE)
        assert refused.status_code == 404 and refused.json()["code"] == "no_hand"
    assert reviewer.reviewed == [number]
    # Someone who watches, and someone not signed in, see nothing of it.
    watching = use(client, bea).get(path)
    assert watching.status_code == 403 and watching.json()["code"] == "spectator" and "review" not in watching.json()
    assert use(client, None).post(path, headers=CHANGE).json()["code"] == "sign_in"
    # The game's review, once it is over, keeps the hand reviewed in play.
    play_to_the_end(use(client, ann), table_id)
    client.post(review_path(table_id), headers=CHANGE)
    whole = state_of(client, table_id, "done")
    assert reviewer.reviewed.count(number) == 1
    assert whole["review"]["hands"][0]["decisions"] and {d["seat"] for d in whole["review"]["hands"][0]["decisions"]} \
        == {0, 1, 2, 3}


def test_the_hand_under_way_is_not_sent_to_the_workers(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    ann = sign_in(client, "Ann")
    table_id = new_table(use(client, ann), "israeli", {"hands": 3}, [{"kind": "human"}, *BOTS])["id"]
    play_hands(client, table_id, 1)
    seen: list[dict[str, Any]] = []
    real = reviews.reviewed_hand

    def spy(record: dict[str, Any], number: int, seed: str, budget: dict[str, Any]) -> dict[str, Any]:
        seen.append(record)
        return real(record, number, seed, budget)

    monkeypatch.setattr(reviews, "reviewed_hand", spy)
    client.post(hand_path(table_id, 1), headers=CHANGE)
    wait_for(lambda: client.get(hand_path(table_id, 1)).json()["state"] == "done")
    assert [[h["number"] for h in record["hands"]] for record in seen] == [[1]]
    assert all("points" in h for h in seen[0]["hands"])


def test_review_rows_are_stored_per_hand(client: TestClient, app_settings: ServerSettings) -> None:
    ann = sign_in(client, "Ann")
    table_id = finished_game(client, ann, hands=2)["id"]
    client.post(review_path(table_id), headers=CHANGE)
    state_of(client, table_id, "done")
    store = Store(app_settings.database_url)
    try:
        with store.begin() as c:
            numbers = sorted(c.execute(review_hands.select().where(review_hands.c.table_id == table_id))
                             .scalars(review_hands.c.number))
    finally:
        store.close()
    assert numbers == [h["number"] for h in use(client, ann).get(f"/api/games/{table_id}").json()["hands"]]


# Bad input ------------------------------------------------------------------------------------------

ODD_TEXT = ["", " ", "\ud800", "a\udfff", "\u202e", "\u2066x\u2069", "\x00", "\U0010ffff", "x" * 5000, "..", "%",
            "?", "/", "1e30", "-1", "nan"]
ODD_NUMBERS = ["-1", "0", str(2**31), str(2**63), str(-(2**63) - 1), "1e30", "nan", "1.5", "", "true", "null",
               "99999999999999999999999999"]


def url_part(text: str) -> str:
    return urllib.parse.quote(text, safe="", errors="surrogatepass")


def test_ids_numbers_and_invites_of_any_shape_are_refused_cleanly(client: TestClient) -> None:
    ann = sign_in(client, "Ann")
    finished = finished_game(client, ann, hands=1)["id"]
    playing = new_table(use(client, ann), "israeli", {"hands": 2}, [{"kind": "human"}, *BOTS])["id"]
    play_hands(client, playing, 1)
    texts = st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=30), st.sampled_from([finished, playing]))
    numbers = st.one_of(st.sampled_from(ODD_NUMBERS), st.integers().map(str), texts)
    statuses: dict[int, int] = {}

    @settings(max_examples=300, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(method=st.sampled_from(["GET", "POST"]), table_id=texts, number=numbers,
           invite=st.one_of(st.none(), texts), hand=st.booleans(), signed_in=st.booleans())
    def one(method: str, table_id: str, number: str, invite: str | None, hand: bool, signed_in: bool) -> None:
        path = hand_path(url_part(table_id), url_part(number)) if hand else review_path(url_part(table_id))
        if invite is not None:
            path += f"?invite={url_part(invite)}"
        answer = use(client, ann if signed_in else None).request(method, path, headers=CHANGE)
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
        assert answer.status_code < 500, (method, path, answer.text)
        body = answer.json()
        assert ("code" in body) != (answer.status_code == 200), body

    one()
    print(f"review routes fuzzed: statuses {dict(sorted(statuses.items()))}")
    assert {200, 401, 404, 409, 422} <= set(statuses), statuses
