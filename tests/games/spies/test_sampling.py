"""Determinization that keeps to everything public and never fails: faces narrowed by the
outcomes of strength comparisons, Secrets shown to be no Counterspy, discards of their year."""

from __future__ import annotations

from collections import Counter

from spyglass.engine import Rng
from spyglass.games.spies import hidden
from spyglass.games.spies.events import fits
from spyglass.games.spies.pieces import PoliceUnit, Spy

from .helpers import finish_setup, moving_position, new, place_secrets

BRITISH = {"Br1": (3, False), "Br2": (3, False), "Br3": (2, False), "Br4": (1, False),
           "Br5": (2, True)}  # fmt: skip
GERMAN = {"GeP1": 3, "GeP2": 3, "GeP3": 2, "GeP4": 2, "GeP5": 1}


def compared_position():
    """Five British spies and five German police units, every unit compared alone with every
    spy (25 public outcomes): the strengths are pinned down, only which strength-2 spy is the
    Cousin is left open."""
    state = moving_position({}, power="Italy")
    state.board.spies = {
        label: Spy(label, "Britain", strength, cousin, "Berlin")
        for label, (strength, cousin) in BRITISH.items()
    }
    state.board.police = {
        label: PoliceUnit(label, "Germany", strength, "Berlin")
        for label, strength in GERMAN.items()
    }
    state.reserve_spies["Britain"], state.reserve_police["Germany"] = [], []
    state.board.comparisons = [
        ((unit,), spy, GERMAN[unit] > BRITISH[spy][0]) for unit in GERMAN for spy in BRITISH
    ]
    return state


def consistent(state) -> bool:
    face = lambda label: hidden._face_of(state, label)  # noqa: E731
    return all(hidden.holds(c, face) for c in hidden.constraints(state))


def test_random_redraws_alone_rarely_find_a_consistent_deal() -> None:
    # Why the backtracking search is needed: 1 deal of the 30 police orders times 1 of the 60
    # spy orders (two, counting the Cousin's place) keeps all 25 outcomes.
    state = compared_position()
    hits = 0
    for k in range(200):
        guess = state.clone()
        rng = Rng(k)
        hidden._faces(guess, "Britain", 1, rng)
        hidden._faces(guess, "Germany", 1, rng)
        hits += consistent(guess)
    assert hits < 5


def test_a_tightly_constrained_deal_is_always_consistent_and_still_varies() -> None:
    state = compared_position()
    cousins = Counter()
    for k in range(30):
        guess = state.determinize(1, Rng(k))  # Italy has seen none of these faces
        assert consistent(guess)
        assert {u: guess.board.police[u].strength for u in GERMAN} == GERMAN
        assert {s: guess.board.spies[s].strength for s in BRITISH} == {
            s: f[0] for s, f in BRITISH.items()
        }
        [cousin] = [s for s in BRITISH if guess.board.spies[s].cousin]
        cousins[cousin] += 1
    assert set(cousins) == {"Br3", "Br5"}  # the one thing left open still varies


def test_the_backtracking_search_alone_keeps_every_outcome(monkeypatch) -> None:
    monkeypatch.setattr(hidden, "TRIES", 0)  # straight to the search
    state = finish_setup(new(players=5, seed=3))
    # Some true outcomes: each French police unit against two of the German spies (2 2 2 1
    # and a Cousin of 2: a unit of 2 tells a 1 from a 2, so comparing every spy would leave
    # nothing open). The other three spies' strengths stay open, within what is left.
    french = [u for u in state.board.police.values() if u.power == "France"]
    german = [s for s in state.board.spies.values() if s.power == "Germany"]
    assert sorted(s.strength for s in german) == [1, 2, 2, 2, 2]
    state.board.comparisons = [
        ((u.label,), s.label, u.strength > s.strength) for u in french for s in german[:2]
    ]
    seen = set()
    for k in range(20):
        guess = state.determinize(1, Rng(k))
        assert consistent(guess)
        seen.add(tuple(guess.board.spies[s.label].strength for s in german))
    assert len(seen) > 1
    first = state.determinize(1, Rng(7))
    assert first.snapshot() == state.determinize(1, Rng(7)).snapshot()


def test_a_secret_a_discovery_took_is_dealt_no_counterspy() -> None:
    state = moving_position({"Ge1": "Brussels"})
    place_secrets(
        state,
        X1=("S20", None, "Brussels", "Ge1"),
        X2=("S27", None, "Lisbon", None),  # a Counterspy
        X3=("S21", None, "Madrid", None),
    )
    state.board.plain.add("X1")
    dealt = Counter()
    for k in range(30):
        guess = state.determinize(1, Rng(k))  # Italy has seen none of them
        dealt[guess.board.secrets["X1"].card] += 1
        assert {guess.board.secrets[x].card for x in ("X1", "X2", "X3")} == {"S20", "S21", "S27"}
    assert set(dealt) == {"S20", "S21"}  # never the Counterspy, and it still varies


def test_discards_always_keep_to_their_year_from_the_random_pool() -> None:
    # Germany's own unplayed tiles (Ge1, Ge5, Ge6, Ge7) fit neither 1933 nor 1934: its two
    # discards must be random tiles of those years, which the other hidden powers hold too.
    tiles = ["R1", "R2", "R4", "R5", "R6", "R7", "R3", "R11", "R8", "R13", "R15", "R9",
             "R10", "R12", "R14"]  # fmt: skip
    state = finish_setup(new(players=5, seed=2, tiles=tiles))
    state.hands.tiles["Germany"] = ["Ge1", "Ge5", "Ge6", "Ge7", "R4"]
    state.hands.discarded["Germany"] = [("R1", 1933), ("R2", 1934)]
    state.hands.played = [
        ("Germany", "Ge2", 1933),
        ("Germany", "Ge3", 1934),
        ("Germany", "Ge4", 1935),
    ]
    state.year, state.power_index, state.phase = 1936, 1, "move"
    picks = set()
    for k in range(30):
        guess = state.determinize(1, Rng(k))
        discards = guess.hands.discarded["Germany"]
        assert [y for _, y in discards] == [1933, 1934]
        assert all(fits(state.edition.tile(t), y) for t, y in discards)
        held = guess.hands.tiles["Germany"] + [t for t, _ in discards]
        assert {"Ge1", "Ge5", "Ge6", "Ge7"} <= set(held) and len(held) == 7
        assert sum(t.startswith("R") for t in held) == 3
        picks.add(tuple(t for t, _ in discards))
        assert Counter(guess.cards()) == Counter(state.cards())
    assert len(picks) > 3
