"""How the basic bot plays its cards.

Israeli Whist and Whistiti: each seat plays for its own contract, taking tricks while it needs
them and shedding them once it has enough. Classic Whist: the partners play for their side
with the old rules of thumb (second hand low, third hand high, never overtake the partner,
ruff the opponents' tricks, lead from strength, return the partner's suit).
"""

from __future__ import annotations

from israeli_whist.bots.judgement.basic_knowledge import Knowledge
from israeli_whist.core.cards import SUIT_MASKS, SUITS, Card, Suit, cards_in
from israeli_whist.core.views import SeatView


def play_card(view: SeatView) -> Card:
    kn = Knowledge.from_view(view)
    if len(kn.legal) == 1:
        return kn.legal[0]
    if view.rules.traits.partnerships:
        return classic_card(kn, partner_suits(view))
    if not view.rules.traits.contracts:  # no contract to keep under: every trick is worth taking
        return win_trick(kn, urgent=False)
    need = view.contracts[kn.seat] - view.tricks_won[kn.seat]
    if need > 0:
        return win_trick(kn, urgent=need >= kn.tricks_left)
    return lose_trick(kn)


# Shared choices ------------------------------------------------------------------------------


def least_useful(kn: Knowledge, cards: tuple[Card, ...] | list[Card]) -> Card:
    """A discard that costs little: a side-suit card with many higher cards out, low first."""
    return min(cards, key=lambda c: (c // 13 == kn.trump, -kn.higher_out(c), c % 13))


def most_dangerous(kn: Knowledge, cards: list[Card]) -> Card:
    """A discard that would most likely take a later trick: few higher cards out, high first."""
    return max(cards, key=lambda c: (-kn.higher_out(c), c // 13 == kn.trump, c % 13))


def cheapest(kn: Knowledge) -> Card:
    """The card to give up a trick with: the lowest of the suit led, or the least useful discard."""
    return min(kn.legal) if kn.following else least_useful(kn, kn.legal)


def suit_order(kn: Knowledge) -> list[Suit]:
    """Suits held, longest first; the trump suit last, since trumps are kept for ruffing."""
    held = [s for s in SUITS if kn.hand & SUIT_MASKS[s]]
    return sorted(held, key=lambda s: (s == kn.trump, -(kn.hand & SUIT_MASKS[s]).bit_count(), -s))


def lead_from_length(kn: Knowledge) -> Card:
    """Top of a sequence of honours (it drives out the cards above), else the lowest card."""
    suit = suit_order(kn)[0]
    cards = cards_in(kn.hand & SUIT_MASKS[suit])
    top = cards[-1]
    if len(cards) >= 2 and cards[-2] == top - 1 and top % 13 >= 9:
        return top
    return cards[0]


# Israeli Whist and Whistiti: play for one's own contract ---------------------------------------


def win_trick(kn: Knowledge, urgent: bool) -> Card:
    if kn.leading:
        return lead_to_win(kn)
    winners = [c for c in kn.legal if kn.wins_now(c)]
    if not winners:
        return cheapest(kn)
    safe = [c for c in winners if not kn.could_be_beaten(c, kn.later)]
    if safe:
        return min(safe)
    if urgent or not kn.following:
        return min(winners)  # a ruff is cheap; and with no tricks to spare, any chance counts
    hopeful = [c for c in winners if kn.higher_out(c) <= 1]
    return min(hopeful) if hopeful else cheapest(kn)


def lead_to_win(kn: Knowledge) -> Card:
    sure = [c for c in kn.legal if not kn.could_be_beaten(c, kn.others())]
    if sure:
        # Sure trumps first while others may hold trumps: drawing them keeps the side winners safe.
        sure_trumps = [c for c in sure if c // 13 == kn.trump]
        side = [c for c in sure if c // 13 != kn.trump]
        return min(sure_trumps if sure_trumps and kn.trumps_out() else side or sure_trumps)
    if kn.trump in SUITS and kn.hand & SUIT_MASKS[kn.trump]:
        # Lead a singleton so that the suit can be ruffed next time.
        singles = [c for c in kn.legal if c // 13 != kn.trump and (kn.hand & SUIT_MASKS[c // 13]).bit_count() == 1]
        if singles:
            return min(singles)
    return lead_from_length(kn)


def lose_trick(kn: Knowledge) -> Card:
    if kn.leading:
        # A card that someone else will surely beat; trumps last, since others may have none.
        return min(kn.legal, key=lambda c: (not kn.could_be_beaten(c, kn.others()), c // 13 == kn.trump,
                                            -kn.higher_out(c), c % 13))
    losers = [c for c in kn.legal if not kn.wins_now(c)]
    if losers:
        return max(losers) if kn.following else most_dangerous(kn, losers)
    if any(kn.could_be_beaten(c, kn.later) for c in kn.legal):
        return min(kn.legal)  # the lowest card gives the later seats the best chance to overtake
    return max(kn.legal)  # the trick is this seat's anyway: spend the card most likely to win later


# Classic Whist: play for the side ------------------------------------------------------------


def partner_suits(view: SeatView) -> list[Suit]:
    """Suits the partner has led, most recent first."""
    partner = (view.seat + 2) % view.players
    led = [cards[0] // 13 for leader, cards, _ in view.tricks if leader == partner]
    return list(dict.fromkeys(reversed(led)))


def classic_card(kn: Knowledge, partner_led: list[Suit]) -> Card:
    partner = (kn.seat + 2) % 4
    opponents_later = [s for s in kn.later if s != partner]
    if kn.leading:
        return classic_lead(kn, partner_led)
    seat, best = kn.winner
    if seat == partner and not kn.could_be_beaten(best, opponents_later):
        return cheapest(kn)  # never overtake a partner who holds the trick
    winners = [c for c in kn.legal if kn.wins_now(c)]
    if not winners:
        return cheapest(kn)
    safe = [c for c in winners if not kn.could_be_beaten(c, opponents_later)]
    if safe:
        return min(safe)
    if seat == partner:
        # The partner may lose the trick to the last seat: third hand high makes it pay dearly.
        return max(winners) if kn.following else cheapest(kn)
    if not kn.following:
        return min(winners)  # ruff the opponents' trick
    if len(kn.trick) == 1:
        return cheapest(kn)  # second hand low: the partner plays last
    return max(winners)


def classic_lead(kn: Knowledge, partner_led: list[Suit]) -> Card:
    opponents = ((kn.seat + 1) % 4, (kn.seat + 3) % 4)
    sure = [c for c in kn.legal if c // 13 != kn.trump and not kn.could_be_beaten(c, opponents)]
    if sure:
        return min(sure)
    trumps = cards_in(kn.hand & SUIT_MASKS[kn.trump])
    if len(trumps) >= 5:
        # Drawing trumps protects the long suits of a trump-rich side.
        return trumps[-1] if not kn.could_be_beaten(trumps[-1], opponents) else trumps[0]
    for suit in partner_led:
        cards = cards_in(kn.hand & SUIT_MASKS[suit])
        if cards:
            return cards[-1] if len(cards) <= 2 else cards[0]
    return lead_from_length(kn)
