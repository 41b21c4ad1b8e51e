# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The playout policy of ``whist.bots.playout`` in C: the same choices, card for card, without
a Python object per card. The expert plays thousands of playouts per decision; the Python
module stays the reference, and ``tests/bots/test_expert.py`` checks the two agree.
"""

from libc.stdint cimport uint64_t

cdef extern from *:
    int __builtin_popcountll(unsigned long long)
    int __builtin_ctzll(unsigned long long)
    int __builtin_clzll(unsigned long long)

cdef uint64_t SUIT = 0x1FFF
cdef int MAX_SEATS = 8


cdef inline uint64_t suit_mask(int suit):
    return SUIT << (13 * suit)


cdef inline uint64_t above(int card):
    # The cards of card's suit ranked above it.
    return suit_mask(card // 13) & ~((<uint64_t>2 << card) - 1)


cdef inline int lowest(uint64_t mask):
    return __builtin_ctzll(mask)


cdef inline int highest(uint64_t mask):
    return 63 - __builtin_clzll(mask)


cdef inline bint beats(int card, int best, int trump):
    if card // 13 == best // 13:
        return card > best
    return card // 13 == trump


cdef inline bint can_beat(uint64_t hand, int card, uint64_t led, int trump):
    cdef uint64_t follow = hand & led
    if follow:
        return (follow & above(card)) != 0 if (led >> card) & 1 else False
    if trump == 4:
        return False
    cdef uint64_t trumps = hand & suit_mask(trump)
    if card // 13 == trump:
        return (trumps & above(card)) != 0
    return trumps != 0


cdef int lowest_rank(uint64_t mask, int trump):
    cdef uint64_t pool = mask & ~suit_mask(trump) if trump < 4 else mask
    if not pool:
        pool = mask
    cdef int best = -1, s, c
    for s in range(4):
        if pool & suit_mask(s):
            c = lowest(pool & suit_mask(s))
            if best < 0 or c % 13 < best % 13:
                best = c
    return best


cdef int highest_rank(uint64_t mask):
    cdef int best = -1, s, c
    for s in range(4):
        if mask & suit_mask(s):
            c = highest(mask & suit_mask(s))
            if best < 0 or c % 13 > best % 13:
                best = c
    return best


cdef int cheapest(uint64_t legal, uint64_t led, int trump):
    if legal & led:
        return lowest(legal)
    return lowest_rank(legal, trump)


cdef bint beaten_by_any(uint64_t* hands, int count, int card, uint64_t led, int trump):
    cdef int i
    for i in range(count):
        if can_beat(hands[i], card, led, trump):
            return True
    return False


cdef int lead_card(uint64_t* hands, int n, int seat, uint64_t legal, int trump, bint wants, bint partnership):
    cdef uint64_t others[8]
    cdef int count = 0, k, c, s, best, key_a, key_b, key_c, best_a, best_b, best_c
    cdef uint64_t rest = 0, sure = 0, m
    for k in range(1, n):
        if partnership and k == 2:
            continue
        others[count] = hands[(seat + k) % n]
        rest |= others[count]
        count += 1
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        if not beaten_by_any(others, count, c, suit_mask(c // 13), trump):
            sure |= <uint64_t>1 << c
    if wants:
        if sure:
            # The sure winner of the lowest (side suit first, then rank).
            best = -1
            m = sure
            while m:
                c = lowest(m)
                m &= m - 1
                if best < 0 or ((c // 13 == trump) < (best // 13 == trump)) or (
                        (c // 13 == trump) == (best // 13 == trump) and c % 13 < best % 13):
                    best = c
            return best
        best = -1
        for s in range(4):
            if not legal & suit_mask(s):
                continue
            # Longest suit, side suits first, the higher suit among equals.
            if best < 0:
                best = s
                continue
            key_a, best_a = s != trump, best != trump
            key_b, best_b = __builtin_popcountll(legal & suit_mask(s)), __builtin_popcountll(legal & suit_mask(best))
            if key_a > best_a or (key_a == best_a and (key_b > best_b or (key_b == best_b and s > best))):
                best = s
        return lowest(legal & suit_mask(best))
    if legal & ~sure:
        best = -1
        m = legal & ~sure
        while m:
            c = lowest(m)
            m &= m - 1
            key_a = __builtin_popcountll(rest & above(c))
            key_b = c // 13 != trump
            key_c = -(c % 13)
            if best < 0 or key_a > best_a or (key_a == best_a and (key_b > best_b or (key_b == best_b and key_c > best_c))):
                best, best_a, best_b, best_c = c, key_a, key_b, key_c
        return best
    return highest_rank(legal)


cdef int policy_card(uint64_t* hands, int n, int seat, int* trick, int played, int trump, bint partnership,
                     bint wants):
    cdef uint64_t hand = hands[seat]
    cdef uint64_t led = suit_mask(trick[0] // 13) if played else 0
    cdef uint64_t legal = hand & led
    if not legal:
        legal = hand
    if not (legal & (legal - 1)):
        return lowest(legal)
    if not played:
        return lead_card(hands, n, seat, legal, trump, wants, partnership)
    cdef uint64_t later[8]
    cdef int count = 0, k, i, best_index = 0, best, c, pick
    cdef uint64_t m, winners = 0, safe = 0, losers = 0
    for k in range(1, n - played):
        if partnership and k % 2 == 0:
            continue
        later[count] = hands[(seat + k) % n]
        count += 1
    for i in range(1, played):
        if beats(trick[i], trick[best_index], trump):
            best_index = i
    best = trick[best_index]
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        if beats(c, best, trump):
            winners |= <uint64_t>1 << c
            if not beaten_by_any(later, count, c, led, trump):
                safe |= <uint64_t>1 << c
        else:
            losers |= <uint64_t>1 << c
    if partnership:
        if (played - best_index) % 2 == 0 and not beaten_by_any(later, count, best, led, trump):
            return cheapest(legal, led, trump)
        return min_rank(safe) if safe else cheapest(legal, led, trump)
    if wants:
        return min_rank(safe) if safe else cheapest(legal, led, trump)
    if losers:
        return max_rank(losers)
    if winners & ~safe:
        return cheapest(legal, led, trump)
    return highest_rank(legal)


cdef int min_rank(uint64_t mask):
    # The first card, in card order, of the lowest rank.
    cdef int best = -1, c
    while mask:
        c = lowest(mask)
        mask &= mask - 1
        if best < 0 or c % 13 < best % 13:
            best = c
    return best


cdef int max_rank(uint64_t mask):
    # The first card, in card order, of the highest rank.
    cdef int best = -1, c
    while mask:
        c = lowest(mask)
        mask &= mask - 1
        if best < 0 or c % 13 > best % 13:
            best = c
    return best


cdef int trick_winner_index(int* trick, int n, int trump):
    cdef int i, best = 0
    for i in range(1, n):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


def play_out_tricks(tuple hands, int trump, int leader, tuple trick, tuple won, tuple contracts):
    """Each seat's final trick count when the policy plays the hand out from this position.
    ``contracts`` is empty for the partnership game."""
    cdef int n = len(hands)
    if n > MAX_SEATS:
        raise ValueError(f"at most {MAX_SEATS} seats, not {n}")
    cdef uint64_t h[8]
    cdef int t[8]
    cdef int w[8]
    cdef int aims[8]
    cdef int i, played = len(trick), seat, card, winner
    cdef bint partnership = len(contracts) == 0
    for i in range(n):
        h[i] = hands[i]
        w[i] = won[i]
        aims[i] = 0 if partnership else contracts[i]
    for i in range(played):
        t[i] = trick[i]
    while True:
        seat = (leader + played) % n
        if not h[seat]:
            break
        card = policy_card(h, n, seat, t, played, trump, partnership, partnership or aims[seat] > w[seat])
        h[seat] &= ~(<uint64_t>1 << card)
        t[played] = card
        played += 1
        if played == n:
            winner = (leader + trick_winner_index(t, n, trump)) % n
            w[winner] += 1
            leader = winner
            played = 0
    return tuple([w[i] for i in range(n)])
