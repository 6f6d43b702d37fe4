import pytest

from spyglass.components import parse_cards
from spyglass.components.loop import Loop


def cards(text: str) -> list:
    return parse_cards(text)


def seen_text(loop: Loop) -> str:
    return " ".join("?" if s is None else str(s) for s in loop.stretch())


def test_a_new_loop_is_face_down_unless_asked() -> None:
    loop = Loop(cards("AS 2S 3S"))
    assert len(loop) == 3 and loop.face_down_count() == 3 and loop.face_up_count() == 0
    assert loop.stretch() == [None, None, None]
    assert loop.card(0) == cards("AS")[0]  # the identity is known to the loop, not shown
    up = Loop(cards("AS 2S"), face_up=True)
    assert seen_text(up) == "A♠ 2♠" and up.hidden() == []


def test_arranged_sets_each_facing() -> None:
    loop = Loop.arranged(cards("AS 2S 3S"), [True, False, True])
    assert seen_text(loop) == "A♠ ? 3♠"
    assert loop.hidden() == cards("2S")
    with pytest.raises(ValueError):
        Loop.arranged(cards("AS 2S"), [True])


def test_positions_wrap_around() -> None:
    loop = Loop.arranged(cards("AS 2S 3S"), [True, True, False])
    assert loop.card(3) == loop.card(0) and loop.card(-1) == cards("3S")[0]
    assert loop.seen(4) == cards("2S")[0] and loop.seen(5) is None
    assert loop.is_face_up(3) and not loop.is_face_up(2)
    assert loop.position(cards("3S")[0]) == 2


def test_moving_cards_to_the_bottom_keeps_their_order_and_facing() -> None:
    loop = Loop.arranged(cards("AS 2S 3S 4S 5S"), [True, False, True, False, False])
    loop.move_to_bottom(2)
    assert loop.cards == cards("3S 4S 5S AS 2S")
    assert seen_text(loop) == "3♠ ? ? A♠ ?"
    loop.move_to_bottom(7)  # more than the loop holds: round once, then two more
    assert loop.cards == cards("5S AS 2S 3S 4S")
    loop.move_to_bottom(5)
    assert loop.cards == cards("5S AS 2S 3S 4S")


def test_key_after_moving_matches_moving() -> None:
    loop = Loop.arranged(cards("AS 2S 3S 4S"), [True, False, True, False])
    for count in range(9):
        predicted = loop.key_after_moving(count)
        moved = loop.copy()
        moved.move_to_bottom(count)
        assert moved.key() == predicted


def test_turning_and_flipping() -> None:
    loop = Loop(cards("AS 2S 3S"))
    assert loop.turn_up(0) == cards("AS")[0]
    loop.turn_up(4)  # wraps to position 1
    assert seen_text(loop) == "A♠ 2♠ ?"
    loop.flip(0)
    loop.flip(2)
    assert seen_text(loop) == "? 2♠ 3♠"
    loop.turn_down(1)
    assert seen_text(loop) == "? ? 3♠"


def test_take_top_and_put_on_top() -> None:
    loop = Loop.arranged(cards("AS 2S 3S"), [True, False, False])
    assert loop.take_top() == cards("AS")[0]
    assert loop.cards == cards("2S 3S") and seen_text(loop) == "? ?"
    loop.put_on_top(cards("9H")[0])
    loop.put_on_top(cards("KH")[0], face_up=False)
    assert loop.cards == cards("KH 9H 2S 3S") and seen_text(loop) == "? 9♥ ? ?"
    assert cards("9H")[0] in loop and cards("AS")[0] not in loop
    with pytest.raises(IndexError):
        Loop().take_top()


def test_key_shows_only_what_a_player_sees() -> None:
    one = Loop.arranged(cards("AS 2S 3S"), [True, False, False])
    other = Loop.arranged(cards("AS 3S 2S"), [True, False, False])
    assert one.key() == other.key()  # face-down cards look alike
    assert hash(one.key()) == hash(other.key())
    one.turn_up(1)
    assert one.key() != other.key()


def test_replace_hidden_fills_face_down_places_top_first() -> None:
    loop = Loop.arranged(cards("AS 2S 3S 4S"), [False, True, False, False])
    loop.replace_hidden(cards("4S AS 3S"))
    assert loop.cards == cards("4S 2S AS 3S")
    assert seen_text(loop) == "? 2♠ ? ?"
    with pytest.raises(ValueError):
        loop.replace_hidden(cards("AS"))


def test_copy_is_independent() -> None:
    loop = Loop.arranged(cards("AS 2S 3S"), [True, False, False])
    twin = loop.copy()
    twin.move_to_bottom(1)
    twin.turn_up(0)
    twin.take_top()
    assert loop.cards == cards("AS 2S 3S") and seen_text(loop) == "A♠ ? ?"
    assert list(iter(loop)) == cards("AS 2S 3S")


def test_an_empty_loop_moves_nowhere() -> None:
    loop = Loop()
    loop.move_to_bottom(3)
    assert len(loop) == 0 and loop.key() == () and repr(loop) == "Loop()"
    assert repr(Loop.arranged(cards("AS 2S"), [True, False])) == "Loop(A♠ ▒▒)"
