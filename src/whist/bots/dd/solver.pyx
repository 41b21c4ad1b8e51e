# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled double-dummy search: the most tricks a partnership can take with all hands open.

The search works the way DDS does, in a smaller form:

- Alpha-beta over single cards; the value of a position is the number of tricks N/S (seats 0
  and 2) take from the cards that remain, the current trick included.
- The exact value is found by null-window tests ("can N/S take at least k tricks?"), halving
  the range of k each time; every test reuses the bounds that earlier tests left in the table.
- A transposition table, probed at the start of each trick, keyed on the leader and the four
  hands written in *relative* ranks: the cards left in a suit are renumbered from the ace down,
  so positions that differ only in which small cards are gone share one entry. An entry holds a
  lower and an upper bound on the N/S tricks and the lead that decided it (tried first when the
  position comes back in the next test). Slots come in pairs; a new entry replaces a stale one
  or the one with fewer tricks left.
- Bounds at each trick's start: the top cards the leader can cash (a lower bound for the
  leader's side) and the top trumps each side holds (each wins a trick). The last trick is
  scored without search.
- Move ordering: cashing winners, winning cheaply in fourth seat, ruffing low, and playing low
  behind a partner who wins; cards equivalent to one already tried (the same hand holds the next
  higher card that is still out, or in the current trick) are not searched again.

The module keeps its state in C globals: it is not re-entrant, which is fine under the GIL.
``whist.bots.dd`` validates the input and is the API to use; ``reference.py`` is the plain
minimax that the tests compare this module with.
"""

from libc.stdint cimport int8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc

ctypedef uint64_t Mask

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int lowest_bit "__builtin_ctzll"(unsigned long long) nogil
    int leading_zeros "__builtin_clzll"(unsigned long long) nogil

cdef Mask SUIT = 0x1FFF
cdef enum:
    TT_BITS = 21
    TT_SIZE = 1 << TT_BITS
    NO_TRUMP = 4


cdef struct Entry:
    Mask key[4]
    uint32_t generation
    int8_t leader
    int8_t lower
    int8_t upper
    int8_t best_lead  # the lead that gave the value or the cut-off last time, tried first
    int8_t depth  # tricks left: the deeper entry of a pair is the costlier to lose


# The position being searched. ``cards[j]``, ``win_card[j]`` and ``win_seat[j]`` describe the
# current trick after j + 1 cards; ``played`` is the mask of its cards.
cdef Mask hand[4]
cdef int trump = NO_TRUMP
cdef int leader = 0
cdef int played_count = 0
cdef int cards[4]
cdef int win_card[4]
cdef int win_seat[4]
cdef Mask played = 0

cdef Entry* table = NULL
cdef uint32_t generation = 0
cdef long long nodes = 0


cdef inline int highest(Mask mask) noexcept nogil:
    return 63 - leading_zeros(mask)


cdef inline bint beats(int card, int best) noexcept nogil:
    """Whether ``card`` beats the card winning the trick so far."""
    cdef int suit = card // 13
    cdef int best_suit = best // 13
    if suit == best_suit:
        return card > best
    return suit == trump


cdef inline void play(int seat, int card) noexcept nogil:
    global played_count, played
    hand[seat] &= ~((<Mask>1) << card)
    played |= (<Mask>1) << card
    cards[played_count] = card
    if played_count == 0 or beats(card, win_card[played_count - 1]):
        win_card[played_count] = card
        win_seat[played_count] = seat
    else:
        win_card[played_count] = win_card[played_count - 1]
        win_seat[played_count] = win_seat[played_count - 1]
    played_count += 1


cdef inline void unplay(int seat, int card) noexcept nogil:
    global played_count, played
    played_count -= 1
    hand[seat] |= (<Mask>1) << card
    played &= ~((<Mask>1) << card)


cdef inline Mask compress_suit(Mask cards_in_suit, Mask out_in_suit) noexcept nogil:
    """The cards of one hand in a suit, renumbered among the cards still out from the ace down."""
    cdef Mask result = 0
    cdef int position = 12
    cdef int card
    while out_in_suit:
        card = highest(out_in_suit)
        out_in_suit &= ~((<Mask>1) << card)
        if (cards_in_suit >> card) & 1:
            result |= (<Mask>1) << position
        position -= 1
    return result


cdef inline void relative_key(Mask* key) noexcept nogil:
    cdef Mask out = hand[0] | hand[1] | hand[2] | hand[3]
    cdef int seat, suit
    cdef Mask out_in_suit
    for seat in range(4):
        key[seat] = 0
    for suit in range(4):
        out_in_suit = (out >> (13 * suit)) & SUIT
        if out_in_suit == 0:
            continue
        for seat in range(4):
            key[seat] |= compress_suit((hand[seat] >> (13 * suit)) & SUIT, out_in_suit) << (13 * suit)


cdef inline bint matches(Entry* entry, Mask* key) noexcept nogil:
    return (entry.generation == generation and entry.leader == leader and entry.key[0] == key[0]
            and entry.key[1] == key[1] and entry.key[2] == key[2] and entry.key[3] == key[3])


cdef inline Entry* slot(Mask* key) noexcept nogil:
    """The entry for ``key``: one of a pair of slots, the matching one, else the one to overwrite.

    A stale entry (an earlier solve) or the shallower of the two is overwritten, so that the
    expensive results near the root survive the many entries made near the leaves.
    """
    cdef Mask h = (key[0] * <Mask>0x9E3779B97F4A7C15ULL) ^ (key[1] * <Mask>0xC2B2AE3D27D4EB4FULL)
    h ^= (key[2] * <Mask>0x165667B19E3779F9ULL) ^ (key[3] * <Mask>0xD6E8FEB86659FD93ULL)
    h ^= <Mask>leader * <Mask>0xFF51AFD7ED558CCDULL
    h ^= h >> 29
    cdef Entry* first = &table[h & (TT_SIZE - 2)]
    cdef Entry* second = first + 1
    if matches(first, key):
        return first
    if matches(second, key):
        return second
    if first.generation != generation:
        return first
    if second.generation != generation:
        return second
    return first if first.depth <= second.depth else second


cdef int quick_tricks() noexcept nogil:
    """Tricks the leader can cash at once from the top: a lower bound for the leader's side.

    With no trump (or no trumps left with the opponents) every card at the top of its suit
    wins. Otherwise only the trump suit and one side suit count, the side suit capped by the
    length of each opponent who could ruff: an opponent keeps their side-suit length while
    following to trumps, and one who discards has no trump left to ruff with.
    """
    cdef int seat = leader
    cdef Mask opponents = hand[(seat + 1) & 3] | hand[(seat + 3) & 3]
    cdef Mask others = opponents | hand[(seat + 2) & 3]
    cdef bint ruff_danger = trump != NO_TRUMP and ((opponents >> (13 * trump)) & SUIT) != 0
    cdef int total = 0
    cdef int best_side = 0
    cdef int suit, count, cap, opponent
    cdef Mask mine, rest, opponent_trumps
    for suit in range(4):
        mine = (hand[seat] >> (13 * suit)) & SUIT
        if mine == 0:
            continue
        rest = (others >> (13 * suit)) & SUIT
        if rest == 0:
            count = popcount(mine)
        else:
            count = popcount(mine >> (highest(rest) + 1))
        if count == 0:
            continue
        if not ruff_danger or suit == trump:
            total += count
            continue
        cap = count
        for opponent in range(1, 4, 2):
            opponent_trumps = (hand[(seat + opponent) & 3] >> (13 * trump)) & SUIT
            if opponent_trumps:
                cap = min(cap, popcount((hand[(seat + opponent) & 3] >> (13 * suit)) & SUIT))
        best_side = max(best_side, cap)
    return total + best_side


cdef int last_trick() noexcept nogil:
    """N/S's trick when every hand has one card left: there is no choice to make."""
    cdef int position, seat, card
    cdef int best = lowest_bit(hand[leader])
    cdef int best_seat = leader
    for position in range(1, 4):
        seat = (leader + position) & 3
        card = lowest_bit(hand[seat])
        if beats(card, best):
            best = card
            best_seat = seat
    return 1 if (best_seat & 1) == 0 else 0


cdef int top_trumps(int side) noexcept nogil:
    """Tricks ``side`` (0 N/S, 1 E/W) wins for sure with the top trumps it holds.

    The highest trumps still out, as long as the side holds them all, each win the trick they are
    played to; the ones in one hand are played to different tricks.
    """
    cdef Mask mine = (hand[side] >> (13 * trump)) & SUIT
    cdef Mask partner = (hand[side + 2] >> (13 * trump)) & SUIT
    cdef Mask theirs = ((hand[1 - side] | hand[3 - side]) >> (13 * trump)) & SUIT
    cdef Mask top
    if (mine | partner) == 0:
        return 0
    if theirs:
        top = ~(((<Mask>2) << highest(theirs)) - 1)
        mine &= top
        partner &= top
    return max(popcount(mine), popcount(partner))


cdef int order_moves(int seat, int* moves) noexcept nogil:
    """Fill ``moves`` with the seat's legal cards, one per class of equivalent cards, best first."""
    cdef Mask full = hand[seat]
    cdef Mask legal = full
    cdef Mask out = hand[0] | hand[1] | hand[2] | hand[3] | played
    cdef Mask opponents = hand[(seat + 1) & 3] | hand[(seat + 3) & 3]
    cdef Mask partner = hand[(seat + 2) & 3]
    cdef Mask follow, above, rest, in_suit
    cdef int scores[13]
    cdef int count = 0
    cdef int card, suit, rank, score, i, best, best_seat
    cdef bint partner_wins, ruffable
    if played_count:
        follow = full & (SUIT << (13 * (cards[0] // 13)))
        if follow:
            legal = follow
        best = win_card[played_count - 1]
        best_seat = win_seat[played_count - 1]
        partner_wins = ((best_seat - seat) & 3) == 2
    while legal:
        card = highest(legal)
        legal &= ~((<Mask>1) << card)
        suit = card // 13
        rank = card - 13 * suit
        in_suit = SUIT << (13 * suit)
        above = out & in_suit & ~(((<Mask>2) << card) - 1)
        if above and (full >> lowest_bit(above)) & 1:
            continue  # the next higher card still out is ours: same value
        if played_count == 0:
            if above == 0:
                ruffable = (trump != NO_TRUMP and suit != trump and (opponents & in_suit) == 0
                            and (opponents & (SUIT << (13 * trump))) != 0)
                score = 20 if ruffable else 100
            elif (partner >> highest(out & in_suit)) & 1:
                score = 60 - rank
            else:
                score = 30 - rank
        elif partner_wins:
            score = -rank
            if suit == trump and card // 13 != cards[0] // 13:
                score -= 40
        elif beats(card, best):
            if played_count == 3 or suit != cards[0] // 13:
                score = 60 - rank  # win as cheaply as possible
            elif played_count == 2:
                score = 40 + rank  # third hand high
            else:
                score = 10 - rank  # second hand low, but before the cards that cannot win
        else:
            score = -rank
            if suit == trump:
                score -= 40
        i = count
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            moves[i] = moves[i - 1]
            i -= 1
        scores[i] = score
        moves[i] = card
        count += 1
    return count


cdef int search(int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta: the N/S tricks from here, exact when inside (alpha, beta)."""
    global nodes, leader, played_count
    cdef int left, quick, top, lower, upper, seat, count, i, card, value, best, won
    cdef int saved_leader
    cdef int saved_cards[4]
    cdef int saved_win_card[4]
    cdef int saved_win_seat[4]
    cdef Mask saved_played
    cdef Mask key[4]
    cdef Entry* entry = NULL
    cdef int moves[13]
    cdef int hint = -1
    cdef int best_card = -1
    cdef bint maximize
    nodes += 1
    if played_count == 0:
        left = popcount(hand[leader])
        if left == 0:
            return 0
        if left == 1:
            return last_trick()
        lower = 0
        upper = left
        relative_key(key)
        entry = slot(key)
        if matches(entry, key):
            lower = entry.lower
            upper = entry.upper
            hint = entry.best_lead
        quick = quick_tricks()
        if leader & 1 == 0:
            lower = max(lower, quick)
        else:
            upper = min(upper, left - quick)
        if trump != NO_TRUMP:
            # Each top trump wins the trick it falls in, and one hand's cards fall in different tricks.
            top = top_trumps(0) 
            lower = max(lower, top)
            upper = min(upper, left - top_trumps(1))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
    seat = (leader + played_count) & 3
    maximize = (seat & 1) == 0
    best = -1 if maximize else 99
    count = order_moves(seat, moves)
    if hint >= 0:
        for i in range(1, count):
            if moves[i] == hint:
                moves[i] = moves[0]
                moves[0] = hint
                break
    for i in range(count):
        card = moves[i]
        play(seat, card)
        if played_count == 4:
            won = 1 if (win_seat[3] & 1) == 0 else 0
            saved_leader = leader
            saved_played = played
            saved_cards[:] = cards
            saved_win_card[:] = win_card
            saved_win_seat[:] = win_seat
            leader = win_seat[3]
            played_count = 0
            played = 0
            value = won + search(alpha - won, beta - won)
            leader = saved_leader
            played_count = 4
            played = saved_played
            cards[:] = saved_cards
            win_card[:] = saved_win_card
            win_seat[:] = saved_win_seat
        else:
            value = search(alpha, beta)
        unplay(seat, card)
        if maximize:
            if value > best:
                best = value
                best_card = card
                if best >= beta:
                    break
                if best > alpha:
                    alpha = best
        else:
            if value < best:
                best = value
                best_card = card
                if best <= alpha:
                    break
                if best < beta:
                    beta = best
    if entry != NULL:
        if best <= alpha:
            upper = min(upper, best)
        elif best >= beta:
            lower = max(lower, best)
        else:
            lower = best
            upper = best
        entry.generation = generation
        entry.leader = leader
        entry.key[0] = key[0]
        entry.key[1] = key[1]
        entry.key[2] = key[2]
        entry.key[3] = key[3]
        entry.lower = lower
        entry.upper = upper
        entry.best_lead = best_card
        entry.depth = left
    return best


cdef int north_south_tricks(int left) noexcept nogil:
    """The exact N/S tricks by null-window tests over a halving range."""
    cdef int lower = 0
    cdef int upper = left
    cdef int target, value
    while lower < upper:
        target = (lower + upper + 1) // 2
        value = search(target - 1, target)
        if value >= target:
            lower = value
        else:
            upper = value
    return lower


def solve_position(tuple hands, int strain, int first, tuple trick) -> int:
    """Tricks the side of the player on move takes; the wrapper in ``__init__.py`` checks the input.

    ``hands`` are four card masks (the cards of ``trick`` already removed), ``first`` is the seat
    that led ``trick``, the cards played so far to the current trick in order.
    """
    global trump, leader, played_count, played, generation, table, nodes
    cdef int seat, left, ns
    if table == NULL:
        table = <Entry*>calloc(TT_SIZE, sizeof(Entry))
        if table == NULL:
            raise MemoryError("no memory for the double-dummy transposition table")
    generation += 1
    if generation == 0:
        generation = 1
    nodes = 0
    for seat in range(4):
        hand[seat] = <Mask>hands[seat]
    trump = strain
    leader = first
    played_count = 0
    played = 0
    for card in trick:
        play((first + played_count) & 3, <int>card)
    seat = (first + played_count) & 3
    left = popcount(hand[seat])
    ns = north_south_tricks(left)
    return ns if (seat & 1) == 0 else left - ns


def last_node_count() -> int:
    """Positions visited by the last ``solve_position`` call (for benchmarks)."""
    return nodes
