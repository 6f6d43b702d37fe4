"""The Spies! heuristic bot: it reads only the deciding seat's knowledge, its moves are legal, it
takes the obvious good move on hand-built positions, and it beats random play clearly."""

from __future__ import annotations

from spyglass import agents
from spyglass.engine import Action, Rng, derive_seed
from spyglass.games.spies import SPEC, bot, police
from spyglass.games.spies.bot.dispatch import unknown
from spyglass.games.spies.rules import SpiesState
from spyglass.lab.simulate import play_game

from .helpers import GAME, give, moving_position, new, place_secrets, strengths


def decide(state: SpiesState, seed: int = 0) -> str:
    """The bot's move for the seat to play, chosen on that seat's determinization (as the
    heuristic agent does)."""
    seat = state.current_player
    return str(bot.choose(state.determinize(seat, Rng(seed)), Rng(seed)))


def play_turn(state: SpiesState, power: str = "Germany") -> list[str]:
    """Let the bot play ``power``'s turn to its end; the moves it made."""
    made = []
    while state.power == power and not state.is_over:
        move = decide(state)
        made.append(move)
        state.apply(move)
    return made


# Information ---------------------------------------------------------------------------------


def test_the_bot_chooses_alike_on_the_true_state_and_on_any_determinization() -> None:
    """Whatever the seat cannot see is redealt in a determinization; a bot that peeked at it
    would sometimes choose differently. Checked along whole games at two table sizes."""
    checked = 0
    for players, seed in ((2, 11), (3, 12)):
        state = GAME.new_state(players=players, seed=seed)
        rng = Rng(seed)
        step = 0
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            if step % 7 == 0 and len(state.legal_actions()) > 1:
                truth = bot.choose(state.clone(), Rng(step))
                for k in range(2):
                    sample = state.determinize(seat, Rng(1000 * k + step))
                    assert bot.choose(sample, Rng(step)) == truth, (step, str(truth))
                checked += 1
            state.apply(bot.choose(state.determinize(seat, rng), rng))
            step += 1
    assert checked > 100


def test_every_move_of_a_whole_game_is_legal() -> None:
    state = GAME.new_state(players=5, seed=21)
    rng = Rng(21)
    while not state.is_over:
        seat = state.current_player
        move = bot.choose(state.determinize(seat, rng), rng)
        assert move in state.legal_actions()
        state.apply(move)
    assert state.result is not None


# Obvious good moves --------------------------------------------------------------------------


def test_the_bot_takes_an_undefended_foreign_secret_in_reach_and_brings_it_home() -> None:
    state = moving_position({"Ge1": "Cologne"})
    place_secrets(state, X1=("S30", None, "Brussels", None))  # a neutral 4
    give(state, "Germany", "Discovery")
    made = play_turn(state)
    assert made[:2] == ["Ge1 Brussels", "Discovery Ge1 X1"]
    # Brussels is two spaces from Berlin: it comes home and cashes the Secret in the same turn.
    assert "X1 cash" in made
    assert state.board.secrets["X1"].record == "Germany"


def test_a_spy_with_a_secret_heads_home_by_the_shortest_way() -> None:
    state = moving_position({"Ge1": "Warsaw"})
    place_secrets(state, X1=("S30", None, "Warsaw", "Ge1"))
    assert decide(state) == "Ge1 Berlin"


def test_a_spy_in_the_capital_cashes_its_foreign_secret() -> None:
    state = moving_position({"Ge1": "Berlin"})
    place_secrets(state, X1=("S30", "France", "Paris", "Ge1"))
    state.board.secrets["X1"] = state.board.secrets["X1"].__class__(
        "X1", "S30", "France", "Paris", "Berlin", "Ge1", taken=1933, loose=True
    )
    state.forget_legal()
    assert decide(state) == "X1 cash"


def test_the_bot_searches_a_weaker_spy_it_knows_and_spares_a_stronger_one() -> None:
    state = moving_position(
        {"Fr1": "Hamburg", "Fr2": "Munich"},
        police={"GeP1": (3, "Hamburg"), "GeP2": (1, "Munich")},
        phase="search",
    )
    strengths(state, Fr1=1, Fr2=3)
    state.reveal(["Fr1", "Fr2"], 0)  # seat 0 (Germany) has seen both faces
    assert decide(state) == "search Fr1"
    state.apply("search Fr1")
    while state.pending:  # France may answer; the comparison follows
        state.apply("pass")
    assert state.board.spies["Fr1"].status == "captured"
    assert decide(state) == "done"  # GeP2 (1) cannot beat Fr2 (3)


def test_a_spy_searched_by_stronger_police_shows_its_papers() -> None:
    state = moving_position({"Fr1": "Hamburg"}, police={"GeP1": (3, "Hamburg")}, phase="search")
    strengths(state, Fr1=1)
    give(state, "France", "Papers")
    state.apply("search Fr1")
    assert state.current_player == state.controller("France")
    assert decide(state) == "Papers"


def test_the_bot_plays_the_tile_that_rewards_its_spy() -> None:
    state = moving_position({"Ge1": "Prague"}, phase="tile", year=1938)
    state.hands.tiles["Germany"] = ["Ge1", "R1"]  # Ge 1 gives two chits in Prague
    state.forget_legal()
    assert decide(state) == "play Ge1"


def test_unknown_decisions_are_refused_or_passed() -> None:
    offer, refuse = Action("accept", (), None, "accept"), Action("refuse", (), None, "refuse")
    assert unknown([offer, refuse], Rng(0)) is refuse
    assert unknown([offer, police.PASS], Rng(0)) is police.PASS


# Strength ------------------------------------------------------------------------------------


def bot_wins(players: int, games: int) -> float:
    """The share of games won by one heuristic seat against random seats, the heuristic seat
    going round the table."""
    won = 0.0
    for index in range(games):
        seat = index % players
        names = ["heuristic" if s == seat else "random" for s in range(players)]
        outcome = play_game(GAME, names, players, derive_seed(77, f"{players}/{index}"), index)
        won += (seat in outcome.winners) / len(outcome.winners)
    return won / games


def test_the_bot_beats_random_play_by_a_wide_margin() -> None:
    assert SPEC.bot is bot.choose
    assert agents.load_spec("heuristic").name == "heuristic"
    assert bot_wins(2, 6) >= 0.8
    assert bot_wins(3, 6) >= 0.8


def test_set_up_guards_valuable_secrets_and_sends_spies_to_secrets_abroad() -> None:
    state = new(players=5, seed=3)
    rng = Rng(3)
    while state.phase in ("secrets", "police", "spies"):
        seat = state.current_player
        state.apply(bot.choose(state.determinize(seat, rng), rng))
    for power in ("Germany", "Britain"):
        guarded = {u.city for u in state.board.police.values() if u.power == power}
        originals = [s for s in state.board.secrets.values() if s.origin == power]
        best = max(originals, key=lambda s: state.edition.secret(s.card).value)
        assert best.place in guarded
        capital = state.edition.map.capital(power)
        assert any(s.power == power and s.place == capital for s in state.board.spies.values())
        # The spies abroad start on Secrets they could take (the neutral ones first).
        homes = set(state.home_cities(power))
        abroad = [
            s for s in state.board.spies.values() if s.power == power and s.place not in homes
        ]
        targets = {x.place for x in state.board.secrets.values() if x.origin != power}
        assert abroad and all(s.place in targets for s in abroad)


# Diplomacy -----------------------------------------------------------------------------------


def lead(state: SpiesState, power: str, markers: int) -> None:
    """Give ``power`` a lead: Sanctioned markers of strength 3 from 1933 (24 points each)."""
    state.board.markers = [(power, f"X{k}", 3, 1933) for k in range(markers)]


def sanction(state: SpiesState, label: str) -> None:
    """Spy ``label`` lies in the Sanctioned Spies box (its power would like a Recruit)."""
    spy = state.board.spies[label]
    state.board.spies[label] = spy.__class__(
        spy.label, spy.power, 2, False, spy.place, "sanctioned"
    )
    state.forget_legal()


def offer(state: SpiesState, *moves: str) -> str:
    """Germany approaches France with ``moves`` and sends; France's bot answers."""
    for move in ("approach France", *moves, "send"):
        state.apply(move)
    assert state.current_player == state.controller("France")
    return decide(state)


def test_the_bot_accepts_money_for_a_chit_it_has_no_use_for() -> None:
    state = moving_position({"Ge1": "Berlin", "Fr1": "Paris"})
    give(state, "France", "Recruit")  # no French spy to bring back
    assert offer(state, "offer £10", "ask Recruit") == "accept"


def test_the_bot_refuses_to_sell_its_only_discovery_for_a_pound() -> None:
    state = moving_position({"Ge1": "Berlin", "Fr1": "Brussels"})
    give(state, "France", "Discovery")  # Fr1 is free to use it
    assert offer(state, "offer £1", "ask Discovery") == "refuse"


def test_a_trade_that_helps_the_leader_more_is_refused() -> None:
    """Germany needs the Recruit (a spy in the Sanctioned box): the same £10 that France takes
    from a Germany far behind, it refuses from a Germany far ahead."""
    for leader, answer in (("France", "accept"), ("Germany", "refuse")):
        state = moving_position({"Ge1": "Berlin", "Ge2": "Berlin", "Fr1": "Paris"})
        sanction(state, "Ge2")
        give(state, "France", "Recruit")
        lead(state, leader, 3)
        assert offer(state, "offer £10", "ask Recruit") == answer, leader


def test_a_power_sells_a_secret_it_cannot_bring_home_to_one_that_can() -> None:
    """1939, Russia's turn: its spy holds a neutral Secret in Lisbon, six spaces from Moscow
    (out of reach in the last turn); a free British spy stands in Lisbon, three spaces from
    London. Russia, far ahead, sells the Secret for money and Britain's bot takes the deal."""
    state = moving_position({"Ru1": "Lisbon", "Br1": "Lisbon"}, power="Russia", year=1939)
    place_secrets(state, X1=("S30", None, "Lisbon", "Ru1"))
    lead(state, "Russia", 3)
    money = dict(state.bank.money)
    made = []
    while state.current_player == state.controller("Russia") and made[-1:] != ["send"]:
        made.append(decide(state))
        # What Britain's hand or the Secret's face would be is redealt: the same move each time.
        truth = str(bot.choose(state.clone(), Rng(0)))
        assert {decide(state, seed) for seed in (1, 2, 3)} == {truth} == {made[-1]}
        state.apply(made[-1])
    assert made[0] == "approach Britain"
    assert "offer X1 to Br1" in made and made[-1] == "send"
    price = next(int(m.split("£")[1]) for m in made if m.startswith("ask £"))
    assert decide(state) == "accept" == str(bot.choose(state.clone(), Rng(0)))
    state.apply("accept")
    assert state.board.secrets["X1"].holder == "Br1"
    assert state.bank.money["Russia"] == money["Russia"] + price
    assert state.bank.money["Britain"] == money["Britain"] - price
    # One approach a turn to each power: Russia does not come back to Britain.
    assert "approach Britain" not in play_turn(state, "Russia")


def test_the_bot_makes_no_offer_when_nothing_pays() -> None:
    state = moving_position({"Ge1": "Warsaw", "Fr1": "Warsaw"})
    place_secrets(state, X1=("S30", None, "Warsaw", "Ge1"))  # one space from Berlin
    assert not any(m.startswith("approach") for m in play_turn(state))


def test_bots_at_a_whole_table_make_and_answer_offers() -> None:
    """Four heuristic bots talk: with nothing left to do in a turn, the Action Points left are
    free for an approach, so the trades the bot values are offered (before, the point's price
    kept every one of 32 games silent). Seed 2: four offers, one accepted, three refused."""
    state = GAME.new_state(players=4, seed=2)
    rng = Rng(2)
    talks: dict[str, int] = {}
    while not state.is_over:
        move = bot.choose(state, rng)
        if move.kind in ("approach", "send", "accept", "refuse", "withdraw"):
            talks[move.kind] = talks.get(move.kind, 0) + 1
        state.apply(move)
    assert talks == {"approach": 4, "send": 4, "refuse": 3, "accept": 1}
