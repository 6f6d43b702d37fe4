"""Tinker Tailor: buying goods after a role (change from the market only), the market refilled
after each role, the decks reshuffled when they run out, and the Pirate's blocking cards."""

import pytest

from spyglass.engine import IllegalAction, Rng
from tests.games.tinker_tailor_tables import (
    called,
    draft,
    give,
    goods_market,
    hand,
    legal,
    money_market,
    table,
)

GOODS = "bread fish cloth wine gems"


def buying(money: str = "1 2 3 4 5", goods: str = GOODS, purse: str = "5"):
    """Seat 0 holds ``purse`` and has just performed the Tinker with nothing to swap: it may
    buy. Seats 1 and 2 hold the Witch and the Merchant."""
    state = table(3, 0, money=money, goods=goods, roles="tinker witch merchant thief actor")
    give(state, 0, purse)
    draft(state, "tinker", "witch", "merchant")
    assert called(state) == "tinker" and state.pending.kind == "buy"
    return state


def test_rulebook_example_a_five_buys_wine_with_a_one_in_change() -> None:
    state = buying()
    assert "buy wine with 5" in legal(state)
    state.apply("buy wine with 5")
    assert state.pending.credit == 1
    assert "change 1" in legal(state) and "change 2" not in legal(state)
    state.apply("change 1")
    assert hand(state, 0) == ["wine", "1"]
    assert [str(c) for c in state.money_discard] == ["5"]
    # The gaps are refilled only once the buying is over.
    assert goods_market(state) == ["bread", "fish", "cloth", "empty", "gems"]
    assert money_market(state) == ["empty", "2", "3", "4", "5"]
    state.apply("done")
    assert goods_market(state) == ["bread", "fish", "cloth", "bread", "gems"]
    assert money_market(state) == ["1", "2", "3", "4", "5"]
    assert called(state) == "merchant" or called(state) == "witch"


def test_one_money_card_pays_for_several_goods() -> None:
    state = buying()
    state.apply("buy fish with 5")
    assert state.pending.credit == 3
    assert "buy cloth" in legal(state) and "buy wine" not in legal(state)
    state.apply("buy cloth")
    assert hand(state, 0) == ["fish", "cloth"]
    assert state.pending is None or state.current_player != 0 or state.pending.kind != "buy"


def test_several_money_cards_pay_for_one_good() -> None:
    state = buying(purse="2 3 1")
    assert "buy gems with 3 2" in legal(state)
    assert "buy gems with 3 1" not in legal(state), "3 + 1 is not enough for gems"
    assert "buy wine with 3 1" in legal(state) and "buy wine with 2 1" not in legal(state)
    state.apply("buy gems with 3 2")
    assert hand(state, 0) == ["gems", "1"]


def test_paying_more_cards_than_needed_for_bigger_change() -> None:
    state = buying(purse="1 1 1")
    # Three 1s for a bread, with a 2 back in change: a purchase names only the cards it needs,
    # so the extra cards are paid first.
    with pytest.raises(IllegalAction, match="only the cards it needs"):
        state.apply("buy bread with 1 1")
    state.apply("pay 1")
    state.apply("pay 1")
    state.apply("pay 1")
    assert state.pending.credit == 3
    assert "done" not in legal(state), "money paid must buy something"
    assert not any(m.startswith("change") for m in legal(state)), "change comes after buying"
    state.apply("buy bread")
    state.apply("change 2")
    assert hand(state, 0) == ["bread", "2"]


def test_money_paid_after_the_last_purchase_gives_no_change_until_it_buys() -> None:
    state = buying(purse="2 3")
    state.apply("buy fish with 2")
    assert state.pending.credit == 0 and "pay 3" in legal(state)
    state.apply("pay 3")  # 3 of credit, but no good bought with it: nothing is in excess yet
    assert not any(m.startswith("change") for m in legal(state))
    assert "done" not in legal(state)
    with pytest.raises(IllegalAction, match="must buy a good first"):
        state.apply("change 1")
    with pytest.raises(IllegalAction, match="money paid must buy goods"):
        state.apply("done")
    state.apply("buy bread")  # now the 3 bought a bread worth 1: 2 in excess
    assert state.pending.credit == 2 and "change 2" in legal(state)


# Issue 25's game: seed 1, four players, the heuristic bots of seeds 10 to 13. Seat 2 has just
# bought a bread from its credit and holds a 2 and a 3, with no credit left.
ISSUE_25_LINE = (
    "pick pirate, pick preacher, pick young-man, pick sailor, keep gems, take gems, take gems,"
    " give gems to 0, take 3, take cloth, buy bread with 3, change 1, buy bread, take gems,"
    " pick outlaw, pick sailor, pick thief, pick tinker, swap bread for gems,"
    " swap bread for wine, buy bread with 1, keep bread, rob 2, rob 0, pick pirate,"
    " pick soldier, pick preacher, pick poor-man, take 2, buy bread with 2, change 1, done,"
    " take cloth, take wine, take bread, give bread to 2, take 5, take cloth, done,"
    " pick rich-man, pick pirate, pick old-man, pick soldier, take 3, buy bread with 5,"
    " change 2, change 2, done, take 3, buy bread with 3, change 2, done, take 5, take 4, done,"
    " pick rich-man, pick outlaw, pick young-man, pick tailor, take cloth, done, take 4,"
    " buy bread with 4, buy fish, buy fish with 4, change 2, buy fish with 2, buy fish with 5,"
    " change 4, done, rob 0, done, take gems, buy bread with 2, buy bread"
)


def test_issue_25_no_change_for_money_that_bought_nothing() -> None:
    import spyglass

    state = spyglass.load("tinker-tailor").new_state(players=4, seed=1)
    for move in ISSUE_25_LINE.split(", "):
        state.apply(move)
    assert state.pending.kind == "buy" and state.pending.seat == 2
    assert state.pending.credit == 0 and money(state, 2) == [2, 3]
    state.apply("pay 3")
    with pytest.raises(IllegalAction):
        state.apply("change 1")  # it turned [2, 3] into [1, 1, 1, 2], goods unchanged
    assert money(state, 2) == [2]


def money(state, seat: int) -> list[int]:
    return sorted(int(card) for card in hand(state, seat) if card.isdecimal())


def test_change_comes_from_the_market_only_and_unused_credit_is_lost() -> None:
    state = buying(money="2 2 3 4 5")
    state.apply("buy wine with 5")
    # A 1 in change is owed, but there is none in the market (the deck has some).
    assert not any(m.startswith("change") for m in legal(state))
    assert any(c.value == 1 for c in state.money_deck)
    state.apply("done")
    assert hand(state, 0) == ["wine"]
    assert any("leaves 1 of credit unspent" in line for line in state.view(1)["log"])


def test_a_player_without_money_does_not_buy() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="tailor witch merchant")
    draft(state, "tailor", "witch", "merchant")
    state.apply("take fish")
    assert called(state) == "witch" and state.current_player == 1


def test_only_affordable_goods_are_offered_and_buying_is_optional() -> None:
    state = buying(purse="2")
    assert legal(state) == ["buy bread with 2", "buy fish with 2", "pay 2", "done"]
    with pytest.raises(IllegalAction, match="costs 5"):
        state.apply("buy gems with 2")
    state.apply("done")
    assert hand(state, 0) == ["2"]


def test_buying_follows_every_role_performed() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="soldier witch merchant")
    draft(state, "soldier", "witch", "merchant")
    state.apply("take 4")
    assert state.pending.kind == "buy" and state.current_player == 0
    state.apply("buy wine with 4")
    assert hand(state, 0) == ["wine"]


# --------------------------------------------------------------------------- the market


def test_an_empty_deck_is_refilled_from_its_shuffled_discard_pile() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="young-man witch merchant")
    state.goods_discard.extend(state.goods_deck)
    state.goods_deck.clear()
    draft(state, "young-man", "witch", "merchant")
    state.apply("take gems")
    assert any("the goods deck ran out" in line for line in state.view(1)["log"])
    assert "empty" not in goods_market(state)
    assert state.goods_discard == [] and len(state.goods_deck) == 78 - 5 - 1


def test_with_deck_and_discard_pile_both_empty_the_slot_stays_empty() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="young-man witch merchant")
    give(state, 2, " ".join(str(c) for c in state.goods_deck))
    draft(state, "young-man", "witch", "merchant")
    state.apply("take gems")
    assert goods_market(state) == ["bread", "fish", "cloth", "wine", "empty"]


# --------------------------------------------------------------------------- pirate cards


def first_legal_but(state, avoid: str) -> str:
    options = legal(state)
    safe = [m for m in options if avoid not in m]
    if "done" in safe:
        return "done"
    return safe[0] if safe else options[0]


def test_pirate_cards_block_their_slots_until_the_pirate_is_called_next_round() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="pirate witch merchant")
    give(state, 0, "4")
    draft(state, "pirate", "witch", "merchant")
    state.apply("take gems")
    state.apply("take 5")
    # The Pirate's own purchase: the gems' slot holds a pirate card, not a card to buy.
    assert "buy gems with 5" not in legal(state)
    state.apply("buy wine with 4")
    state.apply("done")
    # A bought card's slot is refilled as usual; the pirate slots are not.
    assert goods_market(state) == ["bread", "fish", "cloth", "bread", "pirate"]
    assert money_market(state) == ["1", "2", "3", "4", "pirate"]
    state.apply("name 0 gems")  # the Witch (seat 1)
    assert state.round == 2 and state.phase == "draft"
    assert goods_market(state)[4] == "pirate" and money_market(state)[4] == "pirate"
    pirate = 9  # the Pirate's place in the rhyme (0-based)
    while state.round == 2 and not (state.phase != "draft" and state.rhyme >= pirate):
        assert goods_market(state)[4] == "pirate" and money_market(state)[4] == "pirate"
        state.apply(first_legal_but(state, "pirate"))
    # Called in round 2 (held by nobody, as the draft avoided it): the pirate cards leave and
    # their slots are refilled.
    assert any("2 pirate cards leave the market" in line for line in state.view(0)["log"])
    assert "pirate" not in goods_market(state) and "pirate" not in money_market(state)
    assert state.view(2)["table"]["piles"]["pirate cards left"] == 4


def test_pirate_cards_placed_by_the_actor_also_wait_for_the_next_pirate() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="actor witch merchant pirate thief")
    draft(state, "actor", "witch", "merchant")
    state.apply("name 0 gems")
    state.apply("perform pirate")
    state.apply("take wine")
    state.apply("done")
    assert goods_market(state) == ["bread", "fish", "cloth", "pirate", "gems"]
    assert state.round == 2
    assert goods_market(state)[3] == "pirate"


def test_in_random_games_pirate_cards_never_outlive_the_next_pirate_call() -> None:
    rng = Rng(4)
    pirate = 9
    for seed in range(8):
        state = table(2 + seed % 5, 0) if seed % 5 != 0 else table(2, 1)
        placed = 0
        while not state.is_over:
            slots = [s for s in (*state.goods_market, *state.money_market) if s is not None]
            rounds = [-s for s in slots if s < 0]
            placed = max(placed, len(rounds))
            # Pirate cards carry the round they were placed in.
            assert all(r in (state.round, state.round - 1) for r in rounds)
            if state.phase != "draft" and state.rhyme >= pirate:
                assert all(r == state.round for r in rounds)
            state.apply(rng.choice(state.legal_actions()))
        assert placed <= 4
