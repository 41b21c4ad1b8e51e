# cython: language_level=3
"""The compiled basic estimate, for the other compiled modules (``fastplayout`` weighs sampled
deals by the bids with it)."""

ctypedef unsigned long long Mask

cdef struct EstimateCache:
    # Binomial tails kept between estimates for one table (players, hand size) and number of
    # unknown cards; a negative entry is not worked out yet. ``players = -1``: empty.
    int players
    int hand_size
    int unknown_count
    double tail[14][14]  # binomial_at_most(k, n, share in play), by k and n
    double share_tail[52][14]  # binomial_at_most(k, hand size, a suit's share of the unknown cards), by k and that suit's unknown cards

cdef double estimate(Mask hand, int strain, int players, int hand_size, Mask unknown,
                     EstimateCache* cache) noexcept
