"""The bot levels' ratings per game, measured by the ladder's round robin. Generated: do not edit.

Made on 2026-12-02 by:
    python bench/ladder.py --round-robin --from-rows /tmp/ladder/rr_s1.jsonl
        /tmp/ladder/rr_random.jsonl /tmp/ladder/rr_he_s2.jsonl --write
from 4020 hands, played by:
    python bench/ladder.py --round-robin --hands 60 --seed 1 --workers 1 --rows
        /tmp/ladder/rr_s1.jsonl
    python bench/ladder.py --round-robin --levels random,easy,medium --hands 300 --seed 0 --workers
        1 --rows /tmp/ladder/rr_random.jsonl
    python bench/ladder.py --round-robin --games israeli --levels hard,expert --hands 240 --seed 2
        --workers 1 --rows /tmp/ladder/rr_he_s2.jsonl
Each value is (mu, sigma) on OpenSkill's Plackett-Luce model, shifted so that medium (the
basic bot) has mu 25, where a new player starts; see bench/ladder.py.
"""

LADDER_RATINGS: dict[str, dict[str, tuple[float, float]]] = {
    "classic": {
        "random": (19.7, 1.47),
        "easy": (23.29, 1.43),
        "medium": (25.0, 1.44),
        "hard": (25.43, 1.5),
        "expert": (26.18, 1.52),
    },
    "israeli": {
        "random": (6.67, 1.71),
        "easy": (16.45, 1.68),
        "medium": (25.0, 1.67),
        "hard": (29.06, 1.64),
        "expert": (31.38, 1.64),
    },
    "whistiti": {
        "random": (13.84, 1.71),
        "easy": (19.92, 1.7),
        "medium": (25.0, 1.68),
        "hard": (28.03, 1.84),
        "expert": (31.22, 1.85),
    },
}
