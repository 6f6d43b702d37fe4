"""Determinization: what a seat cannot see is redealt among the places it could be.

A seat sees the faces of the pieces of every power it has played (spies and police never change
face, so a seat that played Russia in an earlier year still knows them), the pieces it has seen
in a strength comparison and those face up on a record or in the Sanctioned box, every Secret it
has been allowed to look at, and the hands (Secrets not yet placed, Action Chits, Event Tiles and
discarded tiles) of the powers it plays now.
Everything else is resampled: the faces of other powers' unseen spies and police among their own
unseen pieces, the unseen Secret cards among the unseen Secrets, the unseen chits among the
other hands and the cup, the unseen random tiles among the other powers' hands and discards.
Every pool is sorted before it is shuffled, so nothing of the true arrangement survives.

What everyone saw narrows the deal, and every sample keeps to it:

- **faces**: the outcome of every strength comparison is public (a search, a Sanction, a
  Discovery against a holder, a Counterspy). Faces are first drawn at random, redrawing the
  powers on either side of a comparison that came out otherwise (``TRIES`` times); if that has
  not found a consistent deal, a randomised backtracking search over the pieces in comparisons
  finds one (it always exists: the true deal is one), and the other pieces share what is left.
- **Secrets**: a Secret that a Discovery took without springing a trap is no Counterspy.
- **tiles**: a discarded tile was one of the year it was discarded in, and the power about to
  choose a tile holds one it may use. Tiles are dealt by a randomised backtracking search over
  those slots (random tiles by count among the hidden powers), which cannot fail either.
- **chits**: the chits a seat remembers in another power's hand (``memory``: handed over in a
  trade, or shown in an offer it has seen) stay in that hand; the rest are redealt.
- **diplomacy**: an offer the seat has not seen is dealt as an empty one (its contents could be
  anything); sealed bids for Russia it has not seen are redrawn among the sums the bidder could
  bid; with secret money, the sums of trades it did not see are redrawn (``money``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from spyglass.engine import Rng

from . import bidding, diplomacy, money
from .events import fits
from .geography import POWERS

if TYPE_CHECKING:
    from .rules import SpiesState

TRIES = 50
Face = Any  # a spy's (strength, cousin), a police unit's strength
Constraint = tuple[Any, ...]


def resample(state: SpiesState, observer: int | None, rng: Rng) -> None:
    if state.is_over:
        return  # the final scoring turns everything face up
    needs: dict[str, int] = {}
    offer = state.talks.offer
    if offer is not None:
        if not diplomacy.sees_offer(state, observer):
            state.talks.offer = replace(offer, give=(), ask=())
        elif observer != state.controller(offer.initiator):
            needs[offer.initiator] = diplomacy.money_of(offer.give)
    _redeal_faces(state, observer, rng)
    _secrets(state, observer, rng)
    hands = [p for p in POWERS if not state.sees_hand(observer, p)]
    _chits(state, observer, hands, rng)
    _deal_tiles(state, hands, rng)
    money.resample(state, observer, rng, needs)
    bidding.resample(state, observer, rng)


# ------------------------------------------------------------------------- faces


def constraints(state: SpiesState) -> list[Constraint]:
    """Every public outcome of a strength comparison, as (kind, pieces, detail)."""
    found: list[Constraint] = [
        ("search", (*units, spy), captured) for units, spy, captured in state.board.comparisons
    ]
    for kind, spy, other, outcome in state.board.duels:
        if kind == "counterspy":
            strength = state.edition.secret(state.board.secrets[other].card).counterspy
            found.append((kind, (spy,), (strength, outcome)))
        else:
            found.append((kind, (spy, other), outcome))
    return found


def holds(constraint: Constraint, face: Callable[[str], Face]) -> bool:
    """Whether the faces ``face(label)`` give the outcome everyone saw."""
    kind, pieces, detail = constraint
    if kind == "search":
        force = sum(face(u) for u in pieces[:-1])
        return (force > face(pieces[-1])[0]) == detail
    if kind == "counterspy":
        strength, outcome = detail
        spy_strength, cousin = face(pieces[0])
        if cousin:
            return outcome == "cousin"
        return outcome == ("captured" if strength > spy_strength else "stood")
    first, second = face(pieces[0]), face(pieces[1])
    if kind == "discovery":
        held = second[0] if isinstance(second, tuple) else second
        return (first[0] > held) == (detail == "won")
    backfire = second[1] and not first[1]  # a Sanction of a Cousin by another spy (5.2)
    if backfire:
        return detail == "backfire"
    return detail == ("killed" if first[0] >= second[0] else "failed")


def _face_of(state: SpiesState, label: str) -> Face:
    spy = state.board.spies.get(label)
    if spy is not None:
        return (spy.strength, spy.cousin)
    return state.board.police[label].strength


def _owner(state: SpiesState, label: str) -> str:
    return state.piece_power(label)


def _redeal_faces(state: SpiesState, observer: int | None, rng: Rng) -> None:
    unseen = [p for p in POWERS if not state.sees_faces(observer, p)]
    if not unseen:
        return
    for power in unseen:
        _faces(state, power, observer, rng)

    def hidden(label: str) -> bool:
        return _owner(state, label) in unseen and observer not in state.board.known.get(label, ())

    relevant = [c for c in constraints(state) if any(hidden(p) for p in c[1])]
    if not relevant:
        return
    face = lambda label: _face_of(state, label)  # noqa: E731
    for _ in range(TRIES):
        # Only the powers on either side of a comparison that came out otherwise are redrawn.
        failing = {_owner(state, p) for c in relevant if not holds(c, face) for p in c[1]}
        failing &= set(unseen)
        if not failing:
            return
        for power in sorted(failing, key=POWERS.index):
            _faces(state, power, observer, rng)
    _solve_faces(state, relevant, hidden, rng)


def _faces(state: SpiesState, power: str, observer: int | None, rng: Rng) -> None:
    """Spies and police keep their labels and places; the faces the observer has not seen are
    redealt among the pieces it has not seen."""
    spies, units = _unseen_pieces(state, power, observer)
    spy_faces = rng.shuffled([(s.strength, s.cousin) for s in spies] + state.reserve_spies[power])
    _set_spy_faces(state, power, spies, spy_faces)
    strengths = rng.shuffled([u.strength for u in units] + state.reserve_police[power])
    _set_police_faces(state, power, units, strengths)


def _unseen_pieces(state: SpiesState, power: str, observer: int | None) -> tuple[list, list]:
    known = state.board.known
    spies = [s for s in state.board.spies.values()
             if s.power == power and observer not in known.get(s.label, ())]  # fmt: skip
    units = [u for u in state.board.police.values()
             if u.power == power and observer not in known.get(u.label, ())]  # fmt: skip
    return spies, units


def _set_spy_faces(state: SpiesState, power: str, spies: list, faces: list) -> None:
    for spy, (strength, cousin) in zip(spies, faces, strict=False):
        if (strength, cousin) != (spy.strength, spy.cousin):
            state.board.spies[spy.label] = spy.with_face(strength, cousin)
    state.reserve_spies[power] = faces[len(spies) :]


def _set_police_faces(state: SpiesState, power: str, units: list, strengths: list) -> None:
    for unit, strength in zip(units, strengths, strict=False):
        if strength != unit.strength:
            state.board.police[unit.label] = unit.with_strength(strength)
    state.reserve_police[power] = strengths[len(units) :]


def _solve_faces(
    state: SpiesState, relevant: list[Constraint], hidden: Callable[[str], bool], rng: Rng
) -> None:
    """A randomised backtracking search: the hidden pieces in comparisons take faces from
    their power's pool (unseen pieces and reserve) so that every comparison comes out as it
    did; the rest of each pool is shuffled over the other unseen pieces."""
    variables = sorted({p for c in relevant for p in c[1] if hidden(p)})
    pools: dict[tuple[str, bool], Counter[Face]] = {}
    members: dict[tuple[str, bool], list[str]] = {}
    for power in {_owner(state, v) for v in variables}:
        for is_spy in (True, False):
            labels = [
                label
                for label in (state.board.spies if is_spy else state.board.police)
                if _owner(state, label) == power and hidden(label)
            ]
            reserve = state.reserve_spies[power] if is_spy else state.reserve_police[power]
            pools[power, is_spy] = Counter([_face_of(state, x) for x in labels] + list(reserve))
            members[power, is_spy] = labels
    watching: dict[str, list[Constraint]] = {v: [] for v in variables}
    for constraint in relevant:
        last = max(variables.index(p) for p in constraint[1] if hidden(p))
        watching[variables[last]].append(constraint)
    chosen: dict[str, Face] = {}

    def face(label: str) -> Face:
        return chosen[label] if label in chosen else _face_of(state, label)

    def search(i: int) -> bool:
        if i == len(variables):
            return True
        label = variables[i]
        pool = pools[_owner(state, label), label in state.board.spies]
        options = rng.shuffled([f for f, n in pool.items() for _ in range(n)])
        tried = set()
        for value in options:
            if value in tried:
                continue
            tried.add(value)
            chosen[label] = value
            if all(holds(c, face) for c in watching[label]):
                pool[value] -= 1
                if search(i + 1):
                    return True
                pool[value] += 1
            del chosen[label]
        return False

    found = search(0)
    assert found, "the true deal satisfies every comparison, so a deal exists"
    for (power, is_spy), labels in members.items():
        pieces = [label for label in labels if label not in chosen]
        rest = rng.shuffled(list(pools[power, is_spy].elements()))
        for label in labels:
            if label in chosen:
                _assign(state, label, chosen[label])
        for label, value in zip(pieces, rest, strict=False):
            _assign(state, label, value)
        leftover = rest[len(pieces) :]
        if is_spy:
            state.reserve_spies[power] = leftover
        else:
            state.reserve_police[power] = leftover


def _assign(state: SpiesState, label: str, value: Face) -> None:
    if label in state.board.spies:
        state.board.spies[label] = state.board.spies[label].with_face(*value)
    else:
        state.board.police[label] = state.board.police[label].with_strength(value)


# ------------------------------------------------------------------------- Secrets and chits


def _secrets(state: SpiesState, observer: int | None, rng: Rng) -> None:
    """Unseen Secret cards among unseen Secrets and hidden hands; a Secret known to be no
    Counterspy takes an ordinary card (drawn first, so the deal stays uniform)."""
    placed = [s for s in state.board.secrets.values() if not state.sees_secret(observer, s)]
    hands = [p for p in POWERS if not state.sees_hand(observer, p)]
    pool = rng.shuffled(
        [s.card for s in placed] + [c for p in hands for c in state.hand_secrets[p]]
    )
    plain = [s for s in placed if s.label in state.board.plain]
    for secret in plain:
        card = next(c for c in pool if not state.edition.secret(c).counterspy)
        pool.remove(card)
        state.board.secrets[secret.label] = replace(secret, card=card)
    for secret in placed:
        if secret.label not in state.board.plain:
            state.board.secrets[secret.label] = replace(secret, card=pool.pop())
    for power in hands:
        size = len(state.hand_secrets[power])
        state.hand_secrets[power] = sorted(pool[len(pool) - size :])
        del pool[len(pool) - size :]


def _chits(state: SpiesState, observer: int | None, hands: list[str], rng: Rng) -> None:
    """Unseen chits among the hidden hands and the cup; each hand keeps the chits the observer
    knows it holds."""
    pool = Counter([c for p in hands for c in state.hands.chits[p]] + state.hands.cup)
    kept = {}
    for power in hands:
        kept[power] = diplomacy.known_chits(state, observer, power)
        pool -= kept[power]  # they are in the true hand, so in the pool
    rest = rng.shuffled(sorted(pool.elements()))
    for power in hands:
        size = len(state.hands.chits[power]) - sum(kept[power].values())
        drawn = rest[len(rest) - size :] if size else []
        del rest[len(rest) - size :]
        state.hands.chits[power] = sorted([*kept[power].elements(), *drawn])
    state.hands.cup = sorted(rest)


# ------------------------------------------------------------------------- tiles


def _deal_tiles(state: SpiesState, hands: list[str], rng: Rng) -> None:
    """A power's own tiles not yet played are known to be in its hand or its discards (the
    manifest is public), but not which where; its random tiles are known to nobody else. The
    slots that constrain the deal (each discard, of its year; one usable tile in the hand of
    the power about to choose) are filled first by a randomised backtracking search, each from
    the power's own tiles or the pool of hidden random tiles (no more random tiles per power
    than it holds); the remaining tiles are then shuffled into the hands and among the powers
    by count."""
    if not hands:
        return
    own: dict[str, list[str]] = {}
    quota: dict[str, int] = {}
    randoms: list[str] = []
    for power in hands:
        held = state.hands.tiles[power] + [d for d, _ in state.hands.discarded[power]]
        own[power] = sorted(t for t in held if not state.is_random_tile(t))
        mine = [t for t in held if state.is_random_tile(t)]
        quota[power] = len(mine)
        randoms += mine
    pool = sorted(randoms)
    slots = [(power, i, year) for power in hands
             for i, (_, year) in enumerate(state.hands.discarded[power])]  # fmt: skip
    choosing = state.phase == "tile" and not state.pending and state.power in hands
    if choosing:
        slots.append((state.power, -1, state.year))  # a usable tile stays in the hand

    def candidates(slot: tuple[str, int, int]) -> int:
        power, _, year = slot
        return sum(fits(state.edition.tile(t), year) for t in own[power] + pool)

    slots.sort(key=lambda s: (candidates(s), POWERS.index(s[0]), s[1]))
    filled: dict[tuple[str, int, int], str] = {}
    used = dict.fromkeys(hands, 0)
    taken: set[str] = set()

    def search(i: int) -> bool:
        if i == len(slots):
            return True
        slot = slots[i]
        power, _, year = slot
        options = [t for t in own[power] if t not in taken]
        if used[power] < quota[power]:
            options += [t for t in pool if t not in taken]
        for tile in rng.shuffled(options):
            if not fits(state.edition.tile(tile), year):
                continue
            random = state.is_random_tile(tile)
            filled[slot] = tile
            taken.add(tile)
            used[power] += random
            if search(i + 1):
                return True
            used[power] -= random
            taken.discard(tile)
            del filled[slot]
        return False

    found = search(0)
    assert found, "the true deal fills every slot, so a deal exists"
    spare = rng.shuffled([t for t in pool if t not in taken])
    for power in hands:
        extra = quota[power] - used[power]
        mine = [t for t in own[power] if t not in taken] + spare[:extra]
        del spare[:extra]
        state.hands.discarded[power] = [
            (filled[(power, i, year)], year)
            for i, (_, year) in enumerate(state.hands.discarded[power])
        ]
        kept = [filled[s] for s in filled if s[0] == power and s[1] == -1]
        state.hands.tiles[power] = state.sort_tiles(mine + kept)
