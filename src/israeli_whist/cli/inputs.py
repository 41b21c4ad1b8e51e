"""What a person types, read as actions; and the prompt that says what may be typed now.

The prompt always lists the legal choices in typed form (``Your play (legal: 9H QH):``), which
tells the player what to type and lets a script drive the game by reading the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence

from israeli_whist.cli.cardtext import number_ranges, typed_bid, typed_name
from israeli_whist.core.actions import Action, Phase, bid_level, bid_strain, contract_tricks, is_bid, parse_action
from israeli_whist.core.cards import NO_TRUMP, Card, CardSet, parse_card
from israeli_whist.core.digits import leading_digits, read_number
from israeli_whist.core.errors import IllegalActionError, NotationError
from israeli_whist.core.views import SeatView
from israeli_whist.core.wording import count_text, only_tricks

FRISCH_CARDS = 3


def read_card(token: str, shown: Sequence[Card], held: CardSet) -> Card:
    """A card by its number on screen (``3``) or its name (``QH``, ``10c``, ``Q♥``); ``shown`` numbers
    the cards held and those played this hand (``display_order``), so a number of a card played is
    named as such."""
    index = read_number(token)
    if index is None:
        return parse_card(token)
    if not 1 <= index <= len(shown):
        raise NotationError(f"There is no card number {index}: your cards are numbered 1 to {len(shown)}")
    card = shown[index - 1]
    if not held >> card & 1:
        raise IllegalActionError(f"Card {index} was your {typed_name(card)}, played already in this hand")
    return card


def parse_choice(text: str, view: SeatView, shown: Sequence[Card]) -> list[Action]:
    """The actions a line of input stands for (several only when choosing Frisch cards).

    Raises a WhistError with a message for the player; legality is the engine's to check.
    """
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise NotationError("Type your choice, or help for the commands")
    phase = view.phase
    if phase == Phase.PLAY:
        if len(tokens) > 1:
            # "10 c" or "h q" name one card; anything else is more than one.
            try:
                return [parse_card("".join(tokens))]
            except NotationError:
                raise NotationError("Play one card at a time") from None
        return [read_card(tokens[0], shown, view.hand)]
    if phase == Phase.FRISCH:
        left = FRISCH_CARDS - view.frisch_selected.bit_count()
        if len(tokens) > left:
            raise NotationError(f"You have {count_text(left, 'more card')} to choose, not {len(tokens)}")
        cards = [read_card(token, shown, view.hand) for token in tokens]
        if len(set(cards)) < len(cards):
            raise NotationError("You named the same card twice: choose different cards")
        return cards
    if phase == Phase.CONTRACT:
        if len(tokens) > 1:
            raise NotationError("A contract is one number of tricks, like 3")
        return [contract(tokens[0], view.hand_size)]
    if phase == Phase.AUCTION:
        return [auction_call("".join(tokens), view.hand_size)]
    raise NotationError("It is not your turn")


def contract(token: str, tricks: int) -> Action:
    number = read_number(token)
    if number is not None and number > tricks:
        raise IllegalActionError(f"{only_tricks(tricks)}: you cannot bid {number}")
    return parse_action(token, Phase.CONTRACT)


def auction_call(text: str, tricks: int) -> Action:
    digits = leading_digits(text)
    level = read_number(text[:digits])
    if digits < len(text) and level is not None and level > tricks:
        raise IllegalActionError(f"{only_tricks(tricks)}: the highest level is {tricks}")
    return parse_action(text, Phase.AUCTION)


def legal_summary(view: SeatView, shown: Sequence[Card]) -> str:
    """The legal choices in typed form, short enough for a prompt."""
    legal = view.legal_actions
    if view.phase in (Phase.PLAY, Phase.FRISCH):
        allowed = set(legal)
        return " ".join(typed_name(card) for card in shown if card in allowed)
    if view.phase == Phase.CONTRACT:
        return number_ranges([contract_tricks(action) for action in legal])
    bids = [action for action in legal if is_bid(action)]
    if not bids:
        return "pass"
    text = f"pass, or {typed_bid(bids[0])} and higher"
    no_trump = [bid for bid in bids if bid_strain(bid) == NO_TRUMP]
    if no_trump and bid_level(no_trump[0]) > bid_level(bids[0]):
        text += f"; no-trump from {typed_bid(no_trump[0])}"
    elif not no_trump:
        text += "; no no-trump"
    return text


def prompt_text(view: SeatView, shown: Sequence[Card], frisch_to: str = "") -> str:
    legal = legal_summary(view, shown)
    if view.phase == Phase.AUCTION:
        return f"Your call (legal: {legal}): "
    if view.phase == Phase.FRISCH:
        left = FRISCH_CARDS - view.frisch_selected.bit_count()
        what = f"{left} cards" if left == FRISCH_CARDS else count_text(left, "more card")
        return f"Choose {what} to pass to {frisch_to} (legal: {legal}): "
    if view.phase == Phase.CONTRACT:
        return f"Your {view.rules.traits.contract_word} (legal: {legal}): "
    return f"Your play (legal: {legal}): "
