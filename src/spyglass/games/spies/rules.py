"""Spies! (the Long Game): the state machine.

This slice holds set-up (rules 2.1-2.9) and the spy movement of the turn (3.1, 3.6, 3.61) with
its 12 Action Points; event tiles, police, searches, secrets, chits, diplomacy and scoring come
in later slices (see RULES.md). The turn of a power is, for now, its spy movement.

Set-up draws from three shuffled decks, so that a stacked deck fixes it: ``secrets`` (the 40
Secret cards: each power draws its allotment in turn order, the last eight go to the SECRET
cities in map order), ``tiles`` (the 15 random Event Tiles: three to each power in turn order)
and ``chits`` (the Action Chits: each power draws its allotment after placing police; the rest
stay in the cup).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine import Action, Result, Rng, RulesError, State

from . import deployment, movement, seats
from .deployment import PHASES, POLICE, SECRETS, SPIES
from .edition import EDITION, Edition
from .geography import POWERS
from .hidden import resample
from .movement import Voyage, apply_move, move_actions, spaces_left
from .notation import spell
from .pieces import PoliceUnit, Secret, Spy
from .views import table_view

ACTION_POINTS = 12  # rule 3.1
FIRST_YEAR, LAST_YEAR = 1933, 1939
MOVE, OVER = "move", "over"
COLOUR_TILE_POINTS = 2  # rule 6.0


def _tokens(edition: Edition) -> dict[str, str]:
    """Every card token of the three decks, by its lower-case spelling."""
    tokens = [s.id for s in edition.secrets] + [c.name for c in edition.chits]
    tokens += [tile_token(t.id) for t in edition.tiles]
    return {t.lower(): t for t in tokens}


def _typed(kind: str, target: Any) -> Action:
    """A move read from typed text (not memoised: the text may name anything)."""
    return Action(kind, (), target, spell(kind, target))


def tile_token(tile_id: str) -> str:
    """A tile's one-word token: "Ge 1" -> "Ge1"."""
    return tile_id.replace(" ", "")


_TOKENS = _tokens(EDITION)
_HOMES: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[str, ...]] = {}
_TILE_NUMBER = {tile_token(t.id): t.number for t in EDITION.tiles}


def parse_token(text: str) -> str:
    """A Secret id, an Action Chit name or a tile token, as the decks spell them."""
    token = _TOKENS.get(str(text).strip().lower())
    if token is None:
        raise RulesError(f"{text!r} is not a Secret, an Action Chit or an Event Tile")
    return token


class SpiesState(State):
    parse_card = staticmethod(parse_token)
    notation_help = (
        "set-up: 'secret 3 Berlin', 'police 2 Hamburg', 'spy 3 Paris', 'cousin Vienna'; "
        "moves: 'Ge3 Vienna', 'Ge3 embark Baltic', 'Ge3 sail North-Sea', 'Ge3 land Kiel', "
        "'Ge3 reroll', 'end'"
    )

    edition: Edition
    year: int
    phase: str
    power_index: int
    annexed: dict[str, str]  # country -> power (event tiles, a later slice)
    money: dict[str, int]
    hand_secrets: dict[str, list[str]]
    reserve_police: dict[str, list[int]]
    reserve_spies: dict[str, list[tuple[int, bool]]]
    spies: dict[str, Spy]
    police: dict[str, PoliceUnit]
    secrets: dict[str, Secret]
    chits: dict[str, list[str]]
    cup: list[str]
    tiles: dict[str, list[str]]
    labels: dict[str, int]
    action_points: int
    moving: str | None
    spaces: int
    voyage: Voyage | None
    moved: set[str]

    # ---------------------------------------------------------------- set-up

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[str]]:
        return {
            "secrets": [s.id for s in EDITION.secrets],
            "tiles": [tile_token(t.id) for t in EDITION.tiles if t.power is None],
            "chits": [c.name for c in EDITION.chits for _ in range(c.count)],
        }

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # Every set-up decision places one piece; every move of a turn spends an Action Point,
        # and "end" closes the turn.
        pieces = sum(p.secrets + len(p.police) + len(p.spies) + 1 for p in EDITION.powers)
        turns = len(POWERS) * (LAST_YEAR - FIRST_YEAR + 1)
        return pieces + turns * (ACTION_POINTS + 1)

    def _setup(self) -> None:
        edition = self.edition = EDITION
        self.year = FIRST_YEAR
        self.annexed = {}
        self.labels = {}
        self.money = {p.name: p.money for p in edition.powers}
        self.spies, self.police, self.secrets = {}, {}, {}
        self.reserve_police = {p.name: list(p.police) for p in edition.powers}
        self.reserve_spies = {
            p.name: [(s, False) for s in p.spies] + [(p.cousin, True)] for p in edition.powers
        }
        self.action_points = ACTION_POINTS
        self.moving, self.spaces, self.voyage, self.moved = None, 0, None, set()
        for power in POWERS:
            self._say(
                f"{power} is played by seat {self.controller(power)}; "
                f"it starts with £{self.money[power]}"
            )
        self._deal_secrets(list(self._decks["secrets"]))
        self._deal_tiles(list(self._decks["tiles"]))
        self.chits = {p: [] for p in POWERS}
        self.cup = list(self._decks["chits"])  # drawn from the top after the police (2.6)
        self.phase, self.power_index = SECRETS, 0

    def _deal_secrets(self, order: list[str]) -> None:
        self.hand_secrets = {}
        for p in self.edition.powers:
            self.hand_secrets[p.name] = sorted(order[: p.secrets])
            del order[: p.secrets]
            faces = " ".join(self.edition.secret(c).face for c in self.hand_secrets[p.name])
            self._say(
                f"{p.name} draws Secrets {faces}",
                self.informed_seats(p.name),
                f"{p.name} draws {p.secrets} Secrets",
            )
        for city, card in zip(
            [c.id for c in self.edition.map.cities.values() if c.secret], order, strict=True
        ):
            label = self.next_label("X")
            self.secrets[label] = Secret(label, card, None, city, city)
        self._say("a Secret is placed face down in each SECRET city")

    def _deal_tiles(self, order: list[str]) -> None:
        self.tiles = {}
        for power in POWERS:
            own = [tile_token(t.id) for t in self.edition.tiles if t.power == power]
            drawn, order[:3] = order[:3], []
            self.tiles[power] = self.sort_tiles(own + drawn)
            self._say(
                f"{power} draws random tiles {' '.join(drawn)}",
                self.informed_seats(power),
                f"{power} draws three random tiles",
            )

    def _draw_chits(self) -> None:
        for p in self.edition.powers:
            drawn, self.cup[: p.chits] = self.cup[: p.chits], []
            self.chits[p.name] = sorted(drawn)
            self._say(
                f"{p.name} draws chits {', '.join(drawn)}",
                [self.controller(p.name)],
                f"{p.name} draws {p.chits} Action Chits",
            )
        self.cup.sort()  # a cup has no order: later draws are random

    def after_deploy(self) -> None:
        """Move on to the next power with pieces to place, or the next set-up step."""
        while deployment.remaining(self, self.power) == 0:
            self.power_index += 1
            if self.power_index == len(POWERS):
                self.power_index = 0
                step = PHASES.index(self.phase) + 1
                if step == len(PHASES):
                    self.phase = MOVE
                    self._say(f"{self.year} begins: {self.power} to play")
                    return
                self.phase = PHASES[step]
                if self.phase == SPIES:
                    self._draw_chits()

    # ---------------------------------------------------------------- who is who

    @property
    def power(self) -> str:
        return POWERS[self.power_index]

    def controller(self, power: str) -> int:
        return seats.controller(power, min(self.year, LAST_YEAR), self.players)

    def powers_of(self, seat: int) -> list[str]:
        return seats.powers_of(seat, min(self.year, LAST_YEAR), self.players)

    def informed_seats(self, power: str) -> set[int]:
        """The seats that have played ``power``: they know its pieces' faces."""
        return seats.ever_played(power, min(self.year, LAST_YEAR), self.players)

    def sees_faces(self, observer: int | None, power: str) -> bool:
        """Whether ``observer`` knows the faces of ``power``'s spies and police: it has played
        that power (or the game is over and everything is turned up for the score)."""
        return self.is_over or observer in self.informed_seats(power)

    def sees_hand(self, observer: int | None, power: str) -> bool:
        """The seat playing ``power`` now sees its hands (chits, tiles, Secrets to place)."""
        return self.is_over or (observer is not None and observer == self.controller(power))

    def sees_secret(self, observer: int | None, secret: Secret) -> bool:
        """A power looks at its original Secrets unless another power controls them."""
        if self.is_over:
            return True
        if observer is None or secret.origin is None:
            return False
        if observer not in self.informed_seats(secret.origin):
            return False
        return secret.holder is None or self._holder_power(secret.holder) == secret.origin

    def _holder_power(self, label: str) -> str:
        piece = self.spies.get(label) or self.police[label]
        return piece.power

    def abbr(self, power: str) -> str:
        return self.edition.power(power).abbr

    def next_label(self, prefix: str) -> str:
        self.labels[prefix] = self.labels.get(prefix, 0) + 1
        return f"{prefix}{self.labels[prefix]}"

    # ---------------------------------------------------------------- territory

    def territory(self, city: str) -> str | None:
        """The power whose home territory ``city`` is now (annexations included)."""
        country = self.edition.map.cities[city].country
        return self.annexed.get(country) or self.edition.map.countries[country].power

    def home_cities(self, power: str) -> tuple[str, ...]:
        """The cities of ``power``'s home territory now (memoised: they change only when a tile
        annexes a country)."""
        key = (power, tuple(sorted(self.annexed.items())))
        cities = _HOMES.get(key)
        if cities is None:
            cities = _HOMES[key] = tuple(
                c for c in self.edition.map.cities if self.territory(c) == power
            )
        return cities

    def is_overseas(self, city: str) -> bool:
        return self.edition.map.overseas(city)

    # ---------------------------------------------------------------- tiles

    @staticmethod
    def is_random_tile(token: str) -> bool:
        return token.startswith("R")

    @staticmethod
    def sort_tiles(tokens: list[str]) -> list[str]:
        return sorted(tokens, key=_TILE_NUMBER.__getitem__)

    def visible_tiles(self, power: str, hand: bool) -> Any:
        if hand:
            return list(self.tiles[power])
        own = [t for t in self.tiles[power] if not self.is_random_tile(t)]
        return {"own": own, "random": len(self.tiles[power]) - len(own)}

    # ---------------------------------------------------------------- the turn

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _current(self) -> int:
        return self.controller(self.power)

    def _legal_actions(self) -> list[Action]:
        if self.phase == OVER:
            return []
        if self.phase == MOVE:
            return move_actions(self)
        return deployment.deploy_actions(self)

    def _apply(self, action: Action) -> None:
        if self.phase == MOVE:
            apply_move(self, action)
        else:
            deployment.apply_deploy(self, action)

    def finish_moving(self) -> None:
        if self.moving is not None:
            self.moved.add(self.moving)
        self.moving, self.spaces, self.voyage = None, 0, None

    def end_turn(self) -> None:
        self._say(f"{self.power} ends its turn with {self.action_points} Action Points unused")
        self.moved = set()
        self.action_points = ACTION_POINTS
        self.power_index += 1
        if self.power_index == len(POWERS):
            self.power_index = 0
            if self.year == LAST_YEAR:
                self.phase = OVER
                self._say(f"{LAST_YEAR} is complete: the game is over")
                return
            self.year += 1
            self._say(f"{self.year} begins")

    # ---------------------------------------------------------------- the end

    def power_points(self, power: str) -> int:
        """Victory points of ``power`` from what this slice plays: its original Secrets still
        in their cities and not enemy-controlled, at the final year's multiple (rule 6.0;
        Counterspies at half the multiple, rounded down)."""
        multiple = self.edition.record[min(self.year, LAST_YEAR)]
        points = 0
        for secret in self.secrets.values():
            if secret.origin != power or secret.place != secret.home:
                continue
            if secret.holder is not None and self._holder_power(secret.holder) != power:
                continue
            card = self.edition.secret(secret.card)
            points += card.value * (multiple // 2 if card.counterspy else multiple)
        return points

    def _result(self) -> Result:
        points = {p: self.power_points(p) for p in POWERS}
        # Rule 7.0: each power is scored on its own; a seat's score is its best power's. With
        # two players Russia scores nothing.
        scoring = [p for p in POWERS if not (self.players == 2 and p == "Russia")]
        best = {s: max(points[p] for p in scoring if self.controller(p) == s)
                for s in range(self.players)}  # fmt: skip
        top = max(best.values())
        leaders = [p for p in scoring if points[p] == top]
        richest = max(self.money[p] for p in leaders)
        winners = tuple(sorted({self.controller(p) for p in leaders if self.money[p] == richest}))
        return Result(
            scores=tuple(float(best[s]) for s in range(self.players)),
            winners=winners,
            detail=tuple(
                {p: points[p] for p in scoring if self.controller(p) == s}
                for s in range(self.players)
            ),
            summary=" and ".join(f"seat {s}" for s in winners) + f" wins with {top} points",
        )

    # ---------------------------------------------------------------- views

    def _view(self, observer: int | None) -> dict[str, Any]:
        return table_view(self, observer)

    def _snapshot(self) -> dict[str, Any]:
        return {
            "year": self.year,
            "phase": self.phase,
            "power": self.power_index,
            "annexed": dict(sorted(self.annexed.items())),
            "money": dict(self.money),
            "hand_secrets": {p: list(v) for p, v in self.hand_secrets.items()},
            "reserve_police": {p: list(v) for p, v in self.reserve_police.items()},
            "reserve_spies": {p: [list(k) for k in v] for p, v in self.reserve_spies.items()},
            "spies": [[s.label, s.power, s.strength, s.cousin, s.place, s.status]
                      for s in self.spies.values()],
            "police": [[u.label, u.power, u.strength, u.city] for u in self.police.values()],
            "secrets": [[s.label, s.card, s.origin, s.home, s.place, s.holder]
                        for s in self.secrets.values()],
            "chits": {p: list(v) for p, v in self.chits.items()},
            "cup": list(self.cup),
            "tiles": {p: list(v) for p, v in self.tiles.items()},
            "labels": dict(sorted(self.labels.items())),
            "action_points": self.action_points,
            "moving": self.moving,
            "spaces": self.spaces,
            "voyage": None if self.voyage is None else [
                self.voyage.limit, self.voyage.used, self.voyage.may_reroll],
            "moved": sorted(self.moved),
        }  # fmt: skip

    def _resample(self, observer: int | None, rng: Rng) -> None:
        resample(self, observer, rng)

    def _copy_containers(self) -> None:
        self.annexed = dict(self.annexed)
        self.money = dict(self.money)
        self.hand_secrets = {p: list(v) for p, v in self.hand_secrets.items()}
        self.reserve_police = {p: list(v) for p, v in self.reserve_police.items()}
        self.reserve_spies = {p: list(v) for p, v in self.reserve_spies.items()}
        self.spies = dict(self.spies)
        self.police = dict(self.police)
        self.secrets = dict(self.secrets)
        self.chits = {p: list(v) for p, v in self.chits.items()}
        self.cup = list(self.cup)
        self.tiles = {p: list(v) for p, v in self.tiles.items()}
        self.labels = dict(self.labels)
        self.moved = set(self.moved)

    def _cards(self) -> list[str]:
        cards = [s.card for s in self.secrets.values()]
        cards += [c for hand in self.hand_secrets.values() for c in hand]
        cards += [c for hand in self.chits.values() for c in hand] + self.cup
        cards += [t for hand in self.tiles.values() for t in hand]
        return cards

    # ---------------------------------------------------------------- words

    def _parse(self, text: str) -> Action | None:
        """Read a move in any case, with places by id or printed name ("Ge3 Königsberg",
        "ge3 land le havre"), legal or not (so that an illegal one is told why)."""
        words = text.split()
        if not words:
            return None
        head = words[0].lower()
        if head == "end" and len(words) == 1:
            return movement.END
        if head in ("secret", "police", "spy") and len(words) >= 3:
            city = self.edition.map.find(" ".join(words[2:]))
            if city is None:
                return None
            face = words[1].lower()
            if head == "secret":
                return _typed("secret", (face, city))
            if not face.isdigit():
                return None
            if head == "police":
                return _typed("police", (int(face), city))
            return _typed("spy", (int(face), False, city))
        if head == "cousin" and len(words) >= 2:
            city = self.edition.map.find(" ".join(words[1:]))
            strength = self.edition.power(self.power).cousin
            return None if city is None else _typed("spy", (strength, True, city))
        label = next((s for s in self.spies if s.lower() == head), words[0])
        if len(words) == 2 and words[1].lower() == "reroll":
            return _typed("reroll", label)
        kind = words[1].lower() if len(words) > 2 else ""
        if kind in ("embark", "sail", "land"):
            place = self.edition.map.find(" ".join(words[2:]))
            return None if place is None else _typed(kind, (label, place))
        place = self.edition.map.find(" ".join(words[1:])) if len(words) > 1 else None
        return None if place is None else _typed("move", (label, place))

    def _why_illegal(self, action: Action) -> str:
        if self.phase in PHASES:
            if action.kind != {SECRETS: "secret", POLICE: "police", SPIES: "spy"}[self.phase]:
                return f"it is set-up: {self.power} places its {self.phase} (rules 2.4-2.8)"
            return (
                "that piece is not among those left to place, or the city is not allowed: "
                "Secrets one per home city (2.4), police two per city with a police symbol "
                "or the capital and one overseas (2.5), spies abroad at most the printed "
                "number (2.1, 2.8)"
            )
        if action.kind == "end" and self.voyage is not None:
            return f"{self.moving} is at sea: a spy may not end its movement at sea (rule 3.61)"
        label = action.target if action.kind == "reroll" else (action.target or (None,))[0]
        spy = self.spies.get(label) if isinstance(label, str) else None
        if spy is None or spy.power != self.power:
            return f"{label} is not a spy of {self.power}"
        if self.voyage is not None and label != self.moving:
            return f"finish moving {self.moving} first: it is at sea (rules 3.6 and 3.61)"
        if self.action_points == 0:
            return "no Action Points are left this turn (rule 3.1)"
        if label in self.moved:
            return f"{label} has already moved this turn: one spy at a time (rule 3.6)"
        if spaces_left(self, label) == 0:
            return f"{label} has moved its {movement.SPACES} spaces this turn (rule 3.6)"
        if action.kind in ("embark", "sail", "reroll"):
            return (
                "the spy could not land in time: a voyage must end in a port within the "
                "roll and the spy's spaces and Action Points (rule 3.61)"
            )
        return "no rail line, air line or sea move joins those places (rule 3.6)"

    def _describe(self, action: Action) -> str:
        kind, target = action.kind, action.target
        if kind == "secret":
            face, city = target
            return f"Place a Secret ({face}) face down in {city}."
        if kind == "police":
            return f"Place a police unit of strength {target[0]} face down in {target[1]}."
        if kind == "spy":
            strength, cousin, city = target
            what = (
                f"your Cousin (strength {strength})" if cousin else f"a spy of strength {strength}"
            )
            return f"Place {what} face down in {city}."
        if kind == "end":
            return f"End {self.power}'s turn ({self.action_points} Action Points unused)."
        label = target if kind == "reroll" else target[0]
        cost = "1 Action Point"
        if kind == "reroll":
            return (
                f"Roll the average die again for {label}'s voyage ({cost} and one of its "
                "five spaces; the new roll replaces the old)."
            )
        place = target[1]
        if kind == "move":
            here = self.spies[label].place
            kinds = " or ".join(sorted(self.edition.map.graph.routes(here)[place]))
            return f"Move {label} by {kinds} from {here} to {place} ({cost})."
        if kind == "embark":
            return (
                f"Put {label} to sea in the {place} and roll the average die for the "
                f"voyage's length ({cost})."
            )
        if kind == "sail":
            return f"Sail {label} to the {place} ({cost})."
        return f"Land {label} at {place} ({cost})."
