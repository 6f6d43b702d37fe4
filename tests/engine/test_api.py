"""The public API of DESIGN.md section 2, exercised on the registered games."""

import json

import pytest

import spyglass
from spyglass.components import standard_deck
from spyglass.engine import IllegalAction, ReplayError, Rng, RulesError


def test_games_lists_every_registered_game() -> None:
    infos = spyglass.games()
    ids = [info.id for info in infos]
    assert {"sandwich-guy", "syndicate"} <= set(ids)
    assert len(ids) == len(set(ids))
    sandwich = next(i for i in infos if i.id == "sandwich-guy")
    assert sandwich.players == (1, 1) and sandwich.solo and sandwich.score_order == "lower"
    json.dumps(sandwich.to_json())


def test_games_package_still_imports_as_a_package() -> None:
    from spyglass.games import sandwich_guy

    assert sandwich_guy.SPEC.info.id == "sandwich-guy"
    assert callable(spyglass.games)


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(RulesError) as error:
        spyglass.load("sandwich")
    assert "unknown game 'sandwich'" in str(error.value)
    assert "sandwich-guy" in str(error.value) and "syndicate" in str(error.value)


def test_unknown_option_is_rejected() -> None:
    with pytest.raises(RulesError, match="has no option 'jokers'"):
        spyglass.load("sandwich-guy", jokers=1)


@pytest.mark.parametrize("players", [0, 2, -1, "1", True])
def test_wrong_player_count(players: object) -> None:
    with pytest.raises(RulesError, match="is for 1 players"):
        spyglass.load("syndicate").new_state(players=players)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["7", 1.5, True])
def test_seed_must_be_an_integer(seed: object) -> None:
    with pytest.raises(RulesError, match="a seed is a whole number"):
        spyglass.load("syndicate").new_state(seed=seed)  # type: ignore[arg-type]


def test_random_seed_is_recorded() -> None:
    state = spyglass.load("sandwich-guy").new_state()
    assert isinstance(state.seed, int)
    assert spyglass.replay(state.record()).snapshot() == state.snapshot()


def test_stacked_deck_sets_the_exact_order() -> None:
    deck = list(reversed(standard_deck()))
    state = spyglass.load("sandwich-guy").new_state(seed=1, deck=deck)
    assert state.record()["decks"]["deck"][:3] == ["K♦", "Q♦", "J♦"]
    assert sorted(state.view(0)["table"]["hand"]) == sorted(
        ["K♦", "Q♦", "J♦", "10♦", "9♦", "8♦", "7♦", "6♦"]
    )


def test_stacked_deck_as_notation_string_and_as_dict() -> None:
    game = spyglass.load("sandwich-guy")
    text = " ".join(c.ascii for c in standard_deck())
    by_text = game.new_state(seed=1, deck=text)
    by_dict = game.new_state(seed=1, deck={"deck": standard_deck()})
    assert by_text.snapshot() == by_dict.snapshot()


@pytest.mark.parametrize(
    ("deck", "fragment"),
    [
        (standard_deck()[:-1], "missing K♦"),
        ([*standard_deck()[:-1], "AS"], "missing K♦; duplicate A♠"),
        ([*standard_deck()[:-1], "JK"], "missing K♦; not in this deck JK"),
        ({"draw": standard_deck()}, "has no deck 'draw' (its decks: deck)"),
        ([*standard_deck()[:-1], "ZZ"], "cannot read 'ZZ' as a card"),
        (42, "must be a list of cards or a string"),
    ],
)
def test_bad_stacked_deck_is_explained(deck: object, fragment: str) -> None:
    with pytest.raises(RulesError) as error:
        spyglass.load("sandwich-guy").new_state(seed=1, deck=deck)
    assert fragment in str(error.value)


def test_illegal_actions_name_the_rule_and_change_nothing() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    before = state.snapshot()
    for bad in ["", "hello", "AS", "AS 2S", 42, None, spyglass.Action("sandwich", ())]:
        with pytest.raises(IllegalAction) as error:
            state.apply(bad)  # type: ignore[arg-type]
        assert error.value.rule
    assert state.snapshot() == before


def test_no_move_after_the_game_is_over() -> None:
    state = spyglass.load("syndicate").new_state(seed=3)
    rng = Rng(0)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("pick AS")
    assert state.legal_actions() == [] and state.current_player is None


@pytest.mark.parametrize("seat", [1, -1, "0", 1.0, True])
def test_views_of_seats_that_do_not_exist(seat: object) -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    with pytest.raises(RulesError, match="there is no seat"):
        state.view(seat)  # type: ignore[arg-type]


def test_solo_spectator_watches_over_the_shoulder() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    spectator = state.view(None)
    player = state.view(0)
    assert spectator["table"] == player["table"] and spectator["seat"] is None


def test_clone_is_independent() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert state.step == 0 and twin.step == 1
    assert state.snapshot() != twin.snapshot()


def test_a_quiet_clone_plays_the_same_future_and_logs_nothing() -> None:
    # Skyway reshuffles its discard pile mid-game: the quiet copy must shuffle as the game does
    state = spyglass.load("skyway").new_state(seed=4)
    quiet, loud = state.quiet_clone(), state.clone()
    while not loud.is_over:
        action = loud.legal_actions()[0]
        loud.apply(action)
        quiet.apply_legal(action)
    assert quiet.is_over and quiet.snapshot()["table"] == loud.snapshot()["table"]
    assert quiet.log == [] and loud.log != []
    assert state.step == 0  # the original is untouched


@pytest.mark.parametrize("game_id", [info.id for info in spyglass.games()])
def test_position_key_is_the_table_and_the_generator_without_history(game_id: str) -> None:
    # The clairvoyant search keys its table of lost positions by it: the cards where they are
    # and the shuffles to come, not the step count or the log of how the table came about.
    state = spyglass.load(game_id).new_state(seed=5)
    snapshot = state.snapshot()
    assert state.position_key() == json.dumps([snapshot["table"], snapshot["rng"]], sort_keys=True)
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert twin.position_key() != state.position_key()
    assert state.clone().position_key() == state.position_key()


def test_determinized_state_has_no_record_and_no_seed() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    guess = state.determinize(0, Rng(1))
    assert guess.determinized and guess.seed is None and guess.history == []
    with pytest.raises(RulesError, match="has no record"):
        guess.record()
    guess.apply(guess.legal_actions()[0])  # it is still a playable state


def test_seat_gives_view_moves_and_samples() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    seat = state.seat(0)
    assert seat.view == state.view(0)
    assert seat.legal_actions == state.legal_actions()
    sample = seat.determinize(Rng(5))
    assert sample.view(0) == state.view(0)
    assert seat.parse(str(seat.legal_actions[0])) == seat.legal_actions[0]
    assert seat.describe(seat.legal_actions[0]).startswith("Discard")


def test_log_is_readable() -> None:
    state = spyglass.load("sandwich-guy").new_state(seed=3)
    assert state.log[0].startswith("dealt ")
    state.apply(state.legal_actions()[0])
    assert state.log[-1].startswith("sandwich ")
    assert state.view(0)["log"] == state.log


class TestRecords:
    def make(self) -> spyglass.State:
        state = spyglass.load("syndicate").new_state(seed=11)
        rng = Rng(2)
        for _ in range(6):
            state.apply(rng.choice(state.legal_actions()))
        return state

    def test_record_is_json_and_replays_identically(self) -> None:
        state = self.make()
        record = json.loads(json.dumps(state.record()))
        assert record["game"] == "syndicate" and record["players"] == 1
        assert record["seed"] == 11 and len(record["actions"]) == 6
        assert spyglass.replay(record).snapshot() == state.snapshot()
        assert spyglass.replay(record, upto=2).step == 2

    def test_unknown_game(self) -> None:
        record = self.make().record()
        record["game"] = "chess"
        with pytest.raises(ReplayError, match="set-up: unknown game 'chess'") as error:
            spyglass.replay(record)
        assert error.value.step == 0

    def test_illegal_action_names_the_step(self) -> None:
        record = self.make().record()
        record["actions"][4] = "pick 2H"
        with pytest.raises(ReplayError) as error:
            spyglass.replay(record)
        assert error.value.step == 5 and "step 5" in str(error.value)

    def test_tampered_deck_with_a_duplicate(self) -> None:
        record = self.make().record()
        record["decks"]["deck"][0] = record["decks"]["deck"][1]
        with pytest.raises(ReplayError, match="set-up: stacked deck 'deck' must hold"):
            spyglass.replay(record)

    def test_reordered_deck_is_detected(self) -> None:
        record = self.make().record()
        deck = record["decks"]["deck"]
        deck[-1], deck[-2] = deck[-2], deck[-1]  # two removed cards: the moves stay legal
        with pytest.raises(ReplayError, match="digest differs"):
            spyglass.replay(record)

    @pytest.mark.parametrize(
        ("record", "fragment"),
        [
            ([], "a record is a JSON object"),
            ({"format": "other"}, "not a spyglass record"),
            ({"game": "syndicate"}, "the record has no 'options'"),
            (
                {
                    "game": "syndicate",
                    "options": {},
                    "players": "1",
                    "seed": 1,
                    "decks": {},
                    "actions": [],
                },
                "'players' has the wrong type",
            ),
        ],
    )
    def test_malformed_records(self, record: object, fragment: str) -> None:
        with pytest.raises(ReplayError, match=fragment):
            spyglass.replay(record)  # type: ignore[arg-type]

    def test_a_record_from_a_newer_version_is_refused(self) -> None:
        record = self.make().record()
        assert record["version"] == 1
        for version, fragment in [
            (
                99,
                "the record is version 99, made by a newer spyglass; this one reads versions"
                " up to 1: update spyglass to replay it",
            ),
            ("1", "the record's version must be a whole number, not '1'"),
            (0, "the record's version 0 is unknown"),
        ]:
            with pytest.raises(ReplayError) as error:
                spyglass.replay({**record, "version": version})
            assert fragment in str(error.value)
        old = dict(record)
        del old["version"]  # records written before versions were numbered read as version 1
        assert spyglass.replay(old).snapshot() == self.make().snapshot()

    def test_reading_files(self, tmp_path) -> None:
        from spyglass.engine import read_record, write_record

        state = self.make()
        path = write_record(state, tmp_path / "game.json")
        assert spyglass.replay(read_record(path)).snapshot() == state.snapshot()
        (tmp_path / "bad.json").write_text('{"game": "syndicate",\n  oops}')
        with pytest.raises(RulesError, match=r"not valid JSON \(line 2, column 3"):
            read_record(tmp_path / "bad.json")
        with pytest.raises(RulesError, match="no such file"):
            read_record(tmp_path / "missing.json")
        with pytest.raises(RulesError, match="is a directory"):
            read_record(tmp_path)
        (tmp_path / "list.json").write_text("[1, 2]")
        with pytest.raises(RulesError, match="not a spyglass record"):
            read_record(tmp_path / "list.json")
