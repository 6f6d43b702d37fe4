"""Building Spies! positions for tests: the game is not in the catalogue yet, so it is made from
its SPEC directly."""

from __future__ import annotations

from dataclasses import replace

from spyglass.components.dice import AVERAGE_DIE
from spyglass.engine import Game, Rng
from spyglass.games.spies import SPEC
from spyglass.games.spies.pieces import PoliceUnit, Secret, Spy
from spyglass.games.spies.rules import SpiesState

GAME = Game(SPEC)


def new(players: int = 5, seed: int = 1, **decks: object) -> SpiesState:
    state = GAME.new_state(players=players, seed=seed, deck=decks or None)
    assert isinstance(state, SpiesState)
    return state


def finish_setup(state: SpiesState) -> SpiesState:
    """Play set-up with the first legal placement each time (up to Germany's first turn)."""
    while state.phase in ("secrets", "police", "spies"):
        state.apply(state.legal_actions()[0])
    return state


def moving_position(
    spies: dict[str, str],
    power: str = "Germany",
    year: int = 1933,
    police: dict[str, tuple[int, str]] | None = None,
    phase: str = "move",
) -> SpiesState:
    """A position in ``power``'s turn whose only spies are ``spies`` (label -> place, each of
    the power whose abbreviation starts the label; strength 2) and only police ``police``
    (label -> (strength, city)), at the start of ``phase``. Every chit is back in the cup (give
    chits with ``give``)."""
    state = finish_setup(new())
    for hand in state.hands.chits.values():
        state.hands.cup.extend(hand)
        hand.clear()
    state.hands.cup.sort()
    abbrs = {p.abbr: p.name for p in state.edition.powers}
    state.board.spies = {
        label: Spy(label, abbrs[label[:2]], 2, False, place) for label, place in spies.items()
    }
    state.board.police = {
        label: PoliceUnit(label, abbrs[label[:2]], strength, city)
        for label, (strength, city) in (police or {}).items()
    }
    state.year = year
    state.power_index = [p.name for p in state.edition.powers].index(power)
    state.phase = phase
    state.forget_legal()
    return state


def strengths(state: SpiesState, **faces: int) -> None:
    """Set the strengths of pieces by label: strengths(state, Ge1=3, FrP1=2)."""
    for label, strength in faces.items():
        if label in state.board.spies:
            state.board.spies[label] = replace(state.board.spies[label], strength=strength)
        else:
            state.board.police[label] = replace(state.board.police[label], strength=strength)


def rig_die(state: SpiesState, *rolls: int) -> None:
    """Make the state's next average-die rolls come out as ``rolls``."""
    for seed in range(100_000):
        rng = Rng(seed)
        if all(AVERAGE_DIE.roll(rng) == roll for roll in rolls):
            state._rng = Rng(seed)
            return
    raise AssertionError(f"no seed rolls {rolls}")


def texts(state: SpiesState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def discard_tile(state: SpiesState) -> None:
    """At the tile step, the power discards its first tile that it may (free, no effect)."""
    if state.phase == "tile":
        state.apply(next(a for a in state.legal_actions() if a.kind == "discard"))


def pass_turn(state: SpiesState) -> None:
    """The power to play discards a tile, leaves its police, searches for nobody and moves
    nobody."""
    discard_tile(state)
    while state.phase in ("rearrange", "search"):
        state.apply("done")
    state.apply("end")


def place_secrets(state: SpiesState, **secrets: tuple[str, str | None, str, str | None]) -> None:
    """Replace the Secrets in play by ``secrets``: label -> (card, origin, city, holder); each
    starts in the city where it lies, and every seat allowed to look has looked."""
    state.board.secrets = {
        label: Secret(label, card, origin, city, city, holder)
        for label, (card, origin, city, holder) in secrets.items()
    }
    state.board.known = {k: v for k, v in state.board.known.items() if not k.startswith("X")}
    for label in state.board.secrets:
        state.look(label)
    state.forget_legal()


def give(state: SpiesState, power: str, *chits: str) -> None:
    """``power`` takes ``chits`` from the cup into its hand."""
    for chit in chits:
        state.hands.cup.remove(chit)
        state.hands.chits[power].append(chit)
    state.hands.chits[power].sort()
    state.forget_legal()
