"""Deals consistent with what one seat has seen, drawn uniformly: the building block of the
search bots, which solve many such deals and vote.

Everything is computed from a ``SeatView`` only, so a sample can never carry a hidden card.

The constraints (``deal_constraints``):

- the *unseen* cards, whose place the seat does not know: the game's pack less its own hand,
  the cards played, a face-up card, and the cards it passed in a Frisch whose holder it knows;
- how many cards each other seat holds now, and how many unseen cards lie in nobody's hand
  (the *stock*: Whistiti's undealt cards, the cards a three-player Israeli form leaves out);
- the suits each seat has shown out of (it failed to follow, so it holds none of them);
- cards known to be in a seat's hand: Frisch cards this seat passed to it and nobody could
  have passed on, and Classic Whist's turned-up trump card while it is on show;
- Frisch cards this seat passed whose holder may have passed them on again: they are in one of
  a few hands, never in the stock.

The sampler (``DealSampler``) is exact. Unseen cards with the same set of allowed places are
interchangeable, so they form one *group*; a deal is then a matrix ``X[group][place]`` of
counts (row sums: group sizes; column sums: the free room of each place; zero where a place is
not allowed) plus a choice of which cards of each group go where. The deals with matrix ``X``
number ``W(X) = prod_g size_g! / prod_{g,p} X[g][p]!``. The sampler draws ``X`` with probability
``W(X) / W`` (``W`` the number of all consistent deals) one row at a time, weighting each choice
of a row by the number of ways to complete the rest (a memoised count over the remaining column
sums), then deals each group's cards to its places by a uniform shuffle, which gives each of the
``W(X)`` deals of ``X`` the chance ``1 / W(X)``. So every consistent deal has the chance ``1 / W``.
The rows are the groups or the places, whichever are more, so the memo is over the shorter
vector (``prod_p c_p! / prod X!`` is proportional to ``W(X)`` when the places are rows).
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from israeli_whist.bots.judgement.basic_knowledge import played_cards, shown_voids
from israeli_whist.core.cards import SUIT_MASKS, CardSet, card_set, iter_cards
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.views import SeatView

Deal = tuple[CardSet, ...]  # each seat's cards now, by seat


class InconsistentViewError(ValueError):
    """No deal fits what the seat has seen (a view the engine cannot produce)."""


@dataclass(frozen=True)
class DealConstraints:
    """What a seat knows about where the cards it cannot see are now."""

    seat: int  # -1: a spectator, who holds nothing
    hand: CardSet  # the seat's own cards
    counts: tuple[int, ...]  # cards each seat holds now
    unseen: CardSet  # cards whose place is not known: in another hand or in the stock
    known: tuple[CardSet, ...]  # per seat, cards known to be in its hand (not in ``unseen``)
    voids: tuple[int, ...]  # per seat, a bit per suit it has shown out of
    candidates: tuple[CardSet, ...]  # per seat, the unseen cards it may hold (empty for the seat itself)
    stock_count: int  # unseen cards in nobody's hand
    stock_candidates: CardSet  # the unseen cards that may be in the stock

    @property
    def players(self) -> int:
        return len(self.counts)

    def others(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s != self.seat)

    def free(self, seat: int) -> int:
        """How many unseen cards ``seat`` holds."""
        return self.counts[seat] - self.known[seat].bit_count()

    def is_consistent(self, hands: Sequence[CardSet], stock: CardSet | None = None) -> bool:
        """Whether ``hands`` (each seat's cards now) fit every constraint; ``stock``, if given,
        must be the unseen cards in nobody's hand."""
        if len(hands) != self.players:
            return False
        placed = 0
        for s, cards in enumerate(hands):
            if cards.bit_count() != self.counts[s] or cards & placed:
                return False
            placed |= cards
            if s == self.seat:
                if cards != self.hand:
                    return False
                continue
            if cards & self.known[s] != self.known[s] or cards & ~self.known[s] & ~self.candidates[s]:
                return False
        rest = self.unseen & ~placed
        if rest.bit_count() != self.stock_count or rest & ~self.stock_candidates:
            return False
        return stock is None or stock == rest


def game_pack(view: SeatView) -> CardSet:
    """Every card of the game's pack (a three-player Israeli form leaves some out)."""
    return view.rules.deck_mask


def stock_size(view: SeatView) -> int:
    """Cards of the pack dealt to nobody and not face up."""
    undealt = game_pack(view).bit_count() - view.players * view.hand_size
    if view.rules.traits.turned_card == "stock" and view.turned_card >= 0:
        undealt -= 1  # the stock's top card is face up
    return undealt


def frisch_holders(view: SeatView) -> dict[int, int]:
    """For each card this seat passed in a Frisch and did not get back, a bit per seat that may
    hold it now: the seat it went to, and whoever that seat may have passed it to later (never
    this seat, which saw exactly what it received)."""
    me, n = view.seat, view.players
    game = game_for_rules(view.rules)
    holders: dict[int, int] = {}
    for r, (passed, received) in enumerate(zip(view.frisch_passed, view.frisch_received, strict=True)):
        offset = game.frisch_offset(r)
        for card, seats in holders.items():
            moved = 0
            for s in range(n):
                if seats >> s & 1 and (s + offset) % n != me:
                    moved |= 1 << (s + offset) % n
            holders[card] = seats | moved
        for card in iter_cards(received):
            holders.pop(card, None)
        for card in iter_cards(passed):
            holders[card] = 1 << (me + offset) % n
    return holders


def deal_constraints(view: SeatView, remembered: Mapping[int, CardSet] | None = None) -> DealConstraints:
    """The constraints on the cards ``view.seat`` cannot see, from its view alone, and from
    ``remembered``: cards each seat is known to hold from what earlier views showed (Classic
    Whist's turned-up trump stays in the dealer's hand after the first trick, face down)."""
    n, me = view.players, view.seat
    played = played_cards(view)
    in_trick = {s for s, _ in view.trick}
    counts = tuple(view.hand_size - len(view.tricks) - (s in in_trick) for s in range(n))
    if me >= 0 and view.hand.bit_count() != counts[me]:
        raise InconsistentViewError(f"Seat {me} holds {view.hand.bit_count()} cards, not {counts[me]}")
    voids = shown_voids(view)
    known = [0] * n
    unseen = game_pack(view) & ~view.hand & ~played
    if view.turned_card >= 0:
        unseen &= ~(1 << view.turned_card)
        if view.rules.traits.turned_card == "dealer" and view.dealer != me:
            known[view.dealer] |= 1 << view.turned_card  # on show, and still in the dealer's hand
    for seat, cards in (remembered or {}).items():
        if seat != me:
            known[seat] |= cards & unseen
            unseen &= ~cards
    # Frisch cards whose holder is one of a few seats: the places that may hold each.
    restricted: dict[int, int] = {}
    for card, seats in frisch_holders(view).items():
        if not unseen >> card & 1:
            continue  # played since
        for s in range(n):
            if voids[s] >> (card // 13) & 1:
                seats &= ~(1 << s)
        if not seats:
            raise InconsistentViewError(f"No seat may hold card {card}, which this seat passed")
        if seats.bit_count() == 1:
            known[seats.bit_length() - 1] |= 1 << card
            unseen &= ~(1 << card)
        else:
            restricted[card] = seats
    candidates = []
    for s in range(n):
        if s == me:
            candidates.append(0)
            continue
        allowed = unseen
        for suit in range(4):
            if voids[s] >> suit & 1:
                allowed &= ~SUIT_MASKS[suit]
        for card, seats in restricted.items():
            if not seats >> s & 1:
                allowed &= ~(1 << card)
        candidates.append(allowed)
    return DealConstraints(
        seat=me if me >= 0 else -1, hand=view.hand, counts=counts, unseen=unseen, known=tuple(known),
        voids=voids, candidates=tuple(candidates), stock_count=stock_size(view),
        stock_candidates=unseen & ~card_set(restricted))


# Counting and drawing matrices with given row and column sums -----------------------------


def _row_choices(total: int, room: tuple[int, ...], allowed: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every vector ``x`` with ``sum(x) == total``, ``x[c] <= room[c]`` and ``x[c] == 0`` outside
    ``allowed`` (column indices)."""
    x = [0] * len(room)
    reach = [0] * (len(allowed) + 1)  # how much the allowed columns from i on can take
    for i in range(len(allowed) - 1, -1, -1):
        reach[i] = reach[i + 1] + room[allowed[i]]

    def fill(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(allowed):
            if not left:
                yield tuple(x)
            return
        c = allowed[i]
        for k in range(max(0, left - reach[i + 1]), min(left, room[c]) + 1):
            x[c] = k
            yield from fill(i + 1, left - k)
        x[c] = 0

    return fill(0, total)


def _multinomial(total: int, parts: tuple[int, ...]) -> int:
    out = factorial(total)
    for k in parts:
        out //= factorial(k)
    return out


@dataclass(frozen=True)
class SplitTable:
    """``DealSampler.draw_counts`` as a table that a compiled loop walks: one node for each
    row to fill and room left that a draw can reach, with the row's possible values. A draw
    starts at node 0, picks a value with its chance and goes on to that value's next node
    (-1: done). The chances are the exact weights' ratios rounded to doubles (relative error
    under 1e-15), the one difference from ``draw_counts``."""

    by_group: bool  # a node's row is a group (its values: counts per place) or a place (per group)
    width: int  # numbers in a value
    rows: tuple[int, ...]  # per node: the group or place it fills
    first: tuple[int, ...]  # per node: its first value (one more entry: the end of the last)
    cumulative: tuple[float, ...]  # per value: the chance of it or an earlier value of its node
    next_node: tuple[int, ...]  # per value
    values: tuple[int, ...]  # the values, ``width`` numbers each


class _MatrixCounter:
    """Counts the non-negative matrices with given row sums, column sums and zero cells, each
    weighted by ``prod_r multinomial(row_sum_r; row_r)``, and draws one with probability
    proportional to its weight."""

    def __init__(self, row_sums: Sequence[int], col_sums: Sequence[int], allowed: Sequence[tuple[int, ...]]) -> None:
        # The last row is forced (it takes what is left): making it the largest saves the most.
        self.order = sorted(range(len(row_sums)), key=lambda r: row_sums[r])
        self.row_sums = tuple(row_sums[r] for r in self.order)
        self.col_sums = tuple(col_sums)
        self.allowed = tuple(allowed[r] for r in self.order)
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._draw_memo: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}

    def ways(self, row: int = 0, room: tuple[int, ...] | None = None) -> int:
        """The weighted number of ways to fill rows ``row..`` into the column room left."""
        room = self.col_sums if room is None else room
        key = (row, room)
        found = self._memo.get(key)
        if found is not None:
            return found
        total = 0
        if row == len(self.row_sums) - 1:  # the last row takes what is left, if it may
            if sum(room) == self.row_sums[row] and all(room[c] == 0 or c in self.allowed[row]
                                                       for c in range(len(room))):
                total = _multinomial(self.row_sums[row], room)
        elif row == len(self.row_sums):
            total = int(not any(room))
        else:
            for x in _row_choices(self.row_sums[row], room, self.allowed[row]):
                rest = self.ways(row + 1, tuple(r - k for r, k in zip(room, x, strict=True)))
                if rest:
                    total += _multinomial(self.row_sums[row], x) * rest
        self._memo[key] = total
        return total

    def draw(self, rng: random.Random) -> list[tuple[int, ...]]:
        """One matrix, as its rows in the order given, with probability weight / ``ways()``."""
        room = self.col_sums
        rows: list[tuple[int, ...]] = [()] * len(self.row_sums)
        for row, given in enumerate(self.order):
            if row == len(self.row_sums) - 1:
                rows[given] = room
                break
            choices, bounds = self._choices(row, room)
            x = choices[bisect.bisect_right(bounds, rng.randrange(bounds[-1]))]
            rows[given] = x
            room = tuple(r - k for r, k in zip(room, x, strict=True))
        return rows

    def table(self, by_group: bool) -> SplitTable:
        """``draw``'s choices from every reachable node, as a ``SplitTable``."""
        nodes: dict[tuple[int, tuple[int, ...]], int] = {(0, self.col_sums): 0}
        pending = [(0, self.col_sums)]  # nodes are numbered in the order they are first met
        rows: list[int] = []
        first: list[int] = []
        cumulative: list[float] = []
        next_node: list[int] = []
        values: list[int] = []
        last = len(self.row_sums) - 1
        for row, room in pending:  # the list grows as new nodes are met
            rows.append(self.order[row])
            first.append(len(cumulative))
            if row == last:
                choices, bounds = [room], [1]
            else:
                choices, bounds = self._choices(row, room)
            for x, bound in zip(choices, bounds, strict=True):
                cumulative.append(bound / bounds[-1])
                values.extend(x)
                if row == last:
                    next_node.append(-1)
                    continue
                key = (row + 1, tuple(r - k for r, k in zip(room, x, strict=True)))
                if key not in nodes:
                    nodes[key] = len(nodes)
                    pending.append(key)
                next_node.append(nodes[key])
        first.append(len(cumulative))
        return SplitTable(by_group, len(self.col_sums), tuple(rows), tuple(first), tuple(cumulative),
                          tuple(next_node), tuple(values))

    def chance(self, rows: Sequence[tuple[int, ...]]) -> Fraction:
        """The probability that ``draw`` returns ``rows``, worked out from the same counts."""
        room, chance = self.col_sums, Fraction(1)
        for row, given in enumerate(self.order):
            x = rows[given]
            if row == len(self.row_sums) - 1:
                return chance if x == room else Fraction(0)
            choices, bounds = self._choices(row, room)
            if x not in choices:
                return Fraction(0)
            i = choices.index(x)
            chance *= Fraction(bounds[i] - (bounds[i - 1] if i else 0), bounds[-1])
            room = tuple(r - k for r, k in zip(room, x, strict=True))
        return chance

    def _choices(self, row: int, room: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        """The possible values of ``row`` with the room left, and their running total weights."""
        key = (row, room)
        found = self._draw_memo.get(key)
        if found is None:
            choices, bounds, total = [], [], 0
            for x in _row_choices(self.row_sums[row], room, self.allowed[row]):
                weight = _multinomial(self.row_sums[row], x) * self.ways(
                    row + 1, tuple(r - k for r, k in zip(room, x, strict=True)))
                if weight:
                    total += weight
                    choices.append(x)
                    bounds.append(total)
            found = self._draw_memo[key] = (choices, bounds)
        return found


class DealSampler:
    """Draws deals uniformly among those consistent with a view; build once, draw many (the
    counts are memoised)."""

    def __init__(self, view: SeatView, remembered: Mapping[int, CardSet] | None = None) -> None:
        self.constraints = c = deal_constraints(view, remembered)
        # Places: the other seats, then the stock. Groups: unseen cards with the same places.
        self.places = c.others()
        masks = [c.candidates[s] for s in self.places] + [c.stock_candidates]
        room = [c.free(s) for s in self.places] + [c.stock_count]
        groups: dict[int, list[int]] = {}
        for card in iter_cards(c.unseen):
            where = sum(1 << p for p, mask in enumerate(masks) if mask >> card & 1)
            groups.setdefault(where, []).append(card)
        self.groups = [(where, cards) for where, cards in sorted(groups.items())]
        if sum(room) != c.unseen.bit_count() or min(room, default=0) < 0:
            raise InconsistentViewError("The unseen cards do not fill the other hands")
        places = range(len(room))
        sizes = [len(cards) for _, cards in self.groups]
        allowed = [tuple(p for p in places if where >> p & 1) for where, _ in self.groups]
        self._by_group = len(self.groups) >= len(room)
        if self._by_group:
            self._counter = _MatrixCounter(sizes, room, allowed)
        else:  # the places are the rows: the memo runs over the shorter vector of group sizes
            by_place = [tuple(g for g, a in enumerate(allowed) if p in a) for p in places]
            self._counter = _MatrixCounter(room, sizes, by_place)
        self.count = self._deal_count(sizes, room)
        if not self.count:
            raise InconsistentViewError("No deal fits the cards seen and the suits shown out of")

    def _deal_count(self, sizes: list[int], room: list[int]) -> int:
        ways = self._counter.ways()
        if self._by_group:
            return ways
        # Rows by place weigh a matrix prod_p room_p! / prod X!; a deal count is prod_g size_g! / prod X!.
        scale_num = 1
        for k in sizes:
            scale_num *= factorial(k)
        scale_den = 1
        for k in room:
            scale_den *= factorial(k)
        return ways * scale_num // scale_den

    def split_table(self) -> SplitTable:
        """``draw_counts`` as a table, for a compiled loop to draw from."""
        return self._counter.table(self._by_group)

    def draw_counts(self, rng: random.Random) -> list[tuple[int, ...]]:
        """The first step of ``sample``: how many cards of each group (``groups``) go to each
        place (``places``, then the stock), drawn with the weight of the deals that split so."""
        rows = self._counter.draw(rng)
        return rows if self._by_group else [tuple(col) for col in zip(*rows, strict=True)]

    def sample(self, rng: random.Random) -> Deal:
        """One deal: each seat's cards now, the seat's own hand included."""
        c = self.constraints
        matrix = self.draw_counts(rng)
        hands = list(c.known)
        if c.seat >= 0:
            hands[c.seat] = c.hand
        for (_, cards), counts in zip(self.groups, matrix, strict=True):
            order = list(cards)
            rng.shuffle(order)
            start = 0
            for p, k in enumerate(counts):
                if k and p < len(self.places):
                    hands[self.places[p]] |= card_set(order[start:start + k])
                start += k
        return tuple(hands)


    def chance(self, deal: Sequence[CardSet]) -> Fraction:
        """The probability that ``sample`` draws ``deal``, from the algorithm's own steps: the
        chance of the deal's matrix, times the chance that the shuffles put each group's cards
        where the deal has them. Tests check it is ``1 / count`` for every consistent deal."""
        c = self.constraints
        if not c.is_consistent(deal):
            return Fraction(0)
        stock = c.unseen & ~sum(deal)
        holders = [deal[s] for s in self.places] + [stock]
        matrix = [tuple(sum(1 for card in cards if held >> card & 1) for held in holders) for _, cards in self.groups]
        rows = matrix if self._by_group else [tuple(g[p] for g in matrix) for p in range(len(holders))]
        chance = self._counter.chance(rows)
        for (_, cards), counts in zip(self.groups, matrix, strict=True):
            chance /= _multinomial(len(cards), counts)  # the shuffle's split is one of these, evenly
        return chance


def sample_deals(view: SeatView, count: int, rng: random.Random) -> list[Deal]:
    """``count`` deals drawn independently and uniformly among those consistent with ``view``:
    each seat's cards now (the viewer's own hand as it is)."""
    sampler = DealSampler(view)
    return [sampler.sample(rng) for _ in range(count)]


def count_deals(view: SeatView) -> int:
    """How many deals are consistent with ``view``."""
    return DealSampler(view).count
