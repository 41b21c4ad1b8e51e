# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The basic bot's estimate of a hand's tricks (``basic_bidding.estimate_tricks``) in C.

The expert's bids, trump calls and Frisch passes are scored by finishing the hand on each
sampled deal, the other seats bidding by the basic bot's rules: one estimate per imagined hand,
which in Python cost about 0.2 ms and most of a bid's search. This is the same arithmetic in the
same order (the binomial tails summed term by term, the cards' values added suit by suit, from
the highest card down, Python's ``round`` as round-half-even), so it gives the same double as
the Python reference on Python 3.11; ``tests/bots/test_basic.py`` checks the two agree.
"""

from libc.math cimport ceil, floor, nearbyint, pow

cdef extern from *:
    int __builtin_popcountll(unsigned long long)


cdef int NO_TRUMP = 4
cdef double RUFF_VALUE = 0.65
cdef double LENGTH_VALUE_TRUMP = 0.8
cdef double LENGTH_VALUE_NO_TRUMP = 0.45


cdef inline Mask suit_mask(int suit) noexcept:
    return <Mask>0x1FFF << (13 * suit)


cdef inline Mask cards_above(int card) noexcept:
    return suit_mask(card // 13) & ~((<Mask>2 << card) - 1)


cdef inline int count(Mask mask) noexcept:
    return __builtin_popcountll(mask)


cdef double binomial_at_most(int k, int n, double p) noexcept:
    """Chance of at most ``k`` successes in ``n`` tries of chance ``p``, summed as Python sums."""
    cdef double total = 0.0
    cdef double comb = 1.0  # C(n, i), exact in a double for the sizes of a pack
    cdef int i
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    for i in range(k + 1):
        if i:
            comb = comb * (n - i + 1) / i
        total += comb * pow(p, i) * pow(1 - p, n - i)
    return total


cdef double at_most(double k, int n, double p, EstimateCache* cache) noexcept:
    cdef double low = floor(k)
    cdef double frac = k - low
    return (1 - frac) * in_play_tail(<int>low, n, p, cache) + frac * in_play_tail(<int>low + 1, n, p, cache)


cdef inline double in_play_tail(int k, int n, double p, EstimateCache* cache) noexcept:
    """``binomial_at_most(k, n, p)`` for ``p`` the outlook's share of cards in play, kept in
    ``cache`` (the same double: it is worked out once, by the same sum)."""
    if cache == NULL or k < 0 or k >= n or n > 13:
        return binomial_at_most(k, n, p)
    if cache.tail[k][n] < 0:
        cache.tail[k][n] = binomial_at_most(k, n, p)
    return cache.tail[k][n]


cdef struct Outlook:
    int players
    int hand_size
    Mask unknown
    int unknown_count
    double in_play


cdef inline double share(Outlook* o, int suit) noexcept:
    return count(o.unknown & suit_mask(suit)) / <double>o.unknown_count if o.unknown_count else 0.0


cdef inline double void_tail(Outlook* o, int k, int suit, EstimateCache* cache) noexcept:
    """``binomial_at_most(k, hand_size, share(suit))``, kept in ``cache`` by the suit's unknown cards."""
    cdef int unknown_in_suit = count(o.unknown & suit_mask(suit))
    if cache == NULL or k < 0 or k >= o.hand_size or k >= 52:
        return binomial_at_most(k, o.hand_size, share(o, suit))
    if cache.share_tail[k][unknown_in_suit] < 0:
        cache.share_tail[k][unknown_in_suit] = binomial_at_most(k, o.hand_size, share(o, suit))
    return cache.share_tail[k][unknown_in_suit]


cdef double survival(Outlook* o, int suit, int trump, int round_, int drawn, EstimateCache* cache) noexcept:
    cdef double void = void_tail(o, round_, suit, cache)
    cdef double has_trump = 1 - void_tail(o, drawn, trump, cache)
    return pow(1 - void * has_trump, o.players - 1)


cdef void prepare(EstimateCache* cache, int players, int hand_size, int unknown_count) noexcept:
    """Empties ``cache`` unless it was filled for the same table and number of unknown cards (the
    shares of cards in play, and so every kept tail, depend only on those)."""
    cdef int i, j
    if cache.players == players and cache.hand_size == hand_size and cache.unknown_count == unknown_count:
        return
    cache.players, cache.hand_size, cache.unknown_count = players, hand_size, unknown_count
    for i in range(14):
        for j in range(14):
            cache.tail[i][j] = -1.0
    for i in range(52):
        for j in range(14):
            cache.share_tail[i][j] = -1.0


cdef void suit_values(Mask hand, int suit, int strain, Outlook* o, int drawn, double* values,
                      EstimateCache* cache) noexcept:
    """``basic_bidding._valued_suit``: each card of ``suit`` in ``hand``, in ``values[card]``."""
    cdef Mask mine = hand & suit_mask(suit)
    cdef int length = count(mine)
    cdef double others = count(o.unknown & suit_mask(suit)) * o.in_play / (o.players - 1)
    cdef int long_from = <int>ceil(others + 0.5)
    cdef double spent = 0.0
    cdef double win, one_short, two_short, bonus, value
    cdef int i = 0, card, above, guards
    for card in range(13 * suit + 12, 13 * suit - 1, -1):
        if not (mine >> card) & 1:
            continue
        above = count(o.unknown & cards_above(card))
        win = at_most(spent, above, o.in_play, cache)
        guards = length - 1 - i
        one_short = at_most(spent + 1, above, o.in_play, cache) - win
        two_short = at_most(spent + 2, above, o.in_play, cache) - win - one_short
        bonus = (0.5 if guards >= 1 else 0.25) * one_short + (0.25 if guards >= 2 else 0.125) * two_short
        spent += 1 - win - bonus
        value = win + bonus
        if strain == NO_TRUMP or strain == suit:
            if i >= long_from:
                value = max(value, LENGTH_VALUE_TRUMP if strain == suit else LENGTH_VALUE_NO_TRUMP)
        else:
            value *= survival(o, suit, strain, i, drawn, cache)
        values[card] = value
        i += 1


cdef void add_ruffs(double* values, Mask hand, int trump, Outlook* o) noexcept:
    """``basic_bidding._add_ruffs``: the lowest-valued low trumps (ties: the lower card) raised."""
    cdef int rounds = max(1, <int>nearbyint(2.0 * o.hand_size / 13))
    cdef int chances = 0
    cdef int s, card, j, k, spare_count = 0, best
    cdef int spare[13]
    for s in range(4):
        if s != trump:
            chances += max(0, rounds - count(hand & suit_mask(s)))
    for card in range(13 * trump, 13 * trump + 13):
        if (hand >> card) & 1 and values[card] < RUFF_VALUE:
            spare[spare_count] = card
            spare_count += 1
    for j in range(min(chances, spare_count)):  # a stable selection of the lowest values
        best = j
        for k in range(j + 1, spare_count):
            if values[spare[k]] < values[spare[best]]:
                best = k
        card = spare[best]
        for k in range(best, j, -1):
            spare[k] = spare[k - 1]
        spare[j] = card
        values[card] = RUFF_VALUE


cdef double estimate(Mask hand, int strain, int players, int hand_size, Mask unknown,
                     EstimateCache* cache) noexcept:
    """The estimate for arguments already checked (``estimate_tricks``); ``fastplayout`` calls it
    for every bidder of every deal it weighs by the bids, with a ``cache`` of the binomial tails
    (NULL: none), which makes it several times faster and changes no result."""
    cdef Outlook o
    cdef double values[52]
    cdef double total = 0.0
    cdef int suit, card, drawn = 0
    o.players = players
    o.hand_size = hand_size
    o.unknown = unknown
    o.unknown_count = count(unknown)
    o.in_play = min(1.0, (players - 1) * hand_size / <double>o.unknown_count) if o.unknown_count else 0.0
    if cache != NULL:
        prepare(cache, players, hand_size, o.unknown_count)
    if strain != NO_TRUMP:
        for card in range(13 * strain, 13 * strain + 13):
            if (hand >> card) & 1 and not unknown & cards_above(card):
                drawn += 1
    for suit in range(4):
        suit_values(hand, suit, strain, &o, drawn, values, cache)
    if strain != NO_TRUMP:
        add_ruffs(values, hand, strain, &o)
    for suit in range(4):  # added as the Python dict is: suit by suit, the highest card first
        for card in range(13 * suit + 12, 13 * suit - 1, -1):
            if (hand >> card) & 1:
                total += values[card]
    return min(<double>hand_size, total)


def estimate_tricks(unsigned long long hand, int strain, int players, int hand_size, unsigned long long unknown):
    """``basic_bidding.estimate_tricks(hand, strain, Outlook(players, hand_size, unknown))``."""
    if not 0 <= strain <= NO_TRUMP or players < 2 or hand_size < 0 or (hand | unknown) >> 52:
        raise ValueError("a hand and unknown cards of the 52, a strain 0-4, two or more players")
    return estimate(hand, strain, players, hand_size, unknown, NULL)


def estimate_tricks_cached(hands: list, int strain, int players, int hand_size, unsigned long long pack):
    """``estimate_tricks`` of each of ``hands`` with its unknown cards the rest of ``pack``, through
    one cache of the binomial tails as ``fastplayout`` uses it (for the tests: the same doubles)."""
    cdef EstimateCache cache
    cache.players = -1
    if not 0 <= strain <= NO_TRUMP or players < 2 or hand_size < 0 or pack >> 52:
        raise ValueError("a pack of the 52 cards, a strain 0-4, two or more players")
    out = []
    for hand in hands:
        if (<Mask>hand) >> 52:
            raise ValueError("a hand of the 52 cards")
        out.append(estimate(hand, strain, players, hand_size, pack & ~(<Mask>hand), &cache))
    return out
