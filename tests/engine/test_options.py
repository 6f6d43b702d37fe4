import pytest

from spyglass.engine import OptionSpec, RulesError
from spyglass.engine.options import resolve_options

SPECS = (
    OptionSpec("jokers", 2, "jokers in the deck", choices=(0, 1, 2)),
    OptionSpec("face_up", False, "police cards face up"),
    OptionSpec("rounds", 6, "rounds", minimum=1, maximum=12),
)


def test_defaults_and_overrides() -> None:
    values = resolve_options("g", SPECS, {"jokers": "1", "face_up": "yes"})
    assert dict(values) == {"jokers": 1, "face_up": True, "rounds": 6}
    with pytest.raises(TypeError):
        values["jokers"] = 0  # type: ignore[index]


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ({"joker": 1}, "no option 'joker' (its options: face_up, jokers, rounds)"),
        ({"jokers": 3}, "allowed values are 0, 1, 2"),
        ({"jokers": "many"}, "expected a whole number"),
        ({"face_up": "perhaps"}, "expected true or false"),
        ({"face_up": 1}, "expected true or false"),
        ({"rounds": 0}, "the least allowed is 1"),
        ({"rounds": 13}, "the most allowed is 12"),
        ({"jokers": True}, "expected a whole number"),
    ],
)
def test_bad_options_are_named(given: dict, fragment: str) -> None:
    with pytest.raises(RulesError) as error:
        resolve_options("g", SPECS, given)
    assert fragment in str(error.value)
