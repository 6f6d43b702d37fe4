"""Test-wide settings."""

import pytest
from hypothesis import settings

# No per-example deadline: speed is measured in benchmarks/, never by timing tests (a loaded CI
# machine must not turn a slow example into a failure).
settings.register_profile("spyglass", deadline=None)
settings.load_profile("spyglass")


# The longest tests, in seconds as `make test --durations=30` measured them in CI (stop 18). They
# run first: pytest-xdist hands tests out in collection order, and one of them started last would
# keep its worker busy for minutes after the other one ran out of work.
LONGEST = {
    "tests/web/test_browser.py::test_every_game_plays_to_its_end_in_the_browser[spies]": 326,
    "tests/conformance/test_conformance.py::test_random_playouts_conform[spies-5p]": 134,
    "tests/conformance/test_conformance.py::test_random_playouts_conform[spies-4p]": 119,
    "tests/conformance/test_conformance.py::test_random_playouts_conform[spies-3p]": 99,
    "tests/conformance/test_conformance.py::test_random_playouts_conform[spies-2p]": 79,
    "tests/games/spies/test_bot.py::test_the_bot_beats_random_play_by_a_wide_margin": 66,
    "tests/adapters/test_openspiel.py::test_mcts_and_ismcts_play_a_whole_game[spies]": 66,
    "tests/web/test_all_games.py::test_a_bot_seat_in_every_multiplayer_game": 50,
    "tests/web/test_all_games.py::test_every_game_plays_to_the_end_through_the_server[spies]": 42,
    "tests/adapters/test_openspiel.py::test_random_sim_test_with_serialisation[spies]": 41,
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: -LONGEST.get(item.nodeid, 0))  # stable: the rest keep their order
