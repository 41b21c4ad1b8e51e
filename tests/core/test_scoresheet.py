"""The score sheet for real cards (israeli_whist.core.scoresheet): every game, the checks of each entry,
the worked examples of docs/rules.md, and agreement with the engine's own games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import CONFIGS, config_id, expected_israeli_points, expected_whistiti_points, game_of, play_match
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.actions import bid_level, bid_strain
from israeli_whist.core.cards import CLUBS, DIAMONDS, HEARTS, NO_TRUMP, SPADES
from israeli_whist.core.errors import RulesError, WhistError
from israeli_whist.core.games.classic import ClassicEntry, ClassicWhist
from israeli_whist.core.games.israeli import IsraeliEntry, IsraeliWhist
from israeli_whist.core.games.whistiti import WhistitiEntry
from israeli_whist.core.match import HandResult, Match
from israeli_whist.core.scoresheet import Sheet, SheetEntry, SheetError, entry_from_dict

FOUR = ("Ann", "Ben", "Dan", "Eve")


def israeli_sheet(**options: Any) -> Sheet:
    return Sheet.start("israeli", FOUR, None, options)


def hand(declarer: int, level: int, strain: int, contracts: tuple[int, ...], tricks: tuple[int, ...],
         revokes: tuple[int, ...] = (), frisch: int = 0) -> IsraeliEntry:
    return IsraeliEntry(declarer, level, strain, contracts, tricks, revokes, frisch)


def refused(sheet: Sheet, entry: SheetEntry, *fragments: str) -> str:
    """Adding ``entry`` raises SheetError naming ``fragments``; the sheet stays as it was."""
    before = sheet.to_dict()
    with pytest.raises(SheetError) as caught:
        sheet.add(entry)
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert sheet.to_dict() == before
    return message


# docs/rules.md worked examples ---------------------------------------------------------------------


def test_israeli_worked_examples() -> None:
    # Under (12 bid): bid 3 took 3: 19; bid 5 took 6: -10; zero made under: 50; bid 4 took 4: 26.
    sheet = israeli_sheet().add(hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)))
    score = sheet.scores[0]
    assert score.points == (19, -10, 50, 26) and score.over_under == "under"
    # Over (15 bid): bid 4 took 6: -20; zero made over: 25; zero taking 1: -50.
    sheet = sheet.add(hand(2, 6, HEARTS, (0, 4, 6, 5), (1, 6, 6, 0)))
    assert sheet.scores[1].points == (-50, -20, 46, -50) and sheet.scores[1].over_under == "over"
    sheet = sheet.add(hand(3, 5, CLUBS, (0, 3, 4, 7), (0, 4, 2, 7)))
    assert sheet.scores[2].points == (25, -10, -20, 59)
    # A zero taking 2 tricks: -40.
    sheet = sheet.add(hand(0, 5, DIAMONDS, (5, 0, 3, 3), (5, 2, 3, 3)))
    assert sheet.scores[3].points == (35, -40, 19, 19)
    assert sheet.totals == tuple(sum(s.points[p] for s in sheet.scores) for p in range(4))
    assert [s.totals for s in sheet.scores][-1] == sheet.totals


def test_whistiti_worked_examples() -> None:
    sheet = Sheet.start("whistiti", FOUR, None, {"schedule": "3"})
    sheet = sheet.add(WhistitiEntry((3, 1, 0, 0), (3, 0, 0, 0)))
    assert sheet.scores[0].points == (25, -5, 10, 10)  # bid 3 took 3: 10 + 3 x 5
    sheet = Sheet.start("whistiti", FOUR, None, {"schedule": "6"})
    sheet = sheet.add(WhistitiEntry((4, 0, 1, 0), (6, 0, 0, 0)))
    assert sheet.scores[0].points == (-10, 10, -5, 10)  # bid 4 took 6: -10


def test_classic_scores_tricks_over_six() -> None:
    sheet = Sheet.start("classic", FOUR).add(ClassicEntry((9, 4)))
    assert sheet.scores[0].points == (3, 0, 3, 0)
    sheet = sheet.add(ClassicEntry((6, 7)))
    assert sheet.scores[1].points == (0, 1, 0, 1) and sheet.totals == (3, 1, 3, 1)
    assert sheet.game_points == (3, 1) and not sheet.over


def test_israeli_points_match_the_oracle() -> None:
    """Ann's points in a sheet are the table of docs/rules.md#israeli-whist-scoring (an oracle
    written apart from the engine), for every contract and tricks taken, in over and under hands."""
    checked = 0
    for contract in range(14):
        for taken in range(14):
            for over in (False, True):
                others = 14 - contract if over else 12 - contract  # keeps the sum off 13, as asked
                if not 0 <= others <= 39:
                    continue
                contracts = (contract, *split(others, 3, 13))
                tricks = (taken, *split(13 - taken, 3, 13))
                declarer = 0 if contract >= 5 else 1  # Ben holds the largest of the other contracts
                sheet = israeli_sheet().add(hand(declarer, 5, SPADES, contracts, tricks))
                assert sheet.scores[0].points[0] == expected_israeli_points(contract, taken, over)
                assert sheet.scores[0].over_under == ("over" if over else "under")
                checked += 1
    assert checked == 14 * 14 * 2 - 14  # all but the under hands with a contract of 13


def split(total: int, parts: int, most: int) -> tuple[int, ...]:
    """``total`` as ``parts`` numbers of at most ``most``, the first ones largest."""
    out = []
    for _ in range(parts):
        take = min(most, total)
        out.append(take)
        total -= take
    assert total == 0
    return tuple(out)


def test_israeli_options_change_the_scores() -> None:
    entry = hand(0, 7, SPADES, (7, 0, 4, 3), (5, 1, 4, 3))  # over: 7 took 5; zero took 1
    assert israeli_sheet().add(entry).scores[0].points[:2] == (-20, -50)
    assert israeli_sheet(high_contract_first_undertrick=True).add(entry).scores[0].points[:2] == (-25, -50)
    assert Sheet.start("israeli", FOUR, "achim").add(entry).scores[0].points[:2] == (-20, -30)
    made = hand(0, 7, SPADES, (7, 0, 4, 3), (6, 0, 4, 3))
    assert Sheet.start("israeli", FOUR, "achim").add(made).scores[0].points[1] == 30


# Revokes ------------------------------------------------------------------------------------------


def test_an_israeli_revoke_costs_100_on_top_of_the_hand() -> None:
    sheet = israeli_sheet().add(hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4), revokes=(0, 0, 1, 2)))
    score = sheet.scores[0]
    assert score.penalties == (0, 0, -100, -200)
    assert score.points == (19, -10, -50, -174)
    assert score.over_under == "under"  # a revoke changes no one else's score
    assert sheet.totals == score.points


def test_a_classic_revoke_gives_the_other_side_three_points() -> None:
    sheet = Sheet.start("classic", FOUR).add(ClassicEntry((8, 5), revokes=(0, 1)))
    assert sheet.scores[0].points == (5, 0, 5, 0) and sheet.scores[0].penalties == (3, 0, 3, 0)
    sheet = Sheet.start("classic", FOUR).add(ClassicEntry((8, 5), revokes=(1, 0)))
    assert sheet.scores[0].points == (2, 3, 2, 3)


def test_revokes_are_checked() -> None:
    refused(israeli_sheet(), hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4), revokes=(0, 0, 1)), "revokes of each")
    refused(israeli_sheet(), hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4), revokes=(0, -1, 0, 0)),
            "revokes of Ben", "from 0 to 13")
    refused(Sheet.start("classic", FOUR), ClassicEntry((8, 5), revokes=(0, 14)), "Ben & Eve")


# Checks of an entry -------------------------------------------------------------------------------


def test_contracts_adding_up_to_the_tricks_are_refused() -> None:
    sheet = israeli_sheet()
    # The declarer (Dan) bids first, then Eve, Ann, and Ben last.
    message = refused(sheet, hand(2, 5, HEARTS, (3, 4, 5, 1), (3, 4, 5, 1)), "add up to 13")
    assert message.endswith("the last bidder, Ben, may not bid 4")
    refused(sheet, hand(0, 5, HEARTS, (5, 4, 3, 1), (5, 4, 3, 1)), "the last bidder, Eve, may not bid 1")


def test_the_declarer_bids_at_least_the_auction_level() -> None:
    refused(israeli_sheet(), hand(1, 6, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)),
            "The declarer, Ben, must bid at least the auction level, 6, not 5")


@pytest.mark.parametrize(("entry", "options", "fragment"), [
    (hand(1, 4, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)), {}, "A bid in S is from 5 to 13, not 4"),
    (hand(1, 14, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)), {}, "from 5 to 13, not 14"),
    (hand(1, 6, NO_TRUMP, (3, 6, 0, 4), (3, 6, 0, 4)), {}, "A bid in NT is from 7 to 13, not 6"),
    (hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4), frisch=1), {}, "in S after 1 Frisch round is from 6"),
    (hand(1, 7, SPADES, (3, 7, 0, 4), (3, 6, 0, 4), frisch=3), {}, "after 3 Frisch rounds is from 8"),
    (hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4), frisch=2), {"frisch_rounds": 1}, "at most 1 Frisch"),
    (hand(1, 7, NO_TRUMP, (3, 7, 0, 4), (3, 6, 0, 4)), {"no_trump_allowed": False}, "No-trump bids are not"),
    (hand(4, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)), {}, "The declarer is a seat from 0 to 3, not 4"),
    (hand(1, 5, 5, (3, 5, 0, 4), (3, 6, 0, 4)), {}, "The trump strain is 0 to 4"),
    (hand(1, 5, SPADES, (3, 5, 0), (3, 6, 0, 4)), {}, "Enter a contract for each of the 4 players"),
    (hand(1, 5, SPADES, (3, 5, 0, 14), (3, 6, 0, 4)), {}, "The contract of Eve must be from 0 to 13, not 14"),
    (hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 3)), {}, "The tricks add up to 12, but the hand has 13"),
    (hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, -1, 5)), {}, "The tricks of Dan must be from 0 to 13, not -1"),
    (hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 4)), {}, "Enter the tricks of each of the 4 players"),
])
def test_israeli_entries_are_checked(entry: IsraeliEntry, options: dict[str, Any], fragment: str) -> None:
    refused(israeli_sheet(**options), entry, fragment)


def test_the_minimum_level_follows_the_rules() -> None:
    assert israeli_sheet(nt_minimum=5).add(hand(1, 5, NO_TRUMP, (3, 5, 0, 4), (3, 6, 0, 4))).scores
    assert israeli_sheet(frisch_raises_minimum=False).add(
        hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4), frisch=3)).scores
    assert israeli_sheet().add(hand(1, 8, NO_TRUMP, (0, 8, 0, 4), (0, 9, 0, 4), frisch=3)).scores


def test_three_player_forms_have_their_own_hand_sizes() -> None:
    three = ("Ann", "Ben", "Dan")
    short = Sheet.start("israeli", three, "three_short_deck")
    assert short.hand_size == 12
    refused(short, hand(0, 5, SPADES, (5, 4, 2), (5, 4, 4)), "The tricks add up to 13, but the hand has 12")
    assert short.add(hand(0, 5, SPADES, (5, 4, 2), (5, 4, 3))).scores[0].over_under == "under"
    refused(short, hand(0, 5, SPADES, (5, 4, 3), (5, 4, 3)), "add up to 12", "the last bidder, Dan, may not bid 3")
    random_card = Sheet.start("israeli", three, "three_random_card")
    assert random_card.hand_size == 17
    assert random_card.add(hand(2, 17, NO_TRUMP, (0, 1, 17), (0, 0, 17))).scores[0].points == (25, -10, 299)


@pytest.mark.parametrize(("entry", "options", "fragment"), [
    (ClassicEntry((7, 7)), {}, "The tricks add up to 14, but the hand has 13"),
    (ClassicEntry((14, -1)), {}, "The tricks of Ann & Dan must be from 0 to 13, not 14"),
    (ClassicEntry((13,)), {}, "Enter the tricks of each of the 2 sides"),
    (ClassicEntry((7, 6)), {"honours": True}, "This sheet counts honours"),
    (ClassicEntry((7, 6), honours=(3, 0)), {"honours": True}, "hold 4 between them, not 3"),
    (ClassicEntry((7, 6), honours=(5, -1)), {"honours": True}, "The honours of Ann & Dan must be from 0 to 4"),
    (ClassicEntry((7, 6), honours=(4,)), {"honours": True}, "honours of each of the 2 sides"),
    (ClassicEntry((7, 6), honours=(2, 2)), {}, "does not count honours"),
])
def test_classic_entries_are_checked(entry: ClassicEntry, options: dict[str, Any], fragment: str) -> None:
    refused(Sheet.start("classic", FOUR, None, options), entry, fragment)


def test_whistiti_hand_sizes_come_from_the_schedule() -> None:
    sheet = Sheet.start("whistiti", FOUR)
    assert sheet.hand_size == 1 and sheet.hands_total == 13
    refused(sheet, WhistitiEntry((2, 0, 0, 0), (1, 0, 0, 0)), "The contract of Ann must be from 0 to 1, not 2")
    refused(sheet, WhistitiEntry((1, 0, 0, 1), (1, 1, 0, 0)), "The tricks add up to 2, but the hand has 1")
    # The dealer (Ann, seat 0) bids last.
    refused(sheet, WhistitiEntry((0, 1, 0, 0), (0, 1, 0, 0)), "the last bidder, Ann, may not bid 0")
    sheet = sheet.add(WhistitiEntry((1, 1, 0, 0), (1, 0, 0, 0)))
    assert sheet.hand_size == 2 and sheet.dealer == 1
    refused(sheet, WhistitiEntry((1, 1, 0, 0), (1, 1, 0, 0)), "the last bidder, Ben, may not bid 1")
    down = Sheet.start("whistiti", ("A", "B", "C", "D", "E", "F", "G"), None, {"schedule": "down_up", "players": 7})
    assert down.hand_size == 7 and down.hands_total == 13


def test_an_entry_of_another_game_is_refused() -> None:
    refused(israeli_sheet(), ClassicEntry((7, 6)), "This is a sheet of israeli")
    refused(Sheet.start("whistiti", FOUR), hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)), "sheet of whistiti")


# The course of a game -------------------------------------------------------------------------------


def test_a_cancelled_hand_scores_nothing_and_the_dealer_deals_again() -> None:
    sheet = israeli_sheet(hands=1).add(IsraeliEntry.all_passed())
    score = sheet.scores[0]
    assert score.cancelled and score.points == (0, 0, 0, 0) and score.dealer == 0
    assert sheet.dealer == 0 and sheet.hands_played == 0 and not sheet.over
    sheet = sheet.add(hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)))
    assert sheet.scores[1].dealer == 0 and sheet.scores[1].number == 2
    assert sheet.over and sheet.hands_played == 1 and sheet.dealer == 1


def test_the_dealer_moves_left() -> None:
    sheet = Sheet.start("classic", FOUR)
    for _ in range(5):
        sheet = sheet.add(ClassicEntry((6, 7)))
    assert [s.dealer for s in sheet.scores] == [0, 1, 2, 3, 0]


def test_an_israeli_game_ends_after_its_hands_or_at_the_target() -> None:
    entry = hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4))  # 19, -10, 50, 26
    sheet = israeli_sheet(hands=2).add(entry)
    assert not sheet.over and sheet.hands_total == 2
    sheet = sheet.add(entry)
    assert sheet.over and sheet.places() == (3, 4, 1, 2)
    refused(sheet, entry, "The game is over")
    target = israeli_sheet(hands=0, target=100).add(entry)
    assert not target.over and target.hands_total is None
    assert target.add(entry).over  # Dan reaches 100
    assert israeli_sheet(hands=12, target=50).add(entry).over


def test_a_whistiti_game_ends_with_its_schedule() -> None:
    sheet = Sheet.start("whistiti", FOUR, None, {"schedule": "1,2"})
    sheet = sheet.add(WhistitiEntry((1, 1, 0, 0), (1, 0, 0, 0)))
    sheet = sheet.add(WhistitiEntry((1, 0, 0, 0), (1, 0, 0, 1)))
    assert sheet.over and sheet.totals == (30, 5, 20, 5) and sheet.places() == (1, 3, 2, 3)


def test_classic_honours_count_as_the_engine_counts_them() -> None:
    sheet = Sheet.start("classic", FOUR, "honours")
    sheet = sheet.add(ClassicEntry((7, 6), honours=(4, 0)))  # 1 for the trick, 4 for honours
    assert sheet.scores[0].points == (5, 0, 5, 0) and sheet.scores[0].honours == (4, 0)
    assert sheet.over and sheet.places() == (1, 2, 1, 2)
    sheet = Sheet.start("classic", FOUR, "honours").add(ClassicEntry((7, 6), honours=(1, 3)))
    assert sheet.scores[0].points == (1, 2, 1, 2)
    # At target-1 (4 points) a side may not count honours; nor when tricks win the game.
    sheet = sheet.add(ClassicEntry((6, 7), honours=(1, 3)))  # side B: 1 + 2 -> 5: the game
    assert sheet.over and sheet.games_won == (0, 1)
    sheet = Sheet.start("classic", FOUR, "honours").add(ClassicEntry((10, 3), honours=(0, 4)))
    assert sheet.scores[0].honours == (0, 4) and sheet.scores[0].points == (4, 4, 4, 4)
    sheet = sheet.add(ClassicEntry((6, 7), honours=(3, 1)))  # both at 4: neither counts honours
    assert sheet.scores[1].honours == (0, 0) and sheet.totals[:2] == (4, 5) and sheet.over
    sheet = Sheet.start("classic", FOUR, "honours").add(ClassicEntry((11, 2), honours=(4, 0)))
    assert sheet.scores[0].honours == (0, 0) and sheet.scores[0].points[0] == 5  # tricks win first


def test_a_rubber_is_the_best_of_three_games() -> None:
    sheet = Sheet.start("classic", FOUR, "rubber")
    for tricks in ((12, 1), (1, 12), (13, 0)):  # 6, 6, 7 points: one game each
        assert not sheet.over
        sheet = sheet.add(ClassicEntry(tricks))
    assert sheet.games_won == (2, 1) and sheet.over and sheet.places() == (1, 2, 1, 2)
    assert [s.game_won for s in sheet.scores] == [0, 1, 0]
    assert sheet.game_points == (0, 0) and sheet.totals == (13, 6, 13, 6)


def test_undo_takes_back_the_last_hand() -> None:
    sheet = israeli_sheet(hands=1).add(IsraeliEntry.all_passed())
    sheet = sheet.add(hand(1, 5, SPADES, (3, 5, 0, 4), (3, 6, 0, 4)))
    assert sheet.over
    back = sheet.undo()
    assert not back.over and len(back.scores) == 1 and back.totals == (0, 0, 0, 0) and back.dealer == 0
    assert back.undo() == israeli_sheet(hands=1)
    with pytest.raises(SheetError, match="no hand to take back"):
        back.undo().undo()


# Players and rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "fragment"), [
    ("israeli", ("Ann", "Ben", "Dan"), "Israeli Whist with these rules needs 4 players, not 3: three players"),
    ("classic", ("Ann", "Ben", "Dan", "Eve", "Fay"), "Classic Whist with these rules needs 4 players, not 5"),
    ("whistiti", ("Ann", "Ben"), "Whistiti with these rules needs 4 players, not 2: the option players"),
    ("israeli", ("Ann", "Ben", "Dan", " "), "1 to 40 characters"),
    ("israeli", ("Ann", "Ben", "Dan", "x" * 41), "1 to 40 characters"),
    ("israeli", ("Ann", "Ben", "Dan", "Ev\ne"), "a control character"),
    ("israeli", ("Ann", "Ben", "Dan", "\u202eEve"), "invisible formatting character .U\\+202E"),
    ("israeli", ("Ann", "Ben", "Dan", "E\u200bve"), "invisible formatting character .U\\+200B"),
    ("israeli", ("Ann", "Ben", "Dan", "\u0301"), "needs a letter"),
    ("israeli", ("Ann", "Ben", "Dan", "<b>"), "without < or >"),
    ("israeli", ("Ann", "Ben", "Dan", 7), "a text, not 7"),
    ("israeli", ("Ann", "Ben", "Dan", "Cafe\u0301 ", "Caf\u00e9"), "needs 4 players"),
    ("israeli", ("Ann", "Ben", "Cafe\u0301 ", "Caf\u00e9"), "Two players are called 'Caf\u00e9'"),
    ("israeli", ("Ann", "Ben", "Dan", "ann "), "Two players are called 'ann'"),
    ("israeli", "Ann", "a list of names"),
])
def test_player_names_are_checked(game: str, players: Any, fragment: str) -> None:
    with pytest.raises(SheetError, match=fragment):
        Sheet.start(game, players)


def test_names_are_trimmed_and_rules_come_from_presets_and_options() -> None:
    sheet = Sheet.start("whistiti", (" A ", "B", "C"), None, {"players": "3", "schedule": "up_down"})
    assert sheet.players == ("A", "B", "C") and sheet.hands_total == 33
    with pytest.raises(RulesError, match="Unknown game"):
        Sheet.start("bridge", FOUR)
    with pytest.raises(RulesError, match="No preset"):
        Sheet.start("israeli", FOUR, "nope")
    with pytest.raises(RulesError, match="Unknown option"):
        Sheet.start("israeli", FOUR, None, {"colour": "red"})


# JSON forms -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "data", "fragment"), [
    ("israeli", {"level": 5}, "'declarer' is missing"),
    ("israeli", {"declarer": 0, "level": 5, "strain": "X", "contracts": [], "tricks": []}, "trump strain is one of"),
    ("israeli", {"declarer": 0, "level": True, "strain": "S", "contracts": [], "tricks": []}, "'level' must be"),
    ("israeli", {"declarer": "0", "level": 5, "strain": "S", "contracts": [], "tricks": []}, "'declarer' must be"),
    ("israeli", {"declarer": 0, "level": 5, "strain": "S", "contracts": [1.5], "tricks": []}, "'contracts' must be a"),
    ("israeli", {"declarer": 0, "level": 5, "strain": "S", "contracts": "5", "tricks": []}, "'contracts' must be a"),
    ("israeli", {"declarer": 0, "level": 5, "strain": "S", "contracts": [], "tricks": None}, "'tricks' must be a"),
    ("israeli", {"declarer": 0, "bid": 5}, "Unknown field 'bid'"),
    ("israeli", {"declarer": None, "contracts": [1, 2, 3, 4]}, "everyone passed has no contracts"),
    ("classic", {"tricks": [7, 6, 0]}, "'tricks' must have 2 numbers, not 3"),
    ("classic", {"tricks": [7, 6], "honours": [4]}, "'honours' must have 2 numbers"),
    ("classic", {"tricks": [7, 6], "revokes": [True, 0]}, "'revokes' must be a list"),
    ("whistiti", {"contracts": [1, 0, 0, 1]}, "'tricks' must be a list"),
    ("whistiti", [1, 2], "A hand is a JSON object"),
])
def test_malformed_entries_are_refused(game: str, data: Any, fragment: str) -> None:
    with pytest.raises(SheetError, match=fragment):
        entry_from_dict(game, data)


def test_entries_and_sheets_round_trip_through_json() -> None:
    sheet = israeli_sheet(hands=3, zero_scoring="achim")
    sheet = sheet.add(IsraeliEntry.all_passed())
    sheet = sheet.add(hand(1, 7, NO_TRUMP, (3, 7, 0, 4), (3, 6, 0, 4), revokes=(0, 1, 0, 0), frisch=2))
    data = sheet.to_dict()
    assert data["options"] == {"hands": 3, "zero_scoring": "achim"}
    assert data["hands"][1] == {"declarer": 1, "level": 7, "strain": "NT", "frisch": 2, "contracts": [3, 7, 0, 4],
                                "tricks": [3, 6, 0, 4], "revokes": [0, 1, 0, 0]}
    assert Sheet.from_dict(data) == sheet
    classic = Sheet.start("classic", FOUR, "honours").add(ClassicEntry((7, 6), honours=(1, 3), revokes=(0, 1)))
    assert Sheet.from_dict(classic.to_dict()) == classic
    assert classic.scores[0].to_dict()["entry"] == {"tricks": [7, 6], "honours": [1, 3], "revokes": [0, 1]}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(-1, 4), st.integers(4, 14), st.integers(0, 4),
                          st.lists(st.integers(-1, 14), min_size=4, max_size=4),
                          st.lists(st.integers(-1, 14), min_size=4, max_size=4),
                          st.lists(st.integers(0, 2), min_size=4, max_size=4),
                          st.integers(0, 4)), max_size=14))
def test_any_entries_either_score_or_are_refused(raw: list[Any]) -> None:
    """Whatever is entered, the sheet either refuses it and stays as it was, or scores it: the
    totals are the sums of the hands, and the stored form replays to the same sheet."""
    sheet = israeli_sheet()
    for declarer, level, strain, contracts, tricks, revokes, frisch in raw:
        entry = (IsraeliEntry.all_passed() if declarer < 0
                 else hand(declarer, level, strain, tuple(contracts), tuple(tricks), tuple(revokes), frisch))
        try:
            after = sheet.add(entry)
        except SheetError:
            continue
        new = after.scores[-1]
        if not entry.cancelled:
            assert sum(entry.contracts) != 13 and sum(entry.tricks) == 13
            over = sum(entry.contracts) > 13
            assert new.points == tuple(expected_israeli_points(c, t, over) - 100 * r for c, t, r
                                       in zip(entry.contracts, entry.tricks, entry.revokes, strict=True))
        sheet = after
    assert sheet.totals == tuple(sum(s.points[p] for s in sheet.scores) for p in range(4))
    assert Sheet.from_dict(sheet.to_dict()) == sheet


# Agreement with the engine ----------------------------------------------------------------------------


def entry_of(result: HandResult) -> SheetEntry:
    """What a scorer at the table would enter for a hand the engine played."""
    final = result.final
    game = final.game
    if isinstance(game, IsraeliWhist):
        if result.cancelled:
            return IsraeliEntry.all_passed()
        return IsraeliEntry(declarer=final.declarer, level=bid_level(final.high_bid), strain=bid_strain(final.high_bid),
                            contracts=final.contracts, tricks=final.tricks_won, frisch=final.frisch_round)
    if isinstance(game, ClassicWhist):
        return ClassicEntry(game.side_tricks(final), game.honours_held(final) if game.rules.honours else None)
    return WhistitiEntry(final.contracts, final.tricks_won)


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_sheet_scores_engine_games_as_the_engine_does(config: tuple[str, str | None, dict[str, Any]],
                                                          seed: int) -> None:
    game = game_of(config)
    match = play_match(Match.start(game, seed), random.Random(seed), pass_bias=0.8 if seed == 2 else 0.0)
    names = [f"P{i}" for i in range(game.players)]
    sheet = Sheet.start(game.name, names, None, game.rules.changed_options())
    for result in match.results:
        assert not sheet.over
        assert sheet.dealer == result.final.dealer and sheet.hand_size == result.final.hand_size
        sheet = sheet.add(entry_of(result))
        score = sheet.scores[-1]
        assert score.points == result.points, f"hand {result.number}"
        assert score.honours == result.honours
        if not result.cancelled and not isinstance(game, ClassicWhist):
            assert score.over_under == result.final.over_under
    assert sheet.totals == match.totals
    assert sheet.over and match.over
    assert sheet.places() == match.places()
    assert sheet.hands_played == match.hands_played and sheet.hands_total == match.hands_total
    if isinstance(game, ClassicWhist):
        assert sheet.games_won == match.games_won[:2]
    assert Sheet.from_dict(sheet.to_dict()) == sheet


def test_the_agreement_covers_cancelled_hands_and_honours() -> None:
    """The engine games above include hands that everyone passed and hands with honours."""
    cancelled = honours = 0
    for config in CONFIGS:
        game = game_of(config)
        match = play_match(Match.start(game, 2), random.Random(2), pass_bias=0.8)
        cancelled += sum(r.cancelled for r in match.results)
        honours += sum(any(r.honours) for r in match.results)
    assert cancelled > 0 and honours > 0


def test_errors_are_whist_errors() -> None:
    assert issubclass(SheetError, WhistError) and issubclass(SheetError, ValueError)
    assert expected_whistiti_points(3, 3) == Sheet.start("whistiti", FOUR, None, {"schedule": "3"}).add(
        WhistitiEntry((3, 1, 0, 0), (3, 0, 0, 0))).scores[0].points[0]


def test_three_players_without_clubs_cannot_record_a_clubs_bid() -> None:
    sheet = Sheet.start("israeli", FOUR[:3], "three_no_clubs", {})
    refused(sheet, IsraeliEntry(0, 5, CLUBS, (5, 4, 2), (5, 4, 4)), "no clubs in this pack")
    after = sheet.add(IsraeliEntry(0, 5, DIAMONDS, (5, 4, 2), (5, 4, 4)))
    assert after.hands_played == 1
    # A clubs bid stands in the other three-player forms.
    assert Sheet.start("israeli", FOUR[:3], "three_short_deck", {}).add(
        IsraeliEntry(0, 5, CLUBS, (5, 4, 2), (5, 4, 3))).hands_played == 1


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63) | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
ENTRY_FIELDS = {"israeli": ["declarer", "level", "strain", "contracts", "tricks", "revokes", "frisch", "all_passed"],
                "classic": ["tricks", "honours", "revokes"], "whistiti": ["contracts", "tricks", "revokes"]}
SHEETS = {"israeli": israeli_sheet(), "classic": Sheet.start("classic", FOUR, None, {}),
          "whistiti": Sheet.start("whistiti", FOUR, None, {})}


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from(sorted(ENTRY_FIELDS)), data=st.data())
def test_any_json_entry_is_scored_or_refused_in_one_line(game: str, data: st.DataObject) -> None:
    """A hand entry comes from the web page: any JSON type in any field, numbers of any size, any
    text. It is scored, or refused with a SheetError of one short line."""
    fields = ENTRY_FIELDS[game]
    raw = data.draw(JSON_VALUES | st.dictionaries(st.sampled_from(fields) | st.text(max_size=6), JSON_VALUES,
                                                  max_size=len(fields)))
    sheet = SHEETS[game]
    try:
        after = sheet.add(entry_from_dict(game, raw))
    except SheetError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) < 300, message
    else:
        assert len(after.scores) == len(sheet.scores) + 1


@pytest.mark.parametrize("raw", [{"strain": "x" * 100_000}, {"declarer": 0, "level": 10**5000}, [10**5000],
                                 {"tricks": ["\u202e" * 5000]}, {"\ud800" * 1000: 1}])
def test_huge_and_hostile_values_are_refused_in_a_short_line(raw: Any) -> None:
    with pytest.raises(SheetError) as caught:
        israeli_sheet().add(entry_from_dict("israeli", raw))
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300 and message.isprintable(), message
