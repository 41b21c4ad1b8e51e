# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled trick play: ``HandState.legal_actions`` and ``HandState.apply`` for the PLAY phase.

The Python methods in ``state.py`` are the reference and the fallback where no C compiler
was at hand at install time; ``tests/core/test_fastplay.py`` checks that both give the same
states over many random hands. Everything else (the auction, Frisch, contracts, the error
messages) is left to the game, as in the Python version.

The speed comes from building the next state in one allocation: the Python version has to
copy the fields into a list and the list into a new tuple.
"""

from cpython.object cimport PyObject, PyTypeObject

cdef extern from "Python.h":
    PyObject* tuple_item "PyTuple_GET_ITEM"(object, Py_ssize_t)
    void tuple_put_stolen "PyTuple_SET_ITEM"(object, Py_ssize_t, PyObject*)
    object new_tuple "PyTuple_New"(Py_ssize_t)
    void incref "Py_INCREF"(PyObject*)
    void decref "Py_DECREF"(PyObject*)
    PyTypeObject* type_of "Py_TYPE"(object)
    PyObject* generic_alloc "PyType_GenericAlloc"(PyTypeObject*, Py_ssize_t)

ctypedef unsigned long long Mask

# Field positions of HandState, given by ``bind`` so that they stay defined in one place.
cdef Py_ssize_t GAME, HANDS, PHASE, PLAYER, LOG, TRUMP, LEADER, TRICK, TRICKS, TRICKS_WON
cdef Py_ssize_t HAND_SIZE, IS_TERMINAL, FIELDS
cdef long PLAY_PHASE = -1
cdef object OVER_PHASE
cdef tuple CARDS = tuple(range(52))  # the card ints, shared by every tuple of cards made here
cdef Mask SUIT_MASK = 0x1FFF


def bind(dict field, object play_phase, object over_phase) -> None:
    """Learn the field positions and the phase values from ``state.py``."""
    global GAME, HANDS, PHASE, PLAYER, LOG, TRUMP, LEADER, TRICK, TRICKS, TRICKS_WON
    global HAND_SIZE, IS_TERMINAL, FIELDS, PLAY_PHASE, OVER_PHASE
    GAME, HANDS, PHASE, PLAYER = field["game"], field["hands"], field["phase"], field["player"]
    LOG, TRUMP, LEADER, TRICK = field["action_log"], field["trump"], field["leader"], field["trick"]
    TRICKS, TRICKS_WON, HAND_SIZE = field["tricks"], field["tricks_won"], field["hand_size"]
    IS_TERMINAL, FIELDS = field["is_terminal"], len(field)
    PLAY_PHASE, OVER_PHASE = play_phase, over_phase


cdef inline tuple as_state(object state):
    if not isinstance(state, tuple) or len(<tuple>state) != FIELDS:
        raise TypeError(f"expected a HandState, not {type(state).__name__}")
    return <tuple>state


cdef inline object item(tuple values, Py_ssize_t i):
    return <object>tuple_item(values, i)


cdef inline void put(object values, Py_ssize_t i, object value):
    """Replace item ``i`` of a tuple made here and not yet shared."""
    cdef PyObject* old = tuple_item(values, i)
    incref(<PyObject*>value)
    tuple_put_stolen(values, i, <PyObject*>value)
    decref(old)


cdef object copy_state(tuple state):
    """A new instance of the state's own class (a tuple subclass, allocated as Python
    allocates them) with the same items."""
    cdef PyObject* raw = generic_alloc(type_of(state), FIELDS)
    if raw == NULL:
        raise MemoryError()
    new = <object>raw  # the cast takes a reference of its own: give back tp_alloc's
    decref(raw)
    cdef Py_ssize_t i
    cdef PyObject* value
    for i in range(FIELDS):
        value = tuple_item(state, i)
        incref(value)
        tuple_put_stolen(new, i, value)
    return new


cdef tuple cards_of(Mask mask):
    """The cards of a set, lowest first."""
    cdef Py_ssize_t count = 0, i
    cdef Mask rest = mask
    while rest:
        rest &= rest - 1
        count += 1
    cards = new_tuple(count)
    count = 0
    for i in range(52):
        if mask >> i & 1:
            incref(tuple_item(CARDS, i))
            tuple_put_stolen(cards, count, tuple_item(CARDS, i))
            count += 1
    return cards


cdef inline Mask suit_of(long card):
    return SUIT_MASK << (13 * (card // 13))


cdef Py_ssize_t trick_winner(tuple cards, long trump):
    """Position in the trick of its winning card; ``trump`` 4 is no trump."""
    cdef Py_ssize_t best = 0, position
    cdef long best_card = item(cards, 0), card
    cdef long best_suit = best_card // 13, suit
    for position in range(1, len(cards)):
        card = item(cards, position)
        suit = card // 13
        if suit == best_suit:
            if card > best_card:
                best, best_card = position, card
        elif suit == trump:
            best, best_card, best_suit = position, card, suit
    return best


def legal_actions(object state):
    """Every action the player to act may take, in action order; empty once the hand is over."""
    cdef tuple self = as_state(state)
    if <long>item(self, PHASE) != PLAY_PHASE:
        return item(self, GAME).legal_actions(self)
    cdef tuple hands = item(self, HANDS)
    cdef Mask hand = item(hands, <Py_ssize_t>item(self, PLAYER))
    cdef tuple trick = item(self, TRICK)
    cdef Mask follow
    if len(trick):
        follow = hand & suit_of(item(trick, 0))
        if follow:
            return cards_of(follow)
    return cards_of(hand)


def apply(object state, object action):
    """The state after ``action``; raises IllegalActionError (the state is unchanged) if not allowed."""
    cdef tuple self = as_state(state)
    if type(action) is not int or <long>item(self, PHASE) != PLAY_PHASE:
        return item(self, GAME).apply(self, action)
    cdef long card
    try:
        card = action
    except OverflowError:  # past a C long (2**63, 10**30): refused by the game, as any non-card
        return item(self, GAME).apply(self, action)
    if not 0 <= card < 52:
        return item(self, GAME).apply(self, action)
    cdef tuple hands = item(self, HANDS)
    cdef Py_ssize_t seat = item(self, PLAYER), n = len(hands)
    cdef Mask hand = item(hands, seat), bit = (<Mask>1) << card, led
    cdef tuple trick = item(self, TRICK)
    if not hand & bit:
        return item(self, GAME).apply(self, action)  # not held: the game explains why
    if len(trick):
        led = suit_of(item(trick, 0))
        if hand & led and not bit & led:
            return item(self, GAME).apply(self, action)  # fails to follow suit: the game explains why
    new = copy_state(self)
    new_hands = new_tuple(n)
    cdef Py_ssize_t s
    for s in range(n):
        if s != seat:
            incref(tuple_item(hands, s))
            tuple_put_stolen(new_hands, s, tuple_item(hands, s))
    cdef object held = hand ^ bit
    incref(<PyObject*>held)
    tuple_put_stolen(new_hands, seat, <PyObject*>held)
    put(new, HANDS, new_hands)
    put(new, LOG, (item(self, LOG), action))
    trick = trick + (action,)
    if len(trick) < n:
        put(new, TRICK, trick)
        put(new, PLAYER, (seat + 1) % n)
        return new
    cdef Py_ssize_t leader = item(self, LEADER)
    cdef Py_ssize_t winner = (leader + trick_winner(trick, item(self, TRUMP))) % n
    won = list(item(self, TRICKS_WON))
    won[winner] += 1
    put(new, TRICKS_WON, tuple(won))
    tricks = item(self, TRICKS) + ((leader, trick, winner),)
    put(new, TRICKS, tricks)
    put(new, TRICK, ())
    put(new, LEADER, winner)
    if len(tricks) == <Py_ssize_t>item(self, HAND_SIZE):
        put(new, PHASE, OVER_PHASE)
        put(new, PLAYER, -1)
        put(new, IS_TERMINAL, True)
    else:
        put(new, PLAYER, winner)
    return new
