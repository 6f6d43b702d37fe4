"""Dead Center: the rulebook's examples with stacked decks, and one test per rule."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spyglass
from spyglass.components import Card, parse_card, parse_cards, stacked
from spyglass.engine import Action, IllegalAction, Rng, RulesError
from spyglass.games.dead_center import bot
from spyglass.games.dead_center.cabin import (
    PILE_LABELS,
    SPACE_LABELS,
    SUPPORTS,
    ZOMBIES_NEXT_TO,
    fits,
    kills,
    why_no_kill,
)
from spyglass.games.dead_center.rules import DeadCenterState
from tests.conformance.checks import Coverage, check_record, check_state

GAMES = {jokers: spyglass.load("dead-center", jokers=jokers) for jokers in (0, 1, 2)}
GAME = GAMES[2]
SPACE_LABELS_LIST = ["B1", "C1", "D1", "A2", "E2", "A3", "E3", "A4", "E4", "B5", "C5", "D5"]


def deal(
    cabin: str, draws: str = "", zombies: dict[str, str] | None = None, jokers: int = 2
) -> DeadCenterState:
    """A stacked game: the cabin in reading order (B2 C2 D2 / B3 C3 D3 / B4 C4 D4), then the
    draws from the top of the deck; ``zombies`` maps spaces to faces, the rest fill in order."""
    game = GAMES[jokers]
    contents = game.deck_contents()
    head = parse_cards(cabin)
    assert len(head) == 9
    deck = stacked(head + parse_cards(draws), contents["deck"])
    chosen = {label: parse_card(text) for label, text in (zombies or {}).items()}
    spare = iter(c for c in contents["zombies"] if c not in chosen.values())
    ring = [chosen.get(label) or next(spare) for label in SPACE_LABELS]
    state = game.new_state(seed=0, deck={"deck": deck, "zombies": ring})
    assert isinstance(state, DeadCenterState)
    return state


def card(text: str) -> Card:
    return parse_card(text)


def moves(state: DeadCenterState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def targets(state: DeadCenterState) -> set[str]:
    return {a.target for a in state.legal_actions()}


def tops(state: DeadCenterState) -> dict[str, str]:
    return {PILE_LABELS[i]: str(pile[-1]) for i, pile in enumerate(state.piles)}


def zombie_at(state: DeadCenterState, space: str) -> str | None:
    return state.view(0)["table"]["zombies"][space]


# --------------------------------------------------------------------------- the examples
#
# The rulebook's picture of the cabin is missing and its suits are partly scrambled. This is
# the one cabin we rebuilt so that every statement holds (rows 1 to 5, columns A to E):
#
#          A     B     C     D     E
#     1          K♣    ..    ..
#     2    J♠    A♠    4♠    7♥    Q♠
#     3    ..    10♣   8♦    6♣    ..
#     4    ..    4♣    2♦    JK    ..
#     5          ..    ..    K♥
#
# The King above the A♠ is printed K♠ with supports "10♠ + 4♣"; the placement example prints
# the same Ten as 10♣. The J♠ and Q♠ statements put the A♠, a 4♠ and the 7♥ on one line (the
# Q♠'s line from the 7♥ holds 4♠ + A♠, so the 7♥ and A♠ are the two corners of a row and the
# J♠ faces the A♠ across it). The King's line from the A♠ is then the A♠'s column, whose 4
# cannot be the 4♠: so the King and the Ten are clubs, K♣ with 10♣ + 4♣ (only the symbols of
# that one statement change). The Joker's line to the K♥ holds the 7♥ and the 6♣: the Joker
# is the corner below the 7♥. The 3 of the first placement example is red (it goes on the 7♥
# and the A♠), so its 8 is red too (8♦), and the 2♦ fills the last pile.
#
# Three turns lead there from a stacked deal: 8♦ covers a 9♦, 2♦ covers a 5♦ and 6♣ covers
# a 9♠, while the four zombies of the examples are revealed one per turn.

EXAMPLE_CABIN = "AS 4S 7H 10C 9D 9S 4C 5D JK"
EXAMPLE_ZOMBIES = {"B1": "KC", "A2": "JS", "E2": "QS", "D5": "KH"}
TO_THE_EXAMPLE = [
    "reveal B1",
    "8D on C3",
    "reveal A2",
    "2D on C4",
    "reveal E2",
    "6C on D3",
    "reveal D5",
]


def example(next_card: str, zombies: dict[str, str] | None = None) -> DeadCenterState:
    state = deal(EXAMPLE_CABIN, "8D 2D 6C " + next_card, zombies or EXAMPLE_ZOMBIES)
    for move in TO_THE_EXAMPLE:
        state.apply(move)
    assert tops(state) == {
        "B2": "A♠",
        "C2": "4♠",
        "D2": "7♥",
        "B3": "10♣",
        "C3": "8♦",
        "D3": "6♣",
        "B4": "4♣",
        "C4": "2♦",
        "D4": "JK",
    }
    assert state.phase == "play" and state.drawn == card(next_card)
    return state


def test_example_cabin_is_reached_by_three_plain_turns() -> None:
    state = example("3H")
    assert state.turn == 4 and state.killed == ()
    assert [zombie_at(state, s) for s in ("B1", "A2", "E2", "D5")] == ["K♣", "J♠", "Q♠", "K♥"]
    assert zombie_at(state, "C1") is None  # still face down
    assert len(state.deck) == 33 - 4


def test_example_a_three_goes_on_the_seven_eight_ace_or_joker() -> None:
    state = example("3H")
    assert {tops(state)[t] for t in targets(state)} == {"7♥", "8♦", "A♠", "JK"}
    assert targets(state) == {"D2", "C3", "B2", "D4"}


def test_example_seven_of_spades_goes_on_the_seven_two_ten_or_joker() -> None:
    state = example("7S")
    assert {tops(state)[t] for t in targets(state)} == {"7♥", "2♦", "10♣", "JK"}
    assert moves(state) == ["7♠ on D2", "7♠ on B3", "7♠ on C4", "7♠ on D4"]


def test_example_a_joker_goes_anywhere() -> None:
    state = example("JK2")
    assert targets(state) == set(PILE_LABELS)


def test_example_playing_on_the_ace_kills_the_king_or_the_jack_but_not_both() -> None:
    state = example("3H")
    state.apply("3H on B2")
    assert state.phase == "kill"
    assert moves(state) == ["kill K♣ at B1", "kill J♠ at A2", "pass"]
    assert state.describe("kill K♣ at B1") == (
        "Kill K♣ at B1: supports 10♣ + 4♣ = 14; both supports must be ♣ (a King's suit)."
    )
    assert state.describe("kill J♠ at A2") == "Kill J♠ at A2: supports 4♠ + 7♥ = 11."
    king = state.clone()
    king.apply("kill K♣ at B1")
    assert [str(c) for c in king.killed] == ["K♣"]
    assert zombie_at(king, "B1") == "killed" and zombie_at(king, "A2") == "J♠"
    assert king.phase == "reveal"  # the turn is over: one kill only
    jack = state.clone()
    jack.apply("kill J♠ at A2")
    assert [str(c) for c in jack.killed] == ["J♠"]
    assert zombie_at(jack, "B1") == "K♣" and jack.phase == "reveal"


def test_example_playing_on_the_seven_of_hearts_cannot_kill_the_queen() -> None:
    state = example("3H")
    assert state.describe("3H on D2") == "Play 3♥ on 7♥ at D2 (same colour, lower value)."
    state.apply("3H on D2")
    assert state.phase == "reveal" and state.killed == ()  # no kill step was offered
    assert zombie_at(state, "E2") == "Q♠"
    assert why_no_kill(card("QS"), card("4S"), card("AS")) == (
        "the supports 4♠ + A♠ sum to 5, less than 10"
    )


def test_example_playing_on_the_joker_does_not_kill_the_king_of_hearts() -> None:
    state = example("3H")
    state.apply("3H on D4")
    assert state.phase == "reveal" and state.killed == ()
    assert zombie_at(state, "D5") == "K♥"
    assert why_no_kill(card("KH"), card("6C"), card("7H")) == (
        "both supports must be ♥ (a King's suit) and 6♣ + 7♥ are not"
    )


def test_the_rulebooks_printed_king_of_spades_would_not_die_on_clubs() -> None:
    # Our reconstruction: with the K♠ of the printed text, 10♣ + 4♣ cannot kill it.
    state = example("3H", {**EXAMPLE_ZOMBIES, "B1": "KS"})
    state.apply("3H on B2")
    assert moves(state) == ["kill J♠ at A2", "pass"]


# --------------------------------------------------------------------------- set-up


def test_set_up_deals_the_cabin_in_reading_order_and_the_zombies_face_down() -> None:
    state = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S", "10S")
    table = state.view(0)["table"]
    assert table["cabin"] == {
        "B2": ["A♠"],
        "C2": ["2♠"],
        "D2": ["3♠"],
        "B3": ["4♠"],
        "C3": ["5♠"],
        "D3": ["6♠"],
        "B4": ["7♠"],
        "C4": ["8♠"],
        "D4": ["9♠"],
    }
    assert list(table["zombies"]) == SPACE_LABELS_LIST
    assert all(z is None for z in table["zombies"].values())
    assert table["deck"] == 33 and table["drawn"] == []
    assert table["face_down"] == [str(c) for c in sorted(GAME.deck_contents()["zombies"])]
    board = table["board"]["cells"]
    assert board[0][0] is None and board[0][1] == [None]  # a corner is empty, B1 face down
    assert board[2][2] == ["5♠"]
    assert state.log[0] == (
        "the cabin: A♠ 2♠ 3♠ / 4♠ 5♠ 6♠ / 7♠ 8♠ 9♠; twelve zombies face down around it"
    )


def test_zombie_deck_is_dealt_to_the_spaces_in_reading_order() -> None:
    faces = "JS QS KS JH QH KH JC QC KC JD QD KD"
    state = GAME.new_state(
        seed=0, deck={"deck": GAME.deck_contents()["deck"], "zombies": parse_cards(faces)}
    )
    assert tuple(SPACE_LABELS_LIST) == SPACE_LABELS
    assert [str(c) for c in state.ring] == [str(c) for c in parse_cards(faces)]
    state.apply("reveal E2")  # the fifth space
    assert zombie_at(state, "E2") == "Q♥"


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_the_jokers_option_sets_the_deck(jokers: int) -> None:
    game = GAMES[jokers]
    contents = game.deck_contents()
    assert len(contents["deck"]) == 40 + jokers
    assert sum(c.is_joker for c in contents["deck"]) == jokers
    assert all(c.rank <= 10 for c in contents["deck"])
    assert len(contents["zombies"]) == 12 and all(c.is_face for c in contents["zombies"])
    state = game.new_state(seed=5)
    assert len(state.deck) + 9 == 40 + jokers
    assert game.max_actions() == 12 + 2 * (31 + jokers)


def test_the_default_is_two_jokers_and_other_values_are_refused() -> None:
    assert spyglass.load("dead-center").options["jokers"] == 2
    with pytest.raises(RulesError, match="allowed values are 0, 1, 2"):
        spyglass.load("dead-center", jokers=3)


def test_jokers_are_shuffled_in_before_the_cabin_is_dealt() -> None:
    in_cabin = 0
    for seed in range(60):
        state = GAME.new_state(seed=seed)
        in_cabin += any(pile[0].is_joker for pile in state.piles)
    assert in_cabin > 0  # 9 of 42 cards: a Joker starts in the cabin in about two deals in five


def test_a_stacked_deck_must_hold_exactly_its_cards() -> None:
    contents = GAME.deck_contents()
    with pytest.raises(RulesError, match="missing"):
        GAME.new_state(seed=0, deck={"deck": contents["deck"][:-1]})
    with pytest.raises(RulesError, match="not in this deck K♠"):
        GAME.new_state(seed=0, deck={"deck": [*contents["deck"][:-1], card("KS")]})


# --------------------------------------------------------------------------- the turn


def test_a_turn_starts_with_a_choice_of_any_face_down_zombie() -> None:
    state = deal(EXAMPLE_CABIN, "8D 2D", EXAMPLE_ZOMBIES)
    assert moves(state) == [f"reveal {s}" for s in SPACE_LABELS_LIST]
    state.apply("reveal C1")
    assert zombie_at(state, "C1") is not None
    assert state.log[-2].startswith("revealed ") and state.log[-2].endswith(" at C1")
    state.apply("8D on C3")
    assert moves(state) == [f"reveal {s}" for s in SPACE_LABELS_LIST if s != "C1"]


def test_a_reveal_says_which_pile_the_zombie_faces_and_its_supports() -> None:
    state = deal(EXAMPLE_CABIN, "8D 2D", EXAMPLE_ZOMBIES)
    assert state.describe("reveal B1") == (
        "Turn the zombie at B1 face up, then draw a card (it faces B2, with supports 10♣ + 4♣)."
    )
    assert state.describe("reveal E3").endswith("(it faces D3, with supports 9♦ + 10♣).")


def test_the_card_is_drawn_after_the_reveal_and_before_the_play() -> None:
    state = deal(EXAMPLE_CABIN, "8D 2D", EXAMPLE_ZOMBIES)
    assert state.drawn is None and len(state.deck) == 33
    assert state.view(0)["table"]["drawn"] == []
    state.apply("reveal B1")
    assert state.drawn == card("8D") and len(state.deck) == 32
    assert state.view(0)["table"]["drawn"] == ["8♦"]
    assert state.log[-1] == "drew 8♦"
    state.apply("8D on C3")
    assert state.piles[4] == (card("9D"), card("8D")) and state.drawn is None


def play_through(state: DeadCenterState, turns: int) -> None:
    """Play ``turns`` turns with the bot (on the true state: it reads only what is seen)."""
    rng = Rng(0)
    start = state.turn
    while state.turn < start + turns and not state.is_over:
        state.apply(bot.choose(state, rng))


def test_reveals_stop_once_all_twelve_are_face_up() -> None:
    for seed in range(20):
        state = GAME.new_state(seed=seed)
        play_through(state, 12)
        if state.is_over:
            continue
        assert state.turn == 13 and state.face_down == 0
        assert state.phase == "play" and state.drawn is not None  # drawn without a reveal
        assert all(a.kind == "play" for a in state.legal_actions())
        assert state.view(0)["table"]["face_down"] == []
        return
    pytest.fail("no game lasted thirteen turns")


@pytest.mark.parametrize(
    ("drawn", "allowed"),
    [
        # Cabin: 5♥ 9♦ 4♥ / 9♥ 2♣ JK / 10♠ A♠ 6♦. A black Five goes on the Five (equal), the
        # red Four (opposite colour, higher), the Ten of spades (same colour, lower), the Joker.
        ("5C", {"B2", "D2", "D3", "B4"}),
        # A red Four goes on higher red cards, the Four, lower black cards and the Joker: not on
        # the Ten of spades (opposite colour but higher).
        ("4D", set(PILE_LABELS) - {"B4"}),
        ("JK2", set(PILE_LABELS)),
    ],
)
def test_placement_equal_same_colour_lower_opposite_colour_higher(
    drawn: str, allowed: set[str]
) -> None:
    state = deal("5H 9D 4H 9H 2C JK 10S AS 6D", drawn)
    state.apply("reveal B1")
    assert targets(state) == allowed
    for i, label in enumerate(PILE_LABELS):
        assert fits(card(drawn), state.piles[i][-1]) == (label in allowed)


def test_placement_reasons_and_refusals() -> None:
    state = deal("5H 9D 4H 9H 2C JK 10S AS 6D", "5C")
    state.apply("reveal B1")
    assert state.describe("5C on B2") == (
        "Play 5♣ on 5♥ at B2 (equal value); it can then kill J♠ at B1."  # 9♥ + 10♠ behind
    )
    assert state.describe("5C on D2") == "Play 5♣ on 4♥ at D2 (opposite colour, higher value)."
    assert state.describe("5C on B4") == "Play 5♣ on 10♠ at B4 (same colour, lower value)."
    assert state.describe("5C on D3") == "Play 5♣ on JK at D3 (anything goes on a Joker)."
    with pytest.raises(IllegalAction, match=r"must be higher \(5 is not above 9\)"):
        state.apply("5C on C2")
    with pytest.raises(IllegalAction, match=r"must be lower \(5 is not below 2\)"):
        state.apply("5C on C3")
    with pytest.raises(IllegalAction, match=r"must be lower \(5 is not below A\)"):
        state.apply("5C on C4")


KILL_CABIN = "5C 2S 3S {B3} 7C 8C {B4} 2H 3H"


@pytest.mark.parametrize(
    ("zombie", "b3", "b4", "killed"),
    [
        ("JS", "6H", "4C", True),  # a Jack: any suits, 6 + 4 = 10
        ("JS", "5H", "4C", False),  # 9 is not enough
        ("QH", "10H", "4D", True),  # a Queen: both red
        ("QH", "10H", "4C", False),  # one black support
        ("QS", "10S", "4C", True),  # spades and clubs are both black
        ("KH", "10H", "4D", False),  # a King: both of its suit, not just its colour
        ("KH", "10H", "4H", True),
        ("KD", "JK", "10D", True),  # a Joker counts as every suit, value 0: with a Ten
        ("KD", "JK", "9D", False),  # ... and only with a Ten
        ("QS", "10H", "JK", False),  # the Ten must meet the demand itself
        ("JC", "JK", "JK2", False),  # 0 + 0
    ],
)
def test_kill_needs_ten_and_the_suit_or_colour(zombie: str, b3: str, b4: str, killed: bool) -> None:
    # B1's line: its front pile is B2 (5♣, takes the drawn 5♦), its supports B3 and B4.
    state = deal(KILL_CABIN.format(B3=b3, B4=b4), "5D", {"B1": zombie})
    state.apply("reveal B1")
    state.apply("5D on B2")
    assert kills(card(zombie), card(b3), card(b4)) == killed
    if killed:
        assert moves(state) == [f"kill {card(zombie)} at B1", "pass"]
        state.apply(f"kill {zombie}")
        assert state.killed == (card(zombie),) and zombie_at(state, "B1") == "killed"
        assert state.view(0)["table"]["killed"] == [str(card(zombie))]
    else:
        assert state.phase == "reveal" and state.killed == ()
        assert zombie_at(state, "B1") == str(card(zombie))


def test_the_played_card_is_not_a_support() -> None:
    # A Ten played on the front pile does not help: the supports B3 + B4 are 2 + 3.
    state = deal("5C 4S 6S 2H 7C 8C 3H 2D 3D", "10H", {"B1": "JS"})
    state.apply("reveal B1")
    state.apply("10H on B2")
    assert state.killed == () and state.phase == "reveal"


def test_killing_is_optional() -> None:
    state = deal(KILL_CABIN.format(B3="6H", B4="4C"), "5D", {"B1": "JS"})
    state.apply("reveal B1")
    state.apply("5D on B2")
    assert state.describe("pass") == "Kill no zombie this turn."
    state.apply("pass")
    assert state.killed == () and zombie_at(state, "B1") == "J♠"
    assert state.phase == "reveal" and state.log[-1] == "killed no zombie"


def test_face_down_zombies_cannot_be_attacked() -> None:
    # Both B1 and A2 would die to the supports in their lines; only A2 is face up.
    state = deal("5C 6H 4C 6D 7C 8C 4D 2H 3H", "5D", {"B1": "JS", "A2": "JH"})
    state.apply("reveal A2")
    state.apply("5D on B2")
    assert moves(state) == ["kill J♥ at A2", "pass"]
    with pytest.raises(IllegalAction, match="the zombie at B1 is face down"):
        state.apply("kill B1")
    with pytest.raises(IllegalAction, match="not next to B2"):
        state.apply("kill C1")


def test_corners_face_two_zombies_edges_one_and_the_centre_none() -> None:
    counts = {PILE_LABELS[i]: len(spaces) for i, spaces in enumerate(ZOMBIES_NEXT_TO)}
    assert counts == {
        "B2": 2,
        "C2": 1,
        "D2": 2,
        "B3": 1,
        "C3": 0,
        "D3": 1,
        "B4": 2,
        "C4": 1,
        "D4": 2,
    }
    lines = {SPACE_LABELS[j]: tuple(PILE_LABELS[i] for i in SUPPORTS[j]) for j in range(12)}
    assert lines["B1"] == ("B3", "B4") and lines["B5"] == ("B3", "B2")
    assert lines["A2"] == ("C2", "D2") and lines["E2"] == ("C2", "B2")
    assert lines["C1"] == ("C3", "C4") and lines["A3"] == ("C3", "D3")


def test_a_play_on_the_centre_never_asks_for_a_kill() -> None:
    state = deal("10C 10S 10H 4C 7C 10D 4S 4H 4D", "6C", {"C1": "JS"})
    state.apply("reveal C1")
    state.apply("6C on C3")
    assert state.phase == "reveal" and state.killed == ()


# --------------------------------------------------------------------------- the end


def test_a_card_that_fits_no_pile_loses() -> None:
    # A red Five: no Five, no red card above it, no black card below it.
    state = deal("6S 7S 8S 9S 10S 6C 7C 8C 9C", "5H")
    state.apply("reveal B1")
    assert state.is_over and state.legal_actions() == [] and state.current_player is None
    result = state.result
    assert result.won is False and result.score is None
    assert result.detail[0]["stranded_card"] == "5♥"
    assert result.detail[0]["cards_left_in_deck"] == 32
    assert result.summary == "Lost: 5♥ fits no pile with 0 zombies killed and 32 cards in the deck"
    assert state.log[-1] == "drew 5♥: it fits no pile, the game is lost"
    assert Counter(state.cards()) == Counter(
        [*GAME.deck_contents()["deck"], *GAME.deck_contents()["zombies"]]
    )


# Every card fits the one before it: equal values, then one lower of the same colour (red).
CHAIN = (
    "10H 10S 10C 10D 9H 9S 9C 9D 8H "
    "8S 8C 8D 7H 7S 7C 7D 6H 6S 6C 6D 5H 5S 5C 5D 4H 4S 4C 4D 3H 3S 3C 3D 2H 2S 2C 2D"
    " AH AS AC AD"
)


@pytest.mark.parametrize("jokers", [0, 2])
def test_drawing_from_an_empty_deck_loses(jokers: int) -> None:
    cards = CHAIN.split()
    state = deal(" ".join(cards[:9]), " ".join(cards[9:]), jokers=jokers)
    previous = cards[8]
    while not state.is_over:
        if state.phase == "reveal":
            state.apply(state.legal_actions()[0])
        elif state.phase == "kill":
            state.apply("pass")
        else:
            # Chain on the pile holding the previous card (the Jokers, last, go anywhere).
            pile = next(i for i, p in enumerate(state.piles) if p[-1] == card(previous))
            previous = str(state.drawn)
            state.apply(f"{previous} on {PILE_LABELS[pile]}")
    result = state.result
    assert not result.won and result.detail[0]["cards_left_in_deck"] == 0
    assert state.turn == 31 + jokers + 1  # the turn after the last card has nothing to draw
    assert result.summary.startswith("Lost: the deck ran out with 0 zombies killed")
    assert state.log[-1] == "the deck is empty when a card is needed: the game is lost"


def test_killing_the_twelfth_zombie_wins_and_scores_the_cards_left() -> None:
    for seed in range(60):
        state = GAME.new_state(seed=seed)
        play_through(state, 100)
        if state.result.won:
            break
    else:
        pytest.fail("the bot won none of 60 games")
    result = state.result
    assert result.score == len(state.deck) and result.detail[0]["zombies_killed"] == 12
    assert sorted(state.killed) == sorted(GAME.deck_contents()["zombies"])
    assert all(zombie_at(state, s) == "killed" for s in SPACE_LABELS)
    assert state.log[-1] == (f"all twelve zombies are dead: won with {len(state.deck)} cards left")
    assert result.summary.startswith("Won: all twelve zombies killed")
    assert state.drawn is None and state.legal_actions() == []


# --------------------------------------------------------------------------- notation


def test_typed_moves_in_any_spelling() -> None:
    state = example("3H")
    play = state.parse("3♥ on B2")
    for text in ("b2", "on b2", "play b2", "3h b2", "3H ON B2", "play 3h on b2"):
        assert state.parse(text) == play
    state.apply("b2")
    kill = state.parse("kill K♣ at B1")
    for text in ("kill kc", "kill b1", "b1", "KC", "Kill K♣ B1"):
        assert state.parse(text) == kill
    assert state.parse("PASS") == state.parse("pass")
    state.apply("pass")
    reveal = state.parse("reveal C1")
    assert state.parse("c1") == reveal and state.parse("REVEAL c1") == reveal


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("3D on B2", "you drew 3♥: that is the card to play"),
        ("3H on F9", "'F9' is not a cabin pile"),
        ("3H on C2", "3♥ cannot go on 4♠ at C2"),
        ("reveal C1", "only one zombie is revealed per turn"),
        ("kill B1", "no kill to decide now"),
        ("pass", "no kill to decide now"),
        ("dance", "'DANCE' is not a cabin pile"),
    ],
)
def test_illegal_moves_in_the_play_step_say_why(move: str, rule: str) -> None:
    state = example("3H")
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)
    assert state.snapshot() == before


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Action("dance"), "a move is 'reveal SPACE'"),
        (Action("play", (), "B2"), "you drew 3♥"),
        (Action("play", (parse_card("3H"), parse_card("4H")), "B2"), "you drew 3♥"),
        (Action("play", ("3H",), "B2"), "you drew 3♥"),
        (Action("play", (parse_card("KS"),), "B2"), "you drew 3♥"),
        (Action("play", (parse_card("3H"),), 42), "42 is not a cabin pile"),
        (Action("play", (parse_card("3H"),), ("B", 2)), "is not a cabin pile"),
        (Action("reveal", (), None), "only one zombie is revealed per turn"),
        (Action("kill", (7,), [1]), "no kill to decide now"),
    ],
)
def test_malformed_actions_raise_illegal_action(action: Action, rule: str) -> None:
    state = example("3H")
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert rule in str(error.value)
    with pytest.raises(IllegalAction):
        state.describe(action)


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("kill Q♠", "the zombie at E2 is not next to B2"),
        ("kill K♦", "K♦ is not a face-up zombie next to B2"),
        ("kill E2", "the zombie at E2 is not next to B2"),
        ("kill Q5", "'Q5' is not a zombie space"),
        ("kill K♠ at B1", "the zombie at B1 is K♣"),
        ("3H on D2", "the drawn card is already played"),
        ("reveal C1", "only one zombie is revealed per turn"),
        ("pass now", "this is not a move"),
    ],
)
def test_illegal_moves_in_the_kill_step_say_why(move: str, rule: str) -> None:
    state = example("3H")
    state.apply("3H on B2")
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)


LABELS = [*PILE_LABELS, *SPACE_LABELS, "A1", "F9", "", None, 3, ("B", 2)]
JUNK_CARD = st.one_of(st.integers(0, 53).map(Card), st.text(max_size=3), st.integers())
JUNK_ACTION = st.builds(
    Action,
    st.sampled_from(["reveal", "play", "kill", "pass", "dance", ""]),
    st.one_of(st.tuples(), st.tuples(JUNK_CARD), st.tuples(JUNK_CARD, JUNK_CARD), st.none()),
    st.sampled_from(LABELS),
)
JUNK_TEXT = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["kill", "reveal", "play", "on", "kill kc b1 c1", "3h d9", "pass pass"]),
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 3), st.one_of(JUNK_ACTION, JUNK_TEXT))
def test_junk_moves_in_every_step_raise_illegal_action(step: int, junk) -> None:
    state = example("3H")
    for move in ["3H on B2", "kill J♠ at A2", "reveal C1"][:step]:
        state.apply(move)
    before = state.snapshot()
    try:
        state.clone().describe(junk)
        state.apply(junk)  # junk that happens to be a legal move may be played
    except IllegalAction as error:
        assert error.rule
        assert state.snapshot() == before


def test_illegal_reveals_say_why() -> None:
    state = deal(EXAMPLE_CABIN, "8D 2D", EXAMPLE_ZOMBIES)
    with pytest.raises(IllegalAction, match="starts by revealing"):
        state.apply("8D on C3")
    with pytest.raises(IllegalAction, match="'C3' is not a zombie space"):
        state.apply("reveal C3")
    with pytest.raises(IllegalAction, match="names a space, not a card"):
        state.apply(Action("reveal", (parse_card("KS"),), "B1"))
    state.apply("reveal B1")
    state.apply("8D on C3")
    with pytest.raises(IllegalAction, match="the zombie at B1 is already face up"):
        state.apply("reveal B1")


def test_describe_says_which_kills_a_play_allows() -> None:
    state = example("3H")
    assert state.describe("3H on B2") == (
        "Play 3♥ on A♠ at B2 (opposite colour, higher value); it can then kill K♣ at B1"
        " or J♠ at A2."
    )
    assert state.describe("3H on D4") == "Play 3♥ on JK at D4 (anything goes on a Joker)."


# --------------------------------------------------------------------------- what is seen


def test_the_view_hides_face_down_zombies_and_the_deck_order() -> None:
    state = example("3H")
    table = state.view(0)["table"]
    assert table["zombies"]["C1"] is None and table["zombies"]["B1"] == "K♣"
    assert table["deck"] == 29 and isinstance(table["deck"], int)
    assert table["face_down"] == sorted(table["face_down"], key=card)
    assert len(table["face_down"]) == 8
    cells = table["board"]["cells"]
    assert cells[0][2] == [None] and cells[0][1] == {"cards": ["K♣"], "note": "ready"}
    assert cells[2][2] == {"cards": ["8♦"], "note": "(2)"}
    other = state.determinize(0, Rng(3))
    assert other.view(0) == state.view(0)
    assert other.ring != state.ring or other.deck != state.deck
    seen = {j for j in range(12) if not state.face_down >> j & 1}
    assert all(other.ring[j] == state.ring[j] for j in seen)


def test_a_killed_zombie_shows_as_killed_on_the_board() -> None:
    state = example("3H")
    state.apply("3H on B2")
    assert state.view(0)["table"]["board"]["cells"][1][1]["note"] == "(2) played"
    state.apply("kill K♣ at B1")
    assert state.view(0)["table"]["board"]["cells"][0][1] == {"cards": [], "note": "✝ K♣"}


# --------------------------------------------------------------------------- options and bot


@pytest.mark.parametrize("jokers", [0, 1])
def test_other_joker_counts_pass_the_generic_checks(jokers: int) -> None:
    game = GAMES[jokers]
    coverage = Coverage()
    bound = game.max_actions()
    for k in range(4):
        state = game.new_state(seed=31 * k + jokers)
        rng = Rng(k)
        initial = Counter(state.cards())
        assert sum(initial.values()) == 52 + jokers
        while True:
            check_state(state, rng, initial, coverage)
            if state.is_over:
                check_record(state)
                break
            if k % 2:
                state.apply(bot.choose(state.determinize(0, rng), rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
            assert state.step <= bound
    assert coverage.hidden_differences > 0


def test_the_bot_always_kills_when_it_can() -> None:
    state = example("3H")
    state.apply("3H on B2")
    for seed in range(5):
        assert bot.choose(state, Rng(seed)).kind == "kill"


def test_the_bot_plays_legal_moves_and_finds_the_kill() -> None:
    state = example("3H")
    choice = bot.choose(state, Rng(0))
    assert choice in state.legal_actions()
    assert choice.target == "B2"  # the only play that kills at once


def test_kill_alone_names_the_only_zombie_that_can_be_killed() -> None:
    state = spyglass.load("dead-center").new_state(seed=0)
    for move in ("reveal C1", "9♥ on C3", "reveal A3", "5♠ on C2"):
        state.apply(move)
    assert [str(m) for m in state.legal_actions() if m.kind == "kill"] == ["kill J♦ at C1"]
    state.apply("kill")
    assert state.log[-1] == "killed J♦ at C1 (supports 9♥ + 9♠ = 18)"


def test_kill_alone_with_two_candidates_asks_which() -> None:
    state = spyglass.load("dead-center").new_state(seed=0)
    moves = (
        "reveal C1, 9♥ on C3, reveal A3, 5♠ on C2, kill, reveal D1, 7♦ on B3, reveal E2, 3♥ on D2"
    )
    for move in moves.split(", "):
        state.apply(move)
    with pytest.raises(IllegalAction) as error:
        state.apply("kill")
    assert error.value.rule == (
        "several zombies next to D2 can be killed: name one ('kill J♥ at D1', 'kill Q♣ at E2')"
    )
