"""Our bots in a seat of OpenSpiel's own ``oh_hell``: the one public game of this family.

A bot sees a ``SeatView``. For a seat of an ``oh_hell`` state it is made from what that seat's
information state tensor says (``information_state_tensor(player)``: the number of tricks, the
dealer, the trump card, the seat's own cards, the bids, and every card played, trick by trick),
never from the state's history, which holds every deal. From it a Whistiti hand under the
``oh_hell`` preset (``first_lead=left_of_dealer``) is rebuilt, the bids and cards are replayed
through the engine, and ``seat_view`` gives the view.

In the rebuilt hand the other seats hold only the cards they have played so far: the view
hides their hands anyway, and a hand rebuilt from nothing the seat cannot know cannot leak. The
engine still checks every replayed card: a seat that did not follow suit holds no card of that
suit among those it plays later, since it had none.

Cards: ``oh_hell`` numbers a card ``rank * 4 + suit`` with suits in the order clubs, diamonds,
spades, hearts (its ``C2 D2 S2 H2 C3 ...``); ours are ``suit * 13 + rank`` with clubs,
diamonds, hearts, spades. A bid of ``n`` is ``52 + n`` there, ``contract_action(n)`` here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from israeli_whist.bots.players.base import Bot
from israeli_whist.core.actions import Action, contract_action, contract_tricks, is_card, is_contract
from israeli_whist.core.cards import CLUBS, DECK_SIZE, DIAMONDS, HEARTS, SPADES, CardSet
from israeli_whist.core.games import game_for_rules, make_rules
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view

OH_HELL_SUITS = (CLUBS, DIAMONDS, SPADES, HEARTS)  # oh_hell's suit order, as our suits
OH_HELL_BID_BASE = DECK_SIZE  # oh_hell's bid of n is this + n


def our_card(card: int) -> int:
    """Our card for an ``oh_hell`` card.

    >>> from israeli_whist.core.cards import card_name
    >>> [card_name(our_card(c)) for c in (0, 2, 3, 51)]
    ['2C', '2S', '2H', 'AH']
    """
    return OH_HELL_SUITS[card % 4] * 13 + card // 4


def oh_hell_card(card: int) -> int:
    """The ``oh_hell`` card for one of ours (``our_card``'s inverse)."""
    return (card % 13) * 4 + OH_HELL_SUITS.index(card // 13)


def oh_hell_action(action: Action) -> int:
    """The ``oh_hell`` action for our card or contract."""
    if is_card(action):
        return oh_hell_card(action)
    if is_contract(action):
        return OH_HELL_BID_BASE + contract_tricks(action)
    raise ValueError(f"oh_hell has no action for {action}: only cards and bids")


def our_action(action: int) -> Action:
    """Our card or contract for an ``oh_hell`` play or bid action."""
    return our_card(action) if action < DECK_SIZE else contract_action(action - OH_HELL_BID_BASE)


@dataclass(frozen=True)
class OhHellInfo:
    """What one seat of an ``oh_hell`` hand knows, read from its information state tensor."""

    players: int
    seat: int
    tricks: int  # cards each seat is dealt
    dealer: int
    trump_card: int  # ours
    dealt: CardSet  # this seat's cards as dealt (ours)
    bids: tuple[int, ...]  # -1: not bid yet
    played: tuple[tuple[int, tuple[int, ...]], ...]  # (leader, cards in order), the trick under way last


def check_game(game: pyspiel.Game) -> None:
    """The adapter plays ``oh_hell`` with a full pack and Whistiti's scores."""
    if game.get_type().short_name != "oh_hell":
        raise ValueError(f"Not an oh_hell game: {game}")
    params = game.get_parameters()
    if params.get("num_suits", 4) != 4 or params.get("num_cards_per_suit", 13) != 13:
        raise ValueError(f"Our bots play oh_hell with a full pack (num_suits=4, num_cards_per_suit=13): {game}")
    if not params.get("off_bid_penalty", False) or params.get("points_per_trick", 1) != 5:
        raise ValueError("Our bots play oh_hell scored as Whistiti is (off_bid_penalty=true, points_per_trick=5); "
                         f"not {game}")


def read_information(state: pyspiel.State, seat: int) -> OhHellInfo:
    """A seat's knowledge from ``state.information_state_tensor(seat)`` (OpenSpiel's
    ``OhHellState::InformationStateTensor``, read back field by field)."""
    game = state.get_game()
    n = game.num_players()
    # oh_hell's MaxNumTricks: the fixed number of tricks, or the most a pack leaves one card to turn up.
    fixed = int(game.get_parameters().get("num_tricks_fixed", -1))
    most = fixed if fixed > 0 else (DECK_SIZE - 1) // n
    tensor = np.asarray(state.information_state_tensor(seat))
    offset = 0

    def take(length: int) -> Any:
        nonlocal offset
        part = tensor[offset:offset + length]
        offset += length
        return part

    tricks = int(np.argmax(take(most))) + 1
    dealer = int(np.argmax(take(n)))
    trump_card = our_card(int(np.argmax(take(DECK_SIZE))))
    dealt = sum(1 << our_card(int(c)) for c in np.flatnonzero(take(DECK_SIZE)))
    take(DECK_SIZE)  # the seat's cards now: its cards as dealt less those it played
    bids = tuple(int(np.argmax(take(most + 2))) - 1 for _ in range(n))
    take(n * most)  # tricks won so far: the engine counts them from the cards
    played = []
    # Each trick is 2n - 1 slots of 52: the leader's card in slot ``leader``, the next in the next.
    for slots in take(most * (2 * n - 1) * DECK_SIZE).reshape(most, 2 * n - 1, DECK_SIZE):
        filled = [(slot, our_card(int(np.argmax(row)))) for slot, row in enumerate(slots) if row.any()]
        if not filled:
            break
        played.append((filled[0][0] % n, tuple(card for _, card in filled)))
    if offset != len(tensor):
        raise ValueError(f"oh_hell's information state has {len(tensor)} numbers, not the {offset} read")
    return OhHellInfo(n, seat, tricks, dealer, trump_card, dealt, bids, tuple(played))


def whistiti_hand(info: OhHellInfo) -> HandState:
    """The Whistiti hand (``oh_hell`` preset) as the seat knows it: its own cards, the others
    holding only what they have played, the bids and cards replayed by the engine."""
    rules = make_rules("whistiti", "oh_hell", {"players": info.players, "schedule": str(info.tricks)})
    game = game_for_rules(rules)
    n = info.players
    hands = [0] * n
    hands[info.seat] = info.dealt
    for leader, cards in info.played:
        for i, card in enumerate(cards):
            hands[(leader + i) % n] |= 1 << card
    everything = sum(hands) | 1 << info.trump_card
    unseen = ((1 << DECK_SIZE) - 1) & ~everything
    state = game.start_hand(info.dealer, tuple(hands), unseen, info.trump_card, info.tricks, checked=False)
    for i in range(n):
        bid = info.bids[(info.dealer + 1 + i) % n]
        if bid < 0:
            break
        state = state.apply(contract_action(bid))
    for _, cards in info.played:
        for card in cards:
            state = state.apply(card)
    return state


def oh_hell_view(state: pyspiel.State, seat: int) -> SeatView:
    """The ``SeatView`` of ``seat`` in an ``oh_hell`` state (bidding or play), checked against
    ``oh_hell``: the same seat to act and, on its turn, the same legal actions."""
    check_game(state.get_game())
    if state.is_chance_node() or state.is_terminal():
        raise ValueError("A seat's view of oh_hell is made during the bidding and the play only")
    view = seat_view(whistiti_hand(read_information(state, seat)), seat)
    if view.player != state.current_player():
        raise ValueError(f"The rebuilt hand has seat {view.player} to act; oh_hell has {state.current_player()}")
    if view.is_my_turn:
        ours = legal_in_oh_hell(view)
        if ours != list(state.legal_actions()):
            raise ValueError(f"The rebuilt hand allows {ours}; oh_hell allows {state.legal_actions()}")
    return view


class OhHellBot(pyspiel.Bot):  # type: ignore[misc]
    """One of our bots playing its seat of ``oh_hell`` as an OpenSpiel bot (``step``)."""

    def __init__(self, bot: Bot) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: pyspiel.State) -> int:
        view = oh_hell_view(state, state.current_player())
        return oh_hell_action(self.bot.choose(view))

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def provides_policy(self) -> bool:
        return False


def legal_in_oh_hell(view: SeatView) -> list[int]:
    """The seat's legal actions as ``oh_hell`` numbers them."""
    return sorted(oh_hell_action(a) for a in view.legal_actions)
