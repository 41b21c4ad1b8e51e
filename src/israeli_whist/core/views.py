"""What one seat may see. The only place that decides it: the terminal, the bots and later
the server and the research environments all read a seat's view, never the full state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import CardSet
from israeli_whist.core.rules import Rules
from israeli_whist.core.state import Call, HandState, Trick


@dataclass(frozen=True)
class SeatView:
    game: str
    rules: Rules  # the table's rules are public
    seat: int  # -1: a spectator, who sees no hidden card
    players: int
    dealer: int
    phase: Phase
    player: int  # seat to act, -1 when the hand is over
    hand: CardSet  # this seat's cards now (0 for a spectator)
    hand_size: int
    legal_actions: tuple[Action, ...]  # what this seat may do now; empty when it is not its turn
    calls: tuple[Call, ...]
    high_bid: Action
    declarer: int
    trump: int
    frisch_round: int
    frisch_offset: int  # how many seats to the left the cards of the Frisch under way travel; 0 outside one
    frisch_selected: CardSet  # the cards this seat has chosen in the Frisch under way
    frisch_passed: tuple[CardSet, ...]  # per completed Frisch round, the cards this seat passed
    frisch_received: tuple[CardSet, ...]  # ... and the cards it received
    contracts: tuple[int, ...]
    leader: int
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick under way
    tricks: tuple[Trick, ...]  # completed tricks: every player saw them played
    tricks_won: tuple[int, ...]
    turned_card: int  # a card face up for all to see, -1 when none is
    revealed: tuple[CardSet, ...]  # once the hand is over, every seat's cards as dealt; () before
    scores: tuple[int, ...]  # points of the hand once it is over, zeros before
    over_under: str | None

    @property
    def last_trick(self) -> Trick | None:
        """The trick before, while the seat may look at it again. Classic Whist closes it once the
        next trick is led (docs/rules.md#classic-whist-play): from then on it is None, so that the
        terminal, the full-screen view and the web table, which all read it here, cannot show it.
        ``tricks`` still holds it, as a player remembers the cards played."""
        if not self.tricks or (self.trick and not self.rules.traits.last_trick_open):
            return None
        return self.tricks[-1]

    @property
    def is_my_turn(self) -> bool:
        return self.seat >= 0 and self.player == self.seat

    @property
    def frisch_to(self) -> int:
        """The seat this seat's cards go to in the Frisch under way (a seated view's question)."""
        return (self.seat + self.frisch_offset) % self.players


def turned_card_visible(state: HandState) -> bool:
    """Classic Whist shows the trump card until the dealer plays it or the first trick ends;
    Whistiti's trump card (from the stock) stays face up all hand."""
    card = state.turned_card
    if card < 0:
        return False
    if state.deal[state.dealer] >> card & 1:  # the card was dealt to the dealer: Classic Whist
        return not state.tricks and bool(state.hands[state.dealer] >> card & 1)
    return True


def seat_view(state: HandState, seat: int) -> SeatView:
    """Everything ``seat`` may know about ``state`` (``seat=-1`` for a spectator)."""
    n = state.players
    mine = 0 <= seat < n
    passed: Sequence[tuple[CardSet, ...]] = state.frisch_passes
    offsets = [state.game.frisch_offset(r) for r in range(len(passed))] if passed else []
    over = state.is_terminal
    trick = tuple(((state.leader + i) % n, card) for i, card in enumerate(state.trick))
    return SeatView(
        game=state.game.name,
        rules=state.game.rules,
        seat=seat if mine else -1,
        players=n,
        dealer=state.dealer,
        phase=state.phase,
        player=state.player,
        hand=state.hands[seat] if mine else 0,
        hand_size=state.hand_size,
        legal_actions=tuple(state.legal_actions()) if mine and state.player == seat else (),
        calls=state.calls,
        high_bid=state.high_bid,
        declarer=state.declarer,
        trump=state.trump,
        frisch_round=state.frisch_round,
        # Asked only during a Frisch: after the last round there is no next direction to tell.
        frisch_offset=state.game.frisch_offset(state.frisch_round) if state.phase == Phase.FRISCH else 0,
        frisch_selected=state.frisch_selected[seat] if mine else 0,
        frisch_passed=tuple(p[seat] for p in passed) if mine else (),
        frisch_received=tuple(p[(seat - offsets[r]) % n] for r, p in enumerate(passed)) if mine else (),
        contracts=state.contracts,
        leader=state.leader,
        trick=trick,
        tricks=state.tricks,
        tricks_won=state.tricks_won,
        turned_card=state.turned_card if turned_card_visible(state) else -1,
        revealed=state.deal if over and state.phase == Phase.OVER else (),
        scores=state.scores(),
        over_under=state.over_under,
    )


def hidden_cards(state: HandState, seat: int) -> CardSet:
    """The cards ``seat`` must not see now: the others' hands and the unseen cards, less
    what is face up. Used by tests to prove that no view leaks a card."""
    hidden = state.unseen
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= hand
    if turned_card_visible(state):
        hidden &= ~(1 << state.turned_card)
    if 0 <= seat < state.players:
        # Cards this seat passed in a Frisch are in a neighbour's hand, but it knows them.
        for round_passes in state.frisch_passes:
            hidden &= ~round_passes[seat]
    return hidden
