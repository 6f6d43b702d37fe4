"""The reconstructed edition's data and the loader's checks (each error names the entry)."""

from __future__ import annotations

from importlib import resources
from itertools import pairwise

import pytest

from spyglass.engine import RulesError
from spyglass.games.spies.edition import (
    EDITION,
    MAP_FILE,
    PIECES_FILE,
    TILES_FILE,
    load_edition,
)

FILES = {
    name: resources.files("spyglass.games.spies").joinpath(name).read_text("utf-8")
    for name in (MAP_FILE, PIECES_FILE, TILES_FILE)
}


def load_with(file: str, old: str, new: str):
    texts = dict(FILES)
    assert texts[file].count(old) == 1, f"{old!r} must occur once in {file}"
    texts[file] = texts[file].replace(old, new)
    return load_edition(texts[MAP_FILE], texts[PIECES_FILE], texts[TILES_FILE])


def test_the_shipped_edition_loads_unchanged() -> None:
    again = load_edition(FILES[MAP_FILE], FILES[PIECES_FILE], FILES[TILES_FILE])
    assert again.label == "reconstructed edition"
    assert again.map.cities == EDITION.map.cities and again.tiles == EDITION.tiles


def test_map_holds_what_the_rulebook_and_edition_name() -> None:
    m = EDITION.map
    assert 70 <= len(m.cities) <= 110
    assert 10 <= len(m.zones) <= 14
    for city in ("Berlin", "Paris", "Moscow", "Prague", "Bratislava", "Vienna", "Budapest",
                 "Warsaw", "Bucharest", "Cairo", "Alexandria", "Tirana", "Durres"):  # fmt: skip
        assert city in m.cities
    assert m.cities["London"].port and not m.cities["Rome"].port
    assert sorted(c.id for c in m.cities.values() if c.haven) == ["Geneva", "Istanbul", "Tangiers"]
    secret = [c for c in m.cities.values() if c.secret]
    assert len(secret) == 8
    assert all(m.home_power(c.id) is None and not c.haven for c in secret)
    assert m.home_power("Cairo") == "Britain" and m.overseas("Cairo")
    assert m.home_power("Tirana") is None
    assert m.countries["Albania"].annexed_by == ("Italy", "It 7")
    assert m.countries["Czechoslovakia"].annexed_by == ("Germany", "Ge 1")
    assert m.countries["Austria"].annexed_by == ("Germany", "Ge 7")
    for power in ("Britain", "France", "Italy"):
        overseas = [c for c in m.home_cities(power) if m.overseas(c)]
        assert overseas and not any(m.cities[c].police for c in overseas)
    assert m.graph.is_connected()
    assert m.capital("Russia") == "Moscow"


def test_pieces_chits_and_record() -> None:
    assert [p.name for p in EDITION.powers] == ["Germany", "Italy", "Russia", "France", "Britain"]
    assert sum(p.secrets for p in EDITION.powers) == 32
    for p in EDITION.powers:
        assert p.foreign_spies == len(p.spies)  # plus the Cousin: one more spy than printed
        assert all(1 <= s <= 3 for s in (*p.police, *p.spies, p.cousin))
    # Germany's and Britain's services the strongest, Italy's the weakest (modestly): on the
    # spies alone and on all the pieces, each strictly (Germany and Britain may tie).
    for measure in (
        {p.name: sum(p.spies) for p in EDITION.powers},
        {p.name: sum(p.spies) + p.cousin + sum(p.police) for p in EDITION.powers},
    ):
        middle = (measure["Russia"], measure["France"])
        assert min(measure["Germany"], measure["Britain"]) > max(middle)
        assert measure["Italy"] < min(middle)
    assert len(EDITION.secrets) == 40 and len({s.id for s in EDITION.secrets}) == 40
    assert all(1 <= s.value <= 5 for s in EDITION.secrets)
    assert any(s.counterspy for s in EDITION.secrets)
    table = {c.name: (c.count, c.money, c.action_points) for c in EDITION.chits}
    assert table == {
        "Discovery": (12, 2, 1), "Drop": (6, 3, 1), "Intercept": (6, 2, 0),
        "Sanction": (6, 4, 2), "Papers": (10, 1, 0), "Escape": (8, 3, 2), "Cover": (6, 2, 1),
        "Double-Cross": (6, 3, 0), "Recruit": (4, 5, 2),
    }  # fmt: skip
    reaction = {c.name for c in EDITION.chits if c.reaction}
    assert reaction == {"Papers", "Escape", "Cover", "Double-Cross", "Intercept"}  # rule 4.2
    multiples = list(EDITION.record.values())
    assert list(EDITION.record) == list(range(1933, 1940))
    assert all(a > b for a, b in pairwise(multiples))


def test_tiles() -> None:
    tiles = EDITION.tiles
    assert len(tiles) == 50 and [t.number for t in tiles] == list(range(1, 51))
    for power in ("Germany", "Italy", "Russia", "France", "Britain"):
        assert sum(1 for t in tiles if t.power == power) == 7
    assert sum(1 for t in tiles if t.power is None) == 15
    czech = next(t for t in tiles if t.title == "Czech Crisis!")
    assert czech.years == (1937, 1939)
    assert [str(a) for a in czech.awards] == [
        "3c Berlin Prague",
        "2c Paris Moscow Bucharest Warsaw",
        "2£ Budapest Vienna Bratislava",
    ]
    by_number = {t.number: t for t in tiles}
    assert by_number[14].power == "Italy" and by_number[14].effect.country == "Albania"
    assert by_number[16].power == "Russia" and by_number[16].effect.kind == "pact"
    polish = next(t for t in tiles if t.effect and t.effect.kind == "early_end")
    assert polish.power == "Germany" and polish.title == "Polish Crisis"
    # Every power has a tile it can play or discard in each year (own tiles only).
    for power in ("Germany", "Italy", "Russia", "France", "Britain"):
        own = [t for t in tiles if t.power == power]
        for year in range(1933, 1940):
            assert any(t.years is None or t.years[0] <= year <= t.years[1] for t in own), (
                power, year)  # fmt: skip


ERRORS = [
    (
        MAP_FILE,
        '["Sofia", "Varna"]',
        '["Sofia", "Atlantis"]',
        "rail line 43: unknown city 'Atlantis'",
    ),
    (
        MAP_FILE,
        '["Paris", "Le-Havre"]',
        '["Paris", "Lille"]',
        "Paris-Lille is already on rail line 6",
    ),
    (
        MAP_FILE,
        '{ id = "Zurich", label',
        '{ id = "Geneva", label',
        "(Geneva): the id is already used",
    ),
    (
        MAP_FILE,
        'country = "Romania", lat = 44.17, lon = 28.63, sea = ["Black-Sea"]',
        'country = "Romania", lat = 44.17, lon = 28.63, sea = ["Black-Sae"]',
        "city Constanta: unknown sea zone 'Black-Sae'",
    ),
    (
        MAP_FILE,
        'lat = 59.44, lon = 24.75, sea = ["Gulf-of-Finland"]',
        "lat = 59.44, lon = 24.75",
        None,
    ),  # still fine: Helsinki and Leningrad are ports of the gulf
    (
        MAP_FILE,
        'adjacent = ["Central-Med"] }',
        'adjacent = ["Central-Med", "Baltic"] }',
        "(Adriatic): adjoins Baltic, but Baltic does not list Adriatic",
    ),
    (MAP_FILE, 'lat = 41.64, lon = 41.64, sea = ["Black-Sea"]', "lat = 41.64, lon = 41.64", None),
    (
        MAP_FILE,
        'country = "Portugal", lat = 38.72, lon = -9.14, secret = true',
        'country = "Portugal", lat = 38.72, lon = -9.14',
        "must have 8 SECRET cities, found 7",
    ),
    (
        MAP_FILE,
        'country = "Sweden", lat = 59.33, lon = 18.07, secret = true',
        'country = "Sweden", lat = 59.33, lon = 18.07, secret = true, haven = true',
        "(Stockholm): a spy haven cannot also be a SECRET city",
    ),
    (
        MAP_FILE,
        "lat = 46.20, lon = 6.14, haven = true",
        "lat = 46.20, lon = 6.14",
        "the spy havens must be Geneva, Istanbul, Tangiers",
    ),
    (
        MAP_FILE,
        'country = "Malta", lat = 35.90, lon = 14.51,',
        'country = "Malta", lat = 35.90, lon = 14.51, police = true,',
        "(Valletta): only a city of a power's home country",
    ),
    (
        MAP_FILE,
        "lat = 41.90, lon = 12.50, capital = true",
        "lat = 41.90, lon = 12.50",
        "Italy must have exactly one capital, found 0",
    ),
    (
        MAP_FILE,
        '{ id = "Rome", country = "Italy", lat = 41.90, lon = 12.50, capital = true }',
        '{ id = "Rome", country = "Italy", lat = 41.90, lon = 12.50, capital = true, '
        'sea = ["Tyrrhenian"] }',
        "Rome must be on the map and not a port",
    ),
    (MAP_FILE, '    ["Cairo", "Baghdad"],\n', "", "the map is not connected: Baghdad"),
    (
        MAP_FILE,
        '{ id = "Iraq" }',
        '{ id = "Iraq", overseas = true }',
        "(Iraq): only a power's territory can be overseas",
    ),
    (
        MAP_FILE,
        'lon = 34.0, adjacent = ["Aegean"] },',
        'lon = 34.0, adjacent = ["Aegean"] },\n'
        '    { id = "Caspian", label = "Caspian Sea", lat = 42.0, lon = 50.0, adjacent = [] },',
        "sea entry 15 (Caspian): the sea zone has no port",
    ),
    (
        MAP_FILE,
        "lat = 55.76, lon = 37.62",
        "lat = 95.76, lon = 37.62",
        "(Moscow): lat must be a number from -90 to 90",
    ),
    (
        PIECES_FILE,
        "money = 30, secrets = 6",
        "money = 30, secrets = 7",
        "the powers draw 33 Secrets and 8 go to the SECRET cities",
    ),
    (PIECES_FILE, '{ id = "S40", value = 5 },', "", "the game has 40 Secrets, found 39"),
    (
        PIECES_FILE,
        '{ id = "S40", value = 5 }',
        '{ id = "S39", value = 5 }',
        "secrets entry 40 (S39): the id is already used",
    ),
    (
        PIECES_FILE,
        '{ id = "S40", value = 5 }',
        '{ id = "S40", value = 6 }',
        "(S40): value must be a whole number from 1 to 5",
    ),
    (PIECES_FILE, 'name = "Recruit"', 'name = "Bribe"', "chits entry 9: unknown chit 'Bribe'"),
    (
        PIECES_FILE,
        "spies = [2, 2, 1], cousin = 2, foreign_spies = 3",
        "spies = [2, 2, 1], cousin = 2, foreign_spies = 4",
        "(Italy): foreign_spies is 4",
    ),
    (
        PIECES_FILE,
        "police = [2, 2, 2, 1, 1]",
        "police = [2, 2, 2, 1, 4]",
        "(Russia): police entry 5 must be a whole number from 1 to 3",
    ),
    (PIECES_FILE, '{ name = "Italy"', '{ name = "Spain"', "powers must be Germany, Italy"),
    (PIECES_FILE, "{ year = 1939, multiplier = 2 },", "", "the record must have the years 1933"),
    (
        TILES_FILE,
        '"2c Athens Salonika"',
        '"2c Athens Sparta"',
        "(R 14), award 1: unknown city 'Sparta'",
    ),
    (
        TILES_FILE,
        'awards = ["2c Athens Salonika"]',
        'awards = ["2x Athens"]',
        "(R 14), award 1: '2x Athens' is not",
    ),
    (
        TILES_FILE,
        'id = "R 15", number = 50',
        'id = "R 14", number = 50',
        "(R 14): the id is already used",
    ),
    (
        TILES_FILE,
        'id = "R 15", number = 50',
        'id = "R 15", number = 49',
        "(R 15): number 49 is already used",
    ),
    (
        TILES_FILE,
        'years = [1936, 1937], awards = ["2c Athens',
        'years = [1937, 1936], awards = ["2c Athens',
        "(R 14): years must be",
    ),
    (
        TILES_FILE,
        ', effect = { kind = "annex", country = "Albania" }',
        "",
        "tile 14 must be Italy's tile with the annex effect",
    ),
    (
        TILES_FILE,
        'effect = { kind = "pact" }',
        'effect = { kind = "treaty" }',
        "effect must be { kind = ... }",
    ),
    (
        TILES_FILE,
        ', effect = { kind = "annex", country = "Austria" }',
        "",
        "tile 7 must be Germany's tile with the annex effect (rule 1.0: Ge 7)",
    ),
    (
        TILES_FILE,
        ', effect = { kind = "early_end" }',
        "",
        "the Polish Crisis) must have the early_end",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "message"), ERRORS)
def test_loader_errors_name_the_entry(file: str, old: str, new: str, message: str | None) -> None:
    if message is None:
        load_with(file, old, new)  # an edit that keeps the data valid
        return
    with pytest.raises(RulesError) as caught:
        load_with(file, old, new)
    assert message in str(caught.value)
    assert file in str(caught.value)


def test_tiles_missing_a_random_tile() -> None:
    old = FILES[TILES_FILE]
    cut = old.index('    { id = "R 15"')
    end = old.index("\n", cut) + 1
    texts = (FILES[MAP_FILE], FILES[PIECES_FILE], old[:cut] + old[end:])
    with pytest.raises(RulesError, match="the game has 15 random tiles, found 14"):
        load_edition(*texts)


def test_not_toml() -> None:
    with pytest.raises(RulesError, match=r"map\.toml: not valid TOML"):
        load_edition("cities = [", FILES[PIECES_FILE], FILES[TILES_FILE])


def test_rules_text_is_labelled_and_has_its_sections() -> None:
    from .helpers import GAME

    text = GAME.rules_text()
    assert text.startswith("# Spies!")
    assert "reconstructed edition" in text
    for section in ("## Notation", "## Our rulings", "## The reconstructed edition"):
        assert section in text
    assert GAME.info.edition == "reconstructed edition"


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if fragment in line)


# Facts the rulebook and the edition's brief fix: each names the file, the line and the entry.
FACTS = [
    (
        MAP_FILE,
        '{ id = "Egypt", power = "Britain", overseas = true }',
        '{ id = "Egypt" }',
        'countries entry 15 (Egypt): power must be "Britain" with overseas = true',
    ),
    (
        MAP_FILE,
        '{ id = "Austria", annexed_by = { power = "Germany", tile = "Ge 7" } }',
        '{ id = "Austria", power = "Germany" }',
        "countries entry 34 (Austria): neutral, annexed_by Germany with tile Ge 7",
    ),
    (
        PIECES_FILE,
        '{ name = "Discovery", count = 12,',
        '{ name = "Discovery", count = 11,',
        "chits entry 1 (Discovery): count must be 12, not 11 (the Action Chit table",
    ),
    (
        PIECES_FILE,
        '{ name = "Cover", count = 6, money = 2, action_points = 1, reaction = true }',
        '{ name = "Cover", count = 6, money = 2, action_points = 1, reaction = false }',
        "chits entry 7 (Cover): reaction must be true, not false",
    ),
    (
        PIECES_FILE,
        "{ year = 1935, multiplier = 6 },",
        "{ year = 1935, multiplier = 9 },",
        "record entry 3 (1935): multiplier 9 is higher than 1934's (7): the Time and Victory"
        " Record's multiple falls as the years pass",
    ),
    (
        MAP_FILE,
        '{ id = "Czechoslovakia", annexed_by = { power = "Germany", tile = "Ge 1" } }',
        '{ id = "Czechoslovakia", annexed_by = { power = "Germany", tile = "Ge 2" } }',
        "countries entry 33 (Czechoslovakia): neutral, annexed_by Germany with tile Ge 1",
    ),
    (
        PIECES_FILE,
        '{ name = "Papers", count = 10, money = 1, action_points = 0, reaction = true }',
        '{ name = "Papers", count = 10, money = 2, action_points = 0, reaction = true }',
        "chits entry 5 (Papers): money must be 1, not 2 (the Action Chit table: Papers x10, £1",
    ),
    (
        TILES_FILE,
        ', effect = { kind = "pact" }',
        "",
        "tiles entry 16 (Ru 2): tile 16 must be Russia's tile with the pact effect"
        " (rule 8.5: Event Tile 16)",
    ),
    (
        TILES_FILE,
        '"3c Berlin Prague", "2c Paris Moscow Bucharest Warsaw"',
        '"3c Berlin Prague Vienna", "2c Paris Moscow Bucharest Warsaw"',
        "tiles entry 43 (R 8): Czech Crisis! must be as printed",
    ),
]


@pytest.mark.parametrize(("file", "old", "new", "message"), FACTS)
def test_fixed_facts_name_the_file_and_line(file: str, old: str, new: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        load_with(file, old, new)
    line = line_of(FILES[file], old.split("\n", maxsplit=1)[0])
    assert str(caught.value).startswith(f"{file} line {line}, {message}")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            '{ id = "Libya", power = "Italy", overseas = true },\n'
            '    { id = "Dodecanese", power = "Italy", overseas = true },',
            '{ id = "Libya" },\n    { id = "Dodecanese" },',
            "map.toml: Italy must have overseas home territory (rule 2.5",
        ),
        (
            '{ id = "Bratislava", country = "Czechoslovakia", lat = 48.15, lon = 17.11 }',
            '{ id = "Pressburg", country = "Czechoslovakia", lat = 48.15, lon = 17.11 }',
            "map.toml: the map must have the cities the rulebook names: Bratislava missing",
        ),
    ],
)
def test_fixed_facts_of_the_whole_map(old: str, new: str, message: str) -> None:
    """Facts about the map as a whole, which no single line holds."""
    with pytest.raises(RulesError) as caught:
        load_with(MAP_FILE, old, new)
    assert str(caught.value).startswith(message)


def test_a_rising_record_is_refused_even_without_a_single_rise() -> None:
    flat = FILES[PIECES_FILE]
    for year, multiple in zip(range(1933, 1940), (8, 7, 6, 5, 4, 3, 2), strict=True):
        flat = flat.replace(
            f"year = {year}, multiplier = {multiple}", f"year = {year}, multiplier = 5"
        )
    with pytest.raises(RulesError, match="1939's \\(5\\) is not below 1933's \\(5\\)"):
        load_edition(FILES[MAP_FILE], flat, FILES[TILES_FILE])


def test_free_parameters_may_change() -> None:
    """What the rulebook leaves open (allotments, strengths, awards) may take other values."""
    edition = load_with(
        PIECES_FILE,
        "police = [3, 3, 2, 2, 1], spies = [2, 2, 2, 1]",
        "police = [2, 2, 2, 2, 1], spies = [3, 3, 2, 1]",
    )
    assert edition.power("Germany").police == (2, 2, 2, 2, 1)
    edition = load_with(TILES_FILE, '"2c Athens Salonika"', '"3c Athens Salonika"')
    assert str(edition.tile("R14").awards[0]) == "3c Athens Salonika"
