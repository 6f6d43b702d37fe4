"""Tinker Tailor's heuristic bot: sensible single decisions, and clearly better than random."""

from spyglass.engine import Rng
from spyglass.games.tinker_tailor import bot
from spyglass.games.tinker_tailor.cards import HAND_SIZE, parse_card
from spyglass.lab import simulate
from tests.games.tinker_tailor_tables import draft, give, table

GOODS = "bread fish cloth wine gems"


def decide(state, seed: int = 0) -> str:
    """The bot's move for the seat to play, chosen on that seat's determinization."""
    seat = state.current_player
    return str(bot.choose(state.determinize(seat, Rng(seed)), Rng(seed)))


def counts(text: str) -> list[int]:
    held = [0] * HAND_SIZE
    for token in text.split():
        held[parse_card(token)] += 1
    return held


def test_a_growing_set_is_worth_more_than_its_points_while_time_remains() -> None:
    three_gems = counts("gems gems gems")
    assert bot.gain(three_gems, parse_card("gems"), 1.0) > bot.gain(
        three_gems, parse_card("gems"), 0.0
    )
    # At the very end a card is worth exactly the points it adds.
    assert bot.gain(three_gems, parse_card("gems"), 0.0) == 19 - 12
    # A fifth kind completes a collection.
    four_kinds = counts("bread fish cloth wine")
    assert bot.gain(four_kinds, parse_card("gems"), 0.0) == 3 + 10


def test_the_bot_takes_the_card_it_values_most() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="young-man witch merchant")
    give(state, 0, "wine wine wine")
    draft(state, "young-man", "witch", "merchant")
    assert decide(state) == "take wine"


def test_the_bot_keeps_the_better_sailor_card() -> None:
    state = table(
        3, 0, money="1 2 3 4 5", goods=GOODS + " bread gems", roles="sailor witch merchant"
    )
    draft(state, "sailor", "witch", "merchant")
    assert decide(state) == "keep gems"


def test_the_bot_buys_with_change_like_the_rulebook_example_near_the_end() -> None:
    state = table(
        3, 0, money="1 2 3 4 5", goods="bread bread bread wine wine", roles="tinker witch merchant"
    )
    give(state, 0, "5 wine wine wine")
    state.round = state.rounds  # the last round: money left will only score half
    draft(state, "tinker", "witch", "merchant")
    state.apply("done")  # no swap for the Tinker
    assert decide(state) == "buy wine with 5"
    state.apply("buy wine with 5")
    # The 1 left over: as change, or as a first bread (a point and a step to a collection).
    assert decide(state) in ("change 1", "buy bread")
    assert decide(state) != "done"


def test_the_bot_gives_the_preachers_lesser_card_away() -> None:
    state = table(3, 0, money="2 2 3 4 5", goods=GOODS, roles="preacher witch young-man")
    draft(state, "preacher", "witch", "young-man")
    state.apply("take gems")
    state.apply("take bread")
    assert decide(state).startswith("give bread to")


def test_the_bot_robs_the_player_with_something_to_take() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="thief witch merchant")
    give(state, 2, "5")
    draft(state, "thief", "witch", "merchant")
    # Seat 0 saw the 5 leave the deck face up, as give() deals it: it knows where it is.
    assert decide(state) == "rob 2"


def test_the_bot_drafts_a_role_it_can_use() -> None:
    # With goods to swap and nothing else of note, the Tinker beats roles that can do nothing.
    state = table(
        3,
        0,
        money="2 2 2 2 2",
        goods="gems gems gems gems gems",
        roles="tinker beggar-man merchant thief witch",
    )
    give(state, 0, "bread bread")
    assert decide(state) == "pick tinker"


def test_the_heuristic_seat_wins_far_more_than_its_share_against_random() -> None:
    result = simulate("tinker-tailor", ["heuristic", "random", "random"], 20, seed=3, players=3)
    assert result.seat_wins(0) >= 15


def test_the_bot_plays_whole_games_at_every_table_size() -> None:
    for players in (2, 5, 6):
        result = simulate("tinker-tailor", "heuristic", 2, seed=players, players=players)
        assert result.games == 2
        assert all(o.length > 0 and len(o.scores) == players for o in result.outcomes)
