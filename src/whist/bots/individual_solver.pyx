# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled individual-contract search: the final score a player can guarantee when every other
player plays against them (paranoid per player), 2 to 7 seats, any strain, at a trick's start or
part-way through it. ``whist.bots.individual`` holds the Python reference and is the API to use.

How it works:

- The score is a function of the player's final trick count, passed as a table: ``scores[k]``
  is the final score if the player wins ``k`` more tricks, the current trick included.
- The value is found by a binary search over the distinct scores: the largest ``v`` such that the
  player can force their trick count into ``{k : scores[k] >= v}``. Each test is a two-sided
  boolean game on a *need set*: a bit mask over the tricks still to come.
- A transposition table, probed at the start of each trick, keyed on the leader and the hands
  written in relative ranks (the cards left in a suit renumbered from the top, so positions that
  differ only in which small cards are gone share one entry) and relative seats (the player is
  seat 0). An entry keeps need sets proven won and need sets proven lost. A won set wins for every
  superset, a lost set loses for every subset, so one entry answers later tests with other sets
  and other trick counts so far. Entries are facts about the game alone, not about a score table,
  so they stay valid across calls with the same number of seats and strain.
- Bounds at each trick's start: the player's top trumps win tricks whatever anyone does, the
  others' trumps above the player's highest win tricks the player cannot; the top cards the
  leader can cash bound what the leader's side can force.
- Move ordering by whether the player wants this trick (read from the need set); cards
  equivalent to one already tried (the same hand holds the next higher card still out or in the
  current trick) are not searched again.

The module keeps its state in C globals: it is not re-entrant, which is fine under the GIL.
"""

from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc

ctypedef uint64_t Mask

cdef extern from *:
    int popcount "__builtin_popcountll"(unsigned long long) nogil
    int lowest_bit "__builtin_ctzll"(unsigned long long) nogil
    int leading_zeros "__builtin_clzll"(unsigned long long) nogil

cdef Mask SUIT = 0x1FFF
cdef Mask DECK = (<Mask>1 << 52) - 1
cdef enum:
    MAX_SEATS = 7
    MAX_TRICKS = 17  # 52 cards dealt to 3 seats
    MAX_MOVES = 20
    TT_BITS = 20
    TT_SIZE = 1 << TT_BITS
    NO_TRUMP = 4
    SETS = 2  # won and lost need sets kept per table entry


cdef struct Entry:
    Mask key[4]  # per suit, the cards left from the top, 3 bits each: the owner's relative seat + 1
    uint32_t won[SETS]  # need sets proven won (0: none), the newest first
    uint32_t lost[SETS]  # need sets proven lost (0: none)
    uint32_t generation  # the call that last wrote it: older entries are replaced first
    uint8_t context  # seats * 5 + strain + 1; 0 marks an empty slot
    uint8_t leader  # relative to the player
    int8_t best_lead  # the lead that proved the last result, tried first next time
    int8_t player_card  # the card that worked for the player in this trick last time
    uint8_t depth  # tricks left: the deeper entry of a pair is the costlier to lose


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
cdef Mask code_of[52]  # the key code of each card in a hand: its owner relative to the player, + 1
cdef uint8_t context = 0

cdef Entry* table = NULL
cdef uint32_t generation = 0
cdef long long nodes = 0
# The last card that refuted the player at each count of cards left, tried early by the others:
# a refutation found in one line often works in its neighbours.
cdef int killer[64]
# For each trick (by tricks left): the player's card to try first, from the table, and the last
# card that worked for the player, for the table.
cdef int player_hint[MAX_TRICKS + 2]
cdef int worked[MAX_TRICKS + 2]


cdef inline int highest(Mask mask) noexcept nogil:
    return 63 - leading_zeros(mask)


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
    cdef Mask bit = (<Mask>1) << card
    hand[seat] &= ~bit
    remaining &= ~bit
    played |= bit
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
    cdef Mask bit = (<Mask>1) << card
    played_count -= 1
    hand[seat] |= bit
    remaining |= bit
    played &= ~bit


cdef inline int suit_cards(Mask cards_mask, int suit) noexcept nogil:
    return <int>((cards_mask >> (13 * suit)) & SUIT)


# --- The transposition table ---------------------------------------------------------------

cdef inline void position_key(Mask* key) noexcept nogil:
    """Each suit's cards left, from the top, as their owners: equal keys are the same game."""
    cdef int suit, card
    cdef Mask left, word
    for suit in range(4):
        left = (remaining >> (13 * suit)) & SUIT
        word = 0
        while left:
            card = highest(left)
            left &= ~((<Mask>1) << card)
            word = (word << 3) | code_of[13 * suit + card]
        key[suit] = word


cdef inline int relative_leader() noexcept nogil:
    return (leader - player + seats) % seats


cdef inline bint matches(Entry* entry, Mask* key) noexcept nogil:
    return (entry.context == context and entry.leader == relative_leader() and entry.key[0] == key[0]
            and entry.key[1] == key[1] and entry.key[2] == key[2] and entry.key[3] == key[3])


cdef inline Entry* slot(Mask* key) noexcept nogil:
    """The entry for ``key``: one of a pair of slots, the matching one, else the one to overwrite.

    Entries of earlier calls stay usable (they are facts about the game) but are overwritten
    first; between two current ones the shallower goes, so that the expensive results near the
    root survive the many entries made near the leaves.
    """
    cdef Mask h = (key[0] * <Mask>0x9E3779B97F4A7C15ULL) ^ (key[1] * <Mask>0xC2B2AE3D27D4EB4FULL)
    h ^= (key[2] * <Mask>0x165667B19E3779F9ULL) ^ (key[3] * <Mask>0xD6E8FEB86659FD93ULL)
    h ^= (<Mask>(relative_leader() * 64 + context)) * <Mask>0xFF51AFD7ED558CCDULL
    h ^= h >> 29
    h *= <Mask>0xBF58476D1CE4E5B9ULL
    h ^= h >> 32
    cdef Entry* first = &table[h & (TT_SIZE - 2)]
    cdef Entry* second = first + 1
    if matches(first, key):
        return first
    if matches(second, key):
        return second
    if first.generation != second.generation:
        return first if first.generation < second.generation else second
    return first if first.depth <= second.depth else second


cdef inline int probe(Entry* entry, Mask need) noexcept nogil:
    """1 if the entry proves ``need`` won, 0 if lost, -1 if it does not tell."""
    cdef int i
    for i in range(SETS):
        if entry.won[i] and (entry.won[i] & ~need) == 0:
            return 1
        if (need & ~(<Mask>entry.lost[i])) == 0:
            return 0
    return -1


cdef void store(Entry* entry, Mask* key, int left, Mask need, bint won, int best_card) noexcept nogil:
    """Record ``need`` as won or lost, dropping the sets it makes redundant."""
    cdef int i, kept
    cdef uint32_t* sets
    if not matches(entry, key):
        entry.context = context
        entry.leader = relative_leader()
        for i in range(4):
            entry.key[i] = key[i]
        for i in range(SETS):
            entry.won[i] = entry.lost[i] = 0
        entry.best_lead = -1
        entry.player_card = -1
    entry.generation = generation
    entry.depth = left
    if best_card >= 0:
        entry.best_lead = best_card
    if worked[left] >= 0:
        entry.player_card = worked[left]
    sets = &entry.won[0] if won else &entry.lost[0]
    # A won set makes its supersets redundant, a lost set its subsets; the rest move down one.
    kept = 0
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


# --- Bounds ----------------------------------------------------------------------------------

cdef void forced_range(int left, int* low, int* high) noexcept nogil:
    """Tricks the player wins whatever anyone does: at least ``low``, at most ``high``.

    A trump above every other trump still out wins the trick it falls in, and one hand's cards
    fall in different tricks: the player's top trumps are sure tricks, and each other hand's
    trumps above the player's highest trump are tricks the player cannot win.
    """
    cdef Mask mine, theirs, above
    cdef int seat, most = 0
    low[0] = 0
    high[0] = left
    if trump == NO_TRUMP:
        return
    mine = suit_cards(hand[player], trump)
    theirs = suit_cards(remaining & ~hand[player], trump)
    if mine:
        low[0] = popcount(mine >> (highest(theirs) + 1)) if theirs else popcount(mine)
    if theirs:
        above = ~(((<Mask>2) << highest(mine)) - 1) if mine else SUIT
        for seat in range(seats):
            if seat != player:
                most = max(most, popcount(suit_cards(hand[seat], trump) & above))
        high[0] = left - most


cdef int quick_tricks(int seat) noexcept nogil:
    """Tricks ``seat``, on lead, can cash at once from the top, keeping the lead throughout.

    With no trump (or no trumps left with the others) every card above all the others' cards in
    its suit wins. Otherwise only the trump suit and one side suit count, the side suit capped by
    the length of each other hand that could ruff: a hand keeps its side-suit length while
    following to trumps, and one that discards has no trump left to ruff with.
    """
    cdef Mask others = remaining & ~hand[seat]
    cdef bint ruff_danger = trump != NO_TRUMP and suit_cards(others, trump) != 0
    cdef int total = 0
    cdef int best_side = 0
    cdef int suit, count, cap, other
    cdef Mask mine, rest
    for suit in range(4):
        mine = suit_cards(hand[seat], suit)
        if mine == 0:
            continue
        rest = suit_cards(others, suit)
        count = popcount(mine >> (highest(rest) + 1)) if rest else popcount(mine)
        if count == 0:
            continue
        if not ruff_danger or suit == trump:
            total += count
            continue
        cap = count
        for other in range(seats):
            if other != seat and suit_cards(hand[other], trump):
                cap = min(cap, popcount(suit_cards(hand[other], suit)))
        best_side = max(best_side, cap)
    return total + best_side


cdef int last_trick_to_player() noexcept nogil:
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
    return 1 if best_seat == player else 0


# --- Move ordering ---------------------------------------------------------------------------

cdef inline bint player_wants_trick(Mask need, int left) noexcept nogil:
    """Whether the player should rather win the current trick: the fewer tricks they still need
    (the lowest count in ``need``), the more they can afford to lose, and the other way round."""
    cdef int fewest = lowest_bit(need)
    cdef int most = highest(need)
    return fewest >= left - most


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
    while legal:
        card = highest(legal)
        legal &= ~((<Mask>1) << card)
        above = out & (SUIT << (13 * (card // 13))) & ~(((<Mask>2) << card) - 1)
        if above and (full >> lowest_bit(above)) & 1:
            continue  # the next higher card still out is ours: same value
        score = follow_score(seat, card, side_wants) if played_count else lead_score(seat, card, side_wants)
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

cdef bint play_and_search(int seat, int card, Mask need) noexcept nogil:
    """Whether the player forces a count in ``need`` after ``seat`` plays ``card``; ``need``
    counts the player's tricks from the current trick on."""
    global leader, played_count, played
    cdef int saved_leader, winner
    cdef int saved_cards[MAX_SEATS]
    cdef int saved_win_card[MAX_SEATS]
    cdef int saved_win_seat[MAX_SEATS]
    cdef Mask saved_played
    cdef bint result
    play(seat, card)
    if played_count < seats:
        result = search(need)
    else:
        winner = win_seat[seats - 1]
        saved_leader = leader
        saved_played = played
        saved_cards[:] = cards
        saved_win_card[:] = win_card
        saved_win_seat[:] = win_seat
        leader = winner
        played_count = 0
        played = 0
        result = search(need >> 1 if winner == player else need)
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


cdef bint search(Mask need) noexcept nogil:
    """Whether the player can force their count of tricks from here (the current trick included)
    into ``need``, against all the other seats."""
    global nodes
    cdef int left, low, high, seat, count, i, quick, found, ply
    cdef int hint = -1
    cdef int best_card = -1
    cdef Mask full = 0
    cdef Mask reach = 0
    cdef Mask key[4]
    cdef Entry* entry = NULL
    cdef int moves[MAX_MOVES]
    cdef bint result
    nodes += 1
    if played_count == 0:
        left = popcount(hand[leader])
        full = span(0, left)
        need &= full
        if need == 0:
            return False
        if need == full:
            return True
        if left == 1:
            return (need >> last_trick_to_player()) & 1
        forced_range(left, &low, &high)
        reach = span(low, high)
        if (need & reach) == 0:
            return False
        if (need & reach) == reach:
            return True
        position_key(key)
        entry = slot(key)
        if matches(entry, key):
            found = probe(entry, need)
            if found >= 0:
                return found
            hint = entry.best_lead
            player_hint[left] = entry.player_card
        else:
            player_hint[left] = -1
        worked[left] = -1
        quick = quick_tricks(leader)
        if leader == player:
            if (need & span(max(low, quick), high)) == span(max(low, quick), high):
                return True
        elif (need & span(low, min(high, left - quick))) == 0:
            return False
    else:
        left = popcount(hand[leader]) + 1
    seat = (leader + played_count) % seats
    count = order_moves(seat, moves, player_wants_trick(need, left))
    ply = popcount(remaining)
    if seat != player and killer[ply] >= 0:
        promote(moves, count, killer[ply])
    if hint >= 0:
        promote(moves, count, hint)
    elif seat == player and player_hint[left] >= 0:
        promote(moves, count, player_hint[left])
    # The player needs one card that works; the others need one card that defeats the player.
    result = seat != player
    for i in range(count):
        if play_and_search(seat, moves[i], need) != result:
            result = not result
            best_card = moves[i]
            if seat != player:
                killer[ply] = best_card
            else:
                worked[left] = best_card
            break
    if entry != NULL:
        if result:
            store(entry, key, left, need & reach, True, best_card)
        else:
            store(entry, key, left, need | (full & ~reach), False, best_card)
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


cdef int best_score(int* scores, int left, int seat, int card) noexcept nogil:
    """The score the player can guarantee from here, or after ``seat`` plays ``card`` if
    ``card >= 0``: the highest score whose need set the player can force.

    The scores are tried from the top down rather than by halving: the high scores have narrow
    need sets, which the others refute quickly, and the first set won is then the narrowest,
    whose proof is the smallest (a proof for a wide set lets the player wander).
    """
    cdef int values[MAX_TRICKS + 2]
    cdef int count = distinct_sorted(scores, left, values)
    cdef int i
    cdef Mask need
    for i in range(count - 1, 0, -1):
        need = <Mask>need_for(scores, left, values[i])
        if play_and_search(seat, card, need) if card >= 0 else search(need):
            return values[i]
    return values[0]


# --- The Python entry points -----------------------------------------------------------------

cdef int load(tuple hands, int strain, int first, int player_seat, tuple trick) except -1:
    """Set up the globals for a position; returns the tricks left, the current one included."""
    global seats, player, remaining, played, trump, leader, played_count, context, table, generation
    cdef int n = len(hands)
    cdef int seat, card, left, position
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
        while mask:
            card = lowest_bit(mask)
            mask &= mask - 1
            code_of[card] = (seat - player_seat + n) % n + 1
    left = popcount(hand[(first + len(trick)) % n])
    for position in range(n):
        seat = (first + position) % n
        if popcount(hand[seat]) != (left - 1 if position < len(trick) else left) or left > MAX_TRICKS:
            raise ValueError("every seat must hold as many cards, less the one played to the trick")
    if table == NULL:
        table = <Entry*>calloc(TT_SIZE, sizeof(Entry))
        if table == NULL:
            raise MemoryError("no memory for the transposition table")
    generation += 1
    for card in range(64):
        killer[card] = -1
    for card in range(MAX_TRICKS + 2):
        player_hint[card] = -1
        worked[card] = -1
    seats = n
    player = player_seat
    trump = strain
    leader = first
    context = <uint8_t>(n * 5 + strain + 1)
    remaining = seen
    played = 0
    played_count = 0
    for card in trick:
        if not 0 <= card < 52 or (seen >> card) & 1:
            raise ValueError(f"card {card} of the trick is not a card, or is still in a hand")
        seen |= (<Mask>1) << card
        remaining |= (<Mask>1) << card  # play() takes it out again
        hand[(first + played_count) % n] |= (<Mask>1) << card
        play((first + played_count) % n, <int>card)
    return left


cdef int load_scores(tuple scores, int left, int* table_out) except -1:
    if len(scores) != left + 1:
        raise ValueError(f"scores must give a score for 0 to {left} more tricks, not {len(scores)} values")
    for k in range(left + 1):
        table_out[k] = scores[k]
    return 0


def paranoid_value(tuple hands, int strain, int first, int player_seat, tuple trick, tuple scores) -> int:
    """The score ``player_seat`` can guarantee; ``scores[k]`` is their final score if they win
    ``k`` more tricks, the current one included (``len(scores)`` is the tricks left + 1)."""
    global nodes
    cdef int table_scores[MAX_TRICKS + 2]
    cdef int left = load(hands, strain, first, player_seat, trick)
    load_scores(scores, left, table_scores)
    nodes = 0
    if left == 0:
        return table_scores[0]
    return best_score(table_scores, left, 0, -1)


def paranoid_card_values(tuple hands, int strain, int first, tuple trick, tuple scores) -> dict:
    """The score the player on move can guarantee after each of their legal cards (equivalent
    cards are searched once); ``scores`` as for ``paranoid_value``."""
    global nodes
    cdef int table_scores[MAX_TRICKS + 2]
    cdef int seat = (first + len(trick)) % len(hands)
    cdef int left = load(hands, strain, first, seat, trick)
    cdef int moves[MAX_MOVES]
    cdef int count, i, card
    cdef Mask legal, out, above
    load_scores(scores, left, table_scores)
    nodes = 0
    values = {}
    count = order_moves(seat, moves, True)
    for i in range(count):
        values[moves[i]] = best_score(table_scores, left, seat, moves[i])
    # A card left out as equivalent takes the value of the next higher card still out, which is ours.
    legal = hand[seat]
    if played_count and hand[seat] & (SUIT << (13 * (cards[0] // 13))):
        legal = hand[seat] & (SUIT << (13 * (cards[0] // 13)))
    out = remaining | played
    while legal:
        card = highest(legal)
        legal &= ~((<Mask>1) << card)
        if card not in values:
            above = out & (SUIT << (13 * (card // 13))) & ~(((<Mask>2) << card) - 1)
            values[card] = values[lowest_bit(above)]
    return values


def last_node_count() -> int:
    """Positions visited by the last call (for benchmarks)."""
    return nodes


def clear_table() -> None:
    """Forget every result kept between calls (for benchmarks that time cold searches)."""
    global generation
    cdef int i
    if table != NULL:
        for i in range(TT_SIZE):
            table[i].context = 0
            table[i].generation = 0
    generation = 0


def can_force(tuple hands, int strain, int first, int player_seat, tuple trick, int need) -> bool:
    """Whether ``player_seat`` can force their count of further tricks (the current one included)
    into the set ``need``, a bit mask: bit ``k`` set when ``k`` more tricks will do."""
    global nodes
    load(hands, strain, first, player_seat, trick)
    nodes = 0
    return search(<Mask>need)
