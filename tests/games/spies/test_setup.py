"""Set-up, rules 2.1 to 2.9, each with a seeded or stacked position."""

from __future__ import annotations

import pytest

from spyglass.engine import IllegalAction
from spyglass.games.spies.edition import EDITION
from spyglass.games.spies.rules import SpiesState

from .helpers import GAME, finish_setup, new, pass_turn, texts

POWERS = ["Germany", "Italy", "Russia", "France", "Britain"]
SECRETS = [s.id for s in EDITION.secrets]


def place_all(state: SpiesState, phase: str) -> None:
    while state.phase == phase:
        state.apply(state.legal_actions()[0])


# 2.1 Choosing countries --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "seats_1933", "seats_1934"),
    [
        (5, [0, 1, 2, 3, 4], [0, 1, 2, 3, 4]),
        (4, [0, 0, 1, 2, 3], [0, 0, 1, 2, 3]),
        (3, [0, 0, 1, 2, 2], [0, 0, 1, 2, 2]),
        (2, [0, 0, 0, 1, 1], [0, 0, 1, 1, 1]),  # rule 7.0: Russia alternates by year
    ],
)
def test_seats_play_powers_in_turn_order(players, seats_1933, seats_1934) -> None:
    state = new(players=players)
    assert [state.controller(p) for p in POWERS] == seats_1933
    assert state.current_player == seats_1933[0] and state.power == "Germany"
    state.year = 1934
    assert [state.controller(p) for p in POWERS] == seats_1934


def test_allotments() -> None:
    state = new()
    for p in EDITION.powers:
        assert state.bank.money[p.name] == p.money  # 2.2 the Bank Track
        assert len(state.hand_secrets[p.name]) == p.secrets
        assert sorted(state.reserve_police[p.name]) == sorted(p.police)
        spies = state.reserve_spies[p.name]
        assert len(spies) == p.foreign_spies + 1  # the printed number plus one home spy
        assert sum(1 for _, cousin in spies if cousin) == 1  # 5.2: one Cousin


def test_too_few_or_many_players() -> None:
    from spyglass.engine import RulesError

    for n in (1, 6):
        with pytest.raises(RulesError, match="2–5 players"):
            GAME.new_state(players=n, seed=1)


# 2.3 Event tiles ---------------------------------------------------------------------------


def test_each_power_holds_its_seven_tiles_and_three_random() -> None:
    randoms = [f"R{k}" for k in (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)]
    state = new(tiles=randoms)
    assert state.hands.tiles["Germany"] == ["Ge1", "Ge2", "Ge3", "Ge4", "Ge5", "Ge6", "Ge7",
                                      "R13", "R14", "R15"]  # fmt: skip
    assert state.hands.tiles["Britain"][-3:] == ["R1", "R2", "R3"]
    assert all(len(t) == 10 for t in state.hands.tiles.values())


# 2.4 Secrets -------------------------------------------------------------------------------


def test_secrets_are_drawn_in_turn_order_and_eight_go_to_the_secret_cities() -> None:
    state = new(secrets=SECRETS)
    assert [p.secrets for p in EDITION.powers] == [6, 8, 7, 6, 5]
    assert state.hand_secrets["Germany"] == SECRETS[:6]
    assert state.hand_secrets["Italy"] == SECRETS[6:14]
    assert state.hand_secrets["Russia"] == SECRETS[14:21]
    assert state.hand_secrets["Britain"] == SECRETS[27:32]
    placed = {s.place: s.card for s in state.board.secrets.values()}
    secret_cities = [c.id for c in EDITION.map.cities.values() if c.secret]
    assert placed == dict(zip(secret_cities, SECRETS[32:], strict=True))
    assert all(s.origin is None for s in state.board.secrets.values())


def test_secrets_go_face_down_one_per_home_city() -> None:
    state = new(secrets=SECRETS)
    assert state.phase == "secrets" and state.power == "Germany"
    moves = state.legal_actions()
    cities = {a.target[1] for a in moves}
    assert cities == set(EDITION.map.home_cities("Germany"))
    faces = {a.target[0] for a in moves}
    assert faces == {EDITION.secret(c).face for c in SECRETS[:6]}  # S01-S05 1, S06 1c1
    assert faces == {"1", "1c1"}
    state.apply("secret 1c1 Berlin")
    assert "secret 1 Berlin" not in texts(state)  # no more than one per city
    with pytest.raises(IllegalAction):
        state.apply("secret 1 Warsaw")  # not a home city
    with pytest.raises(IllegalAction):
        state.apply("secret 5 Hamburg")  # Germany holds no Secret of value 5
    placed = next(s for s in state.board.secrets.values() if s.place == "Berlin")
    assert placed.card == "S06" and placed.origin == "Germany" and placed.home == "Berlin"
    assert state.view(0)["table"]["secrets"][-1]["face"] == "1c1"  # Germany looks at its own
    assert state.view(1)["table"]["secrets"][-1]["face"] is None  # Italy may not
    assert all(s["face"] is None for s in state.view(0)["table"]["secrets"][:8])  # neutral


def test_overseas_cities_take_secrets() -> None:
    state = new()
    while state.power != "Britain":
        state.apply(state.legal_actions()[0])
    cities = {a.target[1] for a in state.legal_actions()}
    assert {"Cairo", "Gibraltar", "Haifa"} <= cities and "Dublin" not in cities


# 2.5 Police --------------------------------------------------------------------------------


def test_police_go_to_police_symbols_or_the_capital_two_at_most() -> None:
    state = new()
    place_all(state, "secrets")
    assert state.phase == "police" and state.power == "Germany"
    cities = {a.target[1] for a in state.legal_actions()}
    assert cities == {"Berlin", "Hamburg", "Konigsberg", "Cologne", "Leipzig", "Breslau", "Munich"}
    assert "police 3 Kiel" not in texts(state)  # no police symbol
    state.apply("police 3 Berlin")
    state.apply("police 3 Berlin")
    assert not any(a.target[1] == "Berlin" for a in state.legal_actions())
    assert state.view(0)["table"]["police"][0]["strength"] == 3
    assert state.view(1)["table"]["police"][0]["strength"] is None


def test_one_police_unit_overseas_at_most() -> None:
    state = new()
    place_all(state, "secrets")
    while state.power != "Britain":
        state.apply(state.legal_actions()[0])
    assert "police 3 Cairo" in texts(state)
    state.apply("police 3 Cairo")
    assert not any(state.is_overseas(a.target[1]) for a in state.legal_actions())
    assert "police 2 London" in texts(state)


# 2.6 Action chits --------------------------------------------------------------------------


def test_chits_are_drawn_after_the_police() -> None:
    order = [c.name for c in EDITION.chits for _ in range(c.count)]
    order = order[::-1]  # Recruit x4 first, then Double-Cross...
    state = new(chits=order)
    place_all(state, "secrets")
    assert all(not hand for hand in state.hands.chits.values())
    place_all(state, "police")
    assert state.phase == "spies"
    assert [p.chits for p in EDITION.powers] == [3, 4, 4, 4, 3]
    assert state.hands.chits["Germany"] == ["Recruit", "Recruit", "Recruit"]
    assert state.hands.chits["Italy"] == ["Double-Cross"] * 3 + ["Recruit"]
    assert state.hands.chits["Russia"] == ["Cover"] + ["Double-Cross"] * 3
    assert [len(state.hands.chits[p.name]) for p in EDITION.powers] == [
        p.chits for p in EDITION.powers
    ]
    assert len(state.hands.cup) == 64 - 18 and state.hands.cup == sorted(state.hands.cup)
    assert state.view(0)["table"]["powers"][0]["chits"] == ["Recruit"] * 3
    assert state.view(1)["table"]["powers"][0]["chits"] == 3


# 2.7 Negotiations: no mechanical effect; the set-up goes straight on to the spies.


def test_no_trading_during_set_up() -> None:
    state = new()
    place_all(state, "secrets")
    place_all(state, "police")
    assert {a.kind for a in state.legal_actions()} == {"spy"}


# 2.8 Spies ---------------------------------------------------------------------------------


def test_spies_anywhere_but_at_least_one_at_home() -> None:
    state = new()
    place_all(state, "secrets")
    place_all(state, "police")
    assert state.phase == "spies" and state.power == "Germany"
    assert {a.target[2] for a in state.legal_actions()} == set(EDITION.map.cities)
    for move in ("spy 2 Paris", "spy 2 London", "cousin Moscow", "spy 2 Rome"):
        state.apply(move)
    # Four German spies abroad: the last must stay on home territory.
    assert {a.target[2] for a in state.legal_actions()} == set(EDITION.map.home_cities("Germany"))
    assert "spy 1 Berlin" in texts(state)
    assert state.view(0)["table"]["spies"][2]["face"] == "cousin 2"
    assert state.view(4)["table"]["spies"][2]["face"] is None
    state.apply("spy 1 Berlin")
    assert state.power == "Italy"
    labels = [s.label for s in state.board.spies.values()]
    assert labels == ["Ge1", "Ge2", "Ge3", "Ge4", "Ge5"]


def test_all_at_home_is_allowed() -> None:
    state = new()
    place_all(state, "secrets")
    place_all(state, "police")
    for _ in range(5):
        state.apply(next(a for a in state.legal_actions() if a.target[2] == "Munich"))
    assert state.power == "Italy"


# 2.9 The year ------------------------------------------------------------------------------


def test_years_advance_after_britain_and_end_after_1939() -> None:
    state = finish_setup(new())
    assert (state.phase, state.year, state.power, state.turn.action_points) == (
        "tile",
        1933,
        "Germany",
        12,
    )
    for power in POWERS:
        assert state.power == power and state.year == 1933
        pass_turn(state)
    assert state.year == 1934 and state.power == "Germany"
    for _ in range(5 * 6 - 1):
        pass_turn(state)
    assert state.year == 1939 and state.power == "Britain" and not state.is_over
    pass_turn(state)
    assert state.is_over and state.current_player is None and state.legal_actions() == []


def test_final_score_counts_original_secrets_in_place() -> None:
    state = finish_setup(new(players=5, seed=3))
    for _ in range(35):
        pass_turn(state)
    points = dict.fromkeys(POWERS, 0)
    for s in state.board.secrets.values():
        if s.origin:
            card = EDITION.secret(s.card)
            points[s.origin] += card.value * (1 if card.counterspy else 2)  # 1939: multiple 2
    assert state.result.scores == tuple(float(points[p]) for p in POWERS)


# Set-up errors name the one rule that forbids the move -------------------------------------


def test_each_set_up_error_names_its_rule() -> None:
    state = new(secrets=SECRETS)
    state.apply("secret 1c1 Berlin")
    cases = [
        ("secret 1 Berlin", "Berlin already holds a Secret: no more than one per city (rule 2.4)"),
        ("secret 1 Warsaw", "Germany's Secrets go in its own home cities, and Warsaw is not one"),
        ("secret 5 Hamburg", "Germany holds no Secret 5 to place: it holds 1 (rule 2.4)"),
    ]
    for move, rule in cases:
        with pytest.raises(IllegalAction) as error:
            state.apply(move)
        assert rule in error.value.rule
    place_all(state, "secrets")
    state.apply("police 3 Berlin")
    state.apply("police 3 Berlin")
    cases = [
        ("police 2 Berlin", "Berlin already holds two police units: no more than two per city"),
        ("police 2 Kiel", "Kiel has no police symbol and is not the capital"),
        ("police 2 Paris", "police are placed in Germany's home cities, and Paris is not one"),
        ("police 3 Hamburg", "Germany has no police unit of strength 3 left: 2, 1 (rule 2.5)"),
    ]
    for move, rule in cases:
        with pytest.raises(IllegalAction) as error:
            state.apply(move)
        assert rule in error.value.rule
    place_all(state, "police")
    for move in ("spy 2 Paris", "spy 2 London", "cousin Moscow", "spy 2 Rome"):
        state.apply(move)
    with pytest.raises(IllegalAction) as error:
        state.apply("spy 1 Vienna")
    assert error.value.rule == (
        "Germany already has 4 spies in foreign territory, the most its printed number allows:"
        " the rest start at home (rules 2.1 and 2.8)"
    )
    with pytest.raises(IllegalAction) as error:
        state.apply("spy 3 Berlin")
    assert error.value.rule == "Germany has no such spy left to place: 1 (rule 2.8)"
