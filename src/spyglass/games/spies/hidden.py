"""Determinization: what a seat cannot see is redealt among the places it could be.

A seat sees the faces of the pieces of every power it has played (spies and police never change
face, so a seat that played Russia in an earlier year still knows them), the pieces it has seen
in a strength comparison and those face up on a record, every Secret it has been allowed to look
at, and the hands (Secrets not yet placed, Action Chits, Event Tiles and discarded tiles) of
the powers it plays now.
Everything else is resampled: the faces of other powers' unseen spies and police among their own
unseen pieces, the unseen Secret cards among the unseen Secrets, the unseen chits among the
other hands and the cup, the unseen random tiles among the other powers' hands and discards.
Every pool is sorted before it is shuffled, so nothing of the true arrangement survives.

The outcome of every search is public (the spy is captured or stays), so the faces are redrawn
until every search outcome comes out as it did (up to ``TRIES`` draws; after that the last draw
stands, a rare and slight inconsistency rather than a peek at the truth).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from spyglass.engine import Rng

from .events import fits, has_tile
from .geography import POWERS

if TYPE_CHECKING:
    from .rules import SpiesState


TRIES = 50


def resample(state: SpiesState, observer: int | None, rng: Rng) -> None:
    if state.is_over:
        return  # the final scoring turns everything face up
    unseen = [p for p in POWERS if not state.sees_faces(observer, p)]
    for power in unseen:
        _faces(state, power, observer, rng)
    searches = [(c, _sides(state, c) & set(unseen)) for c in state.comparisons]
    searches = [(c, sides) for c, sides in searches if sides]
    for _ in range(TRIES):
        # Only the powers on either side of a search that came out otherwise are redrawn.
        failing = set()
        for search, sides in searches:
            if not _holds(state, search):
                failing |= sides
        if not failing:
            break
        for power in unseen:
            if power in failing:
                _faces(state, power, observer, rng)
    _secrets(state, observer, rng)
    hands = [p for p in POWERS if not state.sees_hand(observer, p)]
    _chits(state, hands, rng)
    _deal_tiles(state, hands, rng)


def _deal_tiles(state: SpiesState, hands: list[str], rng: Rng) -> None:
    """The power about to play or discard a tile must still hold one it may use: the deal is
    redrawn until it does (it always could: the true deal does; after ``TRIES`` draws the true
    tiles stand, a rare case)."""
    choosing = state.phase == "tile" and not state.pending and state.power in hands
    truth = ({p: list(state.tiles[p]) for p in hands}, {p: list(state.discarded[p]) for p in hands})
    for _ in range(TRIES):
        _tiles(state, hands, rng)
        if not choosing or has_tile(state):
            return
    for power in hands:
        state.tiles[power], state.discarded[power] = truth[0][power], truth[1][power]


def _sides(state: SpiesState, search: tuple[tuple[str, ...], str, bool]) -> set[str]:
    units, spy, _ = search
    return {state.police[units[0]].power, state.spies[spy].power}


def _holds(state: SpiesState, search: tuple[tuple[str, ...], str, bool]) -> bool:
    units, spy, captured = search
    return (sum(state.police[u].strength for u in units) > state.spies[spy].strength) == captured


def _faces(state: SpiesState, power: str, observer: int | None, rng: Rng) -> None:
    """Spies and police keep their labels and places; the faces the observer has not seen are
    redealt among the pieces it has not seen."""
    known = state.known
    spies = [s for s in state.spies.values()
             if s.power == power and observer not in known.get(s.label, ())]  # fmt: skip
    spy_faces = rng.shuffled([(s.strength, s.cousin) for s in spies] + state.reserve_spies[power])
    for spy, (strength, cousin) in zip(spies, spy_faces, strict=False):
        if (strength, cousin) != (spy.strength, spy.cousin):
            state.spies[spy.label] = replace(spy, strength=strength, cousin=cousin)
    state.reserve_spies[power] = spy_faces[len(spies) :]
    units = [u for u in state.police.values()
             if u.power == power and observer not in known.get(u.label, ())]  # fmt: skip
    strengths = rng.shuffled([u.strength for u in units] + state.reserve_police[power])
    for unit, strength in zip(units, strengths, strict=False):
        if strength != unit.strength:
            state.police[unit.label] = replace(unit, strength=strength)
    state.reserve_police[power] = strengths[len(units) :]


def _secrets(state: SpiesState, observer: int | None, rng: Rng) -> None:
    placed = [s for s in state.secrets.values() if not state.sees_secret(observer, s)]
    hands = [p for p in POWERS if not state.sees_hand(observer, p)]
    pool = rng.shuffled(
        [s.card for s in placed] + [c for p in hands for c in state.hand_secrets[p]]
    )
    for secret in placed:
        state.secrets[secret.label] = replace(secret, card=pool.pop())
    for power in hands:
        size = len(state.hand_secrets[power])
        state.hand_secrets[power] = sorted(pool[len(pool) - size :])
        del pool[len(pool) - size :]


def _chits(state: SpiesState, hands: list[str], rng: Rng) -> None:
    pool = rng.shuffled([c for p in hands for c in state.chits[p]] + state.cup)
    for power in hands:
        size = len(state.chits[power])
        state.chits[power] = sorted(pool[len(pool) - size :])
        del pool[len(pool) - size :]
    state.cup = pool


def _tiles(state: SpiesState, hands: list[str], rng: Rng) -> None:
    """A power's own tiles not yet played are known to be in its hand or its discards (the
    manifest is public), but not which where; its random tiles are known to nobody else. The
    random ones are redealt among the hidden powers by count, then each power's tiles among its
    discard slots and its hand; a discard slot takes a tile of the year it was discarded in when
    one is left (else any, a rare and slight inconsistency)."""
    randoms = [
        t
        for p in hands
        for t in state.tiles[p] + [d for d, _ in state.discarded[p]]
        if state.is_random_tile(t)
    ]
    pool = rng.shuffled(sorted(randoms))
    for power in hands:
        held = state.tiles[power] + [d for d, _ in state.discarded[power]]
        own = sorted(t for t in held if not state.is_random_tile(t))
        size = len(held) - len(own)
        mine = rng.shuffled(own + pool[len(pool) - size :])
        del pool[len(pool) - size :]
        discards = []
        for _, year in state.discarded[power]:
            pick = next((t for t in mine if fits(state.edition.tile(t), year)), mine[0])
            mine.remove(pick)
            discards.append((pick, year))
        state.discarded[power] = discards
        state.tiles[power] = state.sort_tiles(mine)
