# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The playout policy of ``israeli_whist.bots.search.playout`` in C: the same choices, card for card, without
a Python object per card. The expert plays thousands of playouts per decision; the Python
module stays the reference, and ``tests/bots/test_expert.py`` checks the two agree.
"""

from cpython.array cimport array
from libc.math cimport exp
from libc.stdint cimport uint64_t

from israeli_whist.bots.judgement.fastestimate cimport EstimateCache, estimate

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


cdef void play_out(uint64_t* h, int n, int* t, int played, int leader, int trump, bint partnership,
                   int* aims, int* w) noexcept:
    """Play the hand out by the policy from the trick ``t`` (``played`` cards of it down, led by
    ``leader``), counting each seat's tricks into ``w``; ``h`` ends empty."""
    cdef int seat, card, winner
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
    cdef int i
    cdef bint partnership = len(contracts) == 0
    for i in range(n):
        h[i] = hands[i]
        w[i] = won[i]
        aims[i] = 0 if partnership else contracts[i]
    for i in range(len(trick)):
        t[i] = trick[i]
    play_out(h, n, t, len(trick), leader, trump, partnership, aims, w)
    return tuple([w[i] for i in range(n)])


# --- Scoring sampled deals (the expert's card play in the individual games) ---------------------

cdef inline uint64_t next_random(uint64_t* state) noexcept:
    # splitmix64: a fast generator of good quality, seeded afresh by the caller for each batch.
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int below(uint64_t* state, int bound) noexcept:
    """A uniform integer in [0, bound), without the bias of a plain modulo (rejection)."""
    cdef uint64_t limit = (0xFFFFFFFFFFFFFFFFULL // <uint64_t>bound) * <uint64_t>bound
    cdef uint64_t x = next_random(state)
    while x >= limit:
        x = next_random(state)
    return <int>(x % <uint64_t>bound)


cdef inline double uniform(uint64_t* state) noexcept:
    """A uniform double in [0, 1), from the top 53 bits."""
    return (next_random(state) >> 11) * (1.0 / 9007199254740992.0)


cdef class Dealer:
    """Deals drawn as ``sampling.DealSampler.sample`` draws them: ``base`` (each seat's known
    cards, the seat on move's whole hand) with each group of unseen cards (``groups``) shuffled
    and dealt to the places (``places``: seats, then the stock) in numbers drawn from ``split``
    (a ``sampling.SplitTable``). The random numbers come from the caller's state."""

    cdef int n, group_count, place_count, width
    cdef bint by_group
    cdef uint64_t base[8]
    cdef int seats_of[16]
    cdef int cards[52]
    cdef int starts[53]
    cdef int split_counts[52 * 17]  # per group, per place (the stock last)
    cdef int[::1] node_row, node_first, next_node, values
    cdef double[::1] cumulative
    # The bids the deals are weighed by (``weigh_by_bids``); none: every deal is kept.
    cdef int bidder_count, strain, hand_size, max_tries
    cdef int bidders[8]
    cdef double contract_of[8]
    cdef double bonus_of[8]
    cdef uint64_t played_of[8]
    cdef uint64_t pack
    cdef double zero_line, scale, searcher_offset, basic_share
    cdef EstimateCache cache

    def __init__(self, tuple base, tuple groups, tuple places, split):
        cdef int i, g, start
        self.n = len(base)
        self.group_count = len(groups)
        self.place_count = len(places)
        self.width = split.width
        self.by_group = split.by_group
        if self.n > MAX_SEATS or self.place_count > 16 or self.group_count > 52 or \
                self.width != (self.place_count + 1 if self.by_group else self.group_count):
            raise ValueError("the seats, groups, places and split table do not fit together")
        for i in range(self.n):
            self.base[i] = base[i]
        for i in range(self.place_count):
            if not 0 <= places[i] < self.n:
                raise ValueError(f"place {places[i]} is not a seat")
            self.seats_of[i] = places[i]
        self.starts[0] = 0
        for g in range(self.group_count):
            start = self.starts[g]
            for card in groups[g]:
                if start >= 52 or not 0 <= card < 52:
                    raise ValueError("the groups hold more than 52 cards, or a card that is not one")
                self.cards[start] = card
                start += 1
            self.starts[g + 1] = start
        self.node_row = array("i", split.rows)
        self.node_first = array("i", split.first)
        self.next_node = array("i", split.next_node)
        self.values = array("i", split.values)
        self.cumulative = array("d", split.cumulative)
        if len(self.node_first) != len(self.node_row) + 1 or len(self.next_node) != len(self.cumulative) \
                or len(self.values) != len(self.cumulative) * self.width or not self.well_formed():
            raise ValueError("a malformed split table")

    cdef bint well_formed(self):
        """Every index the walk reads is in range and every step goes to a later node, so no table
        makes it read outside its arrays or walk for ever."""
        cdef int nodes = len(self.node_row)
        cdef int choices = len(self.cumulative)
        cdef int rows = self.group_count if self.by_group else self.place_count + 1
        cdef int i
        if nodes == 0 or self.node_first[0] != 0 or self.node_first[nodes] != choices:
            return False
        cdef int j
        for i in range(nodes):
            if self.node_first[i + 1] <= self.node_first[i] or not 0 <= self.node_row[i] < rows:
                return False
            for j in range(self.node_first[i], self.node_first[i + 1]):
                if self.next_node[j] != -1 and not i < self.next_node[j] < nodes:
                    return False  # forward only: the walk ends
        for i in range(len(self.values)):
            if self.values[i] < 0:
                return False
        return True

    def weigh_by_bids(self, tuple bidders, tuple contracts, tuple played, tuple bonuses, unsigned long long pack,
                      int strain, int hand_size, double zero_line, double spread, int max_tries,
                      double searcher_offset, double basic_share):
        """Draw deals by how likely they make the bids (``israeli_whist.bots.search.inference.BidLikelihood``):
        ``bidders`` (seats, the first to ask first), each with its contract, the cards it has
        played since its bid and the bonus added to its estimate. A bidder's likelihood is the
        mixture, ``basic_share`` to the rest, of a basic bot's bid (the estimate, 0 under
        ``zero_line``) and a searching player's (the estimate plus ``searcher_offset``), a miss
        of ``m`` tricks from either weighing exp(-m^2 / 2 spread^2). A deal is kept with a chance equal to its likelihood, one bidder's coin at a
        time; after ``max_tries`` draws the one that got furthest is taken."""
        cdef int i, k = len(bidders)
        if not (k == len(contracts) == len(played) == len(bonuses)) or k > self.n or max_tries < 1 \
                or not spread > 0 or not 0 <= basic_share <= 1 or not -52 <= searcher_offset <= 52 \
                or not 0 <= strain <= 4 or not 0 <= hand_size <= 52 or pack >> 52:
            raise ValueError("bidders, contracts, played cards and bonuses one each, a strain 0-4, a spread > 0, "
                             "a basic share 0-1 and a searcher offset of at most 52 tricks")
        for i in range(k):
            if not 0 <= bidders[i] < self.n or (<uint64_t>played[i]) >> 52:
                raise ValueError(f"bidder {bidders[i]} is not a seat, or its played cards are not cards")
            self.bidders[i] = bidders[i]
            self.contract_of[i] = contracts[i]
            self.played_of[i] = played[i]
            self.bonus_of[i] = bonuses[i]
        self.bidder_count = k
        self.cache.players = -1
        self.pack, self.strain, self.hand_size = pack, strain, hand_size
        self.zero_line, self.scale, self.max_tries = zero_line, -1.0 / (2.0 * spread * spread), max_tries
        self.searcher_offset, self.basic_share = searcher_offset, basic_share

    cdef double likelihood(self, int i, uint64_t* dealt) noexcept:
        """How likely the ``i``-th bidder bid its contract with its cards of ``dealt``."""
        cdef uint64_t hand = dealt[self.bidders[i]] | self.played_of[i]
        cdef double raw = estimate(hand, self.strain, self.n, self.hand_size, self.pack & ~hand,
                                   &self.cache) + self.bonus_of[i]
        cdef double basic_miss = self.contract_of[i] - (0.0 if raw < self.zero_line else raw)
        cdef double searcher_miss = self.contract_of[i] - raw - self.searcher_offset
        return (self.basic_share * exp(self.scale * basic_miss * basic_miss)
                + (1 - self.basic_share) * exp(self.scale * searcher_miss * searcher_miss))

    cdef void draw(self, uint64_t* dealt, uint64_t* state) noexcept:
        """A deal, weighed by the bids where ``weigh_by_bids`` gave them (rejection sampling)."""
        if self.bidder_count == 0:
            self.deal(dealt, state)
            return
        cdef uint64_t trial[8]
        cdef int tries, i, passed, best_passed = -1
        cdef double weight, best_weight = -1.0, chance
        for tries in range(self.max_tries):
            self.deal(trial, state)
            weight = 1.0
            passed = 0
            while passed < self.bidder_count:
                chance = self.likelihood(passed, trial)
                weight *= chance
                if uniform(state) >= chance:
                    break
                passed += 1
            if passed > best_passed or (passed == best_passed and weight > best_weight):
                best_passed, best_weight = passed, weight
                for i in range(self.n):
                    dealt[i] = trial[i]
            if passed == self.bidder_count:
                return

    def bids_likelihood(self, tuple hands):
        """The likelihood of the bids given each seat's cards ``hands`` (the product over the
        bidders, as ``BidLikelihood`` gives it; for the tests)."""
        cdef uint64_t dealt[8]
        cdef int i
        cdef double product = 1.0
        if len(hands) != self.n:
            raise ValueError(f"{self.n} hands, not {len(hands)}")
        for i in range(self.n):
            dealt[i] = hands[i]
        for i in range(self.bidder_count):
            product *= self.likelihood(i, dealt)
        return product

    cdef void deal(self, uint64_t* dealt, uint64_t* state) noexcept:
        cdef int node = 0
        cdef int i, g, p, k, j, row, choice, end, start, size
        cdef double u
        while node >= 0:  # how many cards of each group go to each place: a walk down the table
            u = uniform(state)
            choice = self.node_first[node]
            end = self.node_first[node + 1] - 1
            while choice < end and u >= self.cumulative[choice]:
                choice += 1
            row = self.node_row[node]
            for i in range(self.width):
                if self.by_group:
                    self.split_counts[row * 17 + i] = self.values[choice * self.width + i]
                else:
                    self.split_counts[i * 17 + row] = self.values[choice * self.width + i]
            node = self.next_node[choice]
        for i in range(self.n):
            dealt[i] = self.base[i]
        for g in range(self.group_count):
            start = self.starts[g]
            size = self.starts[g + 1] - start
            for i in range(size - 1, 0, -1):  # Fisher-Yates
                j = below(state, i + 1)
                self.cards[start + i], self.cards[start + j] = self.cards[start + j], self.cards[start + i]
            for p in range(self.place_count):
                k = min(self.split_counts[g * 17 + p], self.starts[g + 1] - start)  # never past the group
                for i in range(k):
                    dealt[self.seats_of[p]] |= <uint64_t>1 << self.cards[start + i]
                start += k


def draw_deals(tuple base, tuple groups, tuple places, split, int deals, unsigned long long seed, bids=None):
    """``deals`` deals as ``score_deals`` draws them from the same arguments: each a tuple of
    the seats' hands."""
    cdef Dealer dealer = Dealer(base, groups, places, split)
    if bids is not None:
        dealer.weigh_by_bids(*bids)
    cdef uint64_t dealt[8]
    cdef uint64_t state = seed
    cdef int d, i
    out = []
    for d in range(deals):
        dealer.draw(dealt, &state)
        out.append(tuple([dealt[i] for i in range(dealer.n)]))
    return out


def score_deals(tuple base, tuple groups, tuple places, split, int deals, unsigned long long seed,
                tuple candidates, int trump, int leader, tuple trick, tuple won, tuple contracts,
                tuple points, bids=None):
    """The seat on move's points after each of its ``candidates`` (cards), the hand played out
    by the policy, on each of ``deals`` deals drawn here (``Dealer``: ``base``, ``groups``,
    ``places``, ``split``; the random numbers from ``seed``): a list of one tuple a deal.
    ``points[k]`` is the seat's score for ``k`` tricks in all. Individual games only (every
    seat plays for its own contract). ``bids``: the arguments of ``Dealer.weigh_by_bids``, to
    draw the deals by how likely they make the bids; None: uniform."""
    cdef Dealer dealer = Dealer(base, groups, places, split)
    if bids is not None:
        dealer.weigh_by_bids(*bids)
    cdef int n = len(base)
    cdef int played = len(trick)
    cdef int seat = (leader + played) % n
    if played >= n or len(contracts) != n or len(won) != n or not 0 < len(candidates) <= 52 or len(points) > 64:
        raise ValueError("score_deals takes the seats' contracts and tricks, a trick under way and 1 to 52 candidates")
    if not 0 <= trump <= 4 or not 0 <= leader < n or any(not 0 <= card < 52 for card in trick):
        raise ValueError("a strain 0-4, a leader among the seats and a trick of cards 0-51")
    cdef uint64_t dealt[8]
    cdef uint64_t h[8]
    cdef int t[8]
    cdef int w[8]
    cdef int aims[8]
    cdef int won_before[8]
    cdef int trick_before[8]
    cdef int score_of[64]
    cdef int moves[52]
    cdef uint64_t state = seed
    cdef int i, j, d, winner
    cdef int candidate_count = len(candidates)
    for i in range(len(points)):
        score_of[i] = points[i]
    for i in range(n):
        won_before[i] = won[i]
        aims[i] = contracts[i]
        if won[i] < 0:
            raise ValueError("a seat's tricks won cannot be negative")
    if won_before[seat] + __builtin_popcountll(dealer.base[seat]) >= len(points):
        raise ValueError("points must give the score of every count of tricks the seat may end with")
    for i in range(played):
        trick_before[i] = trick[i]
    for i in range(candidate_count):
        moves[i] = candidates[i]
        if not 0 <= moves[i] < 52 or not (dealer.base[seat] >> moves[i]) & 1:
            raise ValueError(f"card {moves[i]} is not in the hand of the seat on move")
    results = []
    for d in range(deals):
        dealer.draw(dealt, &state)
        values_of_deal = []
        for j in range(candidate_count):
            for i in range(n):
                h[i] = dealt[i]
                w[i] = won_before[i]
            for i in range(played):
                t[i] = trick_before[i]
            h[seat] &= ~(<uint64_t>1 << moves[j])
            t[played] = moves[j]
            if played + 1 == n:
                winner = (leader + trick_winner_index(t, n, trump)) % n
                w[winner] += 1
                play_out(h, n, t, 0, winner, trump, False, aims, w)
            else:
                play_out(h, n, t, played + 1, leader, trump, False, aims, w)
            values_of_deal.append(score_of[w[seat]])
        results.append(tuple(values_of_deal))
    return results
