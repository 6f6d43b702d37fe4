"""Rule 7.0's default allocation and the options 8.1-8.5 and secret money (2.2)."""

from __future__ import annotations

import pytest

from spyglass.engine import Game, IllegalAction, Rng, RulesError
from spyglass.games.spies import SPEC, money
from spyglass.games.spies.rules import SpiesState

from .helpers import finish_setup, give, moving_position, pass_turn, texts

POWERS = ["Germany", "Italy", "Russia", "France", "Britain"]


def table(players: int, seed: int = 1, **options: object) -> SpiesState:
    state = Game(SPEC, options).new_state(players=players, seed=seed)
    assert isinstance(state, SpiesState)
    return state


def seats_of(state: SpiesState) -> list[int]:
    return [state.controller(p) for p in POWERS]


def scored(state: SpiesState, points: dict[str, int]):
    """The result of ``state`` ended with these points per power."""
    state.phase = "over"
    state.power_points = lambda power: points[power]  # type: ignore[method-assign]
    return state.result


# Combinations the rules do not allow ---------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (3, {"russia_bidding": True}, "two or four"),
        (4, {"russia_bidding": True, "allocation": "alternative"}, "own allocation"),
        (5, {"allocation": "alternative"}, "four .8.3. or three .8.4."),
        (4, {"historical_alliances": True, "two_power_score": "lower"}, "8.2"),
        (3, {"historical_alliances": True, "allocation": "alternative"}, "8.4"),
    ],
)
def test_forbidden_combinations_are_refused(players, options, message) -> None:
    with pytest.raises(RulesError, match=message):
        table(players, **options)


def test_unknown_values_are_refused_by_name() -> None:
    with pytest.raises(RulesError, match="allowed values"):
        table(4, two_power_score="average")


# 7.0 and 8.3-8.4: who plays what -------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "expected"),
    [
        (4, {}, [0, 0, 1, 2, 3]),  # 7.0
        (3, {}, [0, 0, 1, 2, 2]),  # 7.0
        (4, {"allocation": "alternative"}, [0, 1, 2, 2, 3]),  # 8.3: France and Russia
        (3, {"allocation": "alternative"}, [0, 0, 1, 1, 2]),  # 8.4
    ],
)
def test_allocations(players, options, expected) -> None:
    state = table(players, **options)
    assert seats_of(state) == expected
    state.year = 1936
    assert seats_of(state) == expected  # fixed all game


def test_with_two_players_russia_alternates_and_scores_nothing() -> None:
    state = table(2)
    assert state.controller("Russia") == 0
    state.year = 1934
    assert state.controller("Russia") == 1
    result = scored(state, {"Germany": 10, "Italy": 3, "Russia": 99, "France": 12, "Britain": 1})
    points = tuple({power: sheet["points"] for power, sheet in d.items()} for d in result.detail)
    assert points == ({"Germany": 10, "Italy": 3}, {"France": 12, "Britain": 1})
    assert result.winners == (1,)


def test_a_seats_powers_are_separate_for_chits_7_0() -> None:
    """Each power of a seat plays its own chits: Germany's Sanction never hits Italy's spy."""
    state = moving_position({"Ge1": "Lille", "It1": "Lille", "Fr1": "Lille"})
    state.players = 4
    give(state, "Germany", "Sanction")
    assert {str(a) for a in state.legal_actions() if a.kind == "chit"} == {"Sanction Ge1 Fr1"}


# 8.1 and 8.2: scores -------------------------------------------------------------------------


def test_default_score_is_a_seats_better_power() -> None:
    result = scored(
        table(3), {"Germany": 30, "Italy": 2, "Russia": 20, "France": 25, "Britain": 26}
    )
    assert result.scores == (30.0, 20.0, 26.0) and result.winners == (0,)


@pytest.mark.parametrize(
    ("mode", "scores", "winners"),
    [("lower", (2.0, 20.0, 25.0), (2,)), ("combined", (32.0, 20.0, 51.0), (2,))],
)
def test_two_power_score_8_2(mode, scores, winners) -> None:
    state = table(3, two_power_score=mode)
    result = scored(state, {"Germany": 30, "Italy": 2, "Russia": 20, "France": 25, "Britain": 26})
    assert result.scores == scores and result.winners == winners


def test_historical_alliances_8_1() -> None:
    state = table(5, historical_alliances=True)
    # Italy trails both Britain and France: Germany loses 20. Britain trails Germany but not
    # Italy: France keeps its points.
    result = scored(state, {"Germany": 40, "Italy": 5, "Russia": 20, "France": 25, "Britain": 10})
    assert result.scores == (20.0, 5.0, 20.0, 25.0, 10.0)
    assert result.winners == (3,)
    plain = scored(table(5), {"Germany": 40, "Italy": 5, "Russia": 20, "France": 25, "Britain": 10})
    assert plain.winners == (0,)


# 8.5: bidding for Russia ---------------------------------------------------------------------


def to_russian_secrets(state: SpiesState) -> None:
    while not state.pending:
        state.apply(state.legal_actions()[0])


def test_the_first_bids_come_before_russia_places_its_secrets() -> None:
    state = table(2, russia_bidding=True)
    to_russian_secrets(state)
    assert state.phase == "secrets" and state.power == "Russia"
    assert state.current_player == 0
    assert texts(state) == {f"bid {n}" for n in range(51)}  # Germany's £30 + Italy's £20
    state.apply("bid 7")
    assert state.current_player == 1
    assert state.view(1)["table"]["bidding"]["bids"] == {"0": "sealed"}
    assert state.view(0)["table"]["bidding"]["bids"] == {"0": 7}
    guesses = {state.determinize(1, Rng(k)).auction.bids[0] for k in range(10)}
    assert len(guesses) > 1  # a sealed bid is redrawn for the other seat
    state.apply("bid 4")
    assert (
        state.auction.russia_seat == 0 and state.bank.money["Germany"] == 23
    )  # paid from Germany first
    assert any("the bids for Russia: seat 0 £7, seat 1 £4" in line for line in state.log)
    assert state.current_player == 0 and state.power == "Russia"  # Russia places its Secrets
    assert state.view(1)["table"]["powers"][2]["secrets_to_place"] == 7  # hidden from seat 1


def test_tied_bidders_bid_again_higher_and_nobody_bidding_keeps_the_holder() -> None:
    state = table(4, russia_bidding=True)
    to_russian_secrets(state)
    for move in ("bid 5", "bid 5", "bid 2", "bid 0"):  # Germany and Italy tie at £5
        state.apply(move)
    assert [p[1] for p in state.pending] == ["Germany", "Italy"]
    assert min(a.target for a in state.legal_actions()) == 6
    state.apply("bid 6")
    state.apply("bid 9")
    assert state.auction.russia_seat == 1 and state.bank.money["Italy"] == 11
    finish_setup(state)
    for _ in range(7):
        pass_turn(state)
    assert state.year == 1934 and state.power == "Russia" and state.pending  # 1934's bids
    for _ in range(4):
        state.apply("bid 0")
    assert state.auction.russia_seat == 1 and state.bank.money["Italy"] == 11  # kept, nothing paid


def test_russia_held_by_bidding_neither_trades_nor_scores() -> None:
    state = table(4, russia_bidding=True)
    to_russian_secrets(state)
    for move in ("bid 1", "bid 0", "bid 0", "bid 0"):
        state.apply(move)
    finish_setup(state)
    while state.phase != "move":
        state.apply(state.legal_actions()[0])
    assert "approach Russia" not in texts(state)
    assert "approach Italy" in texts(state)
    result = scored(state, {"Germany": 1, "Italy": 2, "Russia": 99, "France": 3, "Britain": 4})
    assert result.scores == (1.0, 2.0, 3.0, 4.0)


def test_after_the_pact_another_bidder_only_searches_with_russia() -> None:
    state = table(4, russia_bidding=True)
    to_russian_secrets(state)
    for move in ("bid 0", "bid 0", "bid 3", "bid 0"):  # France's seat takes Russia
        state.apply(move)
    finish_setup(state)
    state.pact = True
    tiles = list(state.hands.tiles["Russia"])
    pass_turn(state)
    pass_turn(state)
    assert state.russia_restricted("Russia") and not state.russia_restricted("Germany")
    # No tile, no re-arrangement, no movement: with no spy to search for, the turn is over.
    assert state.power == "France" and state.hands.tiles["Russia"] == tiles
    assert any("may only search with its police" in line for line in state.log)
    # A spy of Germany's arriving in a city with Russian police: searches only.
    state = table(4, russia_bidding=True)
    to_russian_secrets(state)
    for move in ("bid 0", "bid 0", "bid 3", "bid 0"):
        state.apply(move)
    finish_setup(state)
    state.pact = True
    unit = next(u for u in state.board.police.values() if u.power == "Russia")
    spy = next(s for s in state.board.spies.values() if s.power == "Germany")
    state.board.spies[spy.label] = spy.__class__(spy.label, "Germany", 1, False, unit.city)
    pass_turn(state)
    pass_turn(state)
    assert state.power == "Russia" and state.phase == "search"
    assert {a.kind for a in state.legal_actions()} == {"search", "done"}
    state.apply("done")
    assert state.power == "France"


# 2.2 secret money ----------------------------------------------------------------------------


def test_secret_money_hides_other_powers_money() -> None:
    state = finish_setup(table(3, secret_money=True))
    money_seen = [p["money"] for p in state.view(1)["table"]["powers"]]
    assert money_seen == [None, None, 25, None, None]
    assert state.view(1)["table"]["powers_summary"][0]["note"].startswith("£ hidden")
    assert [p["money"] for p in state.view(0)["table"]["powers"]][:2] == [30, 20]


def test_unseen_trade_sums_are_redrawn_consistently() -> None:
    state = moving_position({"Ge1": "Berlin"})
    state.game = Game(SPEC, {"secret_money": True})
    state.players = 4  # seat 0 Germany and Italy, seat 1 Russia, seat 2 France, 3 Britain
    state.power_index = 3  # France's turn: it trades with Britain, out of Russia's sight
    state.board.spies = {}
    state.forget_legal()
    state.apply("approach Britain")
    for move in ("offer £10", "ask £2", "send", "accept"):
        state.apply(move)
    assert state.bank.money["France"] == 17 and state.bank.money["Britain"] == 38
    seen = set()
    for k in range(20):
        guess = state.determinize(1, Rng(k))
        pair = (guess.bank.money["France"], guess.bank.money["Britain"])
        assert sum(pair) == 55 and min(pair) >= 0  # only the split is unknown
        assert guess.bank.money["Russia"] == state.bank.money["Russia"]
        seen.add(pair)
        assert guess.view(1) == state.view(1)
    assert len(seen) > 1
    for k in range(5):  # the two parties know the sums
        assert state.determinize(2, Rng(k)).bank.money == state.bank.money


def test_with_secret_money_a_power_with_chits_is_always_asked() -> None:
    state = moving_position({"Ge1": "Berlin"}, police={"FrP1": (3, "Paris")})
    give(state, "France", "Papers")
    state.bank.money["France"] = 0
    from spyglass.games.spies import chits

    assert not chits.may_answer(state, "France", ("Papers",))  # public money: it cannot pay
    state.game = Game(SPEC, {"secret_money": True})
    assert chits.may_answer(state, "France", ("Papers",))  # asked: the money is unseen


def test_ledger_keeps_every_change_while_money_is_secret() -> None:
    state = moving_position({"Ge1": "Berlin"})
    state.game = Game(SPEC, {"secret_money": True})
    money.change(state, "Italy", 4)
    money.change(state, "Italy", -1)
    assert state.bank.ledger[-2:] == [
        ("delta", ("Italy",), 4, None),
        ("delta", ("Italy",), -1, None),
    ]
    with pytest.raises(IllegalAction):
        state.apply("bid 3")


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"russia_bidding": True, "secret_money": True}),
        (4, {"russia_bidding": True}),
        (3, {"allocation": "alternative", "secret_money": True, "two_power_score": "combined"}),
        (5, {"historical_alliances": True, "secret_money": True}),
    ],
)
def test_random_playouts_with_options_keep_the_generic_checks(players, options) -> None:
    from collections import Counter

    from tests.conformance.checks import Coverage, check_state

    game = Game(SPEC, options)
    state = game.new_state(players=players, seed=40 + players)
    rng = Rng(players)
    cards = Counter(state.cards())
    coverage = Coverage()
    while not state.is_over:
        if state.step % 23 == 0:
            check_state(state, rng, cards, coverage)
        state.apply(rng.choice(state.legal_actions()))
    check_state(state, rng, cards, coverage)
    assert state.step <= game.max_actions(players)
    assert any(a.kind == "send" for a in state.history)  # offers were made
    if options.get("russia_bidding"):
        assert any(a.kind == "bid" for a in state.history) and state.auction.russia_held
