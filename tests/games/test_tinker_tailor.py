"""Tinker Tailor: set-up, rounds, the role draft in both variants, what each seat sees, the
notation, and the edition file. Roles, buying and scoring have their own test files."""

import json
from collections import Counter
from importlib import resources

import pytest

import spyglass
from spyglass.engine import IllegalAction, Rng, RulesError
from spyglass.games.tinker_tailor.cards import ROLE_CARDS, parse_card
from spyglass.games.tinker_tailor.edition import EDITION, EDITION_FILE, load_edition
from spyglass.games.tinker_tailor.rules import ROUNDS
from tests.games.tinker_tailor_tables import (
    GAME,
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


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def play_out(state, rng: Rng) -> None:
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))


# --------------------------------------------------------------------------- the edition


def test_the_game_is_labelled_a_reconstructed_edition() -> None:
    assert GAME.info.edition == "reconstructed edition"
    state = GAME.new_state(players=3, seed=1)
    assert state.view(None)["table"]["edition"] == "reconstructed edition"
    assert "reconstructed edition" in GAME.rules_text()


def test_edition_holds_the_rulebook_facts() -> None:
    assert [g.kind for g in EDITION.goods] == ["Bread", "Fish", "Cloth", "Wine", "Gems"]
    assert sum(g.cards for g in EDITION.goods) == 78
    assert sum(m.cards for m in EDITION.money) == 20
    assert sorted({m.value for m in EDITION.money}) == [1, 2, 3, 4, 5]
    assert EDITION.pirate_cards == 4 and EDITION.collection_points == 10
    wine = next(g for g in EDITION.goods if g.kind == "Wine")
    assert wine.cost == 4
    rhyme = [r.name for r in EDITION.roles]
    assert rhyme == [
        "Tinker",
        "Tailor",
        "Soldier",
        "Sailor",
        "Rich Man",
        "Poor Man",
        "Beggar Man",
        "Thief",
        "Preacher",
        "Pirate",
        "Outlaw",
        "Jailor",
        "Old Man",
        "Young Man",
        "Merchant",
        "Witch",
        "Actor",
    ]


def edited(old: str, new: str) -> str:
    package = resources.files("spyglass.games.tinker_tailor")
    text = package.joinpath(EDITION_FILE).read_text("utf-8")
    assert old in text, old
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("cards = 20\ncost = 1", "cards = 19\ncost = 1", "the goods entries hold 77 cards"),
        (
            "points = [1, 2, 3, 5, 7, 10, 14, 18]",
            "points = [1, 2, 3, 5, 7, 10, 14]",
            r"goods entry 1 \(Bread\): points must list 8",
        ),
        (
            "points = [3, 7, 12, 19, 28, 40, 60, 90]",
            "points = [3, 7, 12, 19, 28, 40, 90, 60]",
            r"goods entry 5 \(Gems\): points must not fall",
        ),
        ('kind = "Fish"', 'kind = "Bread"', r"goods entry 2 \(Bread\): Bread is listed twice"),
        ("value = 5\ncards = 2", "value = 5\ncards = 3", "the money entries hold 21 cards"),
        (
            'effects = [{ do = "take", from = "money" }]',
            'effects = [{ do = "grab", from = "money" }]',
            r"roles entry 3 \(Soldier\), effect 1: unknown effect 'grab'",
        ),
        (
            'effects = [{ do = "take", max_cost = 3 }]',
            'effects = [{ do = "take", max_cost = 3, colour = "red" }]',
            r"roles entry 2 \(Tailor\), effect 1: unknown key 'colour'",
        ),
        (
            'to = "Beggar Man"',
            'to = "Beggarman"',
            r"roles entry 9 \(Preacher\), effect 2: 'to' must name a role",
        ),
        ('name = "Actor"', 'name = "Tinker"', r"roles entry 17 \(Tinker\): the name is already"),
        ("pirate_cards = 4", "pirate_cards = -1", "pirate_cards must be a whole number"),
        ("collection_points = 10", "collection_points = [", "not valid TOML"),
    ],
)
def test_edition_errors_name_the_entry(old: str, new: str, message: str) -> None:
    with pytest.raises(RulesError, match=message) as error:
        load_edition(edited(old, new))
    assert str(error.value).startswith(EDITION_FILE)


def test_the_shipped_edition_file_loads_and_a_changed_number_is_used() -> None:
    fish = 'kind = "Fish"\ncards = 18\ncost = '  # the rulebook leaves Fish's cost open
    changed = load_edition(edited(fish + "2", fish + "3"))
    assert next(g.cost for g in changed.goods if g.kind == "Fish") == 3
    assert load_edition(edited("", "")) == EDITION


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if fragment in line)


# Facts the rulebook fixes: any edition must keep them (issue 25).
@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        (
            'kind = "Wine"\ncards = 14\ncost = 4',
            'kind = "Wine"\ncards = 14\ncost = 3',
            'kind = "Wine"',
            "goods entry 4 (Wine): cost must be 4 (the rulebook's buying example: Wine costs 4),"
            " not 3",
        ),
        (
            "points = [3, 7, 12, 19, 28, 40, 60, 90]",
            "points = [3, 7, 12, 19, 28, 40, 60, 80]",
            "points = [3, 7, 12, 19, 28, 40, 60, 80]",
            "goods entry 5 (Gems): points must give 8 Gems 90 points, as the rulebook says, not 80",
        ),
        (
            "points = [1, 2, 3, 5, 7, 10, 14, 18]",
            "points = [1, 2, 4, 5, 7, 10, 14, 18]",
            "points = [1, 2, 4,",
            "goods entry 1 (Bread): points must give 3 Bread 3 points, as the rulebook says, not 4",
        ),
        (
            "pirate_cards = 4",
            "pirate_cards = 3",
            "pirate_cards = 3",
            "pirate_cards must be 4 (the rulebook's contents: 4 Pirate Cards), not 3",
        ),
        (
            "collection_points = 10",
            "collection_points = 12",
            "collection_points = 12",
            "collection_points must be 10",
        ),
        (
            "value = 5\ncards = 2",
            "value = 6\ncards = 2",
            "value = 6",
            "money entry 5: value must be 1 to 5 (the rulebook's coins are 1, 2, 3, 4 and 5),"
            " not 6",
        ),
        (
            'name = "Rich Man"',
            'name = "Wealthy Man"',
            'name = "Wealthy Man"',
            "roles entry 5 (Wealthy Man): name must be Rich Man, the role the rhyme calls here",
        ),
    ],
)
def test_edition_facts_the_rulebook_fixes(old: str, new: str, line: str, message: str) -> None:
    text = edited(old, new)
    with pytest.raises(RulesError) as error:
        load_edition(text)
    number = line_of(text, line) + (2 if line == 'kind = "Wine"' else 0)  # its cost line
    where = f"{EDITION_FILE} line {number}"
    assert str(error.value).startswith(where) and message in str(error.value)


def test_tinker_and_tailor_swapped_in_the_rhyme() -> None:
    text = edited('name = "Tinker"', 'name = "Tailor (swap)"')
    text = text.replace('name = "Tailor"', 'name = "Tinker"', 1)
    text = text.replace('name = "Tailor (swap)"', 'name = "Tailor"', 1)
    with pytest.raises(RulesError) as error:
        load_edition(text)
    first = line_of(text, 'name = "Tailor"')
    assert str(error.value).startswith(
        f"{EDITION_FILE} line {first}, roles entry 1 (Tailor):"
        " name must be Tinker, the role the rhyme calls here (the roles are the rulebook's,"
        " named and in the rhyme's order: Tinker, Tailor, Soldier,"
    )


# --------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_markets_hold_two_more_cards_than_players(players: int) -> None:
    money = "5 4 3 2 1 1 2 3"
    goods = "gems wine cloth fish bread bread fish cloth"
    state = table(players, 0, money=money, goods=goods)
    k = players + 2
    assert money_market(state) == money.split()[:k]
    assert goods_market(state) == goods.split()[:k]
    assert len(state.money_deck) == 20 - k
    compensated = 3 if players == 5 else 0
    assert len(state.goods_deck) == 78 - k - compensated
    assert state.view(0)["table"]["piles"]["pirate cards left"] == 4


def test_two_players_set_up_as_four_with_six_cards_in_each_market() -> None:
    state = table(2, 1, money="5 4 3 2 1 1 2", goods="gems wine cloth fish bread bread fish")
    assert money_market(state) == ["5", "4", "3", "2", "1", "1"]
    assert goods_market(state) == ["gems", "wine", "cloth", "fish", "bread", "bread"]
    assert state.rounds == 6


def test_the_starting_player_is_chosen_at_random() -> None:
    for players in (2, 3, 6):
        starts = Counter(GAME.new_state(players=players, seed=s).start for s in range(60))
        assert set(starts) == set(range(players))


def test_five_players_the_third_fourth_and_fifth_draw_a_goods_card() -> None:
    state = table(5, 3, goods="bread bread bread bread bread bread bread gems wine cloth")
    # From the starting player (seat 3): players 3, 4 and 5 are seats 0, 1 and 2.
    assert hand(state, 0) == ["gems"] and hand(state, 1) == ["wine"] and hand(state, 2) == ["cloth"]
    assert hand(state, 3) == [] and hand(state, 4) == []
    assert state.view(0)["table"]["your_goods"] == ["gems"]
    assert state.view(3)["table"]["your_goods"] == [] and state.view(3)["table"]["known"] == ""
    assert any("seat 0 draws a goods card" in line for line in state.view(3)["log"])


# --------------------------------------------------------------------------- rounds


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_rounds_by_player_count_and_the_rhyme_card_moves_left(players: int) -> None:
    state = GAME.new_state(players=players, seed=5)
    first = state.start
    starts = []
    rng = Rng(players)
    while not state.is_over:
        if state.phase == "draft" and (not starts or starts[-1][0] != state.round):
            starts.append((state.round, state.start))
        state.apply(rng.choice(state.legal_actions()))
    assert state.round == ROUNDS[players] == len(starts)
    assert ROUNDS == {2: 6, 3: 12, 4: 8, 5: 7, 6: 6}
    assert [s for _, s in starts] == [(first + r) % players for r in range(len(starts))]
    if players == 5:
        # Players 1 and 2 (from the first starting player) start twice, the others once.
        times = Counter(s for _, s in starts)
        assert times[first] == times[(first + 1) % 5] == 2
        assert all(times[(first + k) % 5] == 1 for k in (2, 3, 4))


def test_every_round_the_role_cards_are_gathered_and_shuffled() -> None:
    state = GAME.new_state(players=3, seed=11)
    rng = Rng(3)
    deals = []
    while not state.is_over:
        if state.phase == "draft" and not state.draft.choices:
            deals.append(tuple(state.draft.deal))
            assert len(state.draft.deal) + len(state.role_deck) == 17
        state.apply(rng.choice(state.legal_actions()))
    assert len(deals) == 12 and len(set(deals)) > 6


# --------------------------------------------------------------------------- the draft


def test_standard_draft_keep_one_pass_the_rest_left() -> None:
    roles = "tinker tailor soldier sailor rich-man poor-man"
    state = table(4, 2, goods="bread fish cloth wine gems bread", roles=roles)
    assert state.current_player == 2
    assert state.view(2)["table"]["draft_hand"] == names(sorted(map(parse_card, roles.split())))
    assert state.view(3)["table"]["draft_hand"] == []
    state.apply("pick sailor")
    assert state.current_player == 3
    assert state.view(3)["table"]["draft_hand"] == [
        "tinker",
        "tailor",
        "soldier",
        "rich-man",
        "poor-man",
    ]
    with pytest.raises(IllegalAction, match="not among the role cards"):
        state.apply("pick sailor")
    draft(state, "tinker", "poor-man", "tailor")
    assert names(state.draft.picks()[2]) == ["sailor"]
    assert names(state.draft.picks()[3]) == ["tinker"]
    assert names(state.draft.picks()[0]) == ["poor-man"]
    assert names(state.draft.picks()[1]) == ["tailor"]
    # The two left over go back face down.
    assert names(state.draft.leftover()) == ["soldier", "rich-man"]
    assert all(state.view(s)["table"]["leftover"] == [None, None] for s in (0, 1, 2, 3, None))
    assert len(state.role_deck) == 11


def test_each_seat_sees_only_the_hands_it_chose_from() -> None:
    state = table(3, 0, roles="tinker tailor soldier sailor rich-man")
    draft(state, "sailor", "tinker")
    assert state.view(0)["table"]["draft_seen"] == (
        "tinker tailor soldier sailor rich-man → kept sailor"
    )
    assert state.view(1)["table"]["draft_seen"] == "tinker tailor soldier rich-man → kept tinker"
    # Seat 2 is choosing: its hand is shown as the cards to choose from.
    assert state.view(2)["table"]["draft_seen"] == ""
    assert state.view(2)["table"]["draft_hand"] == ["tailor", "soldier", "rich-man"]
    assert state.view(1)["table"]["draft_hand"] == []
    assert state.view(None)["table"]["draft_seen"] == ""


def test_two_player_draft_deal_four_keep_discard_hand_back_add_three() -> None:
    roles = "tinker tailor soldier sailor rich-man poor-man beggar-man"
    state = table(2, 1, roles=roles)
    assert state.current_player == 1
    assert state.view(1)["table"]["draft_hand"] == ["tinker", "tailor", "soldier", "sailor"]
    state.apply("pick soldier")
    # The other player keeps one of the three, discards one face down, hands the last back.
    assert state.current_player == 0 and legal(state) == [
        "pick tinker",
        "pick tailor",
        "pick sailor",
    ]
    state.apply("pick tailor")
    assert state.current_player == 0 and legal(state) == ["discard tinker", "discard sailor"]
    state.apply("discard tinker")
    # The starting player adds three from the deck to the card handed back.
    assert state.current_player == 1
    assert legal(state) == ["pick sailor", "pick rich-man", "pick poor-man", "pick beggar-man"]
    assert len(state.role_deck) == 10
    state.apply("pick beggar-man")
    assert state.current_player == 0
    assert legal(state) == ["pick sailor", "pick rich-man", "pick poor-man"]
    state.apply("pick rich-man")
    assert [names(p) for p in state.draft.picks()] == [
        ["tailor", "rich-man"],
        ["soldier", "beggar-man"],
    ]
    # Three cards were discarded face down: the first discard and the last two.
    assert names(state.draft.leftover()) == ["tinker", "sailor", "poor-man"]
    assert state.view(0)["table"]["leftover"] == [None, None, None]
    assert state.phase != "draft"


def test_two_player_starting_player_sees_the_card_handed_back_not_the_discard() -> None:
    state = table(2, 0, roles="tinker tailor soldier sailor rich-man poor-man beggar-man")
    draft(state, "soldier", "tailor", "-tinker")
    # It dealt the first four itself; the second hand is the card handed back and three more.
    assert state.view(0)["table"]["draft_seen"] == "tinker tailor soldier sailor → kept soldier"
    assert state.view(0)["table"]["draft_hand"] == ["sailor", "rich-man", "poor-man", "beggar-man"]
    assert state.view(1)["table"]["draft_seen"] == (
        "tinker tailor sailor → kept tailor; tinker sailor → discarded tinker"
    )
    log = " ".join(state.view(0)["log"])
    assert "discards a role card face down" in log and "discards the Tinker" not in log


# --------------------------------------------------------------------------- hidden information


def test_role_cards_stay_hidden_until_the_rhyme_calls_them() -> None:
    state = table(3, 0, roles="witch tinker thief sailor actor")
    give(state, 0, "5")
    draft(state, "witch", "thief", "actor")
    rows = {s: state.view(1)["table"]["roles"][s]["cards"] for s in range(3)}
    # Seat 1 sees its own Thief only until the Thief is called; the rhyme is now there.
    assert called(state) == "thief"
    assert rows == {0: [None], 1: ["thief"], 2: [None]}
    assert state.view(0)["table"]["roles"][1]["cards"] == ["thief"]
    assert state.view(0)["table"]["roles"][2]["cards"] == [None]
    assert state.view(2)["table"]["roles"][2]["cards"] == ["actor"]


def test_other_players_goods_money_and_their_counts_are_hidden() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS + " gems", roles="old-man witch merchant")
    draft(state, "old-man", "witch", "merchant")
    state.apply("take 2")  # seat 0 takes a 2 and draws the gems face down
    mine, theirs = state.view(0)["table"], state.view(1)["table"]
    assert mine["your_goods"] == ["gems"] and mine["your_money"] == ["2"]
    assert theirs["your_goods"] == [] and theirs["your_money"] == []
    assert "gems" not in theirs["known"] and "seat 0 holds at least 2" in theirs["known"]
    # No count of another seat's cards is shown anywhere on the table.
    assert not any("count" in key for key in theirs)
    assert theirs["revealed"] == ""
    # Seat 1's guesses at seat 0's hidden goods card vary; seat 0's own never does.
    guesses = {hand(state.determinize(1, Rng(k)), 0)[0] for k in range(30)}
    assert len(guesses) > 1
    assert {hand(state.determinize(0, Rng(k)), 0)[0] for k in range(10)} == {"gems"}


def test_a_determinization_keeps_each_seats_draft_knowledge() -> None:
    state = table(4, 0, roles="tinker tailor soldier sailor rich-man poor-man")
    draft(state, "sailor", "tinker", "poor-man")
    for k in range(20):
        guess = state.determinize(2, Rng(k))
        assert guess.view(2) == state.view(2)
        picks = guess.draft.picks()
        assert names(picks[2]) == ["poor-man"]
        # Seat 2 passed tailor soldier rich-man on: seat 3 chooses from those.
        assert names(guess.draft.hand()) == ["tailor", "soldier", "rich-man"]
        # Seats 0 and 1 kept cards seat 2 never saw (its hand had four of the six).
        assert not {str(c) for p in picks[:2] for c in p} & {"tailor", "soldier", "rich-man"}


def test_a_called_role_nobody_holds_is_known_to_be_unpicked() -> None:
    state = table(3, 0, roles="witch thief actor tinker tailor")
    draft(state, "witch", "thief", "actor")
    # Tinker and Tailor were called and nobody revealed them: no guess gives them to a seat.
    assert state.rhyme >= 7
    for k in range(30):
        guess = state.determinize(None, Rng(k))
        held = {str(c) for p in guess.draft.picks() for c in p}
        assert not held & {"tinker", "tailor", "soldier", "sailor", "rich-man", "poor-man"}
        assert "thief" in names(guess.draft.picks()[1])


def test_the_spectator_sees_no_hand() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="young-man witch merchant")
    draft(state, "young-man", "witch", "merchant")
    view = state.view(None)["table"]
    assert [row["cards"] for row in view["roles"]] == [["young-man"], [None], [None]]
    state.apply("take gems")
    view = state.view(None)["table"]
    assert view["your_goods"] == [] and view["draft_hand"] == []
    # The gems came from the face-up market: everyone saw them taken.
    assert view["known"] == "seat 0 holds at least gems"
    # The Merchant (nothing to sell) and the Witch have been called since.
    assert [row["cards"] for row in view["roles"]] == [["young-man"], ["witch"], ["merchant"]]


# --------------------------------------------------------------------------- notation


def test_typed_moves_in_any_reasonable_form() -> None:
    state = table(
        3, 0, money="1 2 3 4 5", goods=GOODS, roles="rich-man witch thief preacher young-man"
    )
    assert str(state.parse("Pick Rich Man")) == "pick rich-man"
    assert str(state.parse("pick richman")) == "pick rich-man"
    draft(state, "rich-man", "witch", "thief")
    give(state, 0, "1 4")
    assert str(state.parse("Take $3")) == "take 3"
    state.apply("take 3")
    # Seat 0 now holds 1, 3 and 4 (and more money cards than anyone): a second take.
    state.apply("take 5")
    assert state.pending.kind == "buy"
    assert str(state.parse("buy Gems with 1 4")) == "buy gems with 4 1"
    assert str(state.parse("buy gem with 5")) == "buy gems with 5"
    with pytest.raises(IllegalAction, match="only the cards it needs"):
        state.parse("buy bread with 4 1")
    with pytest.raises(IllegalAction, match="you do not hold"):
        state.parse("buy wine with 2 2")
    with pytest.raises(IllegalAction, match="this is not a move"):
        state.parse("fly away")


def test_notations_are_unique_and_every_move_is_described() -> None:
    state = GAME.new_state(players=4, seed=3)
    rng = Rng(8)
    while not state.is_over:
        legal_moves = state.legal_actions()
        texts = [str(a) for a in legal_moves]
        assert len(set(texts)) == len(texts)
        for action in legal_moves:
            assert state.parse(str(action)) == action and state.describe(action)
        state.apply(rng.choice(legal_moves))


def test_why_a_move_is_illegal() -> None:
    state = table(3, 0, money="1 2 3 4 5", goods=GOODS, roles="soldier witch thief")
    draft(state, "soldier", "witch", "thief")
    with pytest.raises(IllegalAction, match="the Soldier takes money"):
        state.apply("take bread")
    with pytest.raises(IllegalAction, match="must now take from the market"):
        state.apply("rob 1")


def test_the_game_ends_with_every_hand_shown_and_a_breakdown_per_player() -> None:
    state = GAME.new_state(players=3, seed=21)
    play_out(state, Rng(1))
    result = state.result
    assert result is not None and len(result.detail) == 3
    assert [d["total"] for d in result.detail] == [int(s) for s in result.scores]
    view = state.view(1)["table"]
    assert [row["title"] for row in view["final_hands"]] == ["seat 0", "seat 1", "seat 2"]
    json.dumps(state.view(None))


def test_a_random_game_conserves_every_card() -> None:
    for players in (2, 5):
        state = GAME.new_state(players=players, seed=4)
        before = Counter(state.cards())
        rng = Rng(2)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            assert Counter(state.cards()) == before
        assert len(before) == 5 + 5 + len(ROLE_CARDS)


def test_wrong_player_counts_are_refused() -> None:
    with pytest.raises(RulesError, match="2–6 players"):
        GAME.new_state(players=7)
    with pytest.raises(RulesError, match="2–6 players"):
        spyglass.load("tinker-tailor").new_state(players=1)


def test_playable_at_the_terminal_with_bots(monkeypatch) -> None:
    from rich.console import Console

    from spyglass.cli.play import PlaySession

    state = GAME.new_state(players=3, seed=5)
    answers = iter(["1"] * 40 + ["quit"])
    console = Console(record=True, width=110, force_terminal=False)
    monkeypatch.setattr(console, "input", lambda *a, **k: next(answers))
    PlaySession(console, state, {0: "human", 1: "heuristic", 2: "random"}).run()
    text = console.export_text()
    assert "Tinker Tailor (reconstructed edition)" in text
    for region in ("Money market", "Goods market", "Role cards to choose from", "The rhyme"):
        assert region in text
    assert "seat 1 (heuristic) · seat 1 " in text and state.step > 10
