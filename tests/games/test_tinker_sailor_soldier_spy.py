"""Tinker, Sailor, Soldier, Spy: the rulebook's payment example and one test per rule clause."""

from collections import Counter

import pytest

import spyglass
from spyglass.components.decktet import decktet, parse_decktet
from spyglass.engine import IllegalAction, Rng, RulesError
from spyglass.games.tinker_sailor_soldier_spy import bot
from spyglass.games.tinker_sailor_soldier_spy.rules import (
    CHOOSE,
    FIGHT,
    PILES,
    TinkerSailorSoldierSpyState,
)
from tests.conformance.checks import Coverage, check_record, check_state

GAME = spyglass.load("tinker-sailor-soldier-spy")


def stack(**tops: list[str]) -> dict[str, list]:
    """Every pile in table order, with the named cards on top (top first)."""
    decks = {}
    for name, cards in PILES.items():
        head = decktet(*tops.get(name, []))
        decks[name] = head + [c for c in cards if c not in head]
    return decks


def deal(
    seed: int = 0, game: spyglass.Game = GAME, **tops: list[str]
) -> TinkerSailorSoldierSpyState:
    state = game.new_state(seed=seed, deck=stack(**tops))
    assert isinstance(state, TinkerSailorSoldierSpyState)
    return state


def names(cards) -> list[str]:
    return [str(c) for c in cards]


# The rulebook's example, reached from a stacked deal: three cheap recruits (each paid by its
# free card), a turn given up to empty the deck, then the Merchant. Seed 379 is a seed whose
# reshuffle puts the Savage, the Author and the Painter on top, in that order.
MERCHANT_SEED = 379
MERCHANT_DEAL = {
    "deck": ["sailor", "soldier", "diplomat", "excuse"],
    "aces": ["ace-of-moons"],
    "personalities": ["savage", "author", "painter", "lunatic", "merchant"],
    "events": ["journey", "battle", "discovery", "pact", "harvest"],
}


def test_set_up_piles_and_chips() -> None:
    sizes = {name: len(cards) for name, cards in PILES.items()}
    assert sizes == {"deck": 4, "aces": 6, "personalities": 11, "events": 11, "locations": 13}
    assert sorted(names(PILES["deck"])) == ["diplomat", "excuse", "sailor", "soldier"]
    assert "market" in names(PILES["events"])
    assert {"origin", "end"} <= set(names(PILES["locations"]))
    assert not {"soldier", "sailor", "diplomat"} & set(names(PILES["personalities"]))
    state = deal()
    assert state.chips_left == 36 and set(state.chips.values()) == {6}
    assert state.round == 1 and state.phase == CHOOSE


def test_two_challengers_one_is_trashed() -> None:
    state = deal(personalities=["savage"], events=["journey"], deck=["sailor"])
    assert names(state.revealed) == ["savage", "journey"]
    assert names(state.legal_actions()) == ["fight savage", "fight journey"]
    state.apply("fight savage")
    assert "journey" in names(state.trash)


def test_the_free_card_alone_can_buy() -> None:
    # The Sailor (4, Waves/Leaves) pays for the Savage (3, Leaves/Wyrms) through Leaves.
    state = deal(personalities=["savage"], deck=["sailor"])
    state.apply("fight savage")
    assert names(state.discard) == ["savage", "sailor"] and state.recruited == 1
    assert state.phase == CHOOSE and state.chips_left == 36


def test_rulebook_merchant_payment() -> None:
    state = deal(MERCHANT_SEED, **MERCHANT_DEAL)
    for move in ["fight savage", "fight author", "fight painter"]:
        state.apply(move)  # each bought by its free card
    assert sorted(names(state.discard)) == sorted(
        ["savage", "sailor", "author", "soldier", "painter", "diplomat"]
    )
    state.apply("fight lunatic")  # the Excuse pays nothing ...
    state.apply("give up")  # ... so this turn is given up: the deck is now empty
    assert state.deck == [] and "lunatic" in names(state.trash)
    state.apply("fight merchant")
    # The free card forces a reshuffle of the discard pile with the top Ace.
    assert "with Ace of Moons ☾ from the Ace pile" in state.log[-2]
    assert names(state.fight_cards) == ["savage"] and names(reversed(state.deck))[:2] == [
        "author",
        "painter",
    ]
    assert state.paid == 3  # the Savage's Leaves
    state.apply("chip knots")
    assert names(state.fight_cards) == ["savage", "author"] and state.paid == 6
    state.apply("chip leaves")
    # 4 Leaves (Savage 3 + chip) and 6 Knots (chip + Author 2 + Painter 3): 10 for a cost of 9.
    assert "bought Merchant 9 ❦⌘ for 9 (paid 10)" in state.log
    assert "merchant" in names(state.discard) and state.recruited == 4
    assert state.chips_trashed == 2 and state.chips["Knots"] == 5 and state.chips["Leaves"] == 5
    assert {"savage", "author", "painter"} <= set(names(state.discard))


def test_payment_by_suit_during_the_merchant_fight() -> None:
    state = deal(MERCHANT_SEED, **MERCHANT_DEAL)
    for move in [
        "fight savage",
        "fight author",
        "fight painter",
        "fight lunatic",
        "give up",
        "fight merchant",
        "chip knots",
    ]:
        state.apply(move)
    assert state.payment_by_suit() == {"Leaves": 3, "Knots": 3}
    assert state.view(0)["table"]["payment"] == "6 of 9 (3 Leaves, 3 Knots)"


def test_a_chip_of_any_suit_still_draws_a_card() -> None:
    # Against the Bard (Crown of Suns, 12): Sailor and Soldier have no Suns.
    state = deal(personalities=["bard"], deck=["excuse", "sailor", "soldier", "diplomat"])
    state.apply("fight bard")
    assert state.paid == 0 and state.phase == FIGHT
    state.apply("chip moons")  # pays nothing, still draws the Sailor
    assert state.paid == 0 and names(state.fight_cards) == ["excuse", "sailor"]
    assert state.chips["Moons"] == 5


def test_a_chip_that_completes_the_payment_still_draws_its_card() -> None:
    # The Author costs 2 (Moons/Knots). The Excuse pays 0; a Knots chip pays 1 and draws the
    # Sailor (no match); a Moons chip pays the second point, and still draws the Soldier.
    state = deal(personalities=["author"], deck=["excuse", "sailor", "soldier"])
    state.apply("fight author")
    assert state.paid == 0
    state.apply("chip knots")
    assert state.paid == 1 and names(state.fight_cards) == ["excuse", "sailor"]
    state.apply("chip moons")
    assert "bought Author 2 ☾⌘ for 2 (paid 7)" in state.log  # 1 + 1 + the Soldier's 5
    assert names(state.discard) == ["author", "excuse", "sailor", "soldier"]


def test_a_card_with_two_matching_suits_pays_once() -> None:
    # The Harvest (Pawn 10: Moons/Suns/Leaves); the Diplomat (8, Moons/Suns) pays 8, not 16.
    state = deal(events=["harvest"], deck=["diplomat"])
    state.apply("fight harvest")
    assert state.paid == 8 and state.phase == FIGHT


def test_giving_up_trashes_the_challenger_and_the_chips() -> None:
    state = deal(personalities=["bard"], deck=["excuse", "sailor"])
    state.apply("fight bard")
    state.apply("chip suns")
    state.apply("give up")
    assert "bard" in names(state.trash) and state.chips_trashed == 1
    assert names(state.discard) == ["excuse", "sailor"] and state.phase == CHOOSE


def test_no_card_to_draw_gives_up_the_fight() -> None:
    # The Bard (12, Suns) can only be paid by the Diplomat (8) and Suns chips: 8 + 3 = 11.
    state = deal(personalities=["bard"], deck=["excuse", "sailor", "soldier", "diplomat"])
    state.apply("fight bard")
    for _ in range(3):
        state.apply("chip suns")
    # Four cards drawn, 11 paid, deck and discard empty: the fight cannot go on.
    assert "no card left to draw: the fight cannot go on" in state.log
    assert "gave up on Bard Crown ☼" in state.log and state.phase == CHOOSE
    assert sorted(names(state.discard)) == ["diplomat", "excuse", "sailor", "soldier"]


def test_out_of_chips_in_round_one_gives_up() -> None:
    state = deal(personalities=["bard"], deck=["excuse"])
    state.chips = dict.fromkeys(state.chips, 0)  # spent elsewhere in a long game
    state.chips_trashed = 36
    state.apply("fight bard")
    assert "no suit chips left: the fight is given up" in state.log
    assert "bard" in names(state.trash)


def test_a_lone_challenger_is_fought_or_given_up() -> None:
    state = deal()
    state.trash.extend(state.events)  # as if the Events pile had run out first
    state.events = []
    state.apply(f"fight {state.revealed[0]}")
    while state.phase == FIGHT:
        state.apply("give up")
    assert len(state.revealed) == 1
    assert names(state.legal_actions()) == [f"fight {state.revealed[0]}", "give up"]
    lone = state.revealed[0]
    state.apply("give up")
    assert state.trash[-1] == lone and Counter(state.cards()) == Counter(
        c for cards in PILES.values() for c in cards
    )


def play_with_bot(seed: int, game: spyglass.Game = GAME) -> list[TinkerSailorSoldierSpyState]:
    state = game.new_state(seed=seed)
    rng = Rng(seed)
    positions = [state.clone()]
    while not state.is_over:
        state.apply(bot.choose(state, rng))
        positions.append(state.clone())
    return positions


def test_round_two_pays_every_location_in_turn_and_wins() -> None:
    positions = next(p for p in (play_with_bot(s) for s in range(40)) if p[-1].won)
    final = positions[-1]
    round_two = [p for p in positions if p.round == 2 and not p.is_over]
    assert round_two and all("give up" not in names(p.legal_actions()) for p in round_two)
    locations = set(PILES["locations"])
    assert locations <= set(final.trash)  # defeated Locations are trashed, never recruited
    assert not locations & set(final.discard + final.deck)
    result = final.result
    assert result.won and result.score == final.chips_left
    assert result.detail[0]["locations_defeated"] == 13


def test_a_location_that_cannot_be_paid_loses() -> None:
    positions = next(p for p in (play_with_bot(s) for s in range(40)) if not p[-1].won)
    final = positions[-1]
    assert final.round == 2 and final.is_over and not final.result.won
    assert final.result.score is None
    assert final.log[-1].endswith("cannot be defeated: the game is lost")
    assert final.chips_left == 0 or (not final.deck and not final.discard)


def test_the_game_cannot_end_in_round_one() -> None:
    for seed in range(30):
        state = GAME.new_state(seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        assert state.round == 2


def test_no_giving_up_in_round_two() -> None:
    positions = play_with_bot(3)
    fighting = next(p for p in positions if p.round == 2 and p.phase == FIGHT)
    with pytest.raises(IllegalAction, match="in round 2 a Location cannot be given up"):
        fighting.apply("give up")


def test_fixed_locations_faces_the_origin_first_and_the_end_last() -> None:
    game = spyglass.load("tinker-sailor-soldier-spy", fixed_locations=True)
    for seed in range(5):
        state = game.new_state(seed=seed)
        assert names(state.locations)[-1] == "origin" and names(state.locations)[0] == "end"
        guess = state.determinize(0, Rng(seed))
        assert names(guess.locations)[-1] == "origin" and names(guess.locations)[0] == "end"
    with pytest.raises(RulesError, match="must start with the Origin"):
        game.new_state(seed=1, deck=stack(locations=["desert"]))
    positions = play_with_bot(1, game)
    order = [p.challenger for p in positions if p.round == 2 and p.challenger is not None]
    assert str(order[0]) == "origin"


def test_fixed_locations_conforms() -> None:
    game = spyglass.load("tinker-sailor-soldier-spy", fixed_locations=True)
    coverage = Coverage()
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = Rng(seed)
        initial = Counter(state.cards())
        while not state.is_over:
            check_state(state, rng, initial, coverage)
            state.apply(bot.choose(state.determinize(0, rng), rng))
        check_record(state)
    assert coverage.hidden_differences > 0


def test_notation_names_and_codes() -> None:
    state = deal(personalities=["merchant"], events=["chance-meeting"])
    assert state.parse("fight the Merchant") == state.parse("fight merchant")
    assert state.parse("fight 9LK") == state.parse("fight merchant")
    assert str(state.parse("fight The Chance Meeting")) == "fight chance-meeting"
    state.apply("fight merchant")
    assert str(state.parse("chip leaf")) == "chip leaves" == str(state.parse("Chip LEAVES"))


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("fight bard", "choose one of the two cards just turned up"),
        ("chip leaves", "chips are placed during a fight"),
        ("give up", "there is no fight to give up"),
        ("dance", "'fight merchant'"),
    ],
)
def test_illegal_moves_say_why(move: str, rule: str) -> None:
    state = deal(personalities=["merchant"])
    with pytest.raises(IllegalAction) as error:
        state.apply(move)
    assert rule in str(error.value)


def test_a_spent_suit_cannot_be_chipped() -> None:
    state = deal(personalities=["bard"], deck=["excuse"])
    state.chips["Suns"] = 0
    state.apply("fight bard")
    assert "chip suns" not in names(state.legal_actions())
    with pytest.raises(IllegalAction, match="you have no Suns chip left"):
        state.apply("chip suns")


def test_views_hide_orders_but_not_contents() -> None:
    state = deal(MERCHANT_SEED, **MERCHANT_DEAL)
    table = state.view(0)["table"]
    assert table["piles"] == {"aces": 6, "personalities": 10, "events": 10, "locations": 13}
    assert table["deck"] == 4 and sorted(table["deck_contents"]) == sorted(
        ["Excuse", "Sailor 4 ≈❦", "Soldier 5 ∿⌘", "Diplomat 8 ☾☼"]
    )
    assert "savage" not in str(table) and "Savage" in str(table["revealed"])
    other = state.determinize(0, Rng(8))
    assert other.view(0) == state.view(0)
    assert names(other.personalities) != names(state.personalities)


def test_descriptions() -> None:
    state = deal(personalities=["merchant"], events=["pact"], deck=["excuse"])
    assert state.describe("fight merchant") == (
        "Fight the Merchant (cost 9, Leaves or Knots) and trash the Pact."
    )
    state.apply("fight merchant")
    assert state.describe("chip leaves") == (
        "Place a Leaves chip (worth 1 here) and draw a card; paid 0 of 9 so far."
    )
    assert "worth 0" in state.describe("chip moons")
    assert parse_decktet("merchant").label == "Merchant 9 ❦⌘"
