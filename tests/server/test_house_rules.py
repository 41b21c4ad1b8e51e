"""House rules at the web table: GET /api/rules lists every option of every game from the rules'
own metadata, and a table made with the lobby's request (POST /api/tables with non-default
options, as lobby.js sends them) plays by every option group."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_kit import live, seats_json, sign_in, use

from israeli_whist.core.actions import PASS, Phase, bid_action, bid_level, bid_strain, is_bid
from israeli_whist.core.cards import NO_TRUMP
from israeli_whist.core.duplicate import board_options
from israeli_whist.core.games import GAMES, RULES_BY_GAME, make_game
from israeli_whist.core.games.israeli import FORM_DECKS
from israeli_whist.core.match import Match
from israeli_whist.core.rules import option_kind
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view
from israeli_whist.server.app import STATIC, create_app
from israeli_whist.server.live import LiveTable
from israeli_whist.server.settings import ServerSettings
from israeli_whist.server.viewjson import view_json


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def lobby_table(client: TestClient, game: str, options: dict[str, Any], preset: str | None = None,
                players: int = 4) -> LiveTable:
    """A table made as the lobby makes it: the preset, the fields that differ from it, the
    creator in seat 1 and bots in the others."""
    ann = sign_in(client, "Ann")
    body = {"game": game, "preset": preset, "options": options, "seats": seats_json("h" + "b" * (players - 1)),
            "public": True, "move_timer": None, "take_seat": 0}
    answer = use(client, ann).post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return live(client.app, answer.json()["id"])


def played(hand: HandState, rng: random.Random, choose: Callable[[HandState], int | None] = lambda h: None,
           until: Callable[[HandState], bool] = lambda h: h.is_terminal) -> HandState:
    """The hand played on at random (``choose`` may pick an action instead) until ``until``."""
    while not until(hand):
        action = choose(hand)
        hand = hand.apply(rng.choice(list(hand.legal_actions())) if action is None else action)
    return hand


def all_pass(hand: HandState) -> HandState:
    for _ in range(hand.players):
        hand = hand.apply(PASS)
    return hand


# The endpoint ---------------------------------------------------------------------------------


def test_every_option_of_every_game_is_listed_as_the_rules_define_it(client: TestClient) -> None:
    games = client.get("/api/rules").json()["games"]
    assert [g["name"] for g in games] == list(GAMES)
    for listed in games:
        rules_cls = RULES_BY_GAME[listed["name"]]
        fields = {f.name: f for f in dataclasses.fields(rules_cls)}
        assert [o["name"] for o in listed["options"]] == list(fields)
        assert listed["title"] == GAMES[listed["name"]].title and listed["players"] == rules_cls().players
        assert listed["traits"] == rules_cls.traits.to_json()  # the pages read the game's nature here
        for spec in listed["options"]:
            f = fields[spec["name"]]
            assert spec["kind"] == option_kind(f)
            assert spec["default"] == f.default and spec["help"] == f.metadata["help"]
            assert spec["common"] == f.metadata["common"]
            if spec["kind"] == "choice":
                assert spec["choices"] == list(f.metadata["choices"])
            if spec["kind"] == "number":
                assert (spec["low"], spec["high"]) == (f.metadata["low"], f.metadata["high"])
                assert spec["optional"] == (f.default is None)
            if spec["kind"] == "text":
                assert spec["suggestions"] == list(f.metadata["suggestions"])
                for value in spec["suggestions"]:  # each suggestion is a value the rules take
                    rules_cls().with_options({spec["name"]: value})
        assert {p["name"]: p["options"] for p in listed["presets"]} == {
            name: dict(changes) for name, changes in rules_cls.PRESETS.items()}


def test_the_seats_each_option_makes_are_the_rules_own(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/rules").json()["games"]}
    form = next(o for o in games["israeli"]["options"] if o["name"] == "form")
    assert form["seats"] == {name: len(FORM_DECKS[name][0]) // FORM_DECKS[name][1] for name in FORM_DECKS}
    players = next(o for o in games["whistiti"]["options"] if o["name"] == "players")
    assert players["seats"] == "value"
    assert all(o["seats"] is None for o in games["classic"]["options"])
    assert all(o["seats"] is None for o in games["israeli"]["options"] if o["name"] != "form")


def test_the_options_an_event_board_sets_are_the_games_own(client: TestClient) -> None:
    """The events page leaves out of an event's rules what each one-hand board sets itself: named by
    the games (a board's options), not by the page. Classic Whist has no one-hand boards."""
    games = {g["name"]: g for g in client.get("/api/rules").json()["games"]}
    assert games["israeli"]["set_by_boards"] == ["hands", "target"]
    assert games["whistiti"]["set_by_boards"] == ["schedule"]
    assert games["classic"]["set_by_boards"] is None
    for name in ("israeli", "whistiti"):  # each is an option of the game, and a board does set it (or moot it)
        assert set(games[name]["set_by_boards"]) <= {o["name"] for o in games[name]["options"]}
        assert set(board_options(name, None, {}, 1)) <= set(games[name]["set_by_boards"])


def test_every_option_has_words_in_both_catalogues(client: TestClient) -> None:
    catalogues = {lang: json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
                  for lang in ("en", "he")}
    for listed in client.get("/api/rules").json()["games"]:
        for spec in listed["options"]:
            name = spec["name"]
            keys = [f"option.{name}"] + [f"option.{name}.{value}"
                                         for value in spec.get("choices", []) + spec.get("suggestions", [])]
            for lang, words in catalogues.items():
                missing = [key for key in keys if key not in words]
                assert not missing, (lang, missing)
                assert f"option.{name}.help" in words or f"option.{listed['name']}.{name}.help" in words, (lang, name)


def test_the_table_says_its_rules_in_force(client: TestClient) -> None:
    table = lobby_table(client, "israeli", {"frisch_rounds": 0, "hands": 12}, preset="achim")
    info = table.table_json()
    assert info["house_rules"] == {"zero_scoring": "achim", "frisch_rounds": 0}
    assert lobby_table(client, "classic", {}).table_json()["house_rules"] == {}


# Israeli Whist: the Frisch ---------------------------------------------------------------------


def test_no_frisch_deals_again_when_all_pass(client: TestClient) -> None:
    assert all_pass(lobby_table(client, "israeli", {}).match.hand).phase == Phase.FRISCH
    assert all_pass(lobby_table(client, "israeli", {"frisch_rounds": 0}).match.hand).phase == Phase.CANCELLED


def test_frisch_rounds_and_the_minimum_that_does_not_rise(client: TestClient) -> None:
    def lowest_bid_after_frisches(options: dict[str, Any], rounds: int) -> int:
        hand = lobby_table(client, "israeli", options).match.hand
        for _ in range(rounds):
            hand = played(all_pass(hand), random.Random(1), until=lambda h: h.phase != Phase.FRISCH)
        return min(bid_level(a) for a in hand.legal_actions() if is_bid(a))

    assert lowest_bid_after_frisches({}, 2) == 7
    assert lowest_bid_after_frisches({"frisch_raises_minimum": False}, 2) == 5
    one_round = all_pass(played(all_pass(lobby_table(client, "israeli", {"frisch_rounds": 1}).match.hand),
                                random.Random(2), until=lambda h: h.phase != Phase.FRISCH))
    assert one_round.phase == Phase.CANCELLED


@pytest.mark.parametrize(("direction", "offsets"), [("left", [1, 1, 1]), ("right", [3, 3, 3]),
                                                    ("rotating", [1, 2, 3])])
def test_frisch_direction(client: TestClient, direction: str, offsets: list[int]) -> None:
    hand = lobby_table(client, "israeli", {"frisch_direction": direction}).match.hand
    seen = []
    for _ in range(3):
        hand = all_pass(hand)
        seen.append(seat_view(hand, 0).frisch_offset)
        hand = played(hand, random.Random(3), until=lambda h: h.phase != Phase.FRISCH)
    assert seen == offsets


# Israeli Whist: the trump auction ---------------------------------------------------------------


def test_no_trump_minimum_and_no_trump_bids(client: TestClient) -> None:
    def lowest_nt(options: dict[str, Any]) -> int | None:
        legal = lobby_table(client, "israeli", options).match.hand.legal_actions()
        levels = [bid_level(a) for a in legal if is_bid(a) and bid_strain(a) == NO_TRUMP]
        return min(levels, default=None)

    assert lowest_nt({}) == 7
    assert lowest_nt({"nt_minimum": 5}) == 5
    assert lowest_nt({"nt_minimum": 9}) == 9
    assert lowest_nt({"no_trump_allowed": False}) is None


def test_who_starts_the_auction(client: TestClient) -> None:
    standard = lobby_table(client, "israeli", {}).match.hand
    assert standard.player == (standard.dealer + 1) % 4
    dealer_first = lobby_table(client, "israeli", {"auction_starts": "dealer"}).match.hand
    assert dealer_first.player == dealer_first.dealer


def test_four_passes_end_the_auction(client: TestClient) -> None:
    def after_a_bid_and_three_passes(options: dict[str, Any]) -> HandState:
        hand = lobby_table(client, "israeli", options).match.hand.apply(bid_action(5, 0))
        for _ in range(3):
            hand = hand.apply(PASS)
        return hand

    assert after_a_bid_and_three_passes({}).phase == Phase.CONTRACT
    pagat = after_a_bid_and_three_passes({"auction_end": "four_passes"})
    assert pagat.phase == Phase.AUCTION and pagat.player == pagat.declarer  # the high bidder may raise


# Israeli Whist: scoring, length and the three-player forms --------------------------------------


def scores_beside_standard(table: LiveTable, wanted: Callable[[HandState], bool],
                           choose: Callable[[HandState], int | None]) -> tuple[HandState, tuple[int, ...],
                                                                               tuple[int, ...]]:
    """A hand of the table played at random until one is ``wanted``: its scores by the table's
    rules and by the standard rules."""
    standard = make_game("israeli")
    rng = random.Random(5)
    for _ in range(300):
        final = played(table.match.hand, rng, choose)
        if final.phase == Phase.OVER and wanted(final):
            return final, table.game.hand_scores(final), standard.hand_scores(final)
    raise AssertionError("no such hand in 300 tries")


def test_achim_zero_scoring(client: TestClient) -> None:
    def zero_for_seat_two(hand: HandState) -> int | None:
        contract_zero = hand.phase == Phase.CONTRACT and hand.player == 2 and hand.declarer != 2
        return hand.legal_actions()[0] if contract_zero else None  # the lowest contract: zero

    table = lobby_table(client, "israeli", {"zero_scoring": "achim"})
    final, achim, standard = scores_beside_standard(
        table, lambda h: h.contracts[2] == 0 and h.over_under == "over", zero_for_seat_two)
    for seat, (contract, taken) in enumerate(zip(final.contracts, final.tricks_won, strict=True)):
        if contract == 0:  # in an over hand: +30 made and a flat -30 failed, for +25 and -50 +10 a trick
            assert achim[seat] == (30 if taken == 0 else -30)
            assert standard[seat] == (25 if taken == 0 else -50 + 10 * (taken - 1))
        else:
            assert achim[seat] == standard[seat]


def test_the_15_point_rule(client: TestClient) -> None:
    def declarer_bids_high(hand: HandState) -> int | None:
        if hand.phase == Phase.AUCTION and hand.high_bid < 0:
            return bid_action(8, 3)
        return None

    table = lobby_table(client, "israeli", {"high_contract_first_undertrick": True})
    final, fifteen, standard = scores_beside_standard(
        table, lambda h: h.tricks_won[h.declarer] < h.contracts[h.declarer], declarer_bids_high)
    for seat, (contract, taken) in enumerate(zip(final.contracts, final.tricks_won, strict=True)):
        short_of_seven_or_more = contract >= 7 and taken < contract  # -15 for the first trick short, not -10
        assert fifteen[seat] == standard[seat] - (5 if short_of_seven_or_more else 0), seat


def test_hands_and_target(client: TestClient) -> None:
    assert lobby_table(client, "israeli", {"hands": 2}).match.hands_total == 2
    table = lobby_table(client, "israeli", {"hands": 0, "target": 1})
    assert table.match.hands_total is None
    # The table's own game, dealt from a seed where a player soon reaches 1 point (a table's seed
    # is random, and random play can keep every total below zero for long).
    match = Match.start(table.game, "x")
    rng = random.Random(6)
    while not match.over:
        match = match.apply(rng.choice(list(match.legal_actions())))
    assert max(match.totals) >= 1 and len(match.results) == 2


@pytest.mark.parametrize("form", list(FORM_DECKS))
def test_three_player_forms(client: TestClient, form: str) -> None:
    cards, dealt = FORM_DECKS[form]
    players = len(cards) // dealt
    table = lobby_table(client, "israeli", {"form": form, "frisch_direction": "right"}, players=players)
    hand = table.match.hand
    assert hand.players == players and hand.hand_size == dealt
    assert all(h.bit_count() == dealt for h in hand.hands)
    assert all(h & ~table.game.rules.deck_mask == 0 for h in hand.hands)  # only cards of this form's pack
    final = played(hand, random.Random(7))
    assert final.phase in (Phase.OVER, Phase.CANCELLED) and len(final.tricks_won) == players


def test_a_preset_of_three_players_takes_three_seats(client: TestClient) -> None:
    table = lobby_table(client, "israeli", {"hands": 3}, preset="three_no_clubs", players=3)
    assert table.match.hand.players == 3 and table.table_json()["house_rules"] == {"form": "three_no_clubs",
                                                                                   "hands": 3}


# Classic Whist and Whistiti ----------------------------------------------------------------------


def test_classic_target_and_rubber(client: TestClient) -> None:
    def hands_to_the_end(options: dict[str, Any]) -> int:
        match = lobby_table(client, "classic", options).match
        rng = random.Random(8)
        while not match.over:
            match = match.apply(rng.choice(list(match.legal_actions())))
        return len(match.results)

    assert hands_to_the_end({"target": 1}) == 1  # one side always takes 7 tricks: a point
    assert hands_to_the_end({"target": 1, "rubber": True}) in (2, 3)


def test_classic_honours(client: TestClient) -> None:
    def honours(options: dict[str, Any]) -> list[tuple[int, int]]:
        match = lobby_table(client, "classic", {"target": 100, **options}).match
        rng = random.Random(9)
        while len(match.results) < 12:  # 3 or 4 honours on one side: more often than not
            match = match.apply(rng.choice(list(match.legal_actions())))
        return [r.honours for r in match.results]

    assert any(h != (0, 0) for h in honours({"honours": True}))
    assert all(h == (0, 0) for h in honours({}))


def test_cut_for_partners(client: TestClient) -> None:
    cut = lobby_table(client, "classic", {"cut_for_partners": True}).game
    standard = lobby_table(client, "classic", {}).game
    seeds = [f"seed-{n}" for n in range(12)]
    assert all(standard.seating(seed) == (0, 1, 2, 3) for seed in seeds)
    assert any(cut.seating(seed) != (0, 1, 2, 3) for seed in seeds)


@pytest.mark.parametrize(("preset", "options", "players", "sizes"), [
    (None, {"players": 5, "schedule": "3,1"}, 5, [3, 1]),
    ("up_down", {"players": 7}, 7, [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]),
    (None, {"schedule": "down_up"}, 4, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                        10, 11, 12, 13]),
])
def test_whistiti_players_and_schedule(client: TestClient, preset: str | None, options: dict[str, Any],
                                       players: int, sizes: list[int]) -> None:
    table = lobby_table(client, "whistiti", options, preset=preset, players=players)
    match = table.match
    assert match.hands_total == len(sizes) and match.hand.players == players
    rng = random.Random(10)
    dealt = []
    while not match.over:
        dealt.append(match.hand.hand_size)
        number = len(match.results)
        while len(match.results) == number:
            match = match.apply(rng.choice(list(match.legal_actions())))
    assert dealt == sizes


def test_every_static_page_that_builds_a_rules_form_loads_it() -> None:
    for page in ("index.html", "sheet.html"):
        assert "/static/rulesform.js" in (Path(STATIC) / page).read_text(encoding="utf-8"), page


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("right", 3)])
def test_the_view_says_where_frisch_cards_go(client: TestClient, direction: str, offset: int) -> None:
    """The table page says "to {name}" on the Frisch: the view names the seat, by the table's rules."""
    hand = lobby_table(client, "israeli", {"frisch_direction": direction}).match.hand
    assert [view_json(seat_view(hand, seat))["frisch_to"] for seat in range(4)] == [-1] * 4  # no Frisch yet
    frisch = all_pass(hand)
    assert frisch.phase == Phase.FRISCH
    going = [view_json(seat_view(frisch, seat))["frisch_to"] for seat in range(4)]
    assert going == [(seat + offset) % 4 for seat in range(4)]
