"""The ``basic`` bot: a rule-based player for every decision of the three games.

It sees only its seat's view. Calls and bids come from an estimate of the tricks its hand
will take (``basic_bidding``); cards from a few rules of thumb about the trick under way and
the cards already played (``basic_play``). It needs no randomness: the same view always gets
the same answer.
"""

from __future__ import annotations

from israeli_whist.bots.judgement.basic_bidding import auction_call, contract_bid, frisch_card
from israeli_whist.bots.judgement.basic_play import play_card
from israeli_whist.bots.players.base import Bot
from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.views import SeatView


class BasicBot(Bot):
    """Bids what its hand is worth, then plays to make exactly that (or, in Classic Whist,
    to win tricks for its side)."""

    level = "basic"

    def choose(self, view: SeatView) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        if view.phase == Phase.AUCTION:
            return auction_call(view)
        if view.phase == Phase.FRISCH:
            return frisch_card(view)
        if view.phase == Phase.CONTRACT:
            return contract_bid(view)
        return play_card(view)
