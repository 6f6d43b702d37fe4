"""Loot the Loop: the rulebook's examples with stacked decks, and one test per rule."""

import pytest

import spyglass
from spyglass.components import Card, parse_card, parse_cards, stacked, standard_deck
from spyglass.components.loop import Loop
from spyglass.engine import Action, IllegalAction, Rng
from spyglass.games.loot_the_loop import bot
from spyglass.games.loot_the_loop.rules import (
    CLUSTER,
    CORNERED,
    ESCAPED,
    MAX_ACTIONS,
    STUCK,
    TRAPPED,
    LootTheLoopState,
)

GAME = spyglass.load("loot-the-loop")
FULL_DECK = standard_deck(jokers=1)


def deck(placed: dict[int, str]) -> list[Card]:
    """A full deck order: the named cards at their places (0 is the top), the others filling
    the gaps in the standard order."""
    fixed = {place: parse_card(text) for place, text in placed.items()}
    rest = iter(c for c in FULL_DECK if c not in fixed.values())
    return [fixed[i] if i in fixed else next(rest) for i in range(len(FULL_DECK))]


def new(order: list[Card] | str) -> LootTheLoopState:
    if isinstance(order, str):
        order = stacked(order, FULL_DECK)
    state = GAME.new_state(seed=1, deck=order)
    assert isinstance(state, LootTheLoopState)
    return state


def play(state: LootTheLoopState, moves: str) -> LootTheLoopState:
    for move in moves.split(","):
        state.apply(move.strip())
    return state


def position(loop: str, notes: str = "", pile: str = "") -> LootTheLoopState:
    """A position set up directly: the temple's top cards (a face-down card written with a
    leading '~'), the notes and the score pile; every other card follows face down under the
    named ones, in the standard order."""
    state = GAME.new_state(seed=0)
    tokens = loop.split()
    named = [parse_card(t.lstrip("~")) for t in tokens]
    up = [not t.startswith("~") for t in tokens]
    state.notes = parse_cards(notes)
    state.score_pile = parse_cards(pile)
    used = {*named, *state.notes, *state.score_pile}
    rest = [c for c in FULL_DECK if c not in used]
    state.loop = Loop.arranged(named + rest, up + [False] * len(rest))
    state.notes_mask = sum(1 << c for c in state.notes)
    state.jewels = sum(1 for c in state.score_pile if c.rank == 1)
    state._forget()
    state._legal = None
    state._settle()
    assert sorted(state.cards()) == sorted(FULL_DECK)
    return state


def moves(state: LootTheLoopState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def seen(state: LootTheLoopState, count: int | None = None) -> str:
    return " ".join("?" if c is None else str(c) for c in state.loop.stretch(count))


def texts(cards) -> list[str]:
    return [str(c) for c in cards]


# --------------------------------------------------------------------------- set-up


def test_set_up_all_face_down_and_only_look_around() -> None:
    state = GAME.new_state(seed=5)
    assert len(state.loop) == 53 and state.loop.face_down_count() == 53
    assert state.notes == [] and state.score_pile == [] and state.jewels == 0
    assert moves(state) == ["look"]
    assert sorted(state.cards()) == sorted(FULL_DECK)
    # The deal's first card is the top of the temple.
    assert texts(state.loop.cards) == state.record()["decks"]["deck"]
    assert new("QH 4C").loop.cards[:2] == parse_cards("QH 4C")


# --------------------------------------------------------------------------- the examples


def test_example_explore_3_or_7() -> None:
    state = play(new("3S 7H"), "look")
    assert seen(state, 3) == "3♠ 7♥ ?"
    assert moves(state) == ["explore 3", "explore 7", "mark 3♠"]  # no look: top is face up


def test_example_no_explore_when_neither_top_card_is_a_face_up_trinket() -> None:
    # The 5♦ under the Q♥ is a trinket, but face down.
    state = play(new("2C 3C 5S QH 5D"), "look, mark 2C, mark 3C, look, mark 5S")
    assert seen(state, 2) == "Q♥ ?" and state.loop.cards[1] == parse_card("5D")
    # Returning the 5♠ repeats the arrangement after the look, but it is the shortest way on.
    assert moves(state) == ["return 2♣", "return 3♣", "return 5♠"]
    assert not any(m.startswith("explore") for m in moves(state))


def test_example_explore_7_the_ace_is_no_trinket() -> None:
    state = play(new("AC 7D"), "look")
    assert seen(state, 2) == "A♣ 7♦"
    assert moves(state) == ["explore 7"]


# The fourth example needs a face-down card followed by face-up cards: the 7♣ and 3♠ are
# turned up as the first pair, then the adventurer goes once round the temple (7, 10, 10, 10,
# 10, 5 = 52 cards) and lands on the card that was at the bottom.
ROUND_THE_TEMPLE = deck(
    {0: "7C", 1: "3S", 7: "10S", 17: "10H", 27: "10D", 37: "10C", 47: "5D", 52: "QD"}
)


def test_example_explore_7_not_3_and_look_around() -> None:
    state = play(
        new(ROUND_THE_TEMPLE),
        "look, explore 7, look, explore 10, look, explore 10, look, explore 10, look,"
        " explore 10, look, explore 5",
    )
    assert seen(state, 3) == "? 7♣ 3♠"
    assert moves(state) == ["look", "explore 7"]  # the 3♠ is third: it offers nothing


def test_example_explore_6_or_6_is_one_move() -> None:
    state = play(new("6S 6H"), "look")
    assert moves(state) == ["explore 6", "mark 6♠"]
    assert state.legal_actions()[0].cards == tuple(parse_cards("6S 6H"))


def test_example_explore_3_but_no_look_around_under_a_face_up_top() -> None:
    state = play(new("3S 2S"), "look, mark 3S, mark 2S, return 3S")
    assert seen(state, 2) == "3♠ ?"
    # Marking the 3♠ again brings back the arrangement of two moves ago: a repeat, allowed
    # because it leads straight to a Look Around.
    assert moves(state) == ["explore 3", "mark 3♠", "return 2♠"]


# The worked example a) to g). Its images are missing; this deal reaches a position that fits
# every sentence: notes full (7♣ 5♥ 2♦), the top of the temple 4♠ J♥ ▒ ▒(9♥) K♠ 3♠ ▒ 10♠ A♣ ▒.
# The deal is walked once round (the K♠ and the A♣ are turned up on the way) by legal moves.
WORKED = deck(
    {
        0: "KS",
        1: "3S",
        2: "8D",
        3: "10S",
        4: "AC",
        13: "7C",
        14: "5H",
        15: "2D",
        16: "10D",
        26: "10C",
        27: "2C",
        36: "10H",
        37: "2S",
        46: "3D",
        47: "2H",
        49: "4S",
        50: "JH",
        51: "6D",
        52: "9H",
    }
)
TO_WORKED = (
    "look, explore 3, look, explore 10, look, mark 7C, mark 5H, look, mark 2D, explore 10,"
    " look, explore 10, look, explore 10, look, explore 3, look"
)


def worked_example() -> LootTheLoopState:
    state = play(new(WORKED), TO_WORKED)
    assert seen(state, 10) == "4♠ J♥ ? ? K♠ 3♠ ? 10♠ A♣ ?"
    assert texts(state.notes) == ["7♣", "5♥", "2♦"]
    return state


def test_worked_example_a_to_g() -> None:
    state = worked_example()
    # Notes full: no Mark, though the top card is a trinket.
    assert "mark 4♠" not in moves(state)
    play(state, "return 7C")  # a)
    assert seen(state, 6) == "7♣ 4♠ J♥ ? ? K♠" and texts(state.notes) == ["5♥", "2♦"]
    play(state, "explore 4")  # b) four cards go under; the K♠ is just missed
    assert seen(state, 2) == "? K♠" and state.loop.card(0) == parse_card("9H")
    assert texts(state.loop.cards[-4:]) == ["7♣", "4♠", "J♥", "6♦"]
    assert not state.is_over and state.score_pile == []
    play(state, "look")  # c) only the top card turns: the K♠ is already face up
    assert seen(state, 2) == "9♥ K♠"
    assert "explore 9" in moves(state)  # shooting ahead was possible
    play(state, "mark 9H")  # d) the notes had room again
    assert texts(state.notes) == ["5♥", "2♦", "9♥"] and seen(state, 1) == "K♠"
    play(state, "return 5H")  # e)
    assert seen(state, 6) == "5♥ K♠ 3♠ ? 10♠ A♣"
    play(state, "explore 5")  # f) lands on the A♣, which is nabbed
    assert texts(state.score_pile) == ["A♣"] and state.jewels == 1
    assert parse_card("AC") not in state.loop
    assert state.loop.shown[0] is None
    assert "look" in moves(state)  # g)


def test_worked_example_without_the_buffer_lands_on_the_king() -> None:
    state = worked_example()
    play(state, "explore 4")
    assert state.is_over and state.outcome == TRAPPED
    assert state.result.won is False
    assert state.result.summary == "Lost: landed on the trap K♠ (0 of 4 jewels, 0 cards nabbed)"


# --------------------------------------------------------------------------- look around


def test_look_around_turns_the_top_two_face_up_in_order() -> None:
    state = play(new("9C 2D 5H"), "look")
    assert seen(state, 3) == "9♣ 2♦ ?"
    assert state.log[-1] == "looked around: 9♣ 2♦"


def test_look_around_only_while_the_top_card_is_face_down() -> None:
    state = play(new("9C 2D"), "look")
    with pytest.raises(IllegalAction, match="only while the top card of the deck is face down"):
        state.apply("look")


def test_explore_moves_exactly_that_many_cards_in_order() -> None:
    state = play(new("4C 9D 8S 7S 6S 5S"), "look, explore 4")
    assert texts(state.loop.cards[-4:]) == ["4♣", "9♦", "8♠", "7♠"]
    assert state.loop.card(0) == parse_card("6S") and seen(state, 1) == "?"
    assert len(state.loop) == 53 and state.score_pile == []
    assert state.log[-1] == "explored 4: landed on a face-down card"


def test_explore_by_the_second_card() -> None:
    state = play(new("KD 2C 10H"), "look")
    assert moves(state) == ["explore 2"]
    play(state, "explore 2")
    assert state.loop.card(0) == parse_card("10H")


def test_explore_landing_on_a_face_up_trinket_nabs_it() -> None:
    state = play(new("5S 6S 2S 9D"), "look, mark 5S, mark 6S, look, return 5S, explore 2")
    assert texts(state.score_pile) == ["9♦"] and state.jewels == 0
    assert parse_card("9D") not in state.loop and len(state.loop) == 51
    assert state.log[-1] == "explored 2: landed on 9♦ and nabbed it"


def test_explore_landing_on_a_face_up_jewel_nabs_it() -> None:
    state = play(new("5S 6S 2S AD"), "look, mark 5S, mark 6S, look, return 6S, explore 2")
    assert texts(state.score_pile) == ["A♦"] and state.jewels == 1
    assert state.log[-1] == "explored 2: landed on the jewel A♦ (1 of 4) and nabbed it"


def test_the_card_after_a_nab_is_not_landed_on() -> None:
    state = position("~4C 2S AD KC 7H")
    play(state, "explore 2")
    assert state.jewels == 1 and seen(state, 2) == "K♣ 7♥"
    assert not state.is_over and moves(state) == ["explore 7"]


def test_explore_landing_on_a_face_up_trap_loses() -> None:
    state = play(new("5S 6S 2S QC"), "look, mark 5S, mark 6S, look")
    assert "return 5♠" in moves(state)
    play(state, "return 5S")
    assert state.describe("explore 2").endswith("Q♣, a trap: you lose.")
    play(state, "explore 2")
    assert state.is_over and state.outcome == TRAPPED and state.legal_actions() == []
    assert state.result.won is False and state.result.score is None
    assert state.result.detail[0]["outcome"] == "trapped"


def test_landing_on_a_face_down_trap_is_safe() -> None:
    state = play(new("3C 2C 5D KS 4D"), "look, explore 3")
    assert not state.is_over and state.loop.card(0) == parse_card("KS")
    play(state, "look")  # turning a trap up is not landing on it
    assert not state.is_over and seen(state, 1) == "K♠"


def test_exit_without_all_four_jewels_does_nothing() -> None:
    state = play(new("5S 6S 2S JK"), "look, mark 5S, mark 6S, look, return 5S, explore 2")
    assert not state.is_over and seen(state, 1) == "JK" and state.score_pile == []
    assert "exit with 0 of 4 jewels" in state.log[-1]


def test_exit_with_all_four_jewels_wins_and_scores_the_pile() -> None:
    state = position("3H 4H 9S JK", pile="AS AH AD AC 7C")
    play(state, "explore 3")
    assert state.is_over and state.outcome == ESCAPED
    result = state.result
    assert result.won is True and result.score == 5.0  # trinkets count too
    assert result.summary == (
        "Won: escaped with all four jewels and 5 cards in the score pile (score, higher is better)"
    )
    assert result.detail[0]["jewels"] == 4 and result.detail[0]["trinkets"] == 1


def test_holding_four_jewels_does_not_force_you_out() -> None:
    state = position("3H 4H 9S JK 2D 8C", pile="AS AH AD AC")
    assert moves(state) == ["explore 3", "explore 4", "mark 3♥"]
    play(state, "explore 4")  # past the exit, onto the face-up 2♦: nabbed, greed rewarded
    assert not state.is_over and texts(state.score_pile)[-1] == "2♦"


# A whole game from the deal: four jewels, each reached by putting a note on top of a 2 so
# that exploring 2 lands on the jewel behind it, then the exit reached with two notes on top.
WIN_DEAL = "5S 6S 2S AS 7S 8S 2H AH 2D AD 2C AC 3H 4H 9S JK"
WIN_LINE = (
    "look, mark 5S, mark 6S, look, return 5S, explore 2,"
    " look, mark 7S, mark 8S, look, return 6S, explore 2,"
    " look, return 7S, explore 2, look, return 8S, explore 2,"
    " look, mark 3H, mark 4H, look, return 4H, return 3H, explore 3"
)


def test_a_whole_game_won_from_a_stacked_deal() -> None:
    state = play(new(WIN_DEAL), WIN_LINE)
    assert state.is_over and state.won
    assert texts(state.score_pile) == ["A♠", "A♥", "A♦", "A♣"]
    assert state.result.score == 4.0
    assert state.log[-1] == "explored 3: reached the exit with all four jewels and escaped"


def test_the_exit_must_be_face_up_to_leave() -> None:
    state = position("3H ~5C ~6C ~JK ~7C", pile="AS AH AD AC")
    play(state, "explore 3")
    assert not state.is_over and state.loop.card(0) == parse_card("JK")
    play(state, "look")  # now it is face up, but turning it up is not landing on it
    assert not state.is_over


# --------------------------------------------------------------------------- mark and return


def test_mark_moves_the_top_trinket_to_the_notes() -> None:
    state = play(new("8C 9C"), "look, mark 8C")
    assert texts(state.notes) == ["8♣"] and seen(state, 2) == "9♣ ?"
    assert (
        state.describe("mark 9C")
        == "Mark a path: move 9♣ from the top of the deck to your notes (2 of 3)."
    )


def test_mark_needs_a_face_up_trinket_on_top() -> None:
    state = play(new("KC 9C"), "look")
    assert not any(m.startswith("mark") for m in moves(state))
    with pytest.raises(IllegalAction, match="only when the top card is a face-up trinket"):
        state.apply("mark")
    face_down_top = play(new("3C 2C 5D"), "look, explore 3")
    with pytest.raises(IllegalAction, match="only when the top card is a face-up trinket"):
        face_down_top.apply("mark 5D")


def test_at_most_three_marked_paths_and_no_swapping() -> None:
    state = play(new("2C 3C 4C 5C 6C"), "look, mark 2C, mark 3C, look, mark 4C")
    assert seen(state, 1) == "5♣" and len(state.notes) == 3
    # Returning the 4♣ would bring back the arrangement of the look around.
    assert moves(state) == ["explore 5", "return 2♣", "return 3♣"]
    with pytest.raises(IllegalAction, match="your notes are full"):
        state.apply("mark 5C")


def test_return_puts_any_note_face_up_on_top_without_moving_you() -> None:
    state = play(new("2C 3C 4C 5C 6C"), "look, mark 2C, mark 3C, look, mark 4C, return 3C")
    assert seen(state, 2) == "3♣ 5♣" and texts(state.notes) == ["2♣", "4♣"]
    assert state.score_pile == []  # a returned trinket is not landed on


def test_a_trap_uncovered_by_a_mark_does_not_hurt() -> None:
    state = play(new("6C QS 2D"), "look, mark 6C")
    assert seen(state, 1) == "Q♠" and state.score_pile == []
    # Nothing is safe with the Q♠ on top, but returning the 6♣ brings back the Explore of 6
    # onto a face-down card: the rulebook does not call this lost.
    assert not state.is_over and moves(state) == ["return 6♣"]
    play(state, "return 6C, explore 6")
    assert not state.is_over and seen(state, 1) == "?" and moves(state) == ["look"]


def test_mark_and_return_may_not_repeat_an_arrangement() -> None:
    state = play(new("2C 3C 4C 5C"), "look, mark 2C")
    with pytest.raises(IllegalAction, match="no-repeat ruling"):
        state.apply("return 2C")  # would undo the Mark
    assert moves(state) == ["explore 3", "mark 3♣"]
    play(state, "mark 3C, look, return 3C")
    with pytest.raises(IllegalAction, match="no-repeat ruling"):
        state.apply("mark 3C")
    assert moves(state) == ["explore 3", "explore 4", "return 2♣"]


def test_marks_and_returns_reach_at_most_a_cluster_of_16() -> None:
    """The bound's premise: three cards shared between the notes and the top of the temple
    give 1 + 3 + 6 + 6 arrangements. Searched from three face-up trinkets and empty notes, and
    from full notes over a face-up trinket."""
    for loop, notes in (("2C 3C 4C ~KS", ""), ("5D ~KS", "2C 3C 4C")):
        start = position(loop, notes)
        met = {start._key()}
        stack = [start]
        while stack:
            state = stack.pop()
            for action in state.legal_actions():
                if action.kind in ("mark", "return"):
                    after = state.clone()
                    after.apply(action)
                    if after._key() not in met:
                        met.add(after._key())
                        after._forget()  # free to go on: count them all
                        after._settle()
                        stack.append(after)
        assert len(met) == CLUSTER == 16


def test_runs_of_marks_and_returns_are_finite() -> None:
    """Every line of Marks and Returns from three face-up trinkets ends: repeats only take a
    step on a shortest way to a move that makes progress (here: an Explore onto a face-down
    card of the look-around node), so they never go round in circles."""
    start = position("2C 3C 4C ~KS ~KH ~KD ~KC")
    longest = 0
    stack = [(start, 0)]
    while stack:
        state, depth = stack.pop()
        longest = max(longest, depth)
        for action in state.legal_actions():
            if action.kind in ("mark", "return"):
                after = state.clone()
                after.apply(action)
                stack.append((after, depth + 1))
    assert longest == 8


# Face-down rooms 0, 10, 20, 30, 40 and 49 each followed by a face-up trinket: exploring 10, 10,
# 10, 10, 9 and 4 goes once round the 53 cards, landing only on face-down rooms.
CIRCUIT = (
    "~2C 10S ~3C ~3D ~3H ~3S ~4C ~4D ~4H ~5C ~5D 10H ~5H ~5S ~6C ~6D ~6H ~6S ~7C ~7D ~7H 10D"
    " ~7S ~8C ~8D ~8H ~8S ~9C ~9D ~9H ~JC 10C ~JD ~JH ~JS ~QC ~QD ~QH ~QS ~KC ~KD 9S ~KH ~KS"
    " ~AC ~AD ~AH ~AS ~2D ~2H 4S ~2S"
)


def test_an_explore_that_only_moves_may_not_repeat_an_arrangement() -> None:
    state = position(CIRCUIT)
    start = state.loop.key()
    play(state, "explore 10, explore 10, explore 10, explore 10, explore 9")
    assert seen(state, 2) == "? 4♠" and not state.is_over
    # Exploring 4 would bring the temple back to its arrangement at the start: our ruling.
    assert state.loop.key_after_moving(4) == start
    assert moves(state) == ["look"]
    with pytest.raises(IllegalAction, match="our no-repeat ruling"):
        state.apply("explore 4")


def test_looking_around_starts_afresh() -> None:
    state = position(CIRCUIT)
    play(state, "explore 10, explore 10, explore 10, explore 10, explore 9, look")
    assert seen(state, 2) == "2♥ 4♠"
    assert "explore 4" in moves(state)  # the 2♥ is face up now: a new arrangement


# --------------------------------------------------------------------------- losing


def test_stuck_at_once_when_the_first_two_cards_are_no_trinkets() -> None:
    state = play(new("KS AD"), "look")
    assert state.is_over and state.outcome == STUCK and state.legal_actions() == []
    assert state.result.summary == "Lost: stuck, no action allowed (0 of 4 jewels, 0 cards nabbed)"
    assert state.log[-1] == "no action is allowed: stuck in the temple, the game is lost"


def test_cornered_when_every_way_onward_lands_on_a_trap() -> None:
    state = play(new(deck({0: "2S", 1: "6H", 7: "AD", 8: "KC"})), "look, mark 2S, explore 6")
    assert seen(state, 1) == "?" and not state.is_over
    play(state, "look")
    # A♦ K♣ on top offers nothing; returning the 2♠ offers an Explore of 2 onto the K♣ only.
    # Marks and Returns can lead nowhere else: the rulebook's loss, declared at once.
    assert seen(state, 2) == "A♦ K♣"
    assert state.is_over and state.outcome == CORNERED and state.legal_actions() == []
    assert (
        state.result.summary
        == "Lost: every way onward lands on a trap (0 of 4 jewels, 0 cards nabbed)"
    )


def test_a_trap_explore_is_allowed_while_another_move_exists() -> None:
    state = play(new("5S 6S 2S QC"), "look, mark 5S, mark 6S, look, return 5S")
    assert moves(state) == ["explore 2", "explore 5", "return 6♠"]
    assert not state.is_over


# The two lines (issue 25): each ended in a loss the rulebook does not declare.
SEED_6_LINE = (
    "look, explore 2, look, explore 8, look, explore 9, look, explore 5, look, explore 2, look,"
    " explore 4, look, mark 9C, explore 4, return 9C, explore 9, look, mark 10H, explore 10,"
    " mark 8C, return 10H, return 8C, explore 10, look, explore 5, look, mark 6C, explore 3,"
    " return 6C"
)


def test_marking_the_only_trinket_is_undone_by_returning_it() -> None:
    state = GAME.new_state(seed=4)
    play(state, "look, explore 7, look, mark 6C")
    assert seen(state, 1) == "J♠" and texts(state.notes) == ["6♣"]
    assert not state.is_over and moves(state) == ["return 6♣"]
    play(state, "return 6C")
    assert moves(state) == ["explore 6"]
    play(state, "explore 6")  # onto a face-down card: safe
    assert not state.is_over and moves(state) == ["look"]


def test_a_return_is_undone_by_marking_the_card_again() -> None:
    state = play(GAME.new_state(seed=6), SEED_6_LINE)
    assert not state.is_over
    # The 6♣ offers only an Explore onto a trap, but marking it again brings back the face-down
    # card the last Explore landed on: a repeat, allowed as the first step to a Look Around.
    assert moves(state) == ["explore 6", "mark 6♣"] and state.landing(6).rank > 10
    play(state, "mark 6C")
    assert seen(state, 1) == "?" and moves(state) == ["look"]
    play(state, "look")
    # This deal turns up two traps: now the 6♣ returned leads only onto a trap, the rulebook's
    # loss, told as such.
    assert seen(state, 2) == "Q♠ J♠" and state.outcome == CORNERED


def test_a_walk_may_repeat_an_arrangement_on_the_shortest_way_onward() -> None:
    state = position("5C ~2D ~2H ~3D ~3H ~4D 9S")
    landing = (state.loop.key_after_moving(5), state.notes_mask)
    state._remember(landing)  # as if the adventurer had stood there since the last look
    state._settle()
    # Exploring 5 onto that face-down card leads straight to a Look Around: allowed.
    assert moves(state) == ["explore 5", "mark 5♣"]
    play(state, "explore 5")
    assert not state.is_over and seen(state, 2) == "? 9♠" and moves(state) == ["look", "explore 9"]


def test_an_explore_onto_the_exit_into_a_dead_end_says_so() -> None:
    state = position("3C ~2D ~2H JK KS KH")
    assert not state.is_over
    assert state.describe("explore 3") == (
        "Explore 3: send the top 3 cards to the bottom and land on the 4th card, the exit; with"
        " 0 of 4 jewels you stay, and every way on from there lands on a trap: you lose."
    )
    play(state, "explore 3")
    assert state.is_over and state.outcome == STUCK


def rulebook_lost(state: LootTheLoopState) -> bool:
    """The rulebook's loss, judged independently of the game: no arrangement that any Marks and
    Returns reach offers a Look Around or an Explore that does not land on a face-up trap."""
    start = (tuple(state.loop.shown), frozenset(state.notes))
    todo, met = [start], {start}
    while todo:
        loop, notes = todo.pop()
        if loop[0] is None:
            return False
        for card in loop[:2]:
            if card is not None and 2 <= card.rank <= 10:
                landed = loop[card.rank % len(loop)]
                if landed is None or landed.rank <= 10:
                    return False
        after = [((note, *loop), notes - {note}) for note in notes]
        if 2 <= loop[0].rank <= 10 and len(notes) < 3:
            after.append((loop[1:], notes | {loop[0]}))
        for node in after:
            if node not in met:
                met.add(node)
                todo.append(node)
    return True


@pytest.mark.parametrize("use_bot", [False, True])
def test_the_game_is_lost_exactly_when_the_rulebook_says(use_bot: bool) -> None:
    """Over whole games: a declared loss is the rulebook's, no position the rulebook lets you
    play on is declared lost, no Mark or Return ends the game, and a move that is not a trap
    is always on offer."""
    rng = Rng(25)
    for k in range(12 if use_bot else 150):
        state = GAME.new_state(seed=500 + k)
        while not state.is_over:
            assert not rulebook_lost(state)
            offered = state.legal_actions()
            trap = [
                m.kind == "explore" and (state.landing(m.target) or Card(0)).rank > 10
                for m in offered
            ]
            assert not all(trap)
            for move in offered:
                if move.kind in ("mark", "return"):
                    after = state.clone()
                    after.apply(move)
                    assert not after.is_over
            state.apply(bot.choose(state.clone(), rng) if use_bot else rng.choice(offered))
        if state.outcome in (STUCK, CORNERED):
            assert rulebook_lost(state)
        assert state.step <= MAX_ACTIONS


def test_the_declared_bound() -> None:
    assert GAME.max_actions() == MAX_ACTIONS > 10_000


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("look", "look"),
        ("Look Around", "look"),
        ("L", "look"),
        ("explore 7", "explore 7"),
        ("e 7", "explore 7"),
        ("7", "explore 7"),
        ("explore 7d", "explore 7"),
        ("X 7♦", "explore 7"),
    ],
)
def test_typed_moves_look_and_explore(typed: str, meant: str) -> None:
    state = new("AC 7D")
    if meant != "look":
        play(state, "look")
    assert str(state.parse(typed)) == meant


@pytest.mark.parametrize("typed", ["mark", "m", "MARK 3s", "mark 3♠", "m 3S"])
def test_typed_mark(typed: str) -> None:
    state = play(new("3S 7H"), "look")
    assert str(state.parse(typed)) == "mark 3♠"


@pytest.mark.parametrize("typed", ["return 2c", "R 2♣", "return 2C", "r 2c"])
def test_typed_return(typed: str) -> None:
    state = play(new("2C 3C 4C"), "look, mark 2C, mark 3C")
    assert str(state.parse(typed)) == "return 2♣"


def test_bare_return_is_ambiguous_with_two_notes() -> None:
    state = play(new("2C 3C 4C 5C"), "look, mark 2C, mark 3C, look")
    assert moves(state)[-2:] == ["return 2♣", "return 3♣"]
    with pytest.raises(IllegalAction, match="return names one card"):
        state.apply("return")


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        (
            "explore 5",
            "only a face-up trinket among the top two cards gives a distance: here 3 or 7",
        ),
        ("explore 3h", "explore 3 is offered by 3♠"),
        ("look", "only while the top card of the deck is face down"),
        ("return 2C", "your notes are empty"),
        ("mark 7H", "the card you mark is the top card of the deck, 3♠"),
        ("jump 3", "this is not a move in this position"),
    ],
)
def test_illegal_moves_say_why(move: str, rule: str) -> None:
    state = play(new("3S 7H"), "look")
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)
    assert state.snapshot() == before


@pytest.mark.parametrize(
    "typed", ["²", "explore ²", "e ٥", "0", "explore -3", "mark ²", "look around now", "", "x"]
)
def test_odd_typing_is_an_illegal_action(typed: str) -> None:
    state = play(new("3S 7H"), "look")
    with pytest.raises(IllegalAction):
        state.apply(typed)


@pytest.mark.parametrize(
    ("action", "rule"),
    [
        (Action("explore", (), "far"), "explore takes a distance"),
        (Action("explore", (), 3), "explore 3 is offered by 3♠"),
        (Action("return", (parse_card("3S"), parse_card("7H"))), "your notes are empty"),
        (Action("mark", ()), "the card you mark is the top card"),
        (Action("sandwich", (parse_card("3S"),), None), "a move is 'look'"),
        (Action("look", (parse_card("3S"),)), "only while the top card"),
    ],
)
def test_malformed_actions_say_why(action: Action, rule: str) -> None:
    state = play(new("3S 7H"), "look")
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert rule in str(error.value)


def test_malformed_returns_say_why() -> None:
    state = play(new("2C 3C 4C"), "look, mark 2C")
    for action, rule in [
        (Action("return", ()), "return names one card"),
        (Action("return", ("2C",)), "is not in your notes"),
        (Action("return", (parse_card("9D"),)), "9♦ is not in your notes (2♣)"),
    ]:
        with pytest.raises(IllegalAction, match=rule.replace("(", r"\(").replace(")", r"\)")):
            state.apply(action)


def test_no_explore_at_all_says_why() -> None:
    state = play(new("2C 3C 5S QH 5D"), "look, mark 2C, mark 3C, look, mark 5S")
    with pytest.raises(IllegalAction, match="neither of the top two cards"):
        state.apply("explore 5")


# --------------------------------------------------------------------------- words


def test_descriptions() -> None:
    state = new("3S 7H 2D")
    assert state.describe("look") == "Look around: turn the top two cards of the deck face up."
    play(state, "look")
    assert state.describe("explore 3") == (
        "Explore 3: send the top 3 cards to the bottom and land on the 4th card, face down:"
        " nothing happens."
    )
    worked = worked_example()
    assert worked.describe("explore 4").endswith("land on the 5th card, K♠, a trap: you lose.")
    play(worked, "return 7C")
    assert worked.describe("return 5H") == (
        "Return to a marked path: put 5♥ from your notes face up on the deck."
    )
    play(worked, "explore 4")
    assert worked.describe("look") == (
        "Look around: turn the top card face up (the next one is already face up)."
    )
    play(worked, "look, mark 9H, return 5H")
    assert worked.describe("explore 5").endswith("the 6th card, the jewel A♣: you nab it.")


# --------------------------------------------------------------------------- what is seen


def test_the_view_shows_face_down_cards_as_blanks() -> None:
    state = worked_example()
    table = state.view(0)["table"]
    reach = table["reach"]
    assert reach["cells"][0][:6] == [["4♠"], ["J♥"], [None], [None], ["K♠"], ["3♠"]]
    assert reach["col_labels"] == ["you", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    assert table["loop"][0]["title"] == "1–10" and table["loop"][-1]["title"] == "41–50"
    assert sum(len(row["cards"]) for row in table["loop"]) == 50  # three cards are notes
    assert table["notes"] == ["7♣", "5♥", "2♦"] and table["score_pile"] == []
    assert table["deck"] == 50 and table["face_down"] == state.loop.face_down_count()
    shown = {c for row in table["loop"] for c in row["cards"] if c is not None}
    face_up = {str(c) for c in state.loop.shown if c is not None}
    assert shown == face_up
    assert "exit not found yet" in table["status"]


def test_determinize_reshuffles_only_face_down_cards() -> None:
    state = worked_example()
    other = state.determinize(0, Rng(4))
    assert other.view(0) == state.view(0)
    assert other.loop.shown == state.loop.shown
    assert sorted(other.loop.hidden()) == sorted(state.loop.hidden())
    assert other.loop.hidden() != state.loop.hidden()
    assert [str(a) for a in other.legal_actions()] == moves(state)


def test_the_bot_plays_legal_moves_to_the_end() -> None:
    state = GAME.new_state(seed=11)
    rng = Rng(11)
    while not state.is_over:
        state.apply(bot.choose(state.determinize(0, rng), rng))
    assert state.result is not None and state.step > 1
