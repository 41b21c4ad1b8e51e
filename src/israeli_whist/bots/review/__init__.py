"""The review of a finished game: every decision of every seat valued in expected points from
what that seat knew, its cost and verdict, accuracy, the deal's par and where each seat's points
went; and hints at the table from the same search (docs/review.md)."""

from israeli_whist.bots.review.game import GameReview, hand_numbers, merge_hands, review_hand, review_record
from israeli_whist.bots.review.hand import DecisionReview, HandReview
from israeli_whist.bots.review.hints import Hint, hint_for, hint_json
from israeli_whist.bots.review.jsonform import review_json
from israeli_whist.bots.review.settings import ReviewSettings, Thresholds, thresholds_for

__all__ = ["DecisionReview", "GameReview", "HandReview", "Hint", "ReviewSettings", "Thresholds", "hand_numbers",
           "hint_for", "hint_json", "merge_hands", "review_hand", "review_json", "review_record", "thresholds_for"]
