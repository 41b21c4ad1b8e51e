# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled double-dummy search: the most tricks a partnership can take with all hands open.

The search follows the ideas that make Bo Haglund's DDS fast:

- Boolean searches: "can N/S (seats 0 and 2) take at least ``target`` of the tricks left?".
  The exact value is found by a run of such tests that steps from a guess towards the answer
  (the MTD idea); the transposition table carries the bounds from one test to the next.
- Partition search. Every search returns, besides its answer, the set of cards whose *ranks*
  the answer depended on (a card that won a trick by out-ranking a card of its suit, with the
  equal lower cards of its hand that it was searched for; the top cards that a quick-trick
  count relied on; ...). At a trick's start the answer is stored for
  the whole class of positions that have the same leader, the same suit lengths in every hand
  and the same owners of the top cards of each suit down to the lowest of those cards, with
  ranks counted among the cards still out (relative ranks). One entry then answers for many
  positions that differ only in small cards. Entries hold for any deal in their strain; the
  table is kept while the same deal is solved again (other leaders, other tricks), as DDS does.
  A whole table (``solve_table``) solves the four leaders of a strain on one table, each
  starting its tests from the answer for the leader before.
- Cheap bounds before any search at a trick's start: the tricks the leader's side can cash
  (the leader's winners, a long suit whose top cards outnumber everyone else's cards of it,
  then a low card to partner's winner and partner's winners, or partner's sure ruff when one
  trick is enough), the tricks each side's trumps
  win for sure, and the last trick scored without search. After the lead, the second hand's
  side wins the trick at once if it holds the suit's best card or a ruff that the third hand
  cannot beat: when that (and, in no trump, the winner's top cards after it) settles the
  test, the trick is not searched.
- Small cards: once a card has been searched and found below every rank that the answers so
  far depended on, the lower cards of its suit in the same hand give the same answer and
  are not searched (DDS does the same).
- Move ordering in the spirit of DDS's weights (cash winners, lead towards partner's winners,
  give partner a ruff, win cheaply, play low behind a partner who wins, discard from length;
  leads into suits where the opponents have few replies first, a void opponent counting all
  its cards as it may discard any), the lead that last settled a test with as many tricks left
  tried first (a killer move, for leads only: for the other seats it multiplied the nodes),
  then the lead stored with a matching table entry and the killer before the last, and cards
  equivalent to one already tried (adjacent among the cards still out, same hand) not
  searched again.

Everything in the search is C: cards are ints 0..51 (suit = card // 13, 12 = ace), hands are
64-bit masks, and the state lives in C globals, so the module is not re-entrant: a lock lets
one search run at a time, and the search runs without the GIL, so other threads go on meanwhile.
``israeli_whist.bots.search.dd`` validates the input and is the API to use; ``reference.py`` is the plain
minimax the tests compare this module with.
"""

import threading

from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport malloc

from israeli_whist.bots.search.cardbits cimport (Mask, bit, build_rank_tables, highest, lowest_bit, popcount, prefetch,
                                  relative_ranks, replies, sure_trump_tricks, table_alloc)


cdef Mask SUIT = 0x1FFF
cdef enum:
    NO_TRUMP = 4
    BUCKET_BITS = 19
    BUCKETS = 1 << BUCKET_BITS
    BLOCK_ENTRIES = 16  # entries in one block, 512 bytes: a probe walks whole cache lines
    BLOCKS = 1 << 17


cdef struct Entry:
    Mask significant  # relative ranks (top of each suit) whose owners the bounds depend on
    Mask odd  # relative ranks of seats 1 and 3, cut to ``significant``
    Mask high  # relative ranks of seats 2 and 3, cut to ``significant``
    int8_t lower  # bounds on the N/S tricks from the tricks left
    int8_t upper
    int8_t best_lead  # the lead that settled a test here, tried first next time (-1: none)


cdef struct Block:
    Entry entries[BLOCK_ENTRIES]


# A probe reads the bucket, then the entries: the bucket says how many entries its newest block
# holds (the older ones are full), so no other memory is touched before the first entry.
cdef struct Bucket:
    Mask lengths  # 4 bits per (seat, suit): every entry of a bucket has the same lengths and leader
    uint32_t generation  # of the table's life that filled it: older ones count as empty
    int32_t first  # the newest block
    int32_t leader
    int32_t count  # entries in the newest block


# The position being searched. ``cards[j]``, ``win_card[j]`` and ``win_seat[j]`` describe the
# current trick after j + 1 cards.
cdef Mask hand[4]
cdef int trump = NO_TRUMP
cdef int leader = 0
cdef int played_count = 0
cdef int cards[4]
cdef int win_card[4]
cdef int win_seat[4]

cdef Bucket* table = NULL
cdef Block* blocks = NULL
cdef int32_t* next_block = NULL  # per block, the next (older) block of the same bucket, -1 at the end
cdef int32_t blocks_used = 0
cdef uint32_t generation = 0
cdef long long nodes = 0
# The lead that last settled a test, per tricks left: tried first where the table has no lead to
# offer (a killer move; for leads only: at the other seats it multiplied the nodes).
cdef int killer_lead[14]
killer_lead[:] = [-1] * 14
cdef int killer_second[14]
killer_second[:] = [-1] * 14

build_rank_tables()


cdef inline Mask suit_of(Mask mask, int suit) noexcept nogil:
    return (mask >> (13 * suit)) & SUIT


cdef inline bint beats(int card, int best) noexcept nogil:
    """Whether ``card`` beats the card winning the trick so far."""
    cdef int suit = card // 13
    if suit == best // 13:
        return card > best
    return suit == trump


cdef inline void play(int seat, int card) noexcept nogil:
    global played_count
    hand[seat] &= ~bit(card)
    cards[played_count] = card
    if played_count == 0 or beats(card, win_card[played_count - 1]):
        win_card[played_count] = card
        win_seat[played_count] = seat
    else:
        win_card[played_count] = win_card[played_count - 1]
        win_seat[played_count] = win_seat[played_count - 1]
    played_count += 1


cdef inline void unplay(int seat, int card) noexcept nogil:
    global played_count
    played_count -= 1
    hand[seat] |= bit(card)


cdef inline Mask trick_rank_card() noexcept nogil:
    """The winning card of the full trick and the cards it stood for, if it won by out-ranking
    a card of its own suit; else 0.

    A card that won only because the others could not follow (or ruff) would win at any rank,
    so its rank is not part of the answer; the suit lengths already are. A card that won by rank
    was searched for its whole sequence (the lower cards of the same hand that no other card
    still out, or in this trick, separates from it), which was therefore equal to it only
    because of those ranks: they are all part of the answer.
    """
    cdef int winner = win_card[3]
    cdef int suit = winner // 13
    cdef int i, below
    cdef Mask result = 0
    cdef Mask separating, owner
    for i in range(4):
        if cards[i] != winner and cards[i] // 13 == suit:
            result = bit(winner)
    if result == 0:
        return 0
    owner = hand[win_seat[3]]
    separating = (hand[0] | hand[1] | hand[2] | hand[3] | bit(cards[0]) | bit(cards[1]) | bit(cards[2])
                  | bit(cards[3])) & (SUIT << (13 * suit)) & (bit(winner) - 1)
    while separating:
        below = highest(separating)
        if not (owner >> below) & 1:
            break
        result |= bit(below)
        separating &= ~bit(below)
    return result


# --- bounds at a trick's start ------------------------------------------------------------------

cdef inline int longest_other(const Mask* hands, int seat, int suit) noexcept nogil:
    """The most cards of ``suit`` that any seat other than ``seat`` holds."""
    return max(popcount(suit_of(hands[seat ^ 1], suit)),
               max(popcount(suit_of(hands[seat ^ 2], suit)), popcount(suit_of(hands[seat ^ 3], suit))))


cdef int cash_tricks(const Mask* hands, int seat, Mask* used, int needed) noexcept nogil:
    """Tricks ``seat``, on lead, can cash at once from the top of its own hand (``cash_by_suit``),
    counted until they reach ``needed``: ``used`` gets only the ranks those counts relied on."""
    cdef int counts[4]
    cdef Mask suit_used[5]
    cash_by_suit(hands, seat, counts, suit_used)
    return enough(counts, suit_used, needed, used)


cdef int enough(const int* counts, const Mask* suit_used, int needed, Mask* used) noexcept nogil:
    """The counts of ``cash_by_suit`` added up until they reach ``needed``, the suits that rely on
    no rank first, so that ``used`` holds only what the answer needs: the fewer ranks an answer
    depends on, the more positions its table entry covers."""
    cdef int total = 0
    cdef int suit
    used[0] = suit_used[4]
    for suit in range(4):
        if counts[suit] and suit_used[suit] == 0:
            total += counts[suit]
    for suit in range(4):
        if total >= needed:
            break
        if counts[suit] and suit_used[suit] != 0:
            total += counts[suit]
            used[0] |= suit_used[suit]
    return total


cdef int cash_by_suit(const Mask* hands, int seat, int* counts, Mask* suit_used) noexcept nogil:
    """Tricks ``seat``, on lead, can cash at once from the top of its own hand, per suit; the
    total comes back.

    A suit counts the seat's cards above every other card of the suit (all of them when the
    others are void). With trumps out against it that its top trumps cannot draw first, a side
    suit counts only as many rounds as each opponent holding trumps can follow: while following,
    an opponent's other suits keep their lengths, so the suits add up. ``suit_used[suit]`` gets
    the cards whose ranks a suit's count relied on, ``suit_used[4]`` those every count relied on.
    """
    cdef Mask opponents = hands[seat ^ 1] | hands[seat ^ 3]
    cdef Mask others = opponents | hands[seat ^ 2]
    cdef bint ruff_danger = trump != NO_TRUMP and suit_of(opponents, trump) != 0
    cdef int total = 0
    cdef int suit, count, opponent
    cdef Mask mine, rest, top
    suit_used[4] = 0
    if ruff_danger:
        mine = suit_of(hands[seat], trump)
        rest = suit_of(others, trump)
        if mine and popcount(mine >> (highest(rest) + 1)) >= max(popcount(suit_of(hands[seat ^ 1], trump)),
                                                                popcount(suit_of(hands[seat ^ 3], trump))):
            ruff_danger = False  # the top trumps, cashed first, draw the opponents' trumps
            suit_used[4] = ((mine >> (highest(rest) + 1)) << (highest(rest) + 1)) << (13 * trump)
    for suit in range(4):
        counts[suit] = 0
        suit_used[suit] = 0
        mine = suit_of(hands[seat], suit)
        if mine == 0:
            continue
        rest = suit_of(others, suit)
        if rest == 0:
            count = popcount(mine)
        else:
            top = mine >> (highest(rest) + 1)
            count = popcount(top)
            if count == 0:
                continue
            if count >= longest_other(hands, seat, suit):
                count = popcount(mine)  # the others are void after the top cards: the rest win too
            suit_used[suit] = (top << (highest(rest) + 1)) << (13 * suit)
        if ruff_danger and suit != trump:
            for opponent in range(1, 4, 2):
                if suit_of(hands[seat ^ opponent], trump):
                    count = min(count, popcount(suit_of(hands[seat ^ opponent], suit)))
        counts[suit] = count
        total += count
    return total


cdef inline Mask without_lowest(Mask cards, int suit) noexcept nogil:
    cdef Mask in_suit = cards & (SUIT << (13 * suit))
    return cards & ~(in_suit & (~in_suit + 1))


cdef int quick_tricks(int needed, Mask* used) noexcept nogil:
    """Tricks the leader's side can take at once: a lower bound for it.

    Either the leader cashes its own winners, or it leads low to a suit where partner's best card
    beats the opponents' (and nobody can ruff it), and partner, now on lead, cashes its winners;
    each opponent and the leader follow with their lowest card of the suit, which only weakens
    partner's count. Where the opponents cannot ruff, the leader may first cash its own winners.
    """
    cdef int seat = leader
    cdef int partner = seat ^ 2
    cdef int own_by_suit[4]
    cdef Mask own_suit_used[5]
    cdef Mask own_used
    cdef int own = cash_by_suit(hand, seat, own_by_suit, own_suit_used)
    cdef int best = own
    cdef int suit, top, tricks, opponent, partner_cash, discards, spare, other
    cdef Mask after[4]
    cdef Mask out = hand[0] | hand[1] | hand[2] | hand[3]
    cdef Mask partner_used
    cdef bint safe
    cdef bint no_ruffs = trump == NO_TRUMP or suit_of(hand[seat ^ 1] | hand[seat ^ 3], trump) == 0
    if own >= needed:
        return enough(own_by_suit, own_suit_used, needed, used)
    if needed == 1 and trump != NO_TRUMP and suit_of(hand[partner], trump):
        # A ruff by partner in a suit both opponents must follow or cannot ruff: a trick
        # whatever the ranks.
        for suit in range(4):
            if (suit != trump and suit_of(hand[seat], suit) and not suit_of(hand[partner], suit)
                    and (suit_of(hand[seat ^ 1], suit) or not suit_of(hand[seat ^ 1], trump))
                    and (suit_of(hand[seat ^ 3], suit) or not suit_of(hand[seat ^ 3], trump))):
                used[0] = 0
                return 1
    enough(own_by_suit, own_suit_used, 99, &own_used)
    used[0] = own_used
    if own + popcount(hand[partner]) < needed:
        return own  # even crossing to partner and cashing all its cards would fall short
    for suit in range(4):
        if suit_of(hand[seat], suit) == 0 or suit_of(hand[partner], suit) == 0:
            continue
        # Partner's best card must beat the opponents', and the leader needs a card below it.
        top = highest(suit_of(hand[partner], suit)) + 13 * suit
        if highest(suit_of(out & ~hand[seat], suit)) + 13 * suit != top:
            continue
        if lowest_bit(suit_of(hand[seat], suit)) + 13 * suit > top:
            continue
        safe = True
        if trump != NO_TRUMP and suit != trump:
            for opponent in range(1, 4, 2):
                if suit_of(hand[seat ^ opponent], suit) == 0 and suit_of(hand[seat ^ opponent], trump) != 0:
                    safe = False
        if not safe:
            continue
        after[seat] = without_lowest(hand[seat], suit)
        after[partner] = hand[partner] & ~bit(top)
        after[seat ^ 1] = without_lowest(hand[seat ^ 1], suit)
        after[seat ^ 3] = without_lowest(hand[seat ^ 3], suit)
        partner_cash = cash_tricks(after, partner, &partner_used, 99)
        tricks = 1 + partner_cash
        if tricks > best:
            best = tricks
            used[0] = partner_used | bit(top)
            if best >= needed:
                cash_tricks(after, partner, &partner_used, needed - 1)
                used[0] = partner_used | bit(top)
                return best
        if no_ruffs and own:
            # The leader cashes its winners first, then crosses: partner follows or discards
            # spare cards, keeping the crossing card and the winners counted for it.
            discards = 0
            spare = popcount(hand[partner]) - 1 - partner_cash
            for other in range(4):
                if own_by_suit[other]:
                    discards += max(0, own_by_suit[other] - popcount(suit_of(hand[partner], other)))
                    spare -= popcount(suit_of(hand[partner], other))
            if (own_by_suit[suit] and (own_by_suit[suit] >= popcount(suit_of(hand[seat], suit))
                                       or own_by_suit[suit] > popcount(suit_of(hand[partner], suit)) - 1)):
                continue  # cashing this suit first would spend the leader's low card or partner's best
            if discards <= spare and own + tricks > best:
                best = own + tricks
                used[0] = own_used | partner_used | bit(top)
    return best


cdef int top_trumps(int side, Mask* used) noexcept nogil:
    """Tricks ``side`` (0 N/S, 1 E/W) wins for sure with its trumps: the better of its two
    hands (the two hands' trumps may fall in the same tricks), or two when the side holds the
    two top trumps in different hands and one of those hands has another trump to play under
    its partner's."""
    cdef Mask theirs = suit_of(hand[1 - side] | hand[3 - side], trump)
    cdef Mask first_trumps = suit_of(hand[side], trump)
    cdef Mask second_trumps = suit_of(hand[side + 2], trump)
    cdef Mask first_used, second_used
    cdef int first = sure_trump_tricks(first_trumps, theirs, &first_used)
    cdef int second = sure_trump_tricks(second_trumps, theirs, &second_used)
    cdef int top, next_top
    if first < 2 and second < 2 and first_trumps != 0 and second_trumps != 0:
        top = highest(first_trumps | second_trumps | theirs)
        next_top = highest((first_trumps | second_trumps | theirs) ^ bit(top))
        if (bit(top) | bit(next_top)) & theirs == 0 and ((first_trumps >> top) & 1) != ((first_trumps >> next_top) & 1) \
                and (popcount(first_trumps) > 1 or popcount(second_trumps) > 1):
            used[0] = bit(next_top) << (13 * trump)
            return 2
    if first >= second:
        used[0] = first_used << (13 * trump)
        return first
    used[0] = second_used << (13 * trump)
    return second


cdef bint last_trick(int target, Mask* used) noexcept nogil:
    """Whether N/S reach ``target`` when every hand has one card left: there is no choice."""
    cdef int position, seat, card, suit
    cdef int best = lowest_bit(hand[leader])
    cdef int best_seat = leader
    cdef bint by_rank = False
    for position in range(1, 4):
        seat = (leader + position) & 3
        card = lowest_bit(hand[seat])
        if beats(card, best):
            best = card
            best_seat = seat
    suit = best // 13
    for seat in range(4):
        card = lowest_bit(hand[seat])
        if card != best and card // 13 == suit:
            by_rank = True
    used[0] = bit(best) if by_rank else 0
    return (1 if (best_seat & 1) == 0 else 0) >= target


# --- transposition table -------------------------------------------------------------------------

# A position at a trick's start as the table sees it: owners in relative ranks as two bit planes
# (``odd``: seats 1 and 3, ``high``: seats 2 and 3), so one compare covers all four hands.
cdef struct Abstract:
    Mask lengths
    Mask odd
    Mask high
    Mask out[4]  # cards still out, per suit (13 bits)
    Bucket* bucket



cdef inline void find_bucket(Abstract* position) noexcept nogil:
    """The position's suit lengths and its bucket, whose memory starts coming in at once: the
    bounds tried before the table take about as long as fetching it."""
    cdef int seat, suit
    cdef Mask lengths = 0
    cdef Mask h
    for seat in range(4):
        for suit in range(4):
            lengths |= (<Mask>popcount(suit_of(hand[seat], suit))) << (16 * seat + 4 * suit)
    position.lengths = lengths
    h = (lengths ^ (<Mask>leader << 62)) * <Mask>0x9E3779B97F4A7C15ULL
    position.bucket = &table[(h ^ (h >> 29)) >> (64 - BUCKET_BITS)]
    prefetch(position.bucket)


cdef inline void abstract_position(Abstract* position) noexcept nogil:
    """The owners of the cards in relative ranks (after ``find_bucket``)."""
    cdef int seat, suit
    cdef Mask all_out = hand[0] | hand[1] | hand[2] | hand[3]
    cdef Mask rel
    position.odd = 0
    position.high = 0
    for suit in range(4):
        position.out[suit] = suit_of(all_out, suit)
        if position.out[suit] == 0:
            continue
        for seat in range(1, 4):
            rel = relative_ranks(suit_of(hand[seat], suit), position.out[suit]) << (13 * suit)
            if seat & 1:
                position.odd |= rel
            if seat & 2:
                position.high |= rel


cdef inline Mask absolute_cards(Abstract* position, Mask significant) noexcept nogil:
    """The lowest card of each suit's significant top: the parent keeps every card above it too."""
    cdef int suit, count
    cdef Mask out, result = 0
    for suit in range(4):
        count = popcount(suit_of(significant, suit))
        if count == 0:
            continue
        out = position.out[suit]
        while count > 1:
            out &= ~bit(highest(out))
            count -= 1
        result |= bit(highest(out) + 13 * suit)
    return result


cdef inline Mask significant_ranks(Abstract* position, Mask used) noexcept nogil:
    """The relative ranks, from each suit's top down to the lowest card in ``used``."""
    cdef int suit, count
    cdef Mask in_suit, result = 0
    for suit in range(4):
        in_suit = suit_of(used, suit) & position.out[suit]
        if in_suit == 0:
            continue
        count = popcount(position.out[suit] >> lowest_bit(in_suit))
        result |= ((((<Mask>1) << count) - 1) << (13 - count)) << (13 * suit)
    return result


cdef inline bint is_for(Bucket* bucket, Abstract* position) noexcept nogil:
    return bucket.generation == generation and bucket.lengths == position.lengths and bucket.leader == leader


cdef inline bint same_class(Entry* entry, Abstract* position) noexcept nogil:
    return (((entry.odd ^ position.odd) | (entry.high ^ position.high)) & entry.significant) == 0


cdef int probe(Abstract* position, int target, Mask* used, int* hint) noexcept nogil:
    """1 or 0 when a stored bound settles the test, else -1 and maybe a lead to try first."""
    cdef Bucket* bucket = position.bucket
    cdef Block* block
    cdef Entry* entry
    cdef int32_t index
    cdef int i, count
    cdef int near = -1
    if not is_for(bucket, position):
        return -1
    index = bucket.first
    count = bucket.count
    while index >= 0:
        block = &blocks[index]
        for i in range(count):
            entry = &block.entries[i]
            if same_class(entry, position):
                if entry.lower >= target or entry.upper < target:
                    used[0] = absolute_cards(position, entry.significant)
                    return 1 if entry.lower >= target else 0
                if hint[0] < 0 and entry.best_lead >= 0 and (hand[leader] >> entry.best_lead) & 1:
                    hint[0] = entry.best_lead
            elif near < 0 and entry.best_lead >= 0 and (hand[leader] >> entry.best_lead) & 1:
                near = entry.best_lead
        index = next_block[index]
        count = BLOCK_ENTRIES
    if hint[0] < 0:
        hint[0] = near  # the lead that settled a position with the same suit lengths
    return -1


cdef void clear_table() noexcept nogil:
    global generation, blocks_used
    generation += 1
    if generation == 0:
        generation = 1
    blocks_used = 0


cdef int32_t new_block(int32_t next) noexcept nogil:
    global blocks_used
    cdef int32_t index = blocks_used
    blocks_used += 1
    next_block[index] = next
    return index


cdef void store(Abstract* position, Mask used, int lower, int upper, int best_lead) noexcept nogil:
    """Record a bound for the class of ``position`` cut by the ranks in ``used``.

    A bucket holds one suit-length pattern and leader (another pattern that hashes there takes
    its place); its entries fill blocks, the newest first. When the blocks run out the table
    starts again empty: simpler than choosing victims, and rare.
    """
    cdef Mask significant = significant_ranks(position, used)
    cdef Bucket* bucket = position.bucket
    cdef Block* block
    cdef Entry* entry
    cdef int32_t index
    cdef int i, count
    if is_for(bucket, position):
        index = bucket.first
        count = bucket.count
        while index >= 0:
            block = &blocks[index]
            for i in range(count):
                entry = &block.entries[i]
                if entry.significant == significant and same_class(entry, position):
                    entry.lower = max(entry.lower, lower)
                    entry.upper = min(entry.upper, upper)
                    if best_lead >= 0:
                        entry.best_lead = best_lead
                    return
            index = next_block[index]
            count = BLOCK_ENTRIES
    if blocks_used == BLOCKS:
        clear_table()
    if not is_for(bucket, position):
        bucket.generation = generation
        bucket.lengths = position.lengths
        bucket.leader = leader
        bucket.first = new_block(-1)
        bucket.count = 0
    if bucket.count == BLOCK_ENTRIES:
        if blocks_used == BLOCKS:
            clear_table()
            bucket.generation = generation
            bucket.first = new_block(-1)
        else:
            bucket.first = new_block(bucket.first)
        bucket.count = 0
    block = &blocks[bucket.first]
    entry = &block.entries[bucket.count]
    bucket.count += 1
    entry.significant = significant
    entry.odd = position.odd & significant
    entry.high = position.high & significant
    entry.lower = lower
    entry.upper = upper
    entry.best_lead = best_lead


# --- move ordering ---------------------------------------------------------------------------------

cdef inline int lead_score(int seat, int card, Mask out) noexcept nogil:
    """A lead's weight, less 8 for each card the opponents may answer it with: the fewer their
    replies, the smaller the subtree. A void opponent counts every card it holds, as it may
    discard any of them (the discards of a long suit run multiply the positions). DDS weighs
    its leads the same way; here it cut the positions visited by over a quarter."""
    cdef int answers = replies(hand[(seat + 1) & 3], card // 13) + replies(hand[(seat + 3) & 3], card // 13)
    return lead_weight(seat, card, out) - 8 * answers


cdef inline int lead_weight(int seat, int card, Mask out) noexcept nogil:
    cdef int suit = card // 13
    cdef int rank = card - 13 * suit
    cdef Mask in_suit = SUIT << (13 * suit)
    cdef Mask trumps = SUIT << (13 * trump) if trump != NO_TRUMP else 0
    cdef Mask lho = hand[(seat + 1) & 3]
    cdef Mask rho = hand[(seat + 3) & 3]
    cdef Mask partner = hand[seat ^ 2]
    cdef int top = highest(out & in_suit)
    cdef bint opponent_ruffs = (trump != NO_TRUMP and suit != trump
                                and (((lho & in_suit) == 0 and (lho & trumps) != 0)
                                     or ((rho & in_suit) == 0 and (rho & trumps) != 0)))
    if opponent_ruffs:
        return 10 + rank
    if card == top:
        if suit == trump:
            return 90 if ((lho | rho) & trumps) else 40
        return 80
    if (partner >> top) & 1:
        return 70 - rank  # under partner's winner
    if (trump != NO_TRUMP and suit != trump and (partner & in_suit) == 0 and (partner & trumps) != 0
            and not opponent_ruffs):
        return 60 - rank  # a ruff for partner
    return 30 - rank


cdef inline bint safe_winner(int seat, int card) noexcept nogil:
    """Whether ``card`` played now is sure to win: no opponent still to play can beat it."""
    cdef int lead_suit = cards[0] // 13
    cdef int position, later
    cdef Mask later_hand, follow
    for position in range(played_count + 1, 4):
        later = (leader + position) & 3
        if ((later - seat) & 1) == 0:
            continue  # partner
        later_hand = hand[later]
        follow = suit_of(later_hand, lead_suit)
        if follow:
            if card // 13 == lead_suit and highest(follow) + 13 * lead_suit > card:
                return False
        elif trump != NO_TRUMP and suit_of(later_hand, trump):
            if card // 13 != trump or highest(suit_of(later_hand, trump)) + 13 * trump > card:
                return False
    return True


cdef inline int follow_score(int seat, int card, Mask out, bint partner_safe) noexcept nogil:
    """``partner_safe``: partner's card wins the trick whatever the others still to play do."""
    cdef int suit = card // 13
    cdef int rank = card - 13 * suit
    cdef int lead_suit = cards[0] // 13
    cdef int best = win_card[played_count - 1]
    cdef Mask in_suit
    if partner_safe:
        if suit != lead_suit:
            return -rank - (40 if suit == trump else 0) + 4 * popcount(suit_of(hand[seat], suit))
        return -rank
    if beats(card, best):
        if played_count == 3 or safe_winner(seat, card):
            return 60 - rank - (10 if suit != lead_suit else 0)
        if played_count == 2:
            return 30 + rank  # third hand high, to force the fourth
        return -20 - rank
    if suit != lead_suit:
        in_suit = out & (SUIT << (13 * suit))
        if card == highest(in_suit):
            return -30 - rank  # keep winners
        return -rank - (40 if suit == trump else 0) + 4 * popcount(suit_of(hand[seat], suit))
    return -rank


cdef int order_moves(int seat, int* moves, int hint, int second) noexcept nogil:
    """Fill ``moves`` with the seat's legal cards, one per class of equivalent cards, best first."""
    cdef Mask full = hand[seat]
    cdef Mask legal = full
    cdef Mask out = hand[0] | hand[1] | hand[2] | hand[3]
    cdef Mask separating = out  # the cards still out and those played to this trick
    cdef Mask above, follow
    cdef int scores[13]
    cdef int count = 0
    cdef int card, suit, score, i
    cdef bint partner_safe = False
    for i in range(played_count):
        separating |= bit(cards[i])
    if played_count:
        partner_safe = (((win_seat[played_count - 1] - seat) & 3) == 2
                        and safe_winner(win_seat[played_count - 1], win_card[played_count - 1]))
        follow = full & (SUIT << (13 * (cards[0] // 13)))
        if follow:
            legal = follow
    while legal:
        card = highest(legal)
        legal &= ~bit(card)
        suit = card // 13
        above = separating & (SUIT << (13 * suit)) & ~((bit(card) << 1) - 1)
        if above and (full >> lowest_bit(above)) & 1:
            continue  # the next higher card still out or in this trick is ours: same value
        if card == hint:
            score = 2000
        elif card == second:
            score = 1500
        elif played_count == 0:
            score = lead_score(seat, card, out)
        else:
            score = follow_score(seat, card, out, partner_safe)
        i = count
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            moves[i] = moves[i - 1]
            i -= 1
        scores[i] = score
        moves[i] = card
        count += 1
    return count


# --- the search --------------------------------------------------------------------------------------

cdef int bound_settles(int target, int left, Mask* used) noexcept nogil:
    """At a trick's start: 1 or 0 when a bound settles the test without search, else -1."""
    cdef int quick
    if target <= 0:
        used[0] = 0
        return 1
    if target > left:
        used[0] = 0
        return 0
    if left == 1:
        return 1 if last_trick(target, used) else 0
    quick = quick_tricks(target if (leader & 1) == 0 else left - target + 1, used)
    if leader & 1 == 0:
        if quick >= target:
            return 1
    elif left - quick < target:
        return 0
    if trump != NO_TRUMP:
        if top_trumps(0, used) >= target:
            return 1
        if left - top_trumps(1, used) < target:
            return 0
    return -1


cdef int second_hand_settles(int target, Mask* used) noexcept nogil:
    """After the lead: 1 or 0 when the side of the second hand surely wins this trick and the
    tricks that follows from it settle the test, else -1.

    The side wins the trick when one of its hands holds a card of the led suit above the led card
    and all of the third hand's, or can ruff, and the third hand can neither ruff nor overruff.
    In no trump, the hand that wins then cashes its top cards in the other suits.
    """
    cdef int seat = (leader + 1) & 3
    cdef int third = (leader + 2) & 3
    cdef int fourth = seat ^ 2
    cdef int led = cards[0]
    cdef int suit = led // 13
    cdef int left = popcount(hand[seat])
    cdef int need, tricks, other
    cdef Mask ours, theirs, top, cash_used
    cdef Mask after[4]
    need = target if (seat & 1) == 0 else left - target + 1
    if need > left:
        return -1
    ours = suit_of(hand[seat] | hand[fourth], suit)
    theirs = suit_of(hand[third], suit)
    if trump != NO_TRUMP and suit != trump and theirs == 0 and suit_of(hand[third], trump) != 0:
        return -1  # the third hand may ruff
    if ours and highest(ours) + 13 * suit > max(led, highest(theirs) + 13 * suit if theirs else -1):
        top = bit(highest(ours) + 13 * suit)
    elif (trump != NO_TRUMP and suit != trump
          and ((suit_of(hand[seat], suit) == 0 and suit_of(hand[seat], trump) != 0)
               or (suit_of(hand[fourth], suit) == 0 and suit_of(hand[fourth], trump) != 0))):
        top = 0  # a ruff: the third hand follows suit or has no trump
    else:
        return -1
    tricks = 1
    used[0] = top
    if tricks < need and trump == NO_TRUMP and top:
        # The hand with the top card wins and leads: its winners in the other suits follow.
        other = seat if (hand[seat] & top) else fourth
        after[0] = hand[0] & ~(SUIT << (13 * suit))
        after[1] = hand[1] & ~(SUIT << (13 * suit))
        after[2] = hand[2] & ~(SUIT << (13 * suit))
        after[3] = hand[3] & ~(SUIT << (13 * suit))
        tricks += cash_tricks(after, other, &cash_used, need - 1)
        used[0] |= cash_used
    if tricks >= need:
        return 1 if (seat & 1) == 0 else 0
    return -1


cdef bint search_next_trick(int target, Mask* used) noexcept nogil:
    """After the fourth card: score the trick and search on from the next one."""
    global leader, played_count
    cdef int won = 1 if (win_seat[3] & 1) == 0 else 0
    cdef Mask rank_cards = trick_rank_card()
    cdef int saved_leader = leader
    cdef int saved_cards[4]
    cdef int saved_win_card[4]
    cdef int saved_win_seat[4]
    cdef bint value
    saved_cards[:] = cards
    saved_win_card[:] = win_card
    saved_win_seat[:] = win_seat
    leader = win_seat[3]
    played_count = 0
    value = search(target - won, used)
    leader = saved_leader
    played_count = 4
    cards[:] = saved_cards
    win_card[:] = saved_win_card
    win_seat[:] = saved_win_seat
    used[0] |= rank_cards
    return value


cdef bint search(int target, Mask* used) noexcept nogil:
    """Whether N/S take at least ``target`` of the tricks left (the current trick included).

    ``used`` gets the cards whose ranks the answer depends on.
    """
    global nodes
    cdef int left, settled, seat, count, i, card
    cdef Mask child_used
    cdef Mask all_used = 0
    cdef Abstract position
    cdef int moves[13]
    cdef int small_below[4]  # per suit: cards below this one need no search (-1: not yet known)
    cdef int suit, lowest
    cdef Mask in_suit
    cdef bint maximize, value
    cdef bint at_start = played_count == 0
    cdef int hint = -1
    cdef int second
    nodes += 1
    if at_start:
        left = popcount(hand[leader])
        if left > 2:
            find_bucket(&position)
        settled = bound_settles(target, left, used)
        if settled >= 0:
            return settled == 1
        if left > 2:
            abstract_position(&position)
            settled = probe(&position, target, used, &hint)
            if settled >= 0:
                return settled == 1
        else:
            at_start = False  # two tricks: searching them is cheaper than the table
    elif played_count == 1:
        settled = second_hand_settles(target, used)
        if settled >= 0:
            return settled == 1
    seat = (leader + played_count) & 3
    maximize = (seat & 1) == 0
    second = -1
    if played_count == 0:
        if hint < 0 and killer_lead[left] >= 0 and (hand[seat] >> killer_lead[left]) & 1:
            hint = killer_lead[left]
        elif killer_lead[left] >= 0 and (hand[seat] >> killer_lead[left]) & 1:
            second = hint
            hint = killer_lead[left]
        if second < 0 and killer_second[left] >= 0 and (hand[seat] >> killer_second[left]) & 1 and killer_second[left] != hint:
            second = killer_second[left]
    count = order_moves(seat, moves, hint, second)
    for i in range(4):
        small_below[i] = -1
    for i in range(count):
        card = moves[i]
        if card < small_below[card // 13]:
            continue  # as small as a card already tried, below every rank the answers used
        play(seat, card)
        if played_count == 4:
            value = search_next_trick(target, &child_used)
        else:
            value = search(target, &child_used)
        unplay(seat, card)
        if value == maximize:
            # A cut-off: this card alone settles the test.
            if played_count == 0 and killer_lead[popcount(hand[seat])] != card:
                killer_second[popcount(hand[seat])] = killer_lead[popcount(hand[seat])]
                killer_lead[popcount(hand[seat])] = card
            if at_start:
                if value:
                    store(&position, child_used, target, left, card)
                else:
                    store(&position, child_used, 0, target - 1, card)
            used[0] = child_used
            return value
        all_used |= child_used
        suit = card // 13
        if small_below[suit] < 0:
            in_suit = all_used & (SUIT << (13 * suit))
            lowest = lowest_bit(in_suit) if in_suit else 13 * suit + 13
            if card < lowest:
                small_below[suit] = lowest
    if at_start:
        if maximize:
            store(&position, all_used, 0, target - 1, -1)
        else:
            store(&position, all_used, target, left, -1)
    used[0] = all_used
    return not maximize


cdef int north_south_tricks(int left, int guess, bint step) noexcept nogil:
    """The exact N/S tricks by null-window tests, the first at ``guess``.

    With ``step`` (a guess known to be close) the tests then step a trick at a time towards the
    answer; else they halve the range left. Tests far from the answer are cheap and the two at
    the answer are needed anyway: halving skips the costly one next to the answer that
    stepping from the middle may have to make.
    """
    cdef int lower = 0
    cdef int upper = left
    cdef int target
    cdef Mask used
    while lower < upper:
        target = min(max(guess, lower + 1), upper)
        if search(target, &used):
            lower = target
            guess = target + 1 if step else (lower + upper + 1) // 2
        else:
            upper = target - 1
            guess = target - 1 if step else (lower + upper + 1) // 2
    return lower


cdef Mask last_deal[4]
cdef int last_trump = -1

# The position, the table and the counts are this module's globals, so one search runs at a time;
# the search itself runs without the GIL, so other Python threads (a server's) go on meanwhile.
SEARCHING = threading.Lock()


cdef void keep_table_for_same_deal() noexcept:
    """Clear the table unless the last solve had the same deal (with the current trick's cards
    in hand) and strain, as a table of DDS's lives for one deal: then the leaders of one strain
    share it. Entries hold for any deal of their strain, so keeping them is safe either way."""
    global last_trump
    cdef Mask deal[4]
    cdef int seat, position
    cdef bint same = trump == last_trump
    for seat in range(4):
        deal[seat] = hand[seat]
    for position in range(played_count):
        deal[(leader + position) & 3] |= bit(cards[position])
    for seat in range(4):
        same = same and deal[seat] == last_deal[seat]
        last_deal[seat] = deal[seat]
    last_trump = trump
    if not same:
        clear_table()
        killer_lead[:] = [-1] * 14  # learnt on another deal: start cold, like the table
        killer_second[:] = [-1] * 14


cdef void ensure_table() except *:
    global table, blocks, next_block
    if table == NULL:
        table = <Bucket*>table_alloc(BUCKETS * sizeof(Bucket))
        blocks = <Block*>table_alloc(BLOCKS * sizeof(Block))
        next_block = <int32_t*>malloc(BLOCKS * sizeof(int32_t))
        if table == NULL or blocks == NULL or next_block == NULL:
            raise MemoryError("no memory for the double-dummy transposition table")


cdef void set_position(tuple hands, int strain, int first, tuple trick) except *:
    global trump, leader, played_count
    cdef int seat
    for seat in range(4):
        hand[seat] = <Mask>hands[seat]
    trump = strain
    leader = first
    played_count = 0
    for card in trick:
        play((first + played_count) & 3, <int>card)
    keep_table_for_same_deal()


def solve_position(tuple hands, int strain, int first, tuple trick) -> int:
    """Tricks the side of the player on move takes; the wrapper in ``__init__.py`` checks the input.

    ``hands`` are four card masks (the cards of ``trick`` already removed), ``first`` is the seat
    that led ``trick``, the cards played so far to the current trick in order.
    """
    global nodes
    cdef int seat, left, ns
    with SEARCHING:
        ensure_table()
        nodes = 0
        set_position(hands, strain, first, trick)
        seat = (first + played_count) & 3
        left = popcount(hand[seat])
        with nogil:
            ns = north_south_tricks(left, (left + 1) // 2, False)
    return ns if (seat & 1) == 0 else left - ns


def solve_table(tuple hands) -> tuple:
    """The leader's side's tricks for every strain (0-4) and opening leader (0-3), strain first.

    The leaders of one strain share the transposition table, and each search starts from the
    answer for the leader before: the two seldom differ by more than a trick.
    """
    global nodes
    cdef int strain, first, left, ns
    cdef int guess
    cdef list results = []
    with SEARCHING:
        ensure_table()
        nodes = 0
        left = popcount(<Mask>hands[0])
        for strain in range(5):
            guess = -1
            for first in range(4):
                set_position(hands, strain, first, ())
                with nogil:
                    ns = north_south_tricks(left, guess if guess >= 0 else (left + 1) // 2, guess >= 0)
                guess = ns
                results.append(ns if (first & 1) == 0 else left - ns)
    return tuple(results)


def last_node_count() -> int:
    """Positions visited by the last ``solve_position`` or ``solve_table`` call (for benchmarks)."""
    return nodes
