"""The rules engine: cards and actions, rule options and each game's traits, states, scoring,
the views a seat may see, records, and the games' registry (``israeli_whist.core.games``). It
imports the standard library only, so the rules can be read, tested and reused without anything
else; every other package builds on it."""

from israeli_whist.core.actions import PASS, Action, Phase, action_name, bid_action, contract_action, parse_action
from israeli_whist.core.cards import Card, CardSet, card_name, hand_name, parse_card, parse_hand
from israeli_whist.core.errors import IllegalActionError, NotationError, RecordError, RulesError, WhistError
from israeli_whist.core.games import GAMES, make_game, make_rules, register_game
from israeli_whist.core.games.classic import ClassicRules, ClassicWhist
from israeli_whist.core.games.israeli import IsraeliRules, IsraeliWhist
from israeli_whist.core.games.whistiti import Whistiti, WhistitiRules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import HandResult, Match
from israeli_whist.core.rules import Rules
from israeli_whist.core.state import HandState
from israeli_whist.core.traits import GameTraits
from israeli_whist.core.views import SeatView, seat_view

__all__ = [
    "GAMES", "PASS", "Action", "Card", "CardSet", "ClassicRules", "ClassicWhist", "GameTraits", "HandGame",
    "HandResult", "HandState", "IllegalActionError", "IsraeliRules", "IsraeliWhist", "Match", "NotationError", "Phase",
    "RecordError", "Rules", "RulesError", "SeatView", "WhistError", "Whistiti", "WhistitiRules", "action_name",
    "bid_action", "card_name", "contract_action", "hand_name", "make_game", "make_rules", "parse_action",
    "parse_card", "parse_hand", "register_game", "seat_view",
]
