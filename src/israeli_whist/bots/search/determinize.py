"""A full hand state from a seat's view and one sampled deal: the position the search bots
imagine, on which the engine's own rules and scoring then run.

The trump auction, the contract bidding and the card play are rebuilt: every public fact of
those phases is in the view. The cards other seats passed in earlier Frisch rounds are not
known and not needed to go on, so they are left blank. A Frisch under way is rebuilt from its
start, since the cards the others chose are not known: the caller chooses them again. The states are for looking ahead,
never for the table's record, so the action log starts empty.
"""

from __future__ import annotations

from collections.abc import Sequence

from israeli_whist.bots.judgement.basic_knowledge import played_by_seat
from israeli_whist.bots.search.sampling import game_pack
from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.cards import CardSet
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView


def state_for(view: SeatView, hands: Sequence[CardSet]) -> HandState:
    """The hand as it stands in ``view`` with the seats holding ``hands`` now (a deal drawn
    by ``israeli_whist.bots.search.sampling``): in the trump auction, the contract bidding or the play; a
    Frisch as it was before anyone chose a card (``hands`` as they were then)."""
    if view.phase not in (Phase.AUCTION, Phase.FRISCH, Phase.CONTRACT, Phase.PLAY):
        raise ValueError(f"a hand that is {view.phase.name.lower()} is not rebuilt")
    game = game_for_rules(view.rules)
    played = played_by_seat(view)
    dealt = tuple(h | p for h, p in zip(hands, played, strict=True))
    everything = 0
    for cards in dealt:
        everything |= cards
    unseen = game_pack(view) & ~everything
    start = game.start_hand(view.dealer, dealt, unseen, view.turned_card, view.hand_size, checked=False)
    frisch = view.phase == Phase.FRISCH
    return start._replace(
        hands=tuple(hands), phase=view.phase, player=start.player if frisch else view.player, calls=view.calls,
        high_bid=view.high_bid, declarer=view.declarer, frisch_round=view.frisch_round, trump=view.trump,
        contracts=view.contracts, leader=view.leader, trick=tuple(card for _, card in view.trick), tricks=view.tricks,
        tricks_won=view.tricks_won, passes=0 if frisch else trailing_passes(view),
        frisch_passes=((0,) * view.players,) * view.frisch_round, is_terminal=False)


def trailing_passes(view: SeatView) -> int:
    """Passes in a row at the end of this round's trump calls (the auction ends on them)."""
    passes = 0
    for round_, _, action in reversed(view.calls):
        if round_ != view.frisch_round or action != PASS:
            break
        passes += 1
    return passes


def own_points(state: HandState, seat: int) -> tuple[int, ...]:
    """``seat``'s points for the hand by its final count of tricks (the index), from the game's
    own scoring, in a game where each seat plays for its own contract: its points then depend on
    its own tricks alone, the contracts (and so over or under) being fixed once play starts."""
    n = state.players
    return tuple(state.game.hand_scores(state._replace(tricks_won=tuple(t if s == seat else 0 for s in range(n))))[seat]
                 for t in range(state.hand_size + 1))
