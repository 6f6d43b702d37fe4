"""Area 52: the rulebook's examples with stacked decks, and one test per rule."""

from __future__ import annotations

import pytest

import spyglass
from spyglass.components import Card, by_rank, parse_card, parse_cards, stacked
from spyglass.engine import Action, IllegalAction, Rng, RulesError
from spyglass.games.area_52 import bot
from spyglass.games.area_52.rules import BLACK_CARDS, RED_CARDS, Area52State

GAME = spyglass.load("area-52")

# The first worked example. The picture is missing: the squad is reconstructed so that the
# three moves of the text are legal, the King cannot be beaten afterwards, and the
# "alternate plays that beat all three" exist (see the test below).
EXAMPLE_SQUAD = "7S 3C 3S 9C 6C 2C"
EXAMPLE_ALIENS = "5H 8D KH"

# The second-wave example, reconstructed: a first wave stacked and played so that the second
# wave opens with 8♦ 9♠ Q♥ against 7♠ A♣ 8♥ J♦ Q♠ 2♠ and an empty defender deck. The first
# wave needs 46 moves (26 aliens beaten, 20 sacrifices to use up the defender deck); the
# seed fixes the shuffle of the 46 discarded cards.
WAVE_TWO_SEED = 39344
WAVE_TWO_DEFENDERS = (
    "JS 6C 3C 4C 4S KC KS JC 9S 3S AS 7C AC 5C 7S 9C 10S 8S 10C QS 2C 2S 5S 8C 6S QC"
)
WAVE_TWO_ALIENS = "7D 2D KH 6D 7H 8D 10H AH 5H 9H JH KD 2H 3D 10D 5D 4H JD 8H AD 3H QD 4D 9D QH 6H"
WAVE_ONE_TEXT = (
    "dual 4♣ 3♣, single 6♣, dual J♠ 2♦, dual 4♠ 2♦, dual 4♣ 3♣, dual 4♠ 4♣, sacrifice 3♣,"
    " sacrifice K♠, single K♣, sacrifice 2♦, sacrifice J♠, sacrifice 9♠, single 4♠,"
    " sacrifice A♠, dual 7♣ 3♠, dual 3♠ 2♥, single 7♣, sacrifice 4♣, single J♣, single 3♠,"
    " sacrifice A♦, dual 8♥ 4♥, single 5♣, dual 5♥ 4♥, dual 8♥ 4♦, dual 4♥ 2♥, dual 8♥ 2♥,"
    " sacrifice 2♥, sacrifice 5♥, dual 7♠ 4♦, dual 9♣ 4♥, single 9♣, sacrifice 4♦,"
    " sacrifice 3♦, sacrifice 8♠, dual 8♥ A♣, sacrifice 10♣, single 10♠, sacrifice 4♥,"
    " sacrifice 3♥, single 2♣, sacrifice A♥, sacrifice 5♠, sacrifice 8♣, sacrifice 6♠,"
    " single Q♣"
)
WAVE_ONE_SCRIPT = [move.strip() for move in WAVE_ONE_TEXT.split(",")]


def deal(defenders: str = "", aliens: str = "", seed: int = 1) -> Area52State:
    """A game whose defender and alien decks start with the given cards (top first)."""
    state = GAME.new_state(
        seed=seed,
        deck={
            "defenders": stacked(defenders, list(BLACK_CARDS)),
            "aliens": stacked(aliens, list(RED_CARDS)),
        },
    )
    assert isinstance(state, Area52State)
    return state


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def card(text: str) -> Card:
    return parse_card(text)


def moves(state: Area52State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def attacks(state: Area52State) -> set[str]:
    return {str(a) for a in state.legal_actions() if a.kind != "sacrifice"}


def wave_one(steps: int = len(WAVE_ONE_SCRIPT)) -> Area52State:
    """The scripted first wave of the second-wave example, played for ``steps`` moves."""
    state = GAME.new_state(
        seed=WAVE_TWO_SEED,
        deck={"defenders": WAVE_TWO_DEFENDERS, "aliens": WAVE_TWO_ALIENS},
    )
    assert isinstance(state, Area52State)
    for move in WAVE_ONE_SCRIPT[:steps]:
        state.apply(move)
    return state


def second_wave() -> Area52State:
    """The second-wave example, after the easy first attacker (8♦ by 7♠ + A♣)."""
    state = wave_one()
    state.apply("dual 7S AC")
    return state


# --------------------------------------------------------------------------- the examples


def test_example_single_dual_then_sacrifice() -> None:
    state = deal(EXAMPLE_SQUAD + " 4S", EXAMPLE_ALIENS + " AH 2H 3H")
    assert names(state.attackers) == ["5♥", "8♦", "K♥"]

    state.apply("single 7S")  # 7 > 5, black on red
    assert names(state.defenders) == ["5♥", "3♣", "3♠", "9♣", "6♣", "2♣"]
    assert names(state.discard) == ["7♠"]
    assert len(state.defender_deck) == 20  # a single attack keeps six: nothing drawn

    state.apply("dual 5H 3C")  # the new 5♥ helps at once: 5 + 3 = 8
    assert names(state.defenders) == ["5♥", "3♣", "3♠", "9♣", "6♣", "2♣"]
    assert names(state.discard) == ["7♠", "8♦"]

    assert attacks(state) == set()  # nothing beats the King: no pair makes 13
    state.apply("sacrifice 3S")
    assert names(state.defenders) == ["5♥", "3♣", "9♣", "6♣", "2♣", "4♠"]  # 4♠ drawn
    assert names(state.discard) == ["7♠", "8♦", "3♠"]
    assert state.alien_deck[-1] == card("KH") and len(state.alien_deck) == 21
    assert names(state.attackers) == ["A♥", "2♥", "3♥"]  # the next turn
    table = state.view(0)["table"]
    assert table["alien_deck_back"] == ["K♥"] and table["alien_deck"] == 21


@pytest.mark.parametrize(
    "line",
    [
        ["single 9C", "dual 5H 3C", "dual 7S 6C"],  # 9♣ takes the 5♥; 7 + 6 = 13
        ["single 7S", "single 9C", "dual 8D 5H"],  # both singles; the two new reds make 13
    ],
)
def test_example_alternate_lines_beat_all_three(line: list[str]) -> None:
    state = deal(EXAMPLE_SQUAD + " 4S", EXAMPLE_ALIENS + " AH 2H 3H")
    for move in line:
        state.apply(move)
    assert names(state.discard)[-1] == "K♥" and len(state.discard) == 3
    assert state.tally["sacrifice"] == 0 and len(state.defender_deck) == 20
    assert "K♥" not in names(state.alien_deck)


def test_second_wave_example_position() -> None:
    state = wave_one()
    assert state.wave == 2
    assert names(state.attackers) == ["8♦", "9♠", "Q♥"]
    assert sorted(names(state.defenders)) == sorted(["7♠", "A♣", "8♥", "J♦", "Q♠", "2♠"])
    assert state.defender_deck == [] and state.discard == []
    assert len(state.alien_deck) == 43  # 46 discarded cards, 3 of them face up
    assert state.tally["sacrifice"] == 20
    # The easy one: 8♦ is red, 7♠ and A♣ are black, so nobody is lost.
    state.apply("dual 7S AC")
    assert len(state.defenders) == 6 and names(state.discard) == ["8♦"]


def test_second_wave_example_offers_exactly_options_a_b_c() -> None:
    state = second_wave()
    assert attacks(state) == {"dual 8♥ A♣", "dual 7♠ 2♠", "single J♦"}
    with pytest.raises(IllegalAction, match="other colour"):
        state.apply("single QS")  # Q♠ is black like the 9♠


def test_second_wave_option_a_loses_the_black_ace() -> None:
    state = second_wave()
    state.apply("dual 8H AC")
    assert sorted(names(state.defenders)) == sorted(["7♠", "8♥", "J♦", "Q♠", "2♠"])
    assert names(state.discard) == ["8♦", "9♠", "A♣"]  # 8♥ is red: it stays
    assert names(state.attackers) == ["Q♥"]
    assert attacks(state) == set()  # J♦ + A♣ is gone: the Queen cannot be beaten


def test_second_wave_option_b_turns_the_jack_into_a_nine() -> None:
    state = second_wave()
    state.apply("single JD")
    assert sorted(names(state.defenders)) == sorted(["7♠", "A♣", "8♥", "9♠", "Q♠", "2♠"])
    assert names(state.discard) == ["8♦", "J♦"]
    assert attacks(state) == set()  # no J♦ left for J♦ + A♣


def test_second_wave_option_c_loses_both_then_jack_and_ace_beat_the_queen() -> None:
    state = second_wave()
    state.apply("dual 7S 2S")
    assert sorted(names(state.defenders)) == sorted(["A♣", "8♥", "J♦", "Q♠"])
    assert names(state.discard) == ["8♦", "9♠", "7♠", "2♠"]
    assert attacks(state) == {"dual J♦ A♣"}
    state.apply("dual JD AC")  # Q♥ is red: the red J♦ goes, the black A♣ stays
    assert sorted(names(state.defenders)) == sorted(["A♣", "8♥", "Q♠"])
    assert names(state.discard)[-2:] == ["Q♥", "J♦"]


# --------------------------------------------------------------------------- set-up


def test_setup_six_black_defenders_and_three_red_attackers() -> None:
    state = GAME.new_state(seed=5)
    assert len(state.defenders) == 6 and len(state.defender_deck) == 20
    assert all(c.is_black for c in state.defenders + state.defender_deck)
    assert len(state.attackers) == 3 and len(state.alien_deck) == 23
    assert all(c.is_red for c in state.attackers + state.alien_deck)
    assert state.wave == 1 and state.discard == []


def test_stacked_decks_deal_in_order() -> None:
    state = deal("KS QS JS 10S 9S 8S 7S", "AH 2H 3H 4H")
    assert names(state.defenders) == ["K♠", "Q♠", "J♠", "10♠", "9♠", "8♠"]
    assert str(state.defender_deck[0]) == "7♠"
    assert names(state.attackers) == ["A♥", "2♥", "3♥"] and str(state.alien_deck[0]) == "4♥"


def test_a_red_card_in_the_defender_deck_is_refused() -> None:
    squad = [*BLACK_CARDS[:25], card("AH")]
    with pytest.raises(RulesError, match="defenders") as error:
        GAME.new_state(seed=1, deck={"defenders": squad})
    assert "A♥" in str(error.value) and "K♣" in str(error.value)  # foreign, and missing


def test_values_run_from_ace_one_to_king_thirteen() -> None:
    state = deal("AS QS JS 2C 5S 6S", "KH")
    assert {"dual Q♠ A♠", "dual J♠ 2♣"} <= attacks(state)  # 12 + 1 and 11 + 2 make 13
    state = deal("AS QS JS 2C 5S 6S", "AH")
    assert attacks(state) == {f"single {c}" for c in ("Q♠", "J♠", "2♣", "5♠", "6♠")}


# --------------------------------------------------------------------------- the three actions


def test_attackers_are_met_strictly_in_order() -> None:
    state = deal(EXAMPLE_SQUAD, EXAMPLE_ALIENS)
    with pytest.raises(IllegalAction, match="5♥ is worth 5"):
        state.apply("dual 6C 2C")  # 8 would beat the second attacker, not the current one
    state.apply("single 6C")
    assert str(state.attacker) == "8♦"
    state.apply("dual 5H 3C")
    assert str(state.attacker) == "K♥"


def test_dual_attack_must_add_up_exactly() -> None:
    state = deal("4S 3C 9C 6C 2C 10S", "8H")
    with pytest.raises(IllegalAction, match=r"4♠ \+ 3♣ = 7, but 8♥ is worth 8"):
        state.apply("dual 4S 3C")
    with pytest.raises(IllegalAction, match=r"= 9"):
        state.apply("dual 6C 3C")
    state.apply("dual 6C 2C")
    assert names(state.defenders) == ["4♠", "3♣", "9♣", "6♣", "2♣", "10♠"]  # both stay
    assert names(state.discard) == ["8♥"] and len(state.defender_deck) == 20


def test_single_attack_needs_a_greater_value() -> None:
    state = deal("8S 3C 9C 6C 2C 10S", "8H")
    with pytest.raises(IllegalAction, match="greater value than 8♥"):
        state.apply("single 8S")  # equal is not enough
    with pytest.raises(IllegalAction, match="greater value"):
        state.apply("single 3C")
    state.apply("single 9C")
    assert names(state.defenders) == ["8♠", "3♣", "8♥", "6♣", "2♣", "10♠"]  # in 9♣'s place
    assert names(state.discard) == ["9♣"] and len(state.defender_deck) == 20


def test_single_attack_needs_the_other_colour() -> None:
    # After a single attack the defender is red: it cannot single-attack a red alien again.
    state = deal("KS 3C 9C 6C 2C 10S", "QH 2D")
    state.apply("single KS")
    assert "single Q♥" not in moves(state)
    with pytest.raises(IllegalAction, match="other colour: 2♦ and Q♥ are red"):
        state.apply("single QH")


def test_sacrifice_sends_the_alien_to_the_back_face_down_and_draws() -> None:
    state = deal(EXAMPLE_SQUAD + " 4S 5S", "KH 5H 8D QD JD 10D")
    state.apply("sacrifice 2C")
    assert names(state.discard) == ["2♣"] and state.alien_deck[-1] == card("KH")
    assert names(state.defenders)[-1] == "4♠" and len(state.defender_deck) == 19
    table = state.view(0)["table"]
    assert table["alien_deck"] == 24 and table["alien_deck_back"] == ["K♥"]
    assert all(c is None or isinstance(c, str) for c in table["alien_deck_back"])


def test_sacrifice_is_always_allowed() -> None:
    state = deal(EXAMPLE_SQUAD, EXAMPLE_ALIENS)
    assert attacks(state)  # attacks are possible, and still every defender may be sacrificed
    sacrifices = [a for a in moves(state) if a.startswith("sacrifice")]
    assert sacrifices == [f"sacrifice {c}" for c in names(state.defenders)]


def test_fewer_than_three_attackers_when_the_deck_runs_short() -> None:
    state = wave_one(39)
    assert state.alien_deck == [] and names(state.attackers) == ["J♦", "A♥"]


def test_squad_refills_after_every_action_while_the_deck_lasts() -> None:
    state = wave_one(44)
    assert len(state.defender_deck) == 1
    state.apply("sacrifice 6S")
    assert len(state.defenders) == 6 and state.defender_deck == []
    assert state.log[-2].endswith("; drew Q♣ (the defender deck is used up)")
    state.apply("sacrifice QC")  # nothing left to draw: the squad shrinks
    assert len(state.defenders) == 5 and state.wave == 1


def test_refills_hold_over_many_games() -> None:
    """Property over bot games: after every action the squad is six while the deck lasts,
    draws come from the top, and only the second wave loses defenders to colour."""
    for seed in range(6):
        state = GAME.new_state(seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            before = state.clone()
            action = bot.choose(state, rng)
            state.apply(action)
            if state.is_over or state.wave != before.wave:
                continue
            attacker = before.attacker
            left = [d for d in before.defenders if d not in action.cards]
            if action.kind == "dual":
                kept = [d for d in action.cards if before.wave == 1 or d.is_red != attacker.is_red]
                left = [d for d in before.defenders if d not in action.cards or d in kept]
            elif action.kind == "single":
                left = [attacker if d == action.cards[0] else d for d in before.defenders]
            drawn = before.defender_deck[: 6 - len(left)]
            assert state.defenders == left + drawn
            assert state.defender_deck == before.defender_deck[len(drawn) :]


# --------------------------------------------------------------------------- the waves


def test_the_first_wave_goes_on_while_a_sacrificed_alien_waits() -> None:
    state = wave_one(41)
    assert state.alien_deck == [] and names(state.attackers) == ["J♦"]
    state.apply("sacrifice AH")  # the deck was empty: J♦ is now all of it
    assert state.wave == 1 and names(state.attackers) == ["J♦"] and state.alien_deck == []
    assert state.log[-1] == "attackers: J♦"


def test_second_wave_is_the_shuffled_discard_pile() -> None:
    before = wave_one(len(WAVE_ONE_SCRIPT) - 1)
    pile = sorted([*before.discard, card("QC")])  # the last single attack discards Q♣
    state = wave_one()
    assert state.wave == 2 and state.discard == []
    assert sorted(state.attackers + state.alien_deck) == pile
    assert {c.colour for c in pile} == {"red", "black"}
    assert state.view(0)["table"]["status"].startswith("2 of 2")


def test_second_wave_dual_loses_defenders_of_the_aliens_colour() -> None:
    # 9♠ is black: 7♠ + 2♠ are both lost, 8♥ + A♣ loses the A♣ only (options c and a).
    lost_both = second_wave()
    lost_both.apply("dual 7S 2S")
    assert lost_both.tally["lost_to_colour"] == 2
    lost_one = second_wave()
    lost_one.apply("dual 8H AC")
    assert lost_one.tally["lost_to_colour"] == 1
    assert lost_one.log[-1] == "dual attack: 8♥ + A♣ defeat 9♠; A♣ lost (black, like the alien)"


def test_second_wave_single_attack_brings_a_black_alien_in() -> None:
    state = second_wave()
    state.apply("single JD")
    assert card("9S") in state.defenders and card("JD") in state.discard


def test_second_wave_sacrifice_goes_to_the_back_of_the_second_wave() -> None:
    state = second_wave()
    state.apply("sacrifice QS")
    assert state.alien_deck[-1] == card("9S") and state.wave == 2
    assert state.view(0)["table"]["alien_deck_back"] == ["9♠"]
    assert len(state.defenders) == 5  # the defender deck is empty


# --------------------------------------------------------------------------- end and score


def test_losing_in_the_first_wave_costs_fifty_more() -> None:
    state = deal()
    while not state.is_over:
        state.apply(f"sacrifice {state.defenders[0]}")
    result = state.result
    assert result.won is False and state.step == 26  # 20 draws, then six more sacrifices
    assert result.score == -26 - 50  # no alien was beaten
    assert result.detail[0]["aliens_left"] == 26 and result.detail[0]["wave"] == 1
    assert state.legal_actions() == [] and state.current_player is None


def test_losing_in_the_second_wave_counts_the_aliens_left() -> None:
    state = wave_one()
    for _ in range(6):
        state.apply(f"sacrifice {state.defenders[0]}")
    result = state.result
    assert result.won is False and result.score == -46  # face-up attackers included
    assert len(state.attackers) + len(state.alien_deck) == 46
    assert result.summary == "Lost: no defenders left in wave 2 with 46 aliens to go (score -46)"


def test_a_loss_counts_the_face_up_attackers_not_yet_met() -> None:
    state = wave_one()
    state.apply("dual 7S AC")
    for _ in range(5):
        state.apply(f"sacrifice {state.defenders[0]}")
    assert not state.is_over
    state.apply(f"sacrifice {state.defenders[0]}")
    assert state.result.score == -45  # 8♦ is beaten; the other 45 remain


def _won_game() -> Area52State:
    for seed in range(40):
        state = GAME.new_state(seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            state.apply(bot.choose(state, rng))
        if state.result.won:
            return state
    raise AssertionError("the bot won none of 40 games")


def test_winning_scores_the_defenders_left() -> None:
    state = _won_game()
    result = state.result
    assert state.wave == 2 and state.attackers == [] and state.alien_deck == []
    assert result.score == len(state.defender_deck) + len(state.defenders) > 0
    assert result.detail[0]["defenders_on_table"] == len(state.defenders)
    assert state.log[-1].startswith("the second wave is destroyed: won")


def test_beating_the_last_alien_with_the_last_defenders_still_wins() -> None:
    # A hand-set end position (no short deal reaches it): all 52 cards are placed.
    state = wave_one()
    last_pair, alien = parse_cards("7S 2S"), card("9S")
    state.discard = [c for c in state.cards() if c not in (*last_pair, alien)]
    state.defenders, state.attackers, state.alien_deck = list(last_pair), [alien], []
    state.known_back = 0
    state._moves = state._find_moves()
    state._legal = None
    assert "dual 7♠ 2♠" in moves(state)
    state.apply("dual 7S 2S")
    assert state.defenders == [] and state.result.won and state.result.score == 0


def test_the_game_never_outlasts_its_bound() -> None:
    assert GAME.max_actions(1) == 104
    state = deal()
    while not state.is_over:  # sacrifice everything: the longest road to a loss
        state.apply(f"sacrifice {state.defenders[-1]}")
    assert state.step <= 104


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    "text",
    ["dual 5H 3C", "dual 3c 5h", "DUAL 5♥ 3♣", "5h 3c", "3c+5h", "d 3C 5H", "dual 3C, 5H"],
)
def test_dual_notation_in_any_order_and_style(text: str) -> None:
    state = deal(EXAMPLE_SQUAD, EXAMPLE_ALIENS)
    state.apply("single 7S")
    assert str(state.parse(text)) == "dual 5♥ 3♣"


@pytest.mark.parametrize(
    ("text", "meant"),
    [("7s", "single 7♠"), ("SINGLE 7♠", "single 7♠"), ("sac 2c", "sacrifice 2♣"), ("x", None)],
)
def test_single_and_sacrifice_notation(text: str, meant: str | None) -> None:
    state = deal(EXAMPLE_SQUAD, EXAMPLE_ALIENS)
    if meant is None:
        with pytest.raises(IllegalAction, match="not a move"):
            state.parse(text)
    else:
        assert str(state.parse(text)) == meant


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("dual 7S 3C", "7♠ + 3♣ = 10, but 5♥ is worth 5"),
        ("dual 3C 3C", "two different defenders"),
        ("dual 7S", "names exactly two defenders"),
        ("single 7S 3C", "names exactly one defender"),
        ("single 3C", "greater value than 5♥"),
        ("single 9H", "9♥ is not among your defenders"),
        ("sacrifice KH", "K♥ is not among your defenders"),
        ("dual 7S#2 3C", "7♠#2 is not among your defenders"),
        ("sacrifice", "a sacrifice names exactly one defender"),
        ("pass", "this is not a move"),
    ],
)
def test_illegal_moves_say_why(move: str, rule: str) -> None:
    state = deal(EXAMPLE_SQUAD, EXAMPLE_ALIENS)
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)
    assert state.snapshot() == before


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Action("promote", (card("7S"),)), "a move is 'dual D1 D2'"),
        (Action("dual", (card("2C"), card("3C"))), "write the higher defender first"),
        (Action("single", (Card.joker(),)), "JK is not among your defenders"),
        (Action("single", ("7S",)), "as cards"),
        (Action("single", (card("7S"),), "m"), "names only defenders"),
        (Action("dual", None), "a list of cards"),
    ],
)
def test_malformed_actions_say_why(action: Action, rule: str) -> None:
    state = deal(EXAMPLE_SQUAD, EXAMPLE_ALIENS)
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert rule in str(error.value)


def test_descriptions() -> None:
    state = deal(EXAMPLE_SQUAD + " 4S", EXAMPLE_ALIENS)
    assert state.describe("single 7S") == (
        "Single attack on 5♥ with 7♠ (7 > 5, other colour): 7♠ is discarded, 5♥ joins the"
        " defenders."
    )
    assert state.describe("sacrifice 3S") == (
        "Discard 3♠ and send 5♥ face down to the back of the alien deck; draw 1 new defender."
    )
    state = second_wave()
    assert state.describe("dual 7S 2S") == (
        "Dual attack on 9♠: 7♠ + 2♠ = 9; 9♠ is discarded, and so are 7♠ 2♠ (black like it);"
        " 4 defenders left, none to draw."
    )
    assert state.describe("dual 8H AC").startswith("Dual attack on 9♠: 8♥ + A♣ = 9;")


# --------------------------------------------------------------------------- what is seen


def test_view_hides_the_decks_but_remembers_sacrificed_aliens() -> None:
    state = wave_one(12)
    table = state.view(0)["table"]
    assert table["alien_deck"] == 16 and table["defender_deck"] == 15
    assert table["alien_deck_back"] == ["10♥", "A♥", "9♥", "J♥", "K♦"]
    assert set(table) == {
        "wave",
        "status",
        "attackers",
        "defenders",
        "defender_deck",
        "alien_deck",
        "alien_deck_back",
        "alien_deck_contents",
        "discard",
    }
    assert table["alien_deck_contents"] == []  # the first wave's deck was never seen
    other = state.determinize(0, Rng(4))
    assert other.view(0) == state.view(0)
    assert other.alien_deck[-5:] == state.alien_deck[-5:]  # remembered: kept in place
    assert other.alien_deck[:11] != state.alien_deck[:11]  # never seen: reshuffled
    assert sorted(other.alien_deck) == sorted(state.alien_deck)
    assert other.defender_deck != state.defender_deck
    assert sorted(other.defender_deck) == sorted(state.defender_deck)


def test_the_second_wave_deck_shows_its_contents_the_discard_pile_seen() -> None:
    last = wave_one(len(WAVE_ONE_SCRIPT) - 1)
    assert last.wave == 1 and names(last.attackers) == ["J♦"]
    seen = [*names(last.discard), "Q♣"]  # face up, card by card; the Q♣ goes to beat the J♦
    state = wave_one()  # the discard pile, shuffled, is the second wave
    table = state.view(0)["table"]
    assert state.wave == 2 and len(table["alien_deck_contents"]) == table["alien_deck"] == 43
    assert sorted([*table["alien_deck_contents"], *table["attackers"]]) == sorted(seen)
    assert table["alien_deck_contents"] == names(sorted(state.alien_deck, key=by_rank))
    other = state.determinize(0, Rng(3))
    assert other.view(0) == state.view(0)  # the order stays hidden: only the contents show
    assert other.alien_deck != state.alien_deck
    region = next(r for r in GAME.spec.layout if r.key == "alien_deck_contents")
    assert region.kind == "cards" and region.hide_empty


def test_bot_plays_legal_moves_and_prefers_a_free_dual() -> None:
    state = deal("4S 3C 9C 6C 2C 10S", "8H")
    assert str(bot.choose(state, Rng(1))) in {"dual 6♣ 2♣"}
    state = second_wave()
    assert bot.choose(state, Rng(1)) in state.legal_actions()
