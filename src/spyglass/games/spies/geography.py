"""The map of Spies!: countries, cities, rail and air lines, sea zones; read from ``map.toml``.

The loader checks everything a rule relies on (unknown or duplicate ids, a capital per power,
the eight SECRET cities, the three spy havens, London a port and Rome not, ports with sea zones,
symmetric sea adjacency, a connected map) and names the file and entry of any fault. The map is
then a :class:`~spyglass.components.routes.RouteGraph` over cities and sea zones: "rail" and
"air" join cities, "port" joins a port to its sea zone's ship symbol, "lane" joins two adjoining
ship symbols.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from spyglass.components.routes import RouteGraph
from spyglass.engine import RulesError
from spyglass.engine.datafile import with_line

from .checks import entries, flag, label, no_unknown, number, read_toml, text, word

MAP_FILE = "map.toml"
POWERS = ("Germany", "Italy", "Russia", "France", "Britain")  # the turn order (rule 2.1)
SECRET_CITIES = 8  # rule 2.4
HAVENS = ("Geneva", "Istanbul", "Tangiers")  # rule 5.1
OVERSEAS_POWERS = ("Italy", "France", "Britain")  # rule 2.5
CITY_COUNT = (70, 110)  # the edition's brief (spies-edition.md)
ZONE_COUNT = (10, 14)
#: Countries whose side the rulebook fixes: (power, overseas, annexed_by, why, if wrong).
FIXED_COUNTRIES: dict[str, tuple[str | None, bool, tuple[str, str] | None, str]] = {
    "Egypt": (
        "Britain",
        True,
        None,
        'power must be "Britain" with overseas = true: the rulebook counts Egypt among'
        " Britain's overseas home territory",
    ),
    "Czechoslovakia": (
        None,
        False,
        ("Germany", "Ge 1"),
        "neutral, annexed_by Germany with tile Ge 1 (the rulebook's Ge 1 makes it German)",
    ),
    "Austria": (
        None,
        False,
        ("Germany", "Ge 7"),
        "neutral, annexed_by Germany with tile Ge 7 (the rulebook's Ge 7, the Anschluss)",
    ),
    "Albania": (
        None,
        False,
        ("Italy", "It 7"),
        "neutral, annexed_by Italy with tile It 7 (tile 14, rule 1.0 and 8.5)",
    ),
}
#: Cities the rulebook and its one printed tile name.
NAMED_CITIES = (
    "London", "Rome", "Berlin", "Paris", "Moscow", "Istanbul", "Tangiers", "Geneva", "Prague",
    "Bratislava", "Vienna", "Budapest", "Warsaw", "Bucharest", "Cairo", "Alexandria",
)  # fmt: skip
RAIL, AIR, PORT, LANE = "rail", "air", "port", "lane"


@dataclass(frozen=True, slots=True)
class Country:
    id: str
    power: str | None  # the power whose home territory it is at the start, None if neutral
    overseas: bool
    annexed_by: tuple[str, str] | None  # (power, tile id) that make it that power's home


@dataclass(frozen=True, slots=True)
class City:
    id: str
    label: str
    country: str
    lat: float
    lon: float
    capital: bool
    police: bool  # a police symbol
    secret: bool  # a SECRET city
    haven: bool  # a spy haven
    sea: tuple[str, ...]  # the sea zones of a port, () inland

    @property
    def port(self) -> bool:
        return bool(self.sea)


@dataclass(frozen=True, slots=True)
class SeaZone:
    id: str
    label: str
    lat: float
    lon: float
    adjacent: tuple[str, ...]
    ports: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GameMap:
    label: str
    countries: dict[str, Country]
    cities: dict[str, City]  # in the file's order
    zones: dict[str, SeaZone]
    rail: tuple[tuple[str, str], ...]
    air: tuple[tuple[str, str], ...]
    graph: RouteGraph

    def home_power(self, city: str) -> str | None:
        """The power whose home territory the city is at the start of the game."""
        return self.countries[self.cities[city].country].power

    def overseas(self, city: str) -> bool:
        return self.countries[self.cities[city].country].overseas

    def capital(self, power: str) -> str:
        return next(
            c.id for c in self.cities.values() if c.capital and self.home_power(c.id) == power
        )

    def home_cities(self, power: str) -> list[str]:
        return [c for c in self.cities if self.home_power(c) == power]

    def find(self, name: str) -> str | None:
        """The city or sea zone a typed name means (id or label, any case), or None."""
        key = name.strip().lower()
        places: list[City | SeaZone] = [*self.cities.values(), *self.zones.values()]
        for place in places:
            if key in (place.id.lower(), place.label.lower()):
                return place.id
        return None


def load_map(source_text: str, source: str = MAP_FILE) -> GameMap:
    """Read and check the map; every error names the file, and the line where it can."""
    try:
        return _load_map(source_text, source)
    except RulesError as error:
        raise with_line(error, source_text) from None


def _load_map(source_text: str, source: str) -> GameMap:
    data = read_toml(source_text, source)
    no_unknown(data, {"edition", "countries", "cities", "rail", "air", "sea"}, source)
    name = label(data, source)
    countries = _countries(data, source)
    cities = _cities(data, source, countries)
    zones = _zones(data, source, cities)
    low, high = CITY_COUNT
    if not low <= len(cities) <= high:
        raise RulesError(
            f"{source}: cities: the map has {len(cities)}; it must have {low} to {high}"
        )
    low, high = ZONE_COUNT
    if not low <= len(zones) <= high:
        raise RulesError(
            f"{source}: sea: the map has {len(zones)} sea zones; it must have {low} to {high}"
        )
    rail = _lines(data, "rail", source, cities)
    air = _lines(data, "air", source, cities)
    routes = [(a, b, RAIL) for a, b in rail] + [(a, b, AIR) for a, b in air]
    for zone in zones.values():
        routes += [(port, zone.id, PORT) for port in zone.ports]
        routes += [(zone.id, other, LANE) for other in zone.adjacent if zone.id < other]
    graph = RouteGraph([*cities, *zones], routes)
    groups = graph.components()
    if len(groups) > 1:
        apart = ", ".join(group[0] for group in groups[1:])
        raise RulesError(f"{source}: the map is not connected: {apart} cannot be reached")
    return GameMap(name, countries, cities, zones, rail, air, graph)


def _countries(data: dict[str, Any], source: str) -> dict[str, Country]:
    countries: dict[str, Country] = {}
    for i, entry in enumerate(entries(data, "countries", source), start=1):
        where = f"{source}, countries entry {i}"
        no_unknown(entry, {"id", "power", "overseas", "annexed_by"}, where)
        cid = word(entry.get("id"), f"{where}: id")
        where = f"{where} ({cid})"
        if cid in countries:
            raise RulesError(f"{where}: the id is already used")
        power = entry.get("power")
        if power is not None and power not in POWERS:
            raise RulesError(f"{where}: power must be one of {', '.join(POWERS)}, not {power!r}")
        overseas = flag(entry, "overseas", where)
        if overseas and power is None:
            raise RulesError(f"{where}: only a power's territory can be overseas")
        annexed = entry.get("annexed_by")
        annexed_by = None
        if annexed is not None:
            if power is not None:
                raise RulesError(f"{where}: a power's own territory cannot be annexed")
            if not isinstance(annexed, dict) or set(annexed) != {"power", "tile"}:
                raise RulesError(f'{where}: annexed_by is {{ power = "...", tile = "..." }}')
            if annexed["power"] not in POWERS:
                raise RulesError(f"{where}: annexed_by names an unknown power {annexed['power']!r}")
            annexed_by = (annexed["power"], text(annexed["tile"], f"{where}: annexed_by tile"))
        countries[cid] = Country(cid, power, overseas, annexed_by)
    for power in POWERS:
        if not any(c.power == power and not c.overseas for c in countries.values()):
            raise RulesError(f"{source}: {power} has no home country")
    for power in OVERSEAS_POWERS:
        if not any(c.power == power and c.overseas for c in countries.values()):
            raise RulesError(
                f"{source}: {power} must have overseas home territory (rule 2.5: Britain,"
                " France and Italy have overseas home cities)"
            )
    for i, entry in enumerate(data["countries"], start=1):
        fixed = FIXED_COUNTRIES.get(entry["id"])
        if fixed is None:
            continue
        country = countries[entry["id"]]
        power, overseas, annexed_by, why = fixed
        if (country.power, country.overseas, country.annexed_by) != (power, overseas, annexed_by):
            raise RulesError(f"{source}, countries entry {i} ({country.id}): {why}")
    missing = sorted(set(FIXED_COUNTRIES) - set(countries))
    if missing:
        raise RulesError(f"{source}: the map must have the countries {', '.join(missing)}")
    return countries


def _cities(data: dict[str, Any], source: str, countries: dict[str, Country]) -> dict[str, City]:
    known = {"id", "label", "country", "lat", "lon", "capital", "police", "secret", "haven", "sea"}
    cities: dict[str, City] = {}
    for i, entry in enumerate(entries(data, "cities", source), start=1):
        where = f"{source}, cities entry {i}"
        no_unknown(entry, known, where)
        cid = word(entry.get("id"), f"{where}: id")
        where = f"{where} ({cid})"
        if cid.lower() in (c.lower() for c in cities):
            raise RulesError(f"{where}: the id is already used")
        name = text(entry.get("label", cid), f"{where}: label")
        country = countries.get(entry.get("country"))  # type: ignore[arg-type]
        if country is None:
            raise RulesError(f"{where}: unknown country {entry.get('country')!r}")
        lat = number(entry.get("lat"), f"{where}: lat", -90, 90)
        lon = number(entry.get("lon"), f"{where}: lon", -180, 180)
        capital, police, secret, haven = (
            flag(entry, key, where) for key in ("capital", "police", "secret", "haven")
        )
        home = country.power is not None and not country.overseas
        if (capital or police) and not home:
            what = "a capital" if capital else "a police symbol"
            raise RulesError(
                f"{where}: only a city of a power's home country (not overseas) may have {what}"
            )
        if (secret or haven) and country.power is not None:
            what = "SECRET" if secret else "a spy haven"
            raise RulesError(f"{where}: a city marked {what} must be in a neutral country")
        if secret and haven:
            raise RulesError(f"{where}: a spy haven cannot also be a SECRET city")
        sea = entry.get("sea", [])
        if not isinstance(sea, list) or not all(isinstance(z, str) for z in sea):
            raise RulesError(f"{where}: sea must list the sea zones of the port")
        if len(set(sea)) != len(sea):
            raise RulesError(f"{where}: sea names a zone twice")
        cities[cid] = City(
            cid, name, country.id, lat, lon, capital, police, secret, haven, tuple(sea)
        )
    for power in POWERS:
        capitals = [
            c.id for c in cities.values() if c.capital and countries[c.country].power == power
        ]
        if len(capitals) != 1:
            raise RulesError(
                f"{source}: {power} must have exactly one capital, found {len(capitals)}"
            )
    secrets = [c.id for c in cities.values() if c.secret]
    if len(secrets) != SECRET_CITIES:
        raise RulesError(
            f"{source}: the map must have {SECRET_CITIES} SECRET cities, found {len(secrets)}"
        )
    havens = sorted(c.id for c in cities.values() if c.haven)
    if havens != sorted(HAVENS):
        raise RulesError(
            f"{source}: the spy havens must be {', '.join(HAVENS)} (rule 5.1), "
            f"found {', '.join(havens) or 'none'}"
        )
    missing = [c for c in NAMED_CITIES if c not in cities]
    if missing:
        raise RulesError(
            f"{source}: the map must have the cities the rulebook names: {', '.join(missing)}"
            " missing"
        )
    for city, port in (("London", True), ("Rome", False)):
        if city not in cities or cities[city].port != port:
            raise RulesError(
                f"{source}: {city} must be on the map and "
                f"{'a port' if port else 'not a port'} (rule 3.61)"
            )
    return cities


def _zones(data: dict[str, Any], source: str, cities: dict[str, City]) -> dict[str, SeaZone]:
    raw: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(entries(data, "sea", source), start=1):
        where = f"{source}, sea entry {i}"
        no_unknown(entry, {"id", "label", "lat", "lon", "adjacent"}, where)
        zid = word(entry.get("id"), f"{where}: id")
        where = f"{where} ({zid})"
        if zid in raw or zid.lower() in (c.lower() for c in cities):
            raise RulesError(f"{where}: the id is already used by a city or another zone")
        raw[zid] = {**entry, "where": where}
    for city in cities.values():
        for zid in city.sea:
            if zid not in raw:
                raise RulesError(f"{source}, city {city.id}: unknown sea zone {zid!r}")
    zones = {}
    for zid, entry in raw.items():
        where = entry["where"]
        adjacent = entry.get("adjacent", [])
        if not isinstance(adjacent, list):
            raise RulesError(f"{where}: adjacent must list sea zones")
        for other in adjacent:
            if other not in raw:
                raise RulesError(f"{where}: adjacent names an unknown sea zone {other!r}")
            if other == zid:
                raise RulesError(f"{where}: a sea zone cannot adjoin itself")
            if zid not in raw[other].get("adjacent", []):
                raise RulesError(f"{where}: adjoins {other}, but {other} does not list {zid}")
        ports = tuple(c.id for c in cities.values() if zid in c.sea)
        if not ports:
            raise RulesError(f"{where}: the sea zone has no port")
        zones[zid] = SeaZone(
            zid,
            text(entry.get("label", zid), f"{where}: label"),
            number(entry.get("lat"), f"{where}: lat", -90, 90),
            number(entry.get("lon"), f"{where}: lon", -180, 180),
            tuple(adjacent),
            ports,
        )
    return zones


def _lines(
    data: dict[str, Any], key: str, source: str, cities: dict[str, City]
) -> tuple[tuple[str, str], ...]:
    lines = data.get(key)
    if not isinstance(lines, list) or not lines:
        raise RulesError(f"{source}: '{key}' must be a non-empty list of lines")
    pairs: dict[frozenset[str], int] = {}
    out = []
    for i, line in enumerate(lines, start=1):
        where = f"{source}, {key} line {i}"
        if not isinstance(line, list) or len(line) < 2:
            raise RulesError(f"{where}: a line lists at least two cities")
        for city in line:
            if city not in cities:
                raise RulesError(f"{where}: unknown city {city!r}")
        for a, b in pairwise(line):
            if a == b:
                raise RulesError(f"{where}: {a} is joined to itself")
            pair = frozenset((a, b))
            if pair in pairs:
                raise RulesError(f"{where}: {a}-{b} is already on {key} line {pairs[pair]}")
            pairs[pair] = i
            out.append((a, b))
    return tuple(out)
