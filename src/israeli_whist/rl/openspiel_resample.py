"""A resampler for OpenSpiel's ISMCTS on our games: a state with the same information state for
the player to act, its hidden cards drawn by our exact deal sampler.

``ISMCTSBot.set_resampler(resampler(seed))``: for each simulation ISMCTS asks for a state the
player cannot tell from the real one. The hidden cards are drawn by ``israeli_whist.bots.search.sampling``'s
``DealSampler`` from the player's ``SeatView`` (uniformly among the deals that fit every card
seen, every suit shown out of and every Frisch card passed), so unlike ``oh_hell``'s own
resampler it never gives a seat a suit it has shown out of. The drawn cards are then dealt
again as chance actions and the hand's actions replayed through OpenSpiel, so the new state has
a true history: the player's own cards come in the order they were dealt, the others' in a
random order.

Israeli Whist's Frisch needs more: the cards the other seats passed among themselves are hidden,
and the replay needs some. They are rebuilt backwards from the drawn hands, round by round:
a card this player passed and did not see again is followed along a path of passes that ends
where the drawn deal put it (``_paths``), and every other pass is filled with cards of the
receiver's hand at random. A Frisch under way is replayed with the earlier seats' choices drawn
from their drawn hands.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import pyspiel

from israeli_whist.bots.judgement.basic_knowledge import played_by_seat
from israeli_whist.bots.search.sampling import DealSampler
from israeli_whist.core.actions import Phase
from israeli_whist.core.cards import CardSet, cards_in, iter_cards
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.views import SeatView
from israeli_whist.rl.openspiel_seen import SeenState

Seen = TypeVar("Seen", bound=SeenState)  # the kind of state resampled is the kind made

FRISCH_CARDS = 3  # cards each seat passes in a Frisch round
TRIES = 100  # deals drawn before giving up on a Frisch history that fits


def remembered_cards(view: SeatView, dealt: SeatView | None) -> dict[int, CardSet]:
    """Cards a seat saw and no longer sees but surely still lie in a hand: Classic Whist's turned-up
    trump, face down in the dealer's hand after the first trick until the dealer plays it."""
    card = dealt.turned_card if dealt is not None else -1
    if card < 0 or view.turned_card >= 0 or view.rules.traits.turned_card != "dealer" or view.seat == view.dealer:
        return {}
    if played_by_seat(view)[view.dealer] >> card & 1:
        return {}
    return {view.dealer: 1 << card}


@dataclass(frozen=True)
class Segment:
    """A card this seat passed, while out of its sight: at ``start`` after round ``begin``, and at
    ``end`` after round ``finish`` (where the drawn deal has it, or the seat that passed it back)."""

    card: int
    start: int
    begin: int
    end: int
    finish: int


def _paths(segment: Segment, offsets: Sequence[int], players: int, me: int) -> list[tuple[int, ...]]:
    """Every way the card can travel: its holder after each round from ``begin`` to ``finish``,
    passing it on (never to ``me``, who would have seen it) or keeping it."""
    found = []
    rounds = range(segment.begin + 1, segment.finish + 1)
    for moves in itertools.product((False, True), repeat=len(rounds)):
        seat, path = segment.start, [segment.start]
        for r, move in zip(rounds, moves, strict=True):
            if move:
                seat = (seat + offsets[r]) % players
                if seat == me:
                    break
            path.append(seat)
        else:
            if seat == segment.end:
                found.append(tuple(path))
    return found


def frisch_history(view: SeatView, after: list[CardSet], rng: random.Random) -> list[list[CardSet]] | None:
    """Each seat's passes in each completed Frisch round (``passes[round][seat]``) that take the
    hands as dealt to ``after`` (each seat's cards after the last round) and fit all ``view.seat``
    saw; None when the drawn deal allows none."""
    game = game_for_rules(view.rules)
    n, me, rounds = view.players, view.seat, view.frisch_round
    offsets = [game.frisch_offset(r) for r in range(rounds)]
    segments = _segments(view, after, offsets)
    options = [_paths(s, offsets, n, me) for s in segments]
    for choice in _path_choices(options, rng):
        hops: dict[tuple[int, int], set[int]] = {}  # (round, seat) -> cards it must pass
        where: dict[tuple[int, int], int] = {}  # (round, card) -> holder after that round
        for segment, path in zip(segments, choice, strict=True):
            for r, seat in enumerate(path, segment.begin):
                where[r, segment.card] = seat
                if r > segment.begin and seat != path[r - segment.begin - 1]:
                    hops.setdefault((r, path[r - segment.begin - 1]), set()).add(segment.card)
            if segment.finish + 1 < rounds and view.frisch_received[segment.finish + 1] >> segment.card & 1:
                hops.setdefault((segment.finish + 1, segment.end), set()).add(segment.card)
        if any(len(cards) > FRISCH_CARDS for cards in hops.values()):
            continue
        passes = _fill_passes(view, after, offsets, hops, where, rng)
        if passes is not None:
            return passes
    return None


def _segments(view: SeatView, after: list[CardSet], offsets: Sequence[int]) -> list[Segment]:
    n, me, rounds = view.players, view.seat, view.frisch_round
    segments = []
    for r, passed in enumerate(view.frisch_passed):
        for card in iter_cards(passed):
            back = next((r2 for r2 in range(r + 1, rounds) if view.frisch_received[r2] >> card & 1), None)
            if back is None:
                end = next(s for s in range(n) if after[s] >> card & 1)
                segments.append(Segment(card, (me + offsets[r]) % n, r, end, rounds - 1))
            else:
                segments.append(Segment(card, (me + offsets[r]) % n, r, (me - offsets[back]) % n, back - 1))
    return segments


def _path_choices(options: list[list[tuple[int, ...]]], rng: random.Random) -> list[tuple[tuple[int, ...], ...]]:
    shuffled = [rng.sample(paths, len(paths)) for paths in options]
    return list(itertools.islice(itertools.product(*shuffled), 64))


def _fill_passes(view: SeatView, after: list[CardSet], offsets: Sequence[int], hops: dict[tuple[int, int], set[int]],
                 where: dict[tuple[int, int], int], rng: random.Random) -> list[list[CardSet]] | None:
    """Backwards from the last round: each seat's passes (the cards it must pass, then others of
    its receiver's hand), and the hands before the round."""
    n, me = view.players, view.seat
    hands = list(after)
    passes: list[list[CardSet]] = [[0] * n for _ in offsets]
    for r in reversed(range(len(offsets))):
        off = offsets[r]
        for seat in range(n):
            receiver = (seat + off) % n
            if seat == me:
                passes[r][seat] = view.frisch_passed[r]
                continue
            if receiver == me:
                passes[r][seat] = view.frisch_received[r]
                continue
            must = hops.get((r, seat), set())
            # A card this player passed is out of sight on its path only: it may fill no other pass.
            pool = [c for c in cards_in(hands[receiver]) if (r, c) not in where]
            extra = FRISCH_CARDS - len(must)
            if len(pool) < extra or any(not hands[receiver] >> c & 1 for c in must):
                return None
            passes[r][seat] = sum(1 << c for c in (*must, *rng.sample(pool, extra)))
        hands = [hands[s] & ~passes[r][(s - off) % n] | passes[r][s] for s in range(n)]
    return passes


def deal_sampler(state: SeenState, player: int) -> DealSampler:
    """Our exact sampler of the cards ``player`` cannot see in ``state``."""
    view = state.seat_view(player)
    if view is None or view.phase not in (Phase.AUCTION, Phase.FRISCH, Phase.CONTRACT, Phase.PLAY):
        raise ValueError("A state is resampled at a seat's decision, after the deal")
    return DealSampler(view, remembered_cards(view, state.dealt_view(player)))


def resample(state: Seen, player: int, rng: random.Random, sampler: DealSampler | None = None) -> Seen:
    """A state ``player`` cannot tell from ``state``, the hidden cards drawn by our deal sampler
    (``sampler``, if given, is ``deal_sampler(state, player)``, made once for many draws)."""
    sampler = sampler if sampler is not None else deal_sampler(state, player)
    view = state.seat_view(player)
    assert view is not None
    for _ in range(TRIES):
        hands = sampler.sample(rng)
        rebuilt = _rebuild(state, view, hands, rng)
        if rebuilt is not None:
            return rebuilt
    raise ValueError(f"No Frisch history fits {TRIES} drawn deals")


def _rebuild(state: Seen, view: SeatView, hands: Sequence[CardSet], rng: random.Random) -> Seen | None:
    n, me = view.players, view.seat
    played = played_by_seat(view)
    after = [hands[s] | played[s] for s in range(n)]
    passes = frisch_history(view, after, rng) if view.frisch_round else []
    if passes is None:
        return None
    dealt = list(after)
    for r in reversed(range(len(passes))):
        off = game_for_rules(view.rules).frisch_offset(r)
        dealt = [dealt[s] & ~passes[r][(s - off) % n] | passes[r][s] for s in range(n)]
    if view.phase == Phase.FRISCH:  # the seats that chose before this one in the round under way
        passes.append([sum(1 << c for c in rng.sample(cards_in(hands[s]), FRISCH_CARDS)) if s != me else 0
                       for s in range(n)])
    game = state.get_game()
    new: Seen = game.new_initial_state()  # a state of the same kind
    for card in (*state.place_drawn, *_pack(state, dealt, me, rng)):
        new.apply_action(card)
    chosen = [{s: cards_in(p[s]) for s in range(n)} for p in passes]
    hand = state.hand
    assert hand is not None
    for action in hand.history:
        now = new.hand
        assert now is not None
        if now.phase == Phase.FRISCH and now.player != me:
            action = chosen[now.frisch_round][now.player].pop(0)
        new.apply_action(action)
    return new


def _pack(state: SeenState, dealt: Sequence[CardSet], me: int, rng: random.Random) -> list[int]:
    """The chance actions that deal ``dealt``: the original order where the player saw it (its own
    cards, a turned-up card), the others' cards shuffled into their places."""
    n = len(dealt)
    hand = state.hand
    assert hand is not None
    first = (hand.dealer + 1) % n
    size = hand.hand_size
    original = state.drawn
    pack = list(original)
    turned = hand.turned_card
    for seat in range(n):
        if seat == me:
            continue
        places = [i for i in range(n * size) if (first + i) % n == seat and original[i] != turned]
        cards = [c for c in cards_in(dealt[seat]) if c != turned]
        rng.shuffle(cards)
        for i, card in zip(places, cards, strict=True):
            pack[i] = card
    return pack


def resampler(seed: int | str = 0) -> Callable[[pyspiel.State, int], SeenState]:
    """The callback for ``ISMCTSBot.set_resampler``: ``(state, player) -> state``, with its own
    random generator. The deal sampler of one decision is made once and reused for every
    simulation of it (ISMCTS resamples the same state many times)."""
    rng = random.Random(seed)
    made: dict[tuple[int, tuple[int, ...]], DealSampler] = {}

    def resample_for(state: pyspiel.State, player: int) -> SeenState:
        if not hasattr(state, "seat_view"):
            raise TypeError(f"Our resampler serves our games, not {state.get_game()}")
        ours: SeenState = state
        key = (player, tuple(state.history()))
        if key not in made:
            made.clear()  # one decision at a time: the last one's sampler is done with
            made[key] = deal_sampler(ours, player)
        return resample(ours, player, rng, made[key])

    return resample_for
