"""The data of Spies!: read from ``map.toml``, ``pieces.toml`` and ``tiles.toml`` and checked.

The rulebook relies on a printed mapsheet, counters, an Action Chit summary and Event Tiles that
no public source transcribes, so the game ships a reconstructed edition (see the data files and
RULES.md). Every number comes from the files; a person holding the printed game can replace
them. The checks hold the data to the rulebook's own facts (five powers in turn order, 40
Secrets of which 8 start on the SECRET cities, 50 tiles: 7 per power and 15 random, tile 14
makes Albania Italian, tile 16 is the Non-aggression Pact, ...) and name the file and the entry
of any fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from spyglass.engine import RulesError
from spyglass.engine.datafile import with_line

from .checks import entries, flag, label, no_unknown, read_toml, text, whole, word
from .geography import MAP_FILE, POWERS, GameMap, load_map

PIECES_FILE = "pieces.toml"
TILES_FILE = "tiles.toml"
SECRETS = 40  # rule 2.4
TILES_PER_POWER = 7  # rule 2.3
RANDOM_TILES = 15
RANDOM_DRAW = 3  # random tiles each power draws (rule 2.3)
CHIT_KINDS = (
    "Discovery", "Drop", "Intercept", "Sanction", "Papers", "Escape", "Cover", "Double-Cross",
    "Recruit",
)  # fmt: skip
#: The Action Chit table the product fixes (spies-edition.md): count, £ cost, Action Point cost
#: on the owner's turn, and whether rule 4.2 lets it be played in an opponent's turn.
CHIT_TABLE = {
    "Discovery": (12, 2, 1, False),
    "Drop": (6, 3, 1, False),
    "Intercept": (6, 2, 0, True),
    "Sanction": (6, 4, 2, False),
    "Papers": (10, 1, 0, True),
    "Escape": (8, 3, 2, True),
    "Cover": (6, 2, 1, True),
    "Double-Cross": (6, 3, 0, True),
    "Recruit": (4, 5, 2, False),
}
#: The one printed tile (the rulebook's "Czech Crisis!"): years and awards as printed.
CZECH_CRISIS = ("Czech Crisis!", (1937, 1939), (
    "3c Berlin Prague", "2c Paris Moscow Bucharest Warsaw", "2£ Budapest Vienna Bratislava",
))  # fmt: skip
EFFECTS = {"annex": {"country"}, "early_end": set(), "pact": set(), "free_searches": set(),
           "draw_chits": {"count"}}  # fmt: skip
AWARD = re.compile(r"^(\d+)\s*(c|£)\s+(.+)$")


@dataclass(frozen=True, slots=True)
class Power:
    name: str
    abbr: str
    colour: str
    money: int
    secrets: int
    police: tuple[int, ...]  # strengths
    spies: tuple[int, ...]  # strengths of the ordinary spies
    cousin: int  # the Cousin's strength
    foreign_spies: int  # the most spies that may start in foreign territory
    chits: int


@dataclass(frozen=True, slots=True)
class SecretCard:
    id: str
    value: int
    counterspy: int  # its strength; 0 for an ordinary Secret

    @property
    def face(self) -> str:
        """What its holder sees: "3" (value 3) or "3c2" (a Counterspy of value 3, strength 2)."""
        return f"{self.value}c{self.counterspy}" if self.counterspy else str(self.value)


@dataclass(frozen=True, slots=True)
class ChitKind:
    name: str
    count: int
    money: int
    action_points: int
    reaction: bool  # may be played in an opponent's turn (rule 4.2)


@dataclass(frozen=True, slots=True)
class Award:
    unit: str  # "c" (Action chits) or "£"
    amount: int
    cities: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.amount}{self.unit} {' '.join(self.cities)}"


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str
    country: str | None = None
    count: int = 0


@dataclass(frozen=True, slots=True)
class Tile:
    id: str
    number: int
    title: str
    power: str | None  # None for a random tile
    years: tuple[int, int] | None  # None: any year
    awards: tuple[Award, ...]
    effect: Effect | None


@dataclass(frozen=True, slots=True, eq=False)
class Edition:
    label: str
    map: GameMap
    powers: tuple[Power, ...]  # in turn order
    secrets: tuple[SecretCard, ...]
    chits: tuple[ChitKind, ...]
    tiles: tuple[Tile, ...]
    record: dict[int, int]  # year -> multiplier
    secret_index: dict[str, SecretCard] = field(default_factory=dict, repr=False)
    tile_index: dict[str, Tile] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.secret_index.update((s.id, s) for s in self.secrets)
        self.tile_index.update((t.id.replace(" ", ""), t) for t in self.tiles)

    @property
    def years(self) -> tuple[int, ...]:
        return tuple(self.record)

    def power(self, name: str) -> Power:
        return next(p for p in self.powers if p.name == name)

    def secret(self, sid: str) -> SecretCard:
        return self.secret_index[sid]

    def chit(self, name: str) -> ChitKind:
        return next(c for c in self.chits if c.name == name)

    def tile(self, token: str) -> Tile:
        """A tile by its one-word token ("Ge1", "R8")."""
        return self.tile_index[token]


def load_edition(
    map_text: str,
    pieces_text: str,
    tiles_text: str,
    sources: tuple[str, str, str] = (MAP_FILE, PIECES_FILE, TILES_FILE),
) -> Edition:
    """Read and check the three files of an edition; an error names the file and the line."""
    map_source, pieces_source, tiles_source = sources
    game_map = load_map(map_text, map_source)
    texts = {pieces_source: pieces_text, tiles_source: tiles_text}
    try:
        return _load(game_map, pieces_text, tiles_text, pieces_source, tiles_source)
    except RulesError as error:
        source = str(error).split(",", 1)[0].split(":", 1)[0]
        raise with_line(error, texts.get(source, "")) from None


def _load(
    game_map: GameMap, pieces_text: str, tiles_text: str, pieces_source: str, tiles_source: str
) -> Edition:
    data = read_toml(pieces_text, pieces_source)
    no_unknown(data, {"edition", "powers", "secrets", "chits", "record"}, pieces_source)
    name = label(data, pieces_source)
    powers = _powers(data, pieces_source, game_map)
    secrets = _secrets(data, pieces_source, powers, game_map)
    chits = _chits(data, pieces_source, powers)
    record = _record(data, pieces_source)
    tiles_data = read_toml(tiles_text, tiles_source)
    no_unknown(tiles_data, {"edition", "tiles"}, tiles_source)
    label(tiles_data, tiles_source)
    tiles = _tiles(tiles_data, tiles_source, powers, game_map, record)
    return Edition(name, game_map, powers, secrets, chits, tiles, record)


def _powers(data: dict[str, Any], source: str, game_map: GameMap) -> tuple[Power, ...]:
    known = {"name", "abbr", "colour", "money", "secrets", "police", "spies", "cousin",
             "foreign_spies", "chits"}  # fmt: skip
    powers = []
    items = entries(data, "powers", source)
    names = [item.get("name") for item in items]
    if tuple(names) != POWERS:
        raise RulesError(
            f"{source}: powers must be {', '.join(POWERS)} in this order "
            f"(the turn order, rule 2.1), not {names}"
        )
    for i, entry in enumerate(items, start=1):
        where = f"{source}, powers entry {i} ({entry['name']})"
        no_unknown(entry, known, where)
        police = _strengths(entry.get("police"), f"{where}: police")
        spies = _strengths(entry.get("spies"), f"{where}: spies")
        foreign = whole(entry.get("foreign_spies"), f"{where}: foreign_spies", 1)
        if foreign != len(spies):
            raise RulesError(
                f"{where}: foreign_spies is {foreign} but the power has {len(spies)} spies and"
                f" the Cousin: it must be one less than all its spies ({len(spies)})"
            )
        power = Power(
            entry["name"],
            word(entry.get("abbr"), f"{where}: abbr"),
            text(entry.get("colour"), f"{where}: colour"),
            whole(entry.get("money"), f"{where}: money", 0),
            whole(entry.get("secrets"), f"{where}: secrets", 1),
            police,
            spies,
            whole(entry.get("cousin"), f"{where}: cousin", 1, 3),
            foreign,
            whole(entry.get("chits"), f"{where}: chits", 0, 10),
        )
        homes = game_map.home_cities(power.name)
        if power.secrets > len(homes):
            raise RulesError(
                f"{where}: {power.secrets} secrets but only {len(homes)} home "
                "cities (one Secret per city)"
            )
        stations = [c for c in homes if game_map.cities[c].police or game_map.cities[c].capital]
        room = 2 * len(stations) + (1 if len(stations) < len(homes) else 0)
        if len(police) > room:
            raise RulesError(
                f"{where}: {len(police)} police units do not fit (two per city with"
                f" a police symbol or the capital, one overseas: {room})"
            )
        powers.append(power)
    abbrs = [p.abbr for p in powers]
    if len(set(abbrs)) != len(abbrs):
        raise RulesError(f"{source}: the powers' abbreviations must differ: {abbrs}")
    return tuple(powers)


def _strengths(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise RulesError(f"{where} must list strengths from 1 to 3")
    return tuple(whole(v, f"{where} entry {i}", 1, 3) for i, v in enumerate(value, start=1))


def _secrets(
    data: dict[str, Any], source: str, powers: tuple[Power, ...], game_map: GameMap
) -> tuple[SecretCard, ...]:
    secrets: list[SecretCard] = []
    for i, entry in enumerate(entries(data, "secrets", source), start=1):
        where = f"{source}, secrets entry {i}"
        no_unknown(entry, {"id", "value", "counterspy"}, where)
        sid = word(entry.get("id"), f"{where}: id")
        where = f"{where} ({sid})"
        if any(s.id == sid for s in secrets):
            raise RulesError(f"{where}: the id is already used")
        value = whole(entry.get("value"), f"{where}: value", 1, 5)
        counterspy = entry.get("counterspy", 0)
        counterspy = 0 if counterspy == 0 else whole(counterspy, f"{where}: counterspy", 1, 3)
        secrets.append(SecretCard(sid, value, counterspy))
    if len(secrets) != SECRETS:
        raise RulesError(f"{source}: the game has {SECRETS} Secrets, found {len(secrets)}")
    drawn = sum(p.secrets for p in powers)
    spare = sum(1 for c in game_map.cities.values() if c.secret)
    if drawn + spare != SECRETS:
        raise RulesError(
            f"{source}: the powers draw {drawn} Secrets and {spare} go to the SECRET cities:"
            f" together they must be the {SECRETS} Secrets"
        )
    return tuple(secrets)


def _chits(data: dict[str, Any], source: str, powers: tuple[Power, ...]) -> tuple[ChitKind, ...]:
    chits: list[ChitKind] = []
    for i, entry in enumerate(entries(data, "chits", source), start=1):
        where = f"{source}, chits entry {i}"
        no_unknown(entry, {"name", "count", "money", "action_points", "reaction"}, where)
        name = entry.get("name")
        if name not in CHIT_KINDS:
            raise RulesError(f"{where}: unknown chit {name!r} (the chits: {', '.join(CHIT_KINDS)})")
        where = f"{where} ({name})"
        if any(c.name == name for c in chits):
            raise RulesError(f"{where}: the chit is listed twice")
        chit = ChitKind(
            name,
            whole(entry.get("count"), f"{where}: count", 1),
            whole(entry.get("money"), f"{where}: money", 0),
            whole(entry.get("action_points"), f"{where}: action_points", 0, 12),
            flag(entry, "reaction", where),
        )
        fixed = CHIT_TABLE[name]
        for key, value, wanted in zip(
            ("count", "money", "action_points", "reaction"),
            (chit.count, chit.money, chit.action_points, chit.reaction),
            fixed,
            strict=True,
        ):
            if value != wanted:
                shown = str(wanted).lower()
                raise RulesError(
                    f"{where}: {key} must be {shown}, not {str(value).lower()} (the Action"
                    f" Chit table: {name} x{fixed[0]}, £{fixed[1]} + {fixed[2]} AP"
                    f"{', playable in an opponent’s turn (rule 4.2)' if fixed[3] else ''})"
                )
        chits.append(chit)
    missing = [k for k in CHIT_KINDS if all(c.name != k for c in chits)]
    if missing:
        raise RulesError(f"{source}: no chits entry for {', '.join(missing)}")
    dealt = sum(p.chits for p in powers)
    total = sum(c.count for c in chits)
    if dealt > total:
        raise RulesError(f"{source}: the powers draw {dealt} chits but there are only {total}")
    return tuple(chits)


def _record(data: dict[str, Any], source: str) -> dict[int, int]:
    record: dict[int, int] = {}
    for i, entry in enumerate(entries(data, "record", source), start=1):
        where = f"{source}, record entry {i}"
        no_unknown(entry, {"year", "multiplier"}, where)
        year = whole(entry.get("year"), f"{where}: year", 1933, 1939)
        if record and year != max(record) + 1:
            raise RulesError(f"{where}: the years must run 1933 to 1939 in order")
        multiple = whole(entry.get("multiplier"), f"{where} ({year}): multiplier", 1)
        if record and multiple > record[year - 1]:
            raise RulesError(
                f"{where} ({year}): multiplier {multiple} is higher than {year - 1}'s"
                f" ({record[year - 1]}): the Time and Victory Record's multiple falls as the"
                " years pass"
            )
        record[year] = multiple
    if tuple(record) != tuple(range(1933, 1940)):
        raise RulesError(f"{source}: the record must have the years 1933 to 1939")
    if record[1939] >= record[1933]:
        raise RulesError(
            f"{source}: record: the multiple must fall as the years pass, but 1939's"
            f" ({record[1939]}) is not below 1933's ({record[1933]})"
        )
    return record


def _tiles(
    data: dict[str, Any],
    source: str,
    powers: tuple[Power, ...],
    game_map: GameMap,
    record: dict[int, int],
) -> tuple[Tile, ...]:
    by_abbr = {p.abbr: p.name for p in powers}
    tiles: list[Tile] = []
    for i, entry in enumerate(entries(data, "tiles", source), start=1):
        where = f"{source}, tiles entry {i}"
        no_unknown(entry, {"id", "number", "title", "years", "awards", "effect"}, where)
        tid = text(entry.get("id"), f"{where}: id")
        where = f"{where} ({tid})"
        match = re.fullmatch(r"([A-Z][a-z]?) (\d+)", tid)
        if match is None or (match[1] != "R" and match[1] not in by_abbr):
            raise RulesError(
                f"{where}: an id is a power's abbreviation or R and a number, "
                f"such as 'Ge 1' or 'R 3'"
            )
        power = by_abbr.get(match[1])
        if any(t.id == tid for t in tiles):
            raise RulesError(f"{where}: the id is already used")
        number = whole(entry.get("number"), f"{where}: number", 1, 50)
        if any(t.number == number for t in tiles):
            raise RulesError(f"{where}: number {number} is already used")
        tiles.append(
            Tile(
                tid,
                number,
                text(entry.get("title"), f"{where}: title"),
                power,
                _years(entry.get("years"), where, record),
                _awards(entry.get("awards"), where, game_map),
                _effect(entry.get("effect"), where, game_map),
            )
        )
    for owner in powers:
        own = sorted(int(t.id.split()[1]) for t in tiles if t.power == owner.name)
        if own != list(range(1, TILES_PER_POWER + 1)):
            raise RulesError(
                f"{source}: {owner.name} must have tiles {owner.abbr} 1 to "
                f"{owner.abbr} {TILES_PER_POWER}"
            )
    randoms = sum(1 for t in tiles if t.power is None)
    if randoms != RANDOM_TILES:
        raise RulesError(f"{source}: the game has {RANDOM_TILES} random tiles, found {randoms}")
    if randoms != RANDOM_DRAW * len(powers):
        raise RulesError(f"{source}: each power draws {RANDOM_DRAW} random tiles")
    _check_named_tiles(tiles, source, game_map)
    return tuple(sorted(tiles, key=lambda t: t.number))


def _years(value: Any, where: str, record: dict[int, int]) -> tuple[int, int] | None:
    if value == "any":
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(y, int) and y in record for y in value)
        or value[0] > value[1]
    ):
        raise RulesError(f'{where}: years must be "any" or [first, last] within 1933-1939')
    return (value[0], value[1])


def _awards(value: Any, where: str, game_map: GameMap) -> tuple[Award, ...]:
    if not isinstance(value, list):
        raise RulesError(f'{where}: awards must be a list such as ["3c Berlin Prague"]')
    awards = []
    for k, item in enumerate(value, start=1):
        match = AWARD.match(item) if isinstance(item, str) else None
        if match is None:
            raise RulesError(f"{where}, award {k}: {item!r} is not 'Nc city ...' or 'N£ city ...'")
        amount = whole(int(match[1]), f"{where}, award {k}: the amount", 1)
        cities = tuple(match[3].split())
        for city in cities:
            if city not in game_map.cities:
                raise RulesError(f"{where}, award {k}: unknown city {city!r}")
        awards.append(Award(match[2], amount, cities))
    return tuple(awards)


def _effect(value: Any, where: str, game_map: GameMap) -> Effect | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("kind") not in EFFECTS:
        raise RulesError(
            f"{where}: effect must be {{ kind = ... }}, kind one of {', '.join(EFFECTS)}"
        )
    kind = value["kind"]
    no_unknown(value, {"kind", *EFFECTS[kind]}, f"{where}, effect")
    if kind == "annex":
        country = value.get("country")
        if country not in game_map.countries:
            raise RulesError(f"{where}, effect: unknown country {country!r}")
        return Effect(kind, country=country)
    if kind == "draw_chits":
        return Effect(kind, count=whole(value.get("count"), f"{where}, effect: count", 1, 10))
    return Effect(kind)


def _check_named_tiles(tiles: list[Tile], source: str, game_map: GameMap) -> None:
    """The tiles the rulebook itself names keep their effects (and the map agrees)."""
    by_number = {t.number: t for t in tiles}
    entry = {t.id: i for i, t in enumerate(tiles, start=1)}  # the file's order: its line

    def where(tile: Tile | None) -> str:
        return (
            f"{source}:" if tile is None else f"{source}, tiles entry {entry[tile.id]} ({tile.id}):"
        )

    wanted = (
        (1, "Germany", "annex", "Czechoslovakia", "rule 1.0: Ge 1"),
        (7, "Germany", "annex", "Austria", "rule 1.0: Ge 7"),
        (14, "Italy", "annex", "Albania", "rule 1.0: Event Tile 14"),
        (16, "Russia", "pact", None, "rule 8.5: Event Tile 16"),
    )
    for number, power, kind, country, rule in wanted:
        tile = by_number.get(number)
        if tile is None or tile.power != power or tile.effect is None or tile.effect.kind != kind:
            raise RulesError(
                f"{where(tile)} tile {number} must be {power}'s tile with the {kind} effect"
                f" ({rule})"
            )
        if country and tile.effect.country != country:
            raise RulesError(f"{where(tile)} tile {number} must annex {country} ({rule})")
    for t in tiles:
        if t.effect is not None and t.effect.kind == "annex":
            annexed = game_map.countries[t.effect.country]  # type: ignore[index]
            if annexed.annexed_by != (t.power, t.id):
                raise RulesError(
                    f"{where(t)} it annexes {annexed.id}, but the map's entry for"
                    f" {annexed.id} says annexed_by {annexed.annexed_by}"
                )
    annexing = {c.id: c.annexed_by for c in game_map.countries.values() if c.annexed_by}
    for cid, (_, tile_id) in annexing.items():
        if not any(t.id == tile_id and t.effect and t.effect.country == cid for t in tiles):
            raise RulesError(
                f"{source}: the map says tile {tile_id} annexes {cid}, "
                "but no such tile has that effect"
            )
    title, years, awards = CZECH_CRISIS
    printed = [(i, t) for i, t in enumerate(tiles, start=1) if t.title == title]
    if not printed:
        raise RulesError(f"{source}: the rulebook's printed tile {title!r} is missing")
    for i, tile in printed:
        shown = tuple(str(a) for a in tile.awards)
        if tile.years != years or shown != awards:
            raise RulesError(
                f"{source}, tiles entry {i} ({tile.id}): {title} must be as printed: years"
                f" 1937-1939, awards {'; '.join(awards)}"
            )
    early = [t for t in tiles if t.effect is not None and t.effect.kind == "early_end"]
    if len(early) != 1 or early[0].power != "Germany" or early[0].years is None \
            or early[0].years[0] > 1938:  # fmt: skip
        one = early[0] if len(early) == 1 else None
        raise RulesError(
            f"{where(one)} one German tile (the Polish Crisis) must have the early_end effect"
            " and be playable in 1938 (rule 2.9)"
        )


def _read(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text("utf-8")


EDITION = load_edition(_read(MAP_FILE), _read(PIECES_FILE), _read(TILES_FILE))
