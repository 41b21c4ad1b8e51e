"""The bots' search, above the judgement: deals drawn consistent with a seat's view (sampling,
determinize, inference from the bids), the playouts and the expert's deal scoring, the time
budget, the individual (paranoid) search and the double-dummy solver (``dd``), with their
compiled parts (``*.pyx``, ``cardbits.pxd``, ``individual_search.pxi``), and the analysis's
card judgement. It imports the judgement and the core."""
