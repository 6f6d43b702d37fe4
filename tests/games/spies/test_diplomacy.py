"""Diplomacy: rules 3.9 (approaching another power on your turn) and 4.3 (answering), with
rule 7.0's ban on trades between a seat's two powers, on hand-built positions."""

from __future__ import annotations

import pytest

from spyglass.engine import IllegalAction, Rng

from .helpers import give, moving_position, place_secrets, texts


def kinds(state) -> set[str]:
    return {a.kind for a in state.legal_actions()}


def talk(state, *moves: str) -> None:
    for move in moves:
        state.apply(move)


# 3.9 Approaching -----------------------------------------------------------------------------


def test_an_approach_costs_one_action_point_and_opens_one_offer() -> None:
    state = moving_position({"Ge1": "Berlin"})
    approaches = {str(a) for a in state.legal_actions() if a.kind == "approach"}
    assert approaches == {"approach Italy", "approach Russia", "approach France",
                          "approach Britain"}  # fmt: skip
    state.apply("approach France")
    assert state.turn.action_points == 11 and state.current_player == 0
    # While the offer is built nothing else happens: no moves, no chits, no other approach.
    assert kinds(state) <= {"offer", "ask", "send", "withdraw"}
    state.apply("withdraw")
    assert state.talks.offer is None and state.turn.action_points == 11  # the point stays spent
    state.apply("approach France")  # a further offer is a further approach
    assert state.turn.action_points == 10


def test_no_approach_at_sea_while_something_waits_or_without_action_points() -> None:
    state = moving_position({"Ge1": "Hamburg"})
    state.apply("Ge1 embark North-Sea")
    assert "approach" not in kinds(state)
    state = moving_position({"Ge1": "Berlin"})
    state.turn.action_points = 0
    state.forget_legal()
    assert "approach" not in kinds(state)
    with pytest.raises(IllegalAction, match="Action Point"):
        state.apply("approach France")


def test_a_seats_two_powers_never_trade() -> None:
    """Rule 7.0: no money, chits or Secrets between the powers of one seat."""
    state = moving_position({"Ge1": "Berlin"})
    state.players = 4  # seat 0 plays Germany and Italy
    state.forget_legal()
    assert "approach Italy" not in texts(state)
    with pytest.raises(IllegalAction, match=r"7\.0"):
        state.apply("approach Italy")
    state.players = 2  # Russia is seat 0's in 1933, seat 1's in 1934
    state.forget_legal()
    assert "approach Russia" not in texts(state) and "approach France" in texts(state)
    state.year = 1934
    state.forget_legal()
    assert "approach Russia" in texts(state)


# Building an offer ---------------------------------------------------------------------------


def test_offers_are_built_one_item_at_a_time_from_what_each_side_may_give() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Papers", "Papers", "Drop")
    give(state, "France", "Cover")
    state.bank.money["Germany"], state.bank.money["France"] = 12, 3
    state.apply("approach France")
    moves = texts(state)
    assert {m for m in moves if m.startswith("offer £")} == {
        "offer £1", "offer £2", "offer £3", "offer £5", "offer £10"}  # fmt: skip
    # Money is public: no more is asked than France holds.
    assert {m for m in moves if m.startswith("ask £")} == {"ask £1", "ask £2", "ask £3"}
    assert {"offer Papers", "offer Drop"} <= moves
    # Chits are asked by kind, since Germany cannot see France's hand, no more than it holds.
    assert {"ask Papers", "ask Cover", "ask Recruit"} <= moves
    talk(state, "offer £5", "offer Papers", "offer papers", "ask Cover")
    moves = texts(state)
    assert not any(m.startswith("offer £") for m in moves)  # one sum a side
    assert "ask £2" in moves  # the other side's sum is still open
    assert "ask Papers" not in moves  # France holds one chit: no more is asked
    assert "offer Papers" not in moves and "offer Drop" in moves
    assert state.describe("send") == (
        "Offer France £5, Papers, Papers for Cover; it accepts or refuses at once."
    )


def test_the_other_seat_decides_at_once_and_a_trade_moves_money_and_chits() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Papers", "Drop")
    give(state, "France", "Cover")
    talk(state, "approach France", "offer £5", "offer Papers", "ask Cover", "ask £2", "send")
    assert state.current_player == 3 and texts(state) == {"accept", "refuse"}
    money = dict(state.bank.money)
    state.apply("accept")
    assert state.bank.money["Germany"] == money["Germany"] - 3
    assert state.bank.money["France"] == money["France"] + 3
    assert state.hands.chits["Germany"] == ["Cover", "Drop"] and state.hands.chits["France"] == [
        "Papers"
    ]
    assert state.current_player == 0 and state.phase == "move" and state.talks.offer is None


def test_a_refusal_changes_nothing_and_accepting_needs_what_is_asked() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "France", "Cover")
    talk(state, "approach France", "offer £5", "ask Sanction", "send")
    assert texts(state) == {"refuse"}  # France holds no Sanction
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply("accept")
    money = dict(state.bank.money)
    state.apply("refuse")
    assert state.bank.money == money and state.hands.chits["France"] == ["Cover"]
    assert "France refuses Germany's offer" in state.log[-1]


def test_only_foreign_secrets_pass_between_pieces_in_one_city() -> None:
    state = moving_position({"Ge1": "Lille", "Ge2": "Lille", "Fr1": "Lille", "Fr2": "Lille"})
    place_secrets(
        state,
        X1=("S20", None, "Lille", "Ge1"),  # a neutral Secret Germany holds
        X2=("S21", "Germany", "Lille", None),  # a German original (lying loose) ...
        X3=("S22", "Britain", "Lille", "Fr1"),  # a British Secret France holds
        X4=("S23", "France", "Lille", "Fr2"),  # France's own original: never traded
    )
    state.board.secrets["X2"] = state.board.secrets["X2"].__class__(
        "X2", "S21", "Germany", "Lille", "Lille", "Ge2", loose=True
    )
    state.forget_legal()
    state.apply("approach France")
    moves = texts(state)
    # Germany gives X1 (foreign) to a free French piece; never its original X2.
    assert {m for m in moves if m.startswith("offer X")} == set()  # Fr1 and Fr2 hold Secrets
    assert {m for m in moves if m.startswith("ask X")} == set()  # Ge1 and Ge2 hold Secrets
    state.apply("withdraw")
    state.board.spies["Fr3"] = state.board.spies["Fr1"].__class__(
        "Fr3", "France", 2, False, "Lille"
    )
    state.board.spies["Ge3"] = state.board.spies["Ge1"].__class__(
        "Ge3", "Germany", 2, False, "Lille"
    )
    state.forget_legal()
    state.apply("approach France")
    moves = texts(state)
    assert {m for m in moves if m.startswith("offer X")} == {"offer X1 to Fr3"}
    assert {m for m in moves if m.startswith("ask X")} == {"ask X3 to Ge3"}
    talk(state, "offer X1 to Fr3", "ask X3 to Ge3", "send", "accept")
    assert state.board.secrets["X1"].holder == "Fr3" and state.board.secrets["X3"].holder == "Ge3"
    # Each side now may look at the Secret it controls; the map shows the new holders to all.
    assert 3 in state.board.known["X1"] and 0 in state.board.known["X3"]
    holders = {s["label"]: s["holder"] for s in state.view(4)["table"]["secrets"]}
    assert holders["X1"] == "Fr3" and holders["X3"] == "Ge3"


def test_a_trade_over_ten_chits_returns_the_surplus() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Papers", "Papers")
    give(state, "France", *["Discovery"] * 9)
    talk(state, "approach France", "offer Papers", "offer Papers", "send", "accept")
    assert len(state.hands.chits["France"]) == 11 and state.current_player == 3
    assert {a.kind for a in state.legal_actions()} == {"return"}
    state.apply("return Discovery")
    assert len(state.hands.chits["France"]) == 10 and state.current_player == 0


def test_typed_notation_reads_sums_and_chits_in_any_case() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Papers")
    talk(state, "APPROACH france", "offer 5", "Offer PAPERS", "ask 2£")
    assert [str(a) for a in state.talks.offer.give] == [str(("money", 5)), str(("chit", "Papers"))]
    assert state.talks.offer.ask == (("money", 2),)
    for action in state.legal_actions():
        assert state.parse(str(action)) == action


# What others see, and what determinization keeps ----------------------------------------------


def test_the_offer_is_seen_by_the_two_seats_only() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Papers")
    talk(state, "approach France", "offer Papers", "offer £2")
    assert state.view(0)["table"]["talks"] == (
        "Germany offers France £2, Papers for nothing (is being made)."
    )
    for seat in (1, 3, None):  # France sees it only once it is sent
        assert state.view(seat)["table"]["talks"] == "Germany is making France an offer."
    state.apply("send")
    assert "Papers" in state.view(3)["table"]["talks"]
    assert "Papers" not in state.view(1)["table"]["talks"]
    assert state.view(1)["log"][-1] == "Germany makes France an offer"
    state.apply("accept")
    assert "Papers" in state.view(3)["log"][-1] and "Papers" not in state.view(1)["log"][-1]
    assert "£2 from Germany" in state.view(1)["log"][-1]  # money is public by default
    assert "1 chit(s) from Germany" in state.view(1)["log"][-1]


def test_determinization_keeps_the_chits_a_seat_handed_over_until_they_are_played() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Recruit")
    give(state, "France", "Papers", "Drop")
    talk(state, "approach France", "offer Recruit", "send", "accept")
    for k in range(12):
        assert "Recruit" in state.determinize(0, Rng(k)).hands.chits["France"]
    thirds = [state.determinize(1, Rng(k)).hands.chits["France"] for k in range(12)]
    assert any("Recruit" not in hand for hand in thirds)  # Italy saw nothing of it
    assert state.talks.chit_memory == {(0, "France"): ["Recruit"]}  # France gave nothing
    # A chit played is public: the memory loses one of that kind.
    state.hands.chits["France"].remove("Recruit")
    from spyglass.games.spies import memory

    memory.played(state, "France", "Recruit")
    assert (0, "France") not in state.talks.chit_memory


def test_an_unseen_offer_is_dealt_empty_and_a_seen_one_keeps_its_chits() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Sanction")
    talk(state, "approach France", "offer Sanction", "send")
    for k in range(8):
        assert state.determinize(1, Rng(k)).talks.offer.give == ()  # Italy does not know the offer
        guess = state.determinize(3, Rng(k))  # France has seen it
        assert guess.talks.offer.give == (("chit", "Sanction"),)
        assert guess.hands.chits["Germany"] == ["Sanction"]


def test_a_hand_changed_out_of_sight_is_forgotten() -> None:
    state = moving_position({"Ge1": "Berlin"})
    give(state, "Germany", "Recruit")
    give(state, "France", "Papers")
    talk(state, "approach France", "offer Recruit", "send", "accept")
    assert state.talks.chit_memory.get((0, "France")) == ["Recruit"]
    # France trades chits away to Britain out of Germany's sight: Germany forgets.
    from spyglass.games.spies import diplomacy

    diplomacy.remember(state, "France", "Britain", ["Papers"], [])
    assert (0, "France") not in state.talks.chit_memory
