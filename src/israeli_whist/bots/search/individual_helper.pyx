# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The helper thread of the compiled individual-contract search: ``individual_search.pxi``
compiled a second time, so that this thread has its own position and heuristics while it shares
``individual_solver``'s tables. ``individual_solver`` starts it; nothing else should call it."""

import threading

cdef bint helper = True  # at the others' turns, reverse the order after the first card; see individual_search.pxi

include "individual_search.pxi"


SEARCHING = threading.Lock()


cdef void help_until_stopped() noexcept nogil:
    """The helper thread's work: each test the search begins, searched until the search moves
    on; an answer found first goes to the search. Returns when the search ends."""
    global test_number, aborted, nodes, node_limit
    cdef long long test
    cdef bint result
    node_limit = NO_LIMIT  # the search's own budget ends both
    while load_acquire(&control.stop) == 0:
        test = load_acquire(&control.test)
        if test == test_number:
            usleep(20)  # between two of the search's tests
            continue
        test_number = test
        aborted = False
        nodes = 0
        result = search_test(<int>control.seat, <int>control.card, <Mask>control.need)
        control.helper_nodes += nodes
        if not aborted:
            control.answer = result
            store_release(&control.answered, test)


def help_search(tuple tables, tuple hands, int strain, int first, int player_seat, tuple trick) -> None:
    """Help ``individual_solver``'s search of this position until it ends. ``tables`` holds the
    addresses of its table, tags, patterns and control block, its table generation and the sizes
    of those structures: a helper built from other sources returns at once."""
    global table, tags, patterns, control, generation, test_number
    if tables[5] != table_layout():
        return
    with SEARCHING:
        table = <Entry*><size_t>tables[0]
        tags = <Tag*><size_t>tables[1]
        patterns = <Pattern*><size_t>tables[2]
        control = <Control*><size_t>tables[3]
        generation = tables[4]
        load(hands, strain, first, player_seat, trick)
        start_count(0)
        test_number = 0
        with nogil:
            help_until_stopped()
