"""What kind of game a game is, in one record: ``GameTraits``.

Each rules type carries its game's traits (``Rules.traits``), so whoever holds the rules (a seat's
view, the bots, the terminal, the pages through ``view_json`` and ``/api/rules``) asks the traits
what the game is like, never which game it is (docs/style.md#each-game-answers-for-itself). What
depends on the options chosen (how many hands, the target, whether honours count at this table)
is the game's hooks' to answer (``israeli_whist.core.wholegame``), not a trait.

>>> GameTraits(contracts=False, over_under=False).to_json()["turned_card"]
'none'
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, Literal

TurnedCard = Literal["none", "dealer", "stock"]
ContractWord = Literal["contract", "bid"]


@dataclass(frozen=True)
class GameTraits:
    """A game's nature. The defaults describe a game of individual players who each bid a
    number of tricks before the play, without an auction, a turned card or honours."""

    # Who plays for whom.
    partnerships: bool = False  # partners sit opposite and score as a side (seats 0+2, 1+3)
    # Before the play.
    trump_auction: bool = False  # a trump auction names the trump and a declarer, who must bid its level
    frisch: bool = False  # when all pass, each player passes cards to a neighbour and the auction starts again
    contracts: bool = True  # every seat bids a number of tricks
    contract_word: ContractWord = "contract"  # what the table calls a seat's contract
    over_under: bool = True  # the contracts add up over or under the tricks, and never to them
    turned_card: TurnedCard = "none"  # a card turned face up for trump: none, the dealer's last, the stock's top
    # The play.
    last_trick_open: bool = True  # the last trick may be looked at after the next one is led
    # Scoring and the length of a game.
    rewards_zero_bids: bool = False  # a made zero contract scores well above its size
    honours: bool = False  # honours of trumps may score (where the table's options count them)
    games_to_target: bool = False  # points count toward a target that wins a game of a match (a rubber)
    hand_size_varies: bool = False  # the deal changes from hand to hand, so headings say it
    # The score sheet for real cards: what the scorer enters for a hand (none: no sheet for the game).
    sheet_fields: tuple[str, ...] = ()
    players_hint: str = ""  # how the players are counted, for a sheet's refusal of a wrong count

    def to_json(self) -> dict[str, Any]:
        """The traits as JSON (snake_case keys, as docs/server-protocol.md#game-traits lists them):
        one dict per traits, made once, since every seat's view carries it. Callers must not change it."""
        return _traits_json(self)


@functools.cache
def _traits_json(traits: GameTraits) -> dict[str, Any]:
    data = dataclasses.asdict(traits)
    data["sheet_fields"] = list(traits.sheet_fields)
    return data
