"""The Decktet card table and its notation."""

import pytest

from spyglass.components.decktet import (
    SUITS,
    TABLE,
    DecktetCard,
    decktet,
    full_deck,
    labels,
    load_table,
    matches,
    parse_decktet,
)
from spyglass.engine import RulesError


def test_the_extended_deck() -> None:
    deck = full_deck()
    assert len(deck) == 45 and len(set(deck)) == 45
    ranks = [c.rank for c in deck]
    assert ranks.count("Ace") == 6 and ranks.count("Crown") == 6
    assert ranks.count("Pawn") == 4 and ranks.count("Court") == 4 and ranks.count("Excuse") == 1
    # Every suit has an Ace, a Crown, four cards of each pair of ranks 2-9 (three cards per
    # rank, two suits each, 24 cards), two Pawns and two Courts.
    for suit in SUITS:
        assert sum(suit in c.suits for c in deck) == 1 + 8 + 2 + 2 + 1
    assert sum(len(c.suits) for c in deck) == 6 + 24 * 2 + 8 * 3 + 6


def test_the_end_is_the_crown_of_leaves_and_the_sea_of_waves() -> None:
    end, sea = decktet("end", "sea")
    assert end.rank == "Crown" and end.suits == ("Leaves",)
    assert end.types == {"Location", "Event"}
    assert sea.rank == "Crown" and sea.suits == ("Waves",) and sea.types == {"Location"}


def test_payment_values() -> None:
    values = {str(c): c.value for c in full_deck()}
    assert values["excuse"] == 0 and values["ace-of-moons"] == 1 and values["merchant"] == 9
    assert values["harvest"] == 10 and values["consul"] == 11 and values["huntress"] == 12


@pytest.mark.parametrize(
    "text", ["merchant", "Merchant", "the Merchant", "THE MERCHANT", "9LK", "9kl", " merchant "]
)
def test_names_and_codes_read_the_same_card(text: str) -> None:
    card = parse_decktet(text)
    assert card.name == "the Merchant" and card.suits == ("Leaves", "Knots")
    assert str(card) == "merchant" and card.code == "9LK" and card.label == "Merchant 9 ❦⌘"


def test_multi_word_names_aces_and_the_excuse() -> None:
    assert parse_decktet("chance-meeting") is parse_decktet("the Chance Meeting")
    assert parse_decktet("Ace of Moons") is parse_decktet("AM") is parse_decktet("ace-of-moons")
    assert parse_decktet("x") is parse_decktet("the excuse") and parse_decktet("X").value == 0
    assert labels(decktet("ace-of-moons", "excuse", "harvest")) == [
        "Ace of Moons ☾",
        "Excuse",
        "Harvest Pawn ☾☼❦",
    ]


@pytest.mark.parametrize("token", ["wizard", "10LK", "", 9])
def test_bad_names_are_named(token: object) -> None:
    with pytest.raises(RulesError, match=repr(token) if token != "" else "cannot read"):
        parse_decktet(token)  # type: ignore[arg-type]


def test_matching_counts_any_shared_suit() -> None:
    merchant, savage, author = decktet("merchant", "savage", "author")
    assert matches(savage, merchant.suits) and matches(author, merchant.suits)
    assert not matches(parse_decktet("excuse"), merchant.suits)


def test_cards_are_interned() -> None:
    import pickle

    card = parse_decktet("merchant")
    assert DecktetCard(int(card)) is card and pickle.loads(pickle.dumps(card)) is card


def _csv(rows: list[str]) -> str:
    good = [f"{e.name},{e.rank},{';'.join(e.suits)},{';'.join(sorted(e.types))}" for e in TABLE]
    return "\n".join(["name,rank,suits,types", *rows, *good[len(rows) :]]) + "\n"


@pytest.mark.parametrize(
    ("rows", "fragment"),
    [
        (["Ace of Moons,Ace,Moonz,"], "line 2: unknown suit 'Moonz'"),
        (["Ace of Moons,Eleven,Moons,"], "line 2: unknown rank 'Eleven'"),
        (["Ace of Moons,Ace,Moons,Person"], "line 2: unknown type 'Person'"),
        (["Ace of Moons,Ace,Moons"], "line 2: expected 4 fields"),
        (
            ["Ace of Suns,Ace,Suns,", "Ace of Suns,Ace,Suns,"],
            "line 3: 'Ace of Suns' already appears",
        ),
    ],
)
def test_table_errors_name_the_line(rows: list[str], fragment: str) -> None:
    with pytest.raises(RulesError, match=fragment):
        load_table(_csv(rows), "decktet.csv")


def test_table_header_and_size_are_checked() -> None:
    with pytest.raises(RulesError, match="line 1"):
        load_table("name,rank\n", "decktet.csv")
    with pytest.raises(RulesError, match="has 45 cards, not 44"):
        load_table(_csv([])[: _csv([]).rindex("the Excuse")], "decktet.csv")
