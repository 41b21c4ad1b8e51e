# The compiled individual-contract search itself, included by ``individual_solver.pyx`` (the
# search, with the Python entry points) and ``individual_helper.pyx`` (its helper thread): each
# module gets its own copy of these globals, the position a thread searches, and the helper's
# point at the search's tables. Each module sets ``helper`` before it includes this file.

from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from israeli_whist.bots.search.cardbits cimport (Mask, bit, build_rank_tables, highest, lowest_bit, popcount, prefetch,
                                  relative_ranks, replies, sure_trump_tricks, table_alloc)


# --- Two threads on one search ----------------------------------------------------------------
# ``individual_helper`` compiles this same file into a second module, with its own globals (the
# position, the heuristics) and this module's tables. While a search runs, its helper thread
# searches the same test with another move order; results either stores are facts about the
# game, so each thread finds the other's in the table, and the thread that ends the test first
# answers it. A table entry is written under a lock in its ``version`` (odd while written) and a
# reader drops what it read if the version moved meanwhile.
cdef extern from *:
    """
    #include <stdint.h>
    static inline long long whist_load_acquire(long long* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void whist_store_release(long long* p, long long v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline uint16_t whist_read_version(uint16_t* v) { return __atomic_load_n(v, __ATOMIC_ACQUIRE); }
    /* The reads between the two versions happen before the second is read. */
    static inline int whist_unchanged_since(uint16_t* v, uint16_t seen) {
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        return __atomic_load_n(v, __ATOMIC_RELAXED) == seen;
    }
    static inline int whist_lock_entry(uint16_t* v) {
        uint16_t seen = __atomic_load_n(v, __ATOMIC_RELAXED);
        return (seen & 1) == 0 && __atomic_compare_exchange_n(v, &seen, (uint16_t)(seen + 1), 0,
                                                              __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
    }
    static inline void whist_unlock_entry(uint16_t* v) { __atomic_store_n(v, (uint16_t)(*v + 1), __ATOMIC_RELEASE); }
    """
    long long load_acquire "whist_load_acquire"(long long* p) nogil
    void store_release "whist_store_release"(long long* p, long long value) nogil
    uint16_t read_version "whist_read_version"(uint16_t* version) nogil
    bint unchanged_since "whist_unchanged_since"(uint16_t* version, uint16_t seen) nogil
    bint lock_version "whist_lock_entry"(uint16_t* version) nogil
    void unlock_version "whist_unlock_entry"(uint16_t* version) nogil
    int usleep(unsigned int microseconds) nogil


# What the search tells its helper and the helper answers, in the search's module.
cdef struct Control:
    long long test  # counts the tests begun, across calls: the helper works on the newest
    long long need  # the newest test's need set, seat and card (-1: none), as ``test`` takes them
    long long seat
    long long card
    long long answered  # the last test the helper ended, and its answer
    long long answer
    long long stop  # 1: the search is over, the helper returns
    long long helper_nodes  # positions the helper visited since it started

cdef Control own_control
cdef Control* control = &own_control
cdef long long test_number = 0  # the test this module's thread is on
cdef bint helped = False  # in the search's module: a helper thread runs


cdef Mask SUIT = 0x1FFF
cdef Mask DECK = (<Mask>1 << 52) - 1
cdef long long NO_LIMIT = 1LL << 62
cdef enum:
    MAX_SEATS = 7
    MAX_TRICKS = 17  # 52 cards dealt to 3 seats
    MAX_MOVES = 20
    PATTERN_BITS = 16
    ENTRY_BITS = 21
    PROBE_FIRST = 4  # a probe's first round of masks: 9 in 10 of the probes that answer end in it
    MASKS = 32  # significance masks kept per pattern: entries under older ones are forgotten
    NO_TRUMP = 4
    SETS = 2  # won and lost need sets kept per table entry
    PLANES = 3  # bits of an owner's relative seat (0 to 6)
    NOT_PROVEN = -(1 << 30)  # best_score's answer when the node budget ran out


# 64 bytes, one cache line: a probe fetches a slot pair, two lines, for each set of
# significant ranks its pattern has seen.
cdef struct Entry:
    Mask key[2]  # the position's pattern, as in ``Abstract``
    Mask owner[PLANES]  # bit i of each significant rank's owner, relative to the player
    uint32_t won[SETS]  # need sets proven won (0: none), the newest first
    uint32_t lost[SETS]  # need sets proven lost (0: none)
    uint16_t generation  # of the table's life that wrote it: older ones count as empty
    uint16_t version  # odd while a thread writes the entry (see ``lock_entry``)
    uint16_t shape  # the significant ranks, as ``shape_of`` codes them
    int8_t best_lead  # the lead that proved the last result, tried first next time
    int8_t player_card  # the card that worked for the player in this trick last time


cdef struct Pattern:
    Mask key[2]  # as in ``Abstract``
    uint16_t generation
    uint8_t count  # significance masks in use
    Mask masks[MASKS]  # the significant ranks of this pattern's entries, the newest first


# A position at a trick's start as the table sees it.
cdef struct Abstract:
    # The suit lengths, 4 bits per (relative seat, suit), 16 bits a seat: seats 0-3 in key[0],
    # 4-6 in bits 0-47 of key[1]; bits 48-55 of key[1] hold the leader relative to the player and
    # bits 56-63 the context.
    Mask key[2]
    Mask owner[PLANES]
    Mask out[4]  # cards still out, per suit (13 bits)
    Mask pattern_hash
    Pattern* pattern


# The position being searched. ``cards[j]``, ``win_card[j]`` and ``win_seat[j]`` describe the
# current trick after j + 1 cards; ``played`` is the mask of its cards, ``remaining`` the union of
# the hands.
cdef int seats = 4
cdef int player = 0
cdef Mask hand[MAX_SEATS]
cdef Mask remaining = 0
cdef Mask played = 0
cdef int trump = NO_TRUMP
cdef int leader = 0
cdef int played_count = 0
cdef int cards[MAX_SEATS]
cdef int win_card[MAX_SEATS]
cdef int win_seat[MAX_SEATS]
cdef uint8_t context = 0
# The suit lengths of the hands, as ``Abstract.key`` holds them (leader and context apart), kept
# up to date by ``play`` and ``unplay``: counted afresh at each trick's start, 7% more time.
cdef Mask lengths[2]
cdef int length_word[MAX_SEATS]  # per seat: its word of ``lengths``
cdef int length_shift[MAX_SEATS]  # and the bit where its suits' lengths start

cdef Pattern* patterns = NULL
cdef Entry* table = NULL
# A tag per slot of ``table``: a hash of the class its entry is for, and of the table's
# generation. A probe reads the tags of every slot it might find an entry in (an array 64 times
# smaller than the table, so mostly in the caches) and fetches only the entries whose tags match.
# One byte: a tag that matches by chance (1 in 128) costs a cache line of the table, but waiting
# for the tags themselves cost more, 4 bytes a tag took 7% more time (2 bytes, 4%).
ctypedef uint8_t Tag
cdef Tag* tags = NULL
cdef uint16_t generation = 1  # 0 marks the empty slots of the tables
cdef long long nodes = 0
cdef long long total_nodes = 0
cdef long long node_limit = NO_LIMIT
cdef bint aborted = False
# The last lead that refuted the player at each count of cards left, tried early by the others:
# a refutation found in one line often works in its neighbours.
cdef int killer[64]
# For each card, how much it has refuted the player (the tricks left, squared, each time), when
# played by another seat while the player wanted to win the trick ([1]) or to lose it ([0]). The
# others' follows are ordered by it first: where the static order is wrong in one line it is
# often wrong in the next (with the killer kept for leads, 8 to 28% fewer positions on random
# 11-trick hands).
cdef uint32_t refutations[2][52]
# For each trick (by tricks left): the player's card to try first, from the table, and the last
# card that worked for the player, for the table.
cdef int player_hint[MAX_TRICKS + 2]
cdef int worked[MAX_TRICKS + 2]
cdef int reach_sum[MAX_TRICKS + 2]  # per trick: the bounds' lowest and highest counts, added
cdef bint floor_testing = False  # a floor test runs (see ``floor_test``)


cdef tuple table_layout():
    """The sizes of what the two modules share: a helper runs only beside a search whose sizes
    are its own (one built from other sources would read the tables wrongly)."""
    return (sizeof(Entry), sizeof(Pattern), sizeof(Control), sizeof(Tag))


cdef inline Mask span(int low, int high) noexcept nogil:
    """The need-set bits ``low`` to ``high``, both included (empty when ``low > high``)."""
    if low > high:
        return 0
    return ((<Mask>2 << high) - 1) & ~((<Mask>1 << low) - 1)


cdef inline bint beats(int card, int best) noexcept nogil:
    """Whether ``card`` beats the card winning the trick so far."""
    cdef int suit = card // 13
    cdef int best_suit = best // 13
    if suit == best_suit:
        return card > best
    return suit == trump


cdef inline void play(int seat, int card) noexcept nogil:
    global played_count, played, remaining
    hand[seat] &= ~bit(card)
    remaining &= ~bit(card)
    lengths[length_word[seat]] -= (<Mask>1) << (length_shift[seat] + 4 * (card // 13))
    played |= bit(card)
    cards[played_count] = card
    if played_count == 0 or beats(card, win_card[played_count - 1]):
        win_card[played_count] = card
        win_seat[played_count] = seat
    else:
        win_card[played_count] = win_card[played_count - 1]
        win_seat[played_count] = win_seat[played_count - 1]
    played_count += 1


cdef inline void unplay(int seat, int card) noexcept nogil:
    global played_count, played, remaining
    played_count -= 1
    hand[seat] |= bit(card)
    lengths[length_word[seat]] += (<Mask>1) << (length_shift[seat] + 4 * (card // 13))
    remaining |= bit(card)
    played &= ~bit(card)


cdef inline int suit_cards(Mask cards_mask, int suit) noexcept nogil:
    return <int>((cards_mask >> (13 * suit)) & SUIT)


cdef inline int relative_seat(int seat) noexcept nogil:
    return (seat - player + seats) % seats


cdef inline Mask trick_rank_card() noexcept nogil:
    """The winning card of the full trick and the cards it stood for, if it won by out-ranking
    a card of its own suit; else 0.

    A card that won only because the others could not follow (or ruff) would win at any rank:
    the suit lengths, part of every table key, already hold that. A card that won by rank was
    searched for its whole sequence (the lower cards of its hand that no card still out, or in
    this trick, separates from it), equal to it only because of those ranks.
    """
    cdef int winner = win_card[seats - 1]
    cdef int suit = winner // 13
    cdef int i, below
    cdef Mask result = 0
    cdef Mask separating, owner
    for i in range(seats):
        if cards[i] != winner and cards[i] // 13 == suit:
            result = bit(winner)
            break
    if result == 0:
        return 0
    owner = hand[win_seat[seats - 1]]
    separating = (remaining | played) & (SUIT << (13 * suit)) & (bit(winner) - 1)
    while separating:
        below = highest(separating)
        if not (owner >> below) & 1:
            break
        result |= bit(below)
        separating &= ~bit(below)
    return result


# --- The transposition table ---------------------------------------------------------------

cdef inline void find_pattern(Abstract* position) noexcept nogil:
    """The position's suit lengths by relative seat and its pattern slot, fetched at once."""
    cdef Mask h
    position.key[0] = lengths[0]
    position.key[1] = lengths[1] | ((<Mask>context) << 56) | ((<Mask>relative_seat(leader)) << 48)
    h = position.key[0] * <Mask>0x9E3779B97F4A7C15ULL
    h ^= position.key[1] * <Mask>0xC2B2AE3D27D4EB4FULL
    h ^= h >> 29
    h *= <Mask>0xBF58476D1CE4E5B9ULL
    h ^= h >> 32
    position.pattern_hash = h
    position.pattern = &patterns[h & ((1 << PATTERN_BITS) - 1)]
    prefetch(position.pattern)


build_rank_tables()  # for relative_ranks


cdef inline void abstract_position(Abstract* position) noexcept nogil:
    """Each suit's owners by relative rank (the top card still out as rank 12), after
    ``find_pattern``."""
    cdef int seat, suit, relative, plane
    cdef Mask left
    cdef Mask plane_cards[PLANES]
    for plane in range(PLANES):
        position.owner[plane] = 0
        plane_cards[plane] = 0
    for seat in range(seats):
        relative = relative_seat(seat)
        for plane in range(PLANES):
            if (relative >> plane) & 1:
                plane_cards[plane] |= hand[seat]
    for suit in range(4):
        left = (remaining >> (13 * suit)) & SUIT
        position.out[suit] = left
        for plane in range(PLANES):
            position.owner[plane] |= relative_ranks(suit_cards(plane_cards[plane], suit), left) << (13 * suit)


cdef inline Mask significant_ranks(Abstract* position, Mask used) noexcept nogil:
    """The relative ranks from each suit's top down to the lowest card in ``used``."""
    cdef int suit, count
    cdef Mask in_suit
    cdef Mask result = 0
    for suit in range(4):
        in_suit = suit_cards(used, suit) & position.out[suit]
        if in_suit == 0:
            continue
        count = popcount(position.out[suit] >> lowest_bit(in_suit))
        result |= ((((<Mask>1) << count) - 1) << (13 - count)) << (13 * suit)
    return result


cdef inline Mask absolute_cards(Abstract* position, Mask significant) noexcept nogil:
    """The lowest card of each suit's significant top, as a card: the parent keeps every card
    above it too."""
    cdef int suit, count
    cdef Mask out
    cdef Mask result = 0
    for suit in range(4):
        count = popcount(suit_cards(significant, suit))
        if count == 0:
            continue
        out = position.out[suit]
        while count > 1:
            out &= ~bit(highest(out))
            count -= 1
        result |= bit(highest(out) + 13 * suit)
    return result


cdef inline bint lock_entry(Entry* entry) noexcept nogil:
    return lock_version(&entry.version)


cdef inline void unlock_entry(Entry* entry) noexcept nogil:
    unlock_version(&entry.version)


cdef inline bint other_thread_ends_test() noexcept nogil:
    """For the helper: the search moved to another test, or ended. For the search: the helper
    answered this test."""
    if helper:
        return load_acquire(&control.test) != test_number or load_acquire(&control.stop) != 0
    return helped and load_acquire(&control.answered) == test_number


cdef inline bint same_pattern(Mask* key, Abstract* position) noexcept nogil:
    return key[0] == position.key[0] and key[1] == position.key[1]


cdef inline uint16_t shape_of(Mask significant) noexcept nogil:
    """Significant ranks (a top of each suit) coded as their count per suit, 4 bits each."""
    return <uint16_t>(popcount(significant & SUIT) | (popcount(significant & (SUIT << 13)) << 4)
                      | (popcount(significant & (SUIT << 26)) << 8) | (popcount(significant & (SUIT << 39)) << 12))


cdef inline int key_depth(Mask* key) noexcept nogil:
    """The cards still out in a position with this key: the sum of its suit lengths."""
    cdef Mask a = key[0]
    cdef Mask b = key[1] & ((<Mask>1 << 48) - 1)
    cdef int total = 0
    while a:
        total += <int>(a & 15)
        a >>= 4
    while b:
        total += <int>(b & 15)
        b >>= 4
    return total


cdef inline bint same_class(Entry* entry, Abstract* position, Mask significant) noexcept nogil:
    return (((entry.owner[0] ^ position.owner[0]) | (entry.owner[1] ^ position.owner[1])
             | (entry.owner[2] ^ position.owner[2])) & significant) == 0


cdef inline int settles(Entry* entry, Mask need) noexcept nogil:
    """1 if the entry proves ``need`` won, 0 if lost, -1 if it does not tell."""
    cdef int i
    for i in range(SETS):
        if entry.won[i] and (entry.won[i] & ~need) == 0:
            return 1
        if (need & ~(<Mask>entry.lost[i])) == 0:
            return 0
    return -1


cdef inline uint32_t slot_index(Mask class_hashed) noexcept nogil:
    """The first of the two slots where the entry of the class with this hash may be."""
    return <uint32_t>(class_hashed & ((1 << ENTRY_BITS) - 2))


cdef inline Tag tag_of(Mask class_hashed) noexcept nogil:
    """The tag of the class with this hash in this generation of the table; never 0, the tag of
    a slot never written."""
    return <Tag>((<uint32_t>(class_hashed >> 32) ^ (generation * <uint32_t>0x9E3779B9)) | 1)


cdef inline Mask class_hash(Abstract* position, Mask significant) noexcept nogil:
    """The hash of ``position``'s class under ``significant``: the owners of the significant
    ranks, hashed with the pattern."""
    cdef Mask h = position.pattern_hash ^ (significant * <Mask>0x9E3779B97F4A7C15ULL)
    h ^= (position.owner[0] & significant) * <Mask>0xC2B2AE3D27D4EB4FULL
    h ^= (position.owner[1] & significant) * <Mask>0x165667B19E3779F9ULL
    h ^= (position.owner[2] & significant) * <Mask>0xD6E8FEB86659FD93ULL
    h ^= h >> 31
    h *= <Mask>0xBF58476D1CE4E5B9ULL
    h ^= h >> 29
    return h


cdef inline bint entry_is(Entry* entry, Abstract* position, Mask significant, uint16_t shape) noexcept nogil:
    return (entry.generation == generation and entry.shape == shape
            and same_pattern(entry.key, position) and same_class(entry, position, significant))


cdef inline Entry* entry_in(Entry* first, Abstract* position, Mask significant) noexcept nogil:
    """The entry of ``position``'s class under ``significant`` in the slot pair at ``first``."""
    cdef uint16_t shape = shape_of(significant)
    if entry_is(first, position, significant, shape):
        return first
    if entry_is(first + 1, position, significant, shape):
        return first + 1
    return NULL


cdef inline Entry* entry_tagged(Entry* first, Tag tag, Abstract* position, Mask significant,
                                uint16_t* version) noexcept nogil:
    """``entry_in``, looking only at the slots with the class's tag (another class may have the
    same tag: the entry is still compared), and at none being written; ``version`` gets the
    entry's version as it was before the comparison, for ``unchanged_since``."""
    cdef uint16_t shape = shape_of(significant)
    cdef int i
    for i in range(2):
        if tags[first + i - table] == tag:
            version[0] = read_version(&first[i].version)
            if version[0] & 1 == 0 and entry_is(first + i, position, significant, shape):
                return first + i
    return NULL


cdef inline bint pattern_is(Pattern* pattern, Abstract* position) noexcept nogil:
    return pattern.generation == generation and same_pattern(pattern.key, position)


cdef inline void mask_to_front(Pattern* pattern, int i, Mask significant) noexcept nogil:
    """Move the pattern's mask at ``i`` (``significant``, or a new one at the end) to the front."""
    while i > 0:
        pattern.masks[i] = pattern.masks[i - 1]
        i -= 1
    pattern.masks[0] = significant


cdef int probe(Abstract* position, Mask need, Mask* used, int* hint, int* player_card) noexcept nogil:
    """1 or 0 when a stored result settles the test, else -1 and maybe cards to try first.

    Entries under one set of significant ranks match a position when the owners of those ranks
    are the same, so each set the pattern has seen is one look-up in the hash table: its slot
    pair's tags, then the entries whose tags match. Each step asks for all its memory before it
    reads any, so that the cache misses overlap: the table is far bigger than the caches, and
    waiting for them one by one took a quarter of the time. (Asking for the entries with the
    tags, before knowing which match, took 2% more time with one-byte tags.)

    The sets go in two rounds: the first ``PROBE_FIRST``, the newest to answer, then the rest.
    The first set answers 45% of all probes and the first four 82%, so most probes never work
    out the other hashes or touch their tags (11% less time on whole Whistiti hands)."""
    cdef Pattern* pattern = position.pattern
    cdef Entry* entry
    cdef Entry* slots[MASKS]
    cdef uint32_t first[MASKS]
    cdef Tag tag[MASKS]
    cdef int i, found, start, end, lead, card
    cdef uint16_t version
    cdef Mask hashed
    if not pattern_is(pattern, position):
        return -1
    start = 0
    end = min(pattern.count, PROBE_FIRST)
    while start < end:
        for i in range(start, end):
            hashed = class_hash(position, pattern.masks[i])
            first[i] = slot_index(hashed)
            tag[i] = tag_of(hashed)
            prefetch(&tags[first[i]])
        for i in range(start, end):
            slots[i] = NULL
            if tags[first[i]] == tag[i]:
                slots[i] = &table[first[i]]
                prefetch(slots[i])
            if tags[first[i] + 1] == tag[i]:
                slots[i] = &table[first[i]]
                prefetch(slots[i] + 1)
        for i in range(start, end):
            if slots[i] == NULL:
                continue
            entry = entry_tagged(slots[i], tag[i], position, pattern.masks[i], &version)
            if entry == NULL:
                continue
            found = settles(entry, need)
            lead = entry.best_lead
            card = entry.player_card
            if not unchanged_since(&entry.version, version):
                continue  # the helper thread rewrote it meanwhile: what was read may be torn
            if found >= 0:
                used[0] = absolute_cards(position, pattern.masks[i])
                # The masks that answer stay near the front, and so in the list: kept in the order
                # they were stored, 4% more positions on random 11-trick hands.
                mask_to_front(pattern, i, pattern.masks[i])
                return found
            if hint[0] < 0 and lead >= 0 and (hand[leader] >> lead) & 1:
                hint[0] = lead
            if player_card[0] < 0 and card >= 0 and (hand[player] >> card) & 1:
                player_card[0] = card
        start = end
        end = pattern.count
    return -1


cdef void clear() noexcept nogil:
    """Make every entry stale by starting a new generation; when the 16-bit count wraps round,
    wipe the tables instead, so that no entry of the same number long ago comes back."""
    global generation
    generation += 1
    if generation == 0:
        generation = 1
        if table != NULL:
            memset(table, 0, (1 << ENTRY_BITS) * sizeof(Entry))
            memset(tags, 0, (1 << ENTRY_BITS) * sizeof(Tag))
            memset(patterns, 0, (1 << PATTERN_BITS) * sizeof(Pattern))


cdef void add_set(uint32_t* sets, Mask need, bint won) noexcept nogil:
    """Record ``need`` as won or lost, dropping the sets it makes redundant: a won set makes its
    supersets redundant, a lost set its subsets; the rest move down one."""
    cdef int i
    cdef int kept = 0
    for i in range(SETS):
        if sets[i] == 0:
            continue
        if won and (need & ~(<Mask>sets[i])) == 0:
            continue
        if not won and (sets[i] & ~need) == 0:
            continue
        sets[kept] = sets[i]
        kept += 1
    if kept == SETS:
        kept = SETS - 1
    for i in range(kept, 0, -1):
        sets[i] = sets[i - 1]
    sets[0] = <uint32_t>need
    for i in range(kept + 1, SETS):
        sets[i] = 0


cdef void note_mask(Abstract* position, Mask significant) noexcept nogil:
    """Put ``significant`` first in the pattern's list of masks (the oldest drops out, and the
    probe moves a mask that answers to the front too)."""
    cdef Pattern* pattern = position.pattern
    cdef int i
    if not pattern_is(pattern, position):
        pattern.generation = generation
        pattern.key[0] = position.key[0]
        pattern.key[1] = position.key[1]
        pattern.count = 0
    for i in range(pattern.count):
        if pattern.masks[i] == significant:
            break
    else:
        if pattern.count < MASKS:
            pattern.count += 1
        i = pattern.count - 1
    mask_to_front(pattern, i, significant)


cdef void store(Abstract* position, Mask used, Mask need, bint won, int best_card, int player_card) noexcept nogil:
    """Record ``need`` as won or lost for the class of ``position`` cut by the ranks in ``used``.

    The entry goes to one of two slots of the hash table: its own, else an empty or stale one,
    else the shallower one's (the deeper results, near the root, cost the most to find again).
    """
    cdef Mask significant = significant_ranks(position, used)
    cdef Mask hashed = class_hash(position, significant)
    cdef Entry* entry = &table[slot_index(hashed)]
    cdef Entry* other
    cdef int i
    prefetch(entry)  # the slot pair comes in while the pattern's masks are updated
    prefetch(entry + 1)
    note_mask(position, significant)
    entry = entry_in(entry, position, significant)
    if entry == NULL:
        entry = &table[slot_index(hashed)]
        other = entry + 1
        if entry.generation == generation and (other.generation != generation
                                               or key_depth(other.key) <= key_depth(entry.key)):
            entry = other
    if not lock_entry(entry):
        return  # the helper thread is writing it: this result is dropped, which costs only time
    if not entry_is(entry, position, significant, shape_of(significant)):
        entry.generation = generation
        entry.key[0] = position.key[0]
        entry.key[1] = position.key[1]
        entry.shape = shape_of(significant)
        for i in range(PLANES):
            entry.owner[i] = position.owner[i] & significant
        for i in range(SETS):
            entry.won[i] = entry.lost[i] = 0
        entry.best_lead = -1
        entry.player_card = -1
        tags[entry - table] = tag_of(hashed)
    # Not kept: the helper's cards (at the others' turns it finds them in reversed order, often
    # not the best; keeping its player's cards as well was slower) and a floor test's (see
    # ``floor_test``), which push the other way.
    if best_card >= 0 and not helper and not floor_testing:
        entry.best_lead = best_card
    if player_card >= 0 and not helper and not floor_testing:
        entry.player_card = player_card
    add_set(&entry.won[0] if won else &entry.lost[0], need, won)
    unlock_entry(entry)


# --- Bounds ----------------------------------------------------------------------------------

cdef void forced_range(int left, int* low, int* high, Mask* used) noexcept nogil:
    """Tricks the player wins whatever anyone does: at least ``low``, at most ``high``.

    A trump above every other trump still out wins the trick it falls in, and one hand's cards
    fall in different tricks: the player's top trumps are sure tricks, and each other hand's
    trumps above the player's highest trump are tricks the player cannot win. Where it says
    more, ``sure_trump_tricks`` counts the player's sure tricks, and the other hands' (all
    different tricks, so they add up) bound the player's from above. ``used`` gets the cards
    whose ranks the bounds relied on: only those of the bound that served, as every rank in it
    narrows the table entry made from this position.
    """
    cdef Mask mine, theirs, above, counted, held, sure_used, sum_used
    cdef int seat, most, count, others, sure
    low[0] = 0
    high[0] = left
    used[0] = 0
    if trump == NO_TRUMP:
        return
    mine = suit_cards(hand[player], trump)
    theirs = suit_cards(remaining & ~hand[player], trump)
    if mine:
        if theirs:
            counted = mine & ~(((<Mask>2) << highest(theirs)) - 1)
            used[0] |= counted << (13 * trump)
        else:
            counted = mine
        low[0] = popcount(counted)
        sure = sure_trump_tricks(mine, theirs, &sure_used)
        if sure > low[0]:
            low[0] = sure
            used[0] = sure_used << (13 * trump)
    if theirs:
        above = ~(((<Mask>2) << highest(mine)) - 1) & SUIT if mine else SUIT
        most = 0
        counted = 0
        others = 0
        sum_used = 0
        for seat in range(seats):
            if seat != player:
                held = suit_cards(hand[seat], trump)
                count = popcount(held & above)
                if count > most:
                    most = count
                    counted = held & above
                if held:
                    others += sure_trump_tricks(held, suit_cards(remaining & ~hand[seat], trump), &sure_used)
                    sum_used |= sure_used
        if others > most:
            used[0] |= sum_used << (13 * trump)
            high[0] = left - others
        else:
            if mine:
                used[0] |= counted << (13 * trump)
            high[0] = left - most


cdef int quick_tricks(int seat, Mask* used) noexcept nogil:
    """Tricks ``seat``, on lead, can cash at once from the top, keeping the lead throughout.

    With no trump (or no trumps left with the others) every card above all the others' cards in
    its suit wins. Otherwise only the trump suit and one side suit count, the side suit capped by
    the length of each other hand that could ruff: a hand keeps its side-suit length while
    following to trumps, and one that discards has no trump left to ruff with. ``used`` gets the
    cards whose ranks the count relied on.
    """
    cdef Mask others = remaining & ~hand[seat]
    cdef bint ruff_danger = trump != NO_TRUMP and suit_cards(others, trump) != 0
    cdef int total = 0
    cdef int best_side = 0
    cdef int suit, count, cap, other
    cdef Mask mine, rest, top
    cdef Mask side_used = 0
    used[0] = 0
    for suit in range(4):
        mine = suit_cards(hand[seat], suit)
        if mine == 0:
            continue
        rest = suit_cards(others, suit)
        if rest:
            top = mine & ~(((<Mask>2) << highest(rest)) - 1)
        else:
            top = 0
        count = popcount(top) if rest else popcount(mine)
        if count == 0:
            continue
        if not ruff_danger or suit == trump:
            total += count
            used[0] |= top << (13 * suit)
            continue
        cap = count
        for other in range(seats):
            if other != seat and suit_cards(hand[other], trump):
                cap = min(cap, popcount(suit_cards(hand[other], suit)))
        if cap > best_side:
            best_side = cap
            side_used = top << (13 * suit)
    if best_side:
        used[0] |= side_used
    return total + best_side


cdef int last_trick_to_player(Mask* used) noexcept nogil:
    """1 if the player wins the last trick, when every hand has one card: there is no choice."""
    cdef int position, seat, card
    cdef int best = lowest_bit(hand[leader])
    cdef int best_seat = leader
    for position in range(1, seats):
        seat = (leader + position) % seats
        card = lowest_bit(hand[seat])
        if beats(card, best):
            best = card
            best_seat = seat
    used[0] = 0
    for seat in range(seats):
        card = lowest_bit(hand[seat])
        if card != best and card // 13 == best // 13:
            used[0] = bit(best)
    return 1 if best_seat == player else 0


# --- Move ordering ---------------------------------------------------------------------------

cdef inline bint player_wants_trick(Mask need, int left) noexcept nogil:
    """Whether the player should rather win the current trick: whether the counts in ``need``
    lie nearer the top or the bottom of those the bounds at the trick's start left possible.
    (Measured against all the counts, 0 to ``left``, instead: 8% more positions over the
    Whistiti hands of the benchmark, as the player's top trumps lift the bottom.)"""
    cdef int fewest = lowest_bit(need)
    cdef int most = highest(need)
    return fewest + most >= reach_sum[left]


cdef inline bint must_beat(int seat, int suit, int rank) noexcept nogil:
    """Whether some other hand holds cards of ``suit``, all above ``rank``: it must beat the card."""
    cdef int other
    cdef int cards_in_suit
    for other in range(seats):
        if other != seat:
            cards_in_suit = suit_cards(hand[other], suit)
            if cards_in_suit and (cards_in_suit & ((2 << rank) - 1)) == 0:
                return True
    return False


cdef int lead_score(int seat, int card, bint side_wants) noexcept nogil:
    """A lead's weight, less 16 for each card the other hands may answer it with: the fewer the
    replies, the smaller the subtree, and a void hand's discards multiply the positions (as in
    the double-dummy search; here it cut the positions visited by a sixth to a third on
    11-trick hands)."""
    cdef int other
    cdef int score = lead_weight(seat, card, side_wants)
    for other in range(seats):
        if other != seat:
            score -= 16 * replies(hand[other], card // 13)
    return score


cdef int lead_weight(int seat, int card, bint side_wants) noexcept nogil:
    cdef int suit = card // 13
    cdef int rank = card - 13 * suit
    cdef Mask above = SUIT & ~(((<Mask>2) << rank) - 1)
    cdef Mask others = remaining & ~hand[seat]
    cdef bint top = (suit_cards(others, suit) & above) == 0
    cdef int player_suit = suit_cards(hand[player], suit)
    cdef bint player_ruffs = (player_suit == 0 and trump != NO_TRUMP and suit != trump
                              and suit_cards(hand[player], trump) != 0)
    if seat == player:
        if side_wants:
            return 100 - rank if top else 20 - rank
        if top:
            return -50 - rank
        return 80 - rank if must_beat(seat, suit, rank) else 50 - rank  # lead a card someone will beat
    if side_wants:  # the others want to keep the trick from the player
        if player_ruffs:
            return -rank
        if (player_suit & above) == 0 and player_suit:
            return 60 + rank
        if player_suit == 0:
            return 50 - rank
        return 20 - rank
    # The others want the player to win: lead under all the player's cards, into the higher ones,
    # or for a ruff.
    if player_suit and (player_suit & ~above) == 0:
        return 80 - rank
    if (player_suit & above) != 0:
        return 50 - rank
    if player_ruffs:
        return 40 - rank
    return -rank


cdef int follow_score(int seat, int card, bint side_wants) noexcept nogil:
    cdef int suit = card // 13
    cdef int rank = card - 13 * suit
    cdef bint wins_now = beats(card, win_card[played_count - 1])
    cdef int winner = win_seat[played_count - 1]
    cdef bint last = played_count == seats - 1
    cdef bint discard = suit != cards[0] // 13
    cdef bint player_to_come
    cdef int trump_cost = 40 if suit == trump and discard else 0
    if seat == player:
        if side_wants:
            if wins_now:
                return 60 - rank if last or discard else 40 + rank
            return -rank - trump_cost
        if not wins_now:
            return 50 + rank  # shed the highest card that still loses
        return rank if last else -20 - rank
    player_to_come = ((player - leader + seats) % seats) > played_count
    if side_wants:  # keep the trick from the player
        if winner == player:
            if wins_now:
                return 60 - rank if last or discard else 40 + rank
            return -rank - trump_cost
        if player_to_come:
            return rank
        return -rank - trump_cost
    # Give the player the trick.
    if winner == player:
        return -50 - rank if wins_now else 50 + rank
    return -rank - trump_cost


cdef int order_moves(int seat, int* moves, bint player_wants) noexcept nogil:
    """Fill ``moves`` with the seat's legal cards, one per class of equivalent cards, best first."""
    cdef Mask full = hand[seat]
    cdef Mask legal = full
    cdef Mask out = remaining | played
    cdef Mask follow, above
    cdef int scores[MAX_MOVES]
    cdef int count = 0
    cdef int card, score, i
    cdef bint side_wants = player_wants if seat == player else not player_wants
    if played_count:
        follow = full & (SUIT << (13 * (cards[0] // 13)))
        if follow:
            legal = follow
    if (legal & (legal - 1)) == 0:  # one card, a fifth of all turns: nothing to order
        moves[0] = lowest_bit(legal)
        return 1
    while legal:
        card = highest(legal)
        legal &= ~((<Mask>1) << card)
        above = out & (SUIT << (13 * (card // 13))) & ~(((<Mask>2) << card) - 1)
        if above and (full >> lowest_bit(above)) & 1:
            continue  # the next higher card still out is ours: same value
        if not played_count:
            score = lead_score(seat, card, side_wants)
        elif seat == player:
            score = follow_score(seat, card, side_wants)
        else:  # the static score (-128 to 127) breaks ties
            score = <int>min(refutations[player_wants][card] >> 2, 1 << 22) * 256 + 128 \
                + follow_score(seat, card, side_wants)
        i = count
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            moves[i] = moves[i - 1]
            i -= 1
        scores[i] = score
        moves[i] = card
        count += 1
    return count


# --- The search ------------------------------------------------------------------------------

cdef bint play_and_search(int seat, int card, Mask need, Mask* used) noexcept nogil:
    """Whether the player forces a count in ``need`` after ``seat`` plays ``card``; ``need``
    counts the player's tricks from the current trick on. ``used`` as for ``search``."""
    global leader, played_count, played
    cdef int saved_leader, winner
    cdef int saved_cards[MAX_SEATS]
    cdef int saved_win_card[MAX_SEATS]
    cdef int saved_win_seat[MAX_SEATS]
    cdef Mask saved_played, rank_cards
    cdef bint result = False
    play(seat, card)
    if played_count < seats:
        result = search(need, used)
    else:
        winner = win_seat[seats - 1]
        rank_cards = trick_rank_card()
        saved_leader = leader
        saved_played = played
        saved_cards[:] = cards
        saved_win_card[:] = win_card
        saved_win_seat[:] = win_seat
        leader = winner
        played_count = 0
        played = 0
        result = search(need >> 1 if winner == player else need, used)
        used[0] |= rank_cards
        leader = saved_leader
        played_count = seats
        played = saved_played
        cards[:] = saved_cards
        win_card[:] = saved_win_card
        win_seat[:] = saved_win_seat
    unplay(seat, card)
    return result


cdef inline void promote(int* moves, int count, int card) noexcept nogil:
    """Move ``card`` to the front of ``moves``, if it is there, keeping the others' order."""
    cdef int i, j
    for i in range(count):
        if moves[i] == card:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = card
            return


cdef inline void reverse_after_first(int* moves, int count) noexcept nogil:
    """The helper thread's order at the others' turns: the same first card, the others in
    reverse. Where every card must be searched (the others' turns when the player wins), the two
    threads then start at opposite ends, and each finds the other's results in the table; where
    one card settles the position it is still tried first. At the player's turns the helper
    keeps the search's order: reversed there too, on one test of a whole Whistiti hand the
    helper's results made the search visit 57 million positions where alone it visited 29.5
    million (with the others' turns only reversed, 14 to 15 million)."""
    cdef int i = 1
    cdef int j = count - 1
    cdef int card
    while i < j:
        card = moves[i]
        moves[i] = moves[j]
        moves[j] = card
        i += 1
        j -= 1


cdef bint search(Mask need, Mask* used) noexcept nogil:
    """Whether the player can force their count of tricks from here (the current trick included)
    into ``need``, against all the other seats. ``used`` gets the cards whose ranks the answer
    depends on. When the node budget runs out it sets ``aborted`` and answers anything."""
    global nodes, aborted
    cdef int left, low, high, seat, count, i, quick, found, ply
    cdef bint wants
    cdef int hint = -1
    cdef int player_card = -1
    cdef int best_card = -1
    cdef Mask full = 0
    cdef Mask reach = 0
    cdef Mask bound_used = 0
    cdef Mask quick_used, child_used
    cdef Mask all_used = 0
    cdef Mask sure
    cdef Abstract position
    cdef bint at_start = played_count == 0
    cdef int moves[MAX_MOVES]
    cdef int small_below[4]  # per suit: cards below this one need no search (-1: not yet known)
    cdef int suit, lowest
    cdef Mask in_suit
    cdef bint result = False
    nodes += 1
    if nodes > node_limit or ((nodes & 255) == 0 and other_thread_ends_test()):
        aborted = True
        used[0] = 0
        return False
    if at_start:
        left = popcount(hand[leader])
        full = span(0, left)
        need &= full
        used[0] = 0
        if need == 0:
            return False
        if need == full:
            return True
        if left == 1:
            return (need >> last_trick_to_player(used)) & 1
        if left > 2:
            find_pattern(&position)  # its memory comes in while the bounds are worked out
        forced_range(left, &low, &high, &bound_used)
        reach = span(low, high)
        reach_sum[left] = low + high
        if (need & reach) == 0 or (need & reach) == reach:
            used[0] = bound_used
            return (need & reach) != 0
        quick = quick_tricks(leader, &quick_used)
        if leader == player:
            sure = span(max(low, quick), high)
            if (need & sure) == sure:
                used[0] = bound_used | quick_used
                return True
        else:
            sure = span(low, min(high, left - quick))
            if (need & sure) == 0:
                used[0] = bound_used | quick_used
                return False
        if left > 2:
            abstract_position(&position)
            found = probe(&position, need & reach, used, &hint, &player_card)
            if found >= 0:
                used[0] |= bound_used
                return found
            player_hint[left] = player_card
            worked[left] = -1
        else:
            at_start = False  # two tricks: searching them is cheaper than the table
            player_hint[left] = -1
    else:
        left = popcount(hand[leader]) + 1
    seat = (leader + played_count) % seats
    wants = player_wants_trick(need, left)
    count = order_moves(seat, moves, wants)
    ply = popcount(remaining)
    if seat != player and played_count == 0 and killer[ply] >= 0:  # follows: the history orders them
        promote(moves, count, killer[ply])
    if hint >= 0:
        promote(moves, count, hint)
    elif seat == player and player_hint[left] >= 0:
        promote(moves, count, player_hint[left])
    if helper and seat != player:
        reverse_after_first(moves, count)
    # The player needs one card that works; the others need one card that defeats the player.
    result = seat != player
    for i in range(4):
        small_below[i] = -1
    for i in range(count):
        if moves[i] < small_below[moves[i] // 13]:
            continue  # as small as a card already searched, below every rank the answers used
        if play_and_search(seat, moves[i], need, &child_used) != result:
            if aborted:
                return False
            result = not result
            best_card = moves[i]
            all_used = child_used
            if seat != player:
                if played_count == 0:
                    killer[ply] = best_card
                refutations[wants][best_card] += <uint32_t>(left * left)
            else:
                worked[left] = best_card
            break
        if aborted:
            return False
        all_used |= child_used
        suit = moves[i] // 13
        if small_below[suit] < 0:
            in_suit = all_used & (SUIT << (13 * suit))
            lowest = lowest_bit(in_suit) if in_suit else 13 * suit + 13
            if moves[i] < lowest:
                small_below[suit] = lowest
    used[0] = all_used
    if at_start:
        # The bounds' range narrows what was shown: a count outside ``reach`` cannot happen.
        used[0] |= bound_used
        if result:
            store(&position, used[0], need & reach, True, best_card, worked[left])
        else:
            store(&position, used[0], need | (full & ~reach), False, best_card, worked[left])
    return result


cdef int need_for(int* scores, int left, int at_least) noexcept nogil:
    """The need set of the counts that score at least ``at_least``."""
    cdef int k
    cdef int need = 0
    for k in range(left + 1):
        if scores[k] >= at_least:
            need |= 1 << k
    return need


cdef int distinct_sorted(int* scores, int left, int* values) noexcept nogil:
    """The distinct values of ``scores[0..left]`` in ``values``, ascending; returns how many."""
    cdef int count = 0
    cdef int k, i, j, v
    for k in range(left + 1):
        v = scores[k]
        i = count
        while i > 0 and values[i - 1] > v:
            i -= 1
        if i > 0 and values[i - 1] == v:
            continue
        for j in range(count, i, -1):
            values[j] = values[j - 1]
        values[i] = v
        count += 1
    return count


cdef inline bint test(int seat, int card, Mask need) noexcept nogil:
    """``search(need)`` from here, or after ``seat`` plays ``card`` if ``card >= 0``; the
    helper thread, if one runs, searches the same test, and whichever ends first answers."""
    global test_number, aborted
    cdef bint result
    control.need = need
    control.seat = seat
    control.card = card
    test_number = control.test + 1
    store_release(&control.test, test_number)  # after the test's terms: the helper reads them next
    result = search_test(seat, card, need)
    if aborted and load_acquire(&control.answered) == test_number:
        aborted = False
        result = control.answer != 0
    return result


cdef inline bint search_test(int seat, int card, Mask need) noexcept nogil:
    cdef Mask used
    return play_and_search(seat, card, need, &used) if card >= 0 else search(need, &used)


cdef bint floor_test(int seat, int card, Mask floor) noexcept nogil:
    """``test`` for a need set with no ceiling, leaving the move-ordering heuristics as they
    were: what refutes a player who wants more tricks misleads the tests that ask for fewer."""
    cdef int saved_killer[64]
    cdef uint32_t saved_refutations[2][52]
    cdef bint result
    saved_killer[:] = killer
    saved_refutations[0][:] = refutations[0]
    saved_refutations[1][:] = refutations[1]
    global floor_testing
    floor_testing = True
    result = test(seat, card, floor)
    floor_testing = False
    killer[:] = saved_killer
    refutations[0][:] = saved_refutations[0]
    refutations[1][:] = saved_refutations[1]
    return result


cdef int best_score(int* scores, int left, int seat, int card) noexcept nogil:
    """The score the player can guarantee from here, or after ``seat`` plays ``card`` if
    ``card >= 0``: the highest score whose need set the player can force; NOT_PROVEN if the
    node budget ran out first.

    The scores are tried from the top down rather than by halving: the high scores have narrow
    need sets, which the others refute quickly, and the first set won is then the narrowest,
    whose proof is the smallest (a proof for a wide set lets the player wander). (Finding first
    the most tricks the player can force and the fewest they can keep to, one-sided tests that
    would rule out the sets outside that range, was tried: keeping the count down proved the
    costliest test of all, and the whole took longer.)

    A need set with a floor and a ceiling is first asked about its floor alone: whether the
    player can force at least its fewest tricks. That test is cheap (the leader's top cards and
    sure trumps bound it), and where it is lost the set is lost too, and so is every later set
    with as high a floor: the others push the player down. Searched as a whole, the set's test
    orders the others' cards for the other way out (giving the player too many tricks, since
    the set lies low in the range), and on whole Whistiti hands such a test took 24 million
    positions where its floor alone took a few thousand.
    """
    cdef int values[MAX_TRICKS + 2]
    cdef int count = distinct_sorted(scores, left, values)
    cdef int i, fewest
    cdef int floor_won = 0  # the player can force at least this many tricks
    cdef int floor_lost = left + 1  # and cannot force this many
    cdef Mask need, floor
    for i in range(count - 1, 0, -1):
        need = <Mask>need_for(scores, left, values[i])
        fewest = lowest_bit(need)
        if fewest >= floor_lost:
            continue
        floor = span(fewest, left)
        if fewest > floor_won and need != floor:
            if floor_test(seat, card, floor):
                floor_won = fewest
            elif aborted:
                return NOT_PROVEN
            else:
                floor_lost = fewest
                continue
        if test(seat, card, need):
            return values[i]
        if aborted:
            return NOT_PROVEN
    return values[0]


# --- Loading a position ----------------------------------------------------------------------

cdef int load(tuple hands, int strain, int first, int player_seat, tuple trick) except -1:
    """Set up the globals for a position; returns the tricks left, the current one included."""
    global seats, player, remaining, played, trump, leader, played_count, context, table, patterns, tags
    cdef int n = len(hands)
    cdef int seat, card, left, position, suit
    cdef Mask seen = 0
    cdef Mask mask
    if not 2 <= n <= MAX_SEATS:
        raise ValueError(f"the search takes 2 to {MAX_SEATS} hands, not {n}")
    if not 0 <= strain <= NO_TRUMP or not 0 <= first < n or not 0 <= player_seat < n:
        raise ValueError("strain must be 0-4 and the seats 0 to the number of hands - 1")
    if len(trick) >= n:
        raise ValueError(f"a trick in progress has at most {n - 1} cards, not {len(trick)}")
    for seat in range(n):
        mask = <Mask>hands[seat]
        if mask & ~DECK or mask & seen:
            raise ValueError("hands must be disjoint masks of the 52 cards")
        seen |= mask
        hand[seat] = mask
    left = popcount(hand[(first + len(trick)) % n])
    for position in range(n):
        seat = (first + position) % n
        if popcount(hand[seat]) != (left - 1 if position < len(trick) else left) or left > MAX_TRICKS:
            raise ValueError("every seat must hold as many cards, less the one played to the trick")
    # Each allocated once, on first use; one that failed is asked for again at the next call.
    if table == NULL:
        table = <Entry*>table_alloc((1 << ENTRY_BITS) * sizeof(Entry))
    if tags == NULL:
        tags = <Tag*>table_alloc((1 << ENTRY_BITS) * sizeof(Tag))
    if patterns == NULL:
        patterns = <Pattern*>table_alloc((1 << PATTERN_BITS) * sizeof(Pattern))
    if table == NULL or patterns == NULL or tags == NULL:
        raise MemoryError("no memory for the transposition table")
    for card in range(64):
        killer[card] = -1
    for card in range(52):
        refutations[0][card] = 0
        refutations[1][card] = 0
    for card in range(MAX_TRICKS + 2):
        player_hint[card] = -1
        reach_sum[card] = card  # for a trick begun before the search: no bound known
        worked[card] = -1
    seats = n
    player = player_seat
    for seat in range(n):
        length_word[seat] = relative_seat(seat) // 4
        length_shift[seat] = 16 * (relative_seat(seat) % 4)
    trump = strain
    leader = first
    context = <uint8_t>(n * 5 + strain + 1)
    remaining = seen
    played = 0
    played_count = 0
    for card in trick:
        if not 0 <= card < 52 or (seen >> card) & 1:
            raise ValueError(f"card {card} of the trick is not a card, or is still in a hand")
        seen |= bit(card)
        remaining |= bit(card)  # play() takes it out again
        hand[(first + played_count) % n] |= bit(card)
        play((first + played_count) % n, <int>card)
    # Counted once the trick is replayed: play() above changed lengths not yet set.
    lengths[0] = lengths[1] = 0
    for seat in range(n):
        for suit in range(4):
            lengths[length_word[seat]] += (<Mask>popcount(suit_cards(hand[seat], suit))) << (length_shift[seat] + 4 * suit)
    return left


cdef void start_count(long long budget) noexcept:
    """Count the nodes of the next search afresh, stopping it after ``budget`` (0: no limit);
    the nodes of the search before go to ``total_nodes``."""
    global nodes, total_nodes, node_limit, aborted
    total_nodes += nodes
    nodes = 0
    node_limit = budget if budget > 0 else NO_LIMIT
    aborted = False
