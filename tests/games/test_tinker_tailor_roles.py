"""Tinker Tailor: every role of the reconstructed edition, performed with stacked decks, and the
two-player variant's rule that a player's own two roles never harm each other."""

import pytest

from spyglass.engine import IllegalAction, Rng
from spyglass.games.tinker_tailor.cards import parse_card
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

# Three players, seat 0 starts: the draft order is 0, 1, 2 and two role cards are left over.
MONEY = "1 2 3 4 5"
GOODS = "bread fish cloth wine gems"


def three(roles: str, picks: str, money: str = MONEY, goods: str = GOODS):
    """Round 1 of a 3-player game (seat 0 starts) with the five role cards ``roles`` dealt and
    ``picks`` kept by seats 0, 1, 2 in turn."""
    state = table(3, 0, money=money, goods=goods, roles=roles)
    draft(state, *picks.split())
    return state


# --------------------------------------------------------------------------- 1 Tinker


def test_tinker_swaps_up_to_two_goods_with_the_market_one_for_one() -> None:
    state = table(3, 0, money=MONEY, goods=GOODS, roles="tinker soldier witch thief actor")
    give(state, 0, "bread fish")
    draft(state, "tinker", "soldier", "witch")
    assert called(state) == "tinker" and state.current_player == 0
    options = legal(state)
    assert "swap bread for gems" in options and "swap fish for wine" in options
    assert "swap bread for bread" not in options and "done" in options
    state.apply("swap bread for gems")
    # The bread takes the gems' place in the market.
    assert goods_market(state) == ["bread", "fish", "cloth", "wine", "bread"]
    state.apply("swap fish for wine")
    assert hand(state, 0) == ["wine", "gems"]
    assert goods_market(state) == ["bread", "fish", "cloth", "fish", "bread"]
    assert called(state) == "soldier", "two swaps at most: the rhyme goes on"


def test_tinker_may_stop_after_one_swap_or_none() -> None:
    state = table(3, 0, money=MONEY, goods=GOODS, roles="tinker soldier witch thief actor")
    give(state, 0, "bread fish")
    draft(state, "tinker", "soldier", "witch")
    state.apply("swap fish for cloth")
    state.apply("done")
    assert hand(state, 0) == ["bread", "cloth"]
    assert called(state) == "soldier"


def test_tinker_without_goods_does_nothing() -> None:
    state = three("tinker soldier witch thief actor", "tinker soldier witch")
    assert called(state) == "soldier" and hand(state, 0) == []


# --------------------------------------------------------------------------- 2 Tailor


def test_tailor_takes_one_goods_card_costing_three_or_less() -> None:
    state = three("tailor soldier witch thief actor", "tailor soldier witch")
    assert called(state) == "tailor"
    assert legal(state) == ["take bread", "take fish", "take cloth"]
    with pytest.raises(IllegalAction, match="costing 3 or less"):
        state.apply("take wine")
    state.apply("take cloth")
    assert hand(state, 0) == ["cloth"]
    # The gap is refilled from the top of the goods deck (bread follows the stacked cards).
    assert goods_market(state) == ["bread", "fish", "bread", "wine", "gems"]


# --------------------------------------------------------------------------- 3 Soldier


def test_soldier_takes_one_money_card_and_the_market_is_refilled() -> None:
    state = three("soldier tailor witch thief actor", "tailor soldier witch", money="1 2 3 4 5 2")
    state.apply("take cloth")  # seat 0, the Tailor
    assert called(state) == "soldier" and state.current_player == 1
    assert legal(state) == ["take 1", "take 2", "take 3", "take 4", "take 5"]
    with pytest.raises(IllegalAction, match="takes money"):
        state.apply("take bread")
    state.apply("take 5")
    assert hand(state, 1) == ["5"]
    assert money_market(state) == ["1", "2", "3", "4", "2"]


# --------------------------------------------------------------------------- 4 Sailor


def test_sailor_looks_at_two_keeps_one_and_discards_the_other_face_up() -> None:
    state = three(
        "sailor witch merchant thief actor",
        "sailor witch merchant",
        goods=GOODS + " gems wine",
    )
    assert called(state) == "sailor" and state.current_player == 0
    assert legal(state) == ["keep wine", "keep gems"]
    mine, other = state.view(0)["table"], state.view(1)["table"]
    assert mine["looking"] == ["gems", "wine"] and other["looking"] == []
    state.apply("keep gems")
    assert hand(state, 0) == ["gems"]
    assert [str(c) for c in state.goods_discard] == ["wine"]
    log1 = state.view(1)["log"]
    assert any("keeps one of the cards" in line for line in log1)
    assert not any("keeps gems" in line for line in log1)


def test_sailor_with_two_cards_of_one_kind_keeps_one_of_them() -> None:
    state = three(
        "sailor witch merchant thief actor", "sailor witch merchant", goods=GOODS + " fish fish"
    )
    assert hand(state, 0) == ["fish"] and [str(c) for c in state.goods_discard] == ["fish"]


# --------------------------------------------------------------------------- 5 Rich Man


def test_rich_man_takes_a_second_card_when_he_holds_the_most_money_cards() -> None:
    state = three("rich-man witch merchant thief actor", "rich-man witch merchant")
    give(state, 1, "1")
    state.apply("take 4")
    # Seat 0 now holds 1 money card and seat 1 holds 1: not more than every other player.
    assert hand(state, 0) == ["4"]
    assert state.view(2)["table"]["revealed"] == (
        "for the Rich Man, money cards held: seat 0 1, seat 1 1, seat 2 0"
    )
    assert called(state) == "rich-man" and state.pending.kind == "buy"


def test_rich_man_with_the_most_money_cards_takes_two() -> None:
    state = three("rich-man witch merchant thief actor", "rich-man witch merchant")
    give(state, 0, "1")
    give(state, 1, "2")
    state.apply("take 3")
    assert state.current_player == 0 and state.pending.kind == "take"
    state.apply("take 5")
    assert hand(state, 0) == ["1", "3", "5"]


def test_money_counts_are_revealed_only_by_a_role_that_needs_them() -> None:
    state = three("rich-man witch merchant thief actor", "rich-man witch merchant")
    assert state.view(1)["table"]["revealed"] == ""
    state.apply("take 3")
    assert "money cards held" in state.view(1)["table"]["revealed"]


# --------------------------------------------------------------------------- 6 Poor Man


def test_poor_man_with_the_fewest_goods_takes_a_goods_card_ties_count() -> None:
    state = table(3, 0, money=MONEY, goods=GOODS, roles="poor-man witch merchant thief actor")
    give(state, 0, "bread")
    give(state, 1, "fish")
    give(state, 2, "fish cloth")
    draft(state, "poor-man", "witch", "merchant")
    assert called(state) == "poor-man"
    assert legal(state) == [f"take {g}" for g in GOODS.split()]
    assert "goods cards held: seat 0 1, seat 1 1, seat 2 2" in state.view(2)["table"]["revealed"]


def test_poor_man_otherwise_takes_a_money_card_of_value_one_or_two() -> None:
    state = table(3, 0, money=MONEY, goods=GOODS, roles="poor-man witch merchant thief actor")
    give(state, 0, "bread fish")
    give(state, 1, "fish")
    draft(state, "poor-man", "witch", "merchant")
    assert legal(state) == ["take 1", "take 2"]
    state.apply("take 2")
    assert hand(state, 0) == ["bread", "fish", "2"]


# --------------------------------------------------------------------------- 7 Beggar Man


def test_beggar_man_takes_a_one_if_the_market_has_one() -> None:
    state = three("beggar-man witch merchant thief actor", "beggar-man witch merchant")
    assert hand(state, 0) == ["1"]
    assert called(state) == "beggar-man" and state.pending.kind == "buy"


def test_beggar_man_gets_nothing_without_a_one_in_the_market() -> None:
    state = three(
        "beggar-man witch merchant thief actor", "beggar-man witch merchant", money="2 2 3 4 5"
    )
    assert hand(state, 0) == [] and called(state) == "witch"


# --------------------------------------------------------------------------- 8 Thief


def test_thief_takes_a_money_card_at_random_from_the_player_he_chooses() -> None:
    state = three("thief witch merchant tinker actor", "thief witch merchant")
    give(state, 2, "4")
    assert legal(state) == ["rob 1", "rob 2"]
    state.apply("rob 2")
    assert hand(state, 0) == ["4"] and hand(state, 2) == []
    seen_by_1 = " ".join(state.view(1)["log"])
    assert "steals a money card at random from seat 2" in seen_by_1
    assert "steals a 4" not in seen_by_1
    assert any("steals a 4 from seat 2" in line for line in state.view(2)["log"])


def test_thief_robbing_a_player_without_money_gets_nothing() -> None:
    state = three("thief witch merchant tinker actor", "thief witch merchant")
    give(state, 1, "bread")
    state.apply("rob 1")
    assert hand(state, 0) == [] and hand(state, 1) == ["bread"]


def test_thief_takes_each_money_card_about_equally_often() -> None:
    counts = {"1": 0, "5": 0}
    for k in range(40):
        state = three("thief witch merchant tinker actor", "thief witch merchant")
        state._rng = Rng(k)
        give(state, 1, "1 5")
        state.apply("rob 1")
        counts[hand(state, 0)[0]] += 1
    assert counts["1"] >= 8 and counts["5"] >= 8


# --------------------------------------------------------------------------- 9 Preacher


def test_preacher_gives_one_of_two_goods_to_the_beggar_man() -> None:
    state = three(
        "preacher beggar-man witch thief actor", "preacher beggar-man witch", money="2 2 3 4 5"
    )
    assert called(state) == "preacher" and state.current_player == 0
    state.apply("take gems")
    state.apply("take bread")
    assert legal(state) == ["give bread to 1", "give gems to 1"]
    state.apply("give bread to 1")
    assert hand(state, 0) == ["gems"] and hand(state, 1) == ["bread"]


def test_preacher_without_a_beggar_man_gives_to_a_player_of_his_choice() -> None:
    state = three("preacher witch young-man beggar-man actor", "preacher witch young-man")
    state.apply("take gems")
    state.apply("take wine")
    assert legal(state) == ["give wine to 1", "give wine to 2", "give gems to 1", "give gems to 2"]
    state.apply("give wine to 2")
    assert hand(state, 0) == ["gems"] and hand(state, 2) == ["wine"]


# --------------------------------------------------------------------------- 10 Pirate


def test_pirate_takes_up_to_two_cards_and_leaves_pirate_cards_in_their_places() -> None:
    state = three("pirate witch merchant thief actor", "pirate witch merchant")
    assert "done" in legal(state) and "take 5" in legal(state) and "take gems" in legal(state)
    state.apply("take gems")
    state.apply("take 5")
    assert hand(state, 0) == ["gems", "5"]
    assert goods_market(state) == ["bread", "fish", "cloth", "wine", "pirate"]
    assert money_market(state) == ["1", "2", "3", "4", "pirate"]
    assert state.view(1)["table"]["piles"]["pirate cards left"] == 2


def test_pirate_may_take_fewer_cards() -> None:
    state = three("pirate witch merchant thief actor", "pirate witch merchant")
    state.apply("take wine")
    state.apply("done")
    assert hand(state, 0) == ["wine"]
    assert goods_market(state) == ["bread", "fish", "cloth", "pirate", "gems"]


# --------------------------------------------------------------------------- 11 Outlaw


def test_outlaw_takes_a_goods_card_at_random_from_the_player_he_chooses() -> None:
    state = three("outlaw witch merchant thief actor", "outlaw witch merchant")
    give(state, 1, "gems 3")
    state.apply("rob 1")
    assert hand(state, 0) == ["gems"] and hand(state, 1) == ["3"]
    assert any("steals a goods card at random from seat 1" in x for x in state.view(2)["log"])


# --------------------------------------------------------------------------- 12 Jailor


def test_jailor_receives_a_card_chosen_by_the_thief_pirate_and_outlaw_holders() -> None:
    roles = "jailor thief pirate outlaw witch actor"
    state = table(4, 0, money=MONEY + " 1", goods=GOODS + " bread", roles=roles)
    give(state, 1, "wine 2")
    give(state, 3, "gems")
    draft(state, "jailor", "thief", "pirate", "outlaw")
    state.apply("rob 0")  # the Thief robs the Jailor, who has no money
    state.apply("done")  # the Thief buys nothing
    state.apply("done")  # the Pirate takes nothing
    state.apply("rob 1")  # the Outlaw takes seat 1's wine
    assert hand(state, 3) == ["wine", "gems"]
    # The Jailor: the Thief's holder (seat 1) gives first; holding only a 2, it has no choice.
    assert called(state) == "jailor"
    assert hand(state, 1) == [] and hand(state, 0) == ["2"]
    assert state.current_player == 3 and legal(state) == ["give wine", "give gems"]
    state.apply("give wine")
    assert hand(state, 0) == ["wine", "2"]
    # The Pirate's holder (seat 2) had nothing to give.
    assert any("seat 2 has no card to give" in x for x in state.view(0)["log"])
    others = " ".join(state.view(2)["log"])
    assert "seat 3 gives seat 0 a goods card" in others and "gives wine" not in others


def test_jailor_asks_the_holder_of_the_outlaw_for_any_card_type() -> None:
    state = three("jailor outlaw witch thief actor", "jailor outlaw witch")
    give(state, 1, "bread 3")
    state.apply("rob 2")  # the Outlaw robs seat 2, who has nothing
    state.apply("done")  # and buys nothing
    assert called(state) == "jailor" and state.current_player == 1
    assert legal(state) == ["give bread", "give 3"]
    with pytest.raises(IllegalAction, match="you hold no wine"):
        state.apply("give wine")
    state.apply("give 3")
    assert hand(state, 0) == ["3"] and hand(state, 1) == ["bread"]


# --------------------------------------------------------------------------- 13 Old Man


def test_old_man_takes_a_one_or_two_and_draws_the_top_goods_card_face_down() -> None:
    state = three(
        "old-man witch merchant thief actor", "old-man witch merchant", goods=GOODS + " gems"
    )
    assert legal(state) == ["take 1", "take 2"]
    state.apply("take 2")
    assert hand(state, 0) == ["gems", "2"]
    assert any("seat 0 draws a goods card" in x for x in state.view(1)["log"])
    assert "gems" not in state.view(1)["table"]["known"]


# --------------------------------------------------------------------------- 14 Young Man


def test_young_man_takes_any_goods_card() -> None:
    state = three("young-man witch merchant thief actor", "young-man witch merchant")
    assert legal(state) == [f"take {g}" for g in GOODS.split()]
    state.apply("take gems")
    assert hand(state, 0) == ["gems"]


# --------------------------------------------------------------------------- 15 Merchant


def test_merchant_sells_up_to_two_goods_for_money_worth_no_more_than_their_cost() -> None:
    roles = "merchant witch tinker thief actor"
    state = table(3, 0, money="1 1 2 3 5", goods=GOODS, roles=roles)
    give(state, 0, "wine fish bread")
    draft(state, "merchant", "witch", "tinker")
    assert legal(state) == ["sell bread", "sell fish", "sell wine", "done"]
    state.apply("sell wine")
    state.apply("sell fish")
    # Sold for 4 + 2 = 6: money from the market worth at most 6 in all.
    assert state.pending.kind == "cash" and state.pending.credit == 6
    assert legal(state) == ["take 1", "take 2", "take 3", "take 5", "done"]
    state.apply("take 5")
    assert legal(state) == ["take 1", "done"]
    state.apply("take 1")
    assert hand(state, 0) == ["bread", "1", "5"]
    assert [str(c) for c in state.goods_discard] == ["wine", "fish"]


def test_merchant_may_leave_part_of_the_price_unclaimed() -> None:
    roles = "merchant witch tinker thief actor"
    state = table(3, 0, money="4 4 4 5 5", goods=GOODS, roles=roles)
    give(state, 0, "cloth")
    draft(state, "merchant", "witch", "tinker")
    state.apply("sell cloth")
    # Nothing in the money market is worth 3 or less: the sale brings nothing.
    assert hand(state, 0) == [] and called(state) == "witch"
    assert any("leaves 3 of the sale price unclaimed" in x for x in state.view(2)["log"])


# --------------------------------------------------------------------------- 16 Witch


def test_witch_names_a_player_and_a_kind_and_gets_one_if_they_hold_it() -> None:
    state = three(
        "witch merchant beggar-man thief actor", "witch merchant beggar-man", money="2 2 3 4 5"
    )
    give(state, 2, "wine wine fish")
    assert called(state) == "witch"
    assert "name 1 gems" in legal(state) and "name 0 gems" not in legal(state)
    state.apply("name 2 wine")
    assert hand(state, 0) == ["wine"] and hand(state, 2) == ["fish", "wine"]


def test_witch_naming_a_kind_not_held_gets_nothing() -> None:
    state = three(
        "witch merchant beggar-man thief actor", "witch merchant beggar-man", money="2 2 3 4 5"
    )
    give(state, 2, "wine")
    state.apply("name 2 gems")
    assert hand(state, 0) == [] and hand(state, 2) == ["wine"]


# --------------------------------------------------------------------------- 17 Actor


def test_actor_sees_the_left_over_roles_and_performs_one() -> None:
    state = three("actor soldier witch young-man thief", "actor soldier witch")
    give(state, 1, "4")
    leftover = state.view(0)["table"]["leftover"]
    assert leftover == [None, None], "the left-over cards are face down until the Actor"
    state.apply("take 5")  # seat 1, the Soldier
    state.apply("done")  # seat 1 does not buy
    state.apply("name 0 gems")  # seat 2, the Witch
    assert called(state) == "actor" and state.current_player == 0
    assert state.view(0)["table"]["leftover"] == ["thief", "young-man"]
    assert state.view(1)["table"]["leftover"] == [None, None]
    assert legal(state) == ["perform thief", "perform young-man"]
    state.apply("perform thief")
    assert state.view(1)["table"]["leftover"] == ["thief", None]
    state.apply("rob 1")
    assert hand(state, 0) in (["4"], ["5"]) and len(hand(state, 1)) == 1


def test_actor_performing_a_preacher_gives_to_the_beggar_man() -> None:
    state = three("actor beggar-man witch preacher thief", "actor beggar-man witch")
    assert hand(state, 1) == ["1"]
    state.apply("done")  # the Beggar Man buys nothing
    state.apply("name 0 gems")
    state.apply("perform preacher")
    state.apply("take gems")
    state.apply("take wine")
    assert legal(state) == ["give wine to 1", "give gems to 1"]


# --------------------------------------------------------------------------- two players


def test_two_players_preacher_and_beggar_man_keep_both_goods() -> None:
    """The rulebook's first two-player example: one player holds the Preacher and the Beggar
    Man, so the Preacher keeps one goods card and, as Beggar Man, receives the other."""
    state = table(
        2,
        0,
        money="1 2 3 4 5 1",
        goods="bread fish cloth wine gems bread",
        roles="preacher beggar-man thief witch young-man merchant old-man",
    )
    draft(state, "preacher", "witch", "-thief", "beggar-man", "merchant")
    assert state.draft.picks() == [
        [parse_card("preacher"), parse_card("beggar-man")],
        [parse_card("witch"), parse_card("merchant")],
    ]
    # Beggar Man first (the rhyme's order): seat 0 takes the 1, then buys nothing.
    assert called(state) == "beggar-man" and hand(state, 0) == ["1"]
    state.apply("done")
    assert called(state) == "preacher"
    state.apply("take gems")
    state.apply("take wine")
    assert hand(state, 0) == ["wine", "gems", "1"], "no gift: the Beggar Man is the Preacher"
    assert hand(state, 1) == []
    assert any("keeps the gift" in line for line in state.view(1)["log"])


def test_two_players_jailor_and_thief_the_thief_gives_nothing() -> None:
    """The second example: the Jailor's holder also holds the Thief, so the Thief gives the
    Jailor nothing; the other player holds the Outlaw and the Pirate and still gives two."""
    state = table(
        2,
        0,
        money="1 2 3 4 5 1",
        goods="bread fish cloth wine gems bread",
        roles="jailor outlaw witch tinker thief pirate tailor",
    )
    give(state, 0, "2")
    give(state, 1, "wine gems 3")
    draft(state, "jailor", "outlaw", "-tinker", "thief", "pirate")
    assert state.draft.picks() == [
        [parse_card("jailor"), parse_card("thief")],
        [parse_card("outlaw"), parse_card("pirate")],
    ]
    # The Thief: the only other player is robbed at once (no choice).
    assert called(state) == "thief" and hand(state, 0) == ["2", "3"]
    state.apply("done")  # seat 0 buys nothing
    state.apply("done")  # the Pirate (seat 1) takes nothing
    # The Outlaw robs seat 0, who has no goods; then the Jailor.
    assert called(state) == "jailor" and state.current_player == 1
    assert legal(state) == ["give wine", "give gems"]
    state.apply("give gems")
    # The Pirate's card and the Outlaw's card: one each, the second without a choice.
    assert hand(state, 0) == ["wine", "gems", "2", "3"] and hand(state, 1) == []
    assert any("holds the Thief too" in line for line in state.view(0)["log"])


def test_two_players_a_player_performs_both_roles_in_rhyme_order_and_buys_after_each() -> None:
    state = table(
        2,
        1,
        money="1 2 3 4 5 1",
        goods="bread fish cloth wine gems bread",
        roles="soldier old-man witch tinker young-man pirate tailor",
    )
    # Seat 1 starts: it keeps the Soldier, seat 0 the Old Man, discards the Tinker and hands
    # the Witch back; seat 1 then keeps the Young Man and seat 0 the Tailor.
    draft(state, "soldier", "old-man", "-tinker", "young-man", "tailor")
    assert called(state) == "tailor" and state.current_player == 0
    state.apply("take cloth")
    assert called(state) == "soldier" and state.current_player == 1
    state.apply("take 5")
    assert state.pending.kind == "buy" and state.current_player == 1
    state.apply("buy gems with 5")
    assert called(state) == "old-man" and state.current_player == 0
