# cython: language_level=3
"""Card masks for the compiled searches (``dd/solver.pyx``, ``individual_solver.pyx``): bit
helpers, the trump count and the relative ranks they share. A card is ``13 * suit + rank``; a
suit's cards are a 13-bit mask. Everything is inline, so each search compiles its own copy with
no call between modules."""

from libc.stdint cimport uint8_t, uint64_t

ctypedef uint64_t Mask

cdef extern from *:
    """
    /* Without -mpopcnt GCC calls a library routine for every popcount; the instruction is on
       every x86-64 CPU since 2008, so ask for it here rather than in the build flags. */
    #if defined(__GNUC__) && defined(__x86_64__) && !defined(__POPCNT__)
    #pragma GCC target("popcnt")
    #endif
    """
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int lowest_bit "__builtin_ctzll"(unsigned long long) nogil
    int leading_zeros "__builtin_clzll"(unsigned long long) nogil
    void prefetch "__builtin_prefetch"(const void* address) nogil  # a hint: start fetching that memory


cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Zeroed memory for a search's table, on 2 MiB pages where Linux offers them. The tables
       are hundreds of times what the TLB covers with 4 KiB pages and are read at random, so
       with small pages most probes also miss the TLB. The memory comes from the kernel as it is
       first touched, as calloc's would, and is never freed: a table lives as long as its
       module. */
    static void* whist_table_alloc(size_t size) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        size_t page = (size_t)1 << 21;
        size_t rounded = (size + page - 1) & ~(page - 1);
        char* raw = (char*)mmap(NULL, rounded + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == (char*)MAP_FAILED) return NULL;
        char* aligned = (char*)(((uintptr_t)raw + page - 1) & ~(uintptr_t)(page - 1));
        madvise(aligned, rounded, MADV_HUGEPAGE);
        return aligned;
    #else
        size_t rounded = (size + 63) & ~(size_t)63;  /* aligned_alloc wants a multiple of the alignment */
        void* memory = aligned_alloc(64, rounded);
        if (memory != NULL) memset(memory, 0, rounded);
        return memory;
    #endif
    }
    """
    void* table_alloc "whist_table_alloc"(size_t size) nogil  # zeroed, aligned to 64 bytes at least

cdef inline int highest(Mask mask) noexcept nogil:
    return 63 - leading_zeros(mask)


cdef inline Mask bit(int card) noexcept nogil:
    return (<Mask>1) << card


cdef inline int replies(Mask hand, int suit) noexcept nogil:
    """The cards a hand may answer a lead of ``suit`` with: its cards of the suit, or, void in
    it, any of its cards (its discards multiply a search's positions as much). Both searches
    order leads by the replies they allow."""
    cdef Mask in_suit = (hand >> (13 * suit)) & 0x1FFF
    return popcount(in_suit) if in_suit else popcount(hand)


cdef inline int sure_trump_tricks(Mask mine, Mask theirs, Mask* used) noexcept nogil:
    """Tricks one hand's trumps ``mine`` (a suit's 13 bits) win whatever anyone does, against
    the trumps ``theirs`` of the hands playing against it.

    The hand's trumps fall in different tricks, and each wins its trick unless a higher trump of
    theirs falls in the same one; each of theirs falls once. So of the hand's top k trumps, at
    least k less their trumps above the k-th win, and the best k counts (Hall's rule: for these
    nested choices no pairing of their trumps with ours does better). ``used`` gets the lowest
    trump of the best k: the count relies on every rank from the top down to it.
    """
    cdef int best = 0
    cdef int count = 0
    cdef int card
    cdef Mask rest = mine
    used[0] = 0
    if theirs == 0:
        return popcount(mine)
    while rest:
        card = highest(rest)
        rest ^= bit(card)
        count += 1
        if count - popcount(theirs >> card) > best:
            best = count - popcount(theirs >> card)
            used[0] = bit(card)
    return best


cdef extern from *:
    """
    /* Bit extraction by table (no BMI2 assumed): a suit's low 7 and high 6 ranks separately.
       Each search module has its own copy, filled once by build_rank_tables. */
    static unsigned char whist_extract_low[128 * 128];
    static unsigned char whist_extract_high[64 * 64];
    """
    uint8_t extract_low "whist_extract_low"[128 * 128]
    uint8_t extract_high "whist_extract_high"[64 * 64]


cdef inline void build_rank_tables() noexcept nogil:
    """Fill the extraction tables: ``extract_low[mask * 128 + bits]`` is the bits of ``bits``
    where ``mask`` has a one, packed down; ``extract_high`` the same for 6 bits. Each module
    that uses ``relative_ranks`` calls it once, at import."""
    cdef int mask, bits, position, rank, result
    for mask in range(128):
        for bits in range(128):
            result = 0
            position = 0
            for rank in range(7):
                if (mask >> rank) & 1:
                    if (bits >> rank) & 1:
                        result |= 1 << position
                    position += 1
            extract_low[mask * 128 + bits] = <uint8_t>result
            if mask < 64 and bits < 64:
                extract_high[mask * 64 + bits] = <uint8_t>result


cdef inline Mask relative_ranks(Mask cards_in_suit, Mask out_in_suit) noexcept nogil:
    """A hand's cards of one suit (13 bits) renumbered among the suit's cards still out, the top
    one as rank 12: the form both searches' tables key positions by."""
    cdef Mask low = out_in_suit & 0x7F
    cdef Mask high = out_in_suit >> 7
    cdef Mask packed = extract_low[low * 128 + (cards_in_suit & 0x7F)]
    packed |= (<Mask>extract_high[high * 64 + ((cards_in_suit >> 7) & 0x3F)]) << popcount(low)
    return packed << (13 - popcount(out_in_suit))
