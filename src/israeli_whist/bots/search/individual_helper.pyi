"""Types of the individual search's helper thread (individual_helper.pyx): only
``individual_solver`` calls it."""

def help_search(tables: tuple[object, ...], hands: tuple[int, ...], strain: int, first: int, player_seat: int,
                trick: tuple[int, ...]) -> None: ...
