"""Types of the compiled playout policy (fastplayout.pyx)."""

def play_out_tricks(hands: tuple[int, ...], trump: int, leader: int, trick: tuple[int, ...], won: tuple[int, ...],
                    contracts: tuple[int, ...]) -> tuple[int, ...]: ...
