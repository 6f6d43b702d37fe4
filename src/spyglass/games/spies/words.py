"""Words for people: reading typed moves, why a move is not allowed, and what a move does.

The engine asks a state for these (``_parse``, ``_why_illegal``, ``_describe``); the state hands
them to this module, which reads the position and never changes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spyglass.engine import Action

from . import (
    bidding,
    chits,
    deployment,
    diplomacy,
    events,
    movement,
    plays,
    police,
    reactions,
)
from .diplomacy import TALKS
from .geography import POWERS
from .movement import spaces_left
from .notation import TOKENS, spell
from .pieces import IN_PLAY
from .reactions import REACT
from .steps import MOVE, POLICE, REARRANGE, SEARCH, SECRETS, SETUP_PHASES, SPIES, TILE

if TYPE_CHECKING:
    from .rules import SpiesState


def _typed(kind: str, target: Any) -> Action:
    """A move read from typed text (not memoised: the text may name anything)."""
    return Action(kind, (), target, spell(kind, target))


def parse(state: SpiesState, text: str) -> Action | None:
    """Read a move in any case, with places by id or printed name ("Ge3 Königsberg",
    "ge3 land le havre"), legal or not (so that an illegal one is told why)."""
    words = text.split()
    if not words:
        return None
    head = words[0].lower()
    if head == "end" and len(words) == 1:
        return movement.END
    if head in ("done", "pass") and len(words) == 1:
        return police.DONE if head == "done" else police.PASS
    if head in ("send", "withdraw", "accept", "refuse") and len(words) == 1:
        return _typed(head, None)
    if head == "approach" and len(words) == 2:
        power = next((p for p in POWERS if p.lower() == words[1].lower()), words[1])
        return _typed(head, power)
    if head == "bid" and len(words) == 2:
        amount = words[1].strip("£")
        return _typed(head, int(amount)) if amount.isdigit() else None
    if head in ("offer", "ask") and len(words) >= 2:
        return _parse_item(state, head, words[1:])
    if head in (events.PLAY, events.DISCARD) and len(words) == 2:
        token = TOKENS.get(words[1].lower(), words[1])
        return _typed(head, token)
    chit = next((c.name for c in state.edition.chits if c.name.lower() == head), None)
    if chit is not None:
        return _typed("chit", (chit, *(_piece(state, w) for w in words[1:])))
    if head == "search" and len(words) == 2:
        return _typed("search", _label(state, words[1]))
    if head == "return" and len(words) == 2:
        chit = next((c.name for c in state.edition.chits if c.name.lower() == words[1].lower()),
                    words[1])  # fmt: skip
        return _typed("return", chit)
    secret = next((s for s in state.board.secrets if s.lower() == head), None)
    if secret is not None:
        if len(words) == 3 and words[1].lower() == "to":
            return _typed("control", (secret, _label(state, words[2])))
        if len(words) == 2 and words[1].lower() in ("release", "cash"):
            return _typed(words[1].lower(), secret)
        return None
    unit = next((u for u in state.board.police if u.lower() == head), None)
    if unit is not None:
        city = state.edition.map.find(" ".join(words[1:]))
        return None if city is None else _typed("relocate", (unit, city))
    if head in ("secret", "police", "spy") and len(words) >= 3:
        city = state.edition.map.find(" ".join(words[2:]))
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
        city = state.edition.map.find(" ".join(words[1:]))
        strength = state.edition.power(state.power).cousin
        return None if city is None else _typed("spy", (strength, True, city))
    label = next((s for s in state.board.spies if s.lower() == head), words[0])
    if len(words) == 2 and words[1].lower() == "reroll":
        return _typed("reroll", label)
    kind = words[1].lower() if len(words) > 2 else ""
    if kind in ("embark", "sail", "land"):
        place = state.edition.map.find(" ".join(words[2:]))
        return None if place is None else _typed(kind, (label, place))
    place = state.edition.map.find(" ".join(words[1:])) if len(words) > 1 else None
    return None if place is None else _typed("move", (label, place))


def _parse_item(state: SpiesState, head: str, words: list[str]) -> Action | None:
    """``offer £5`` (or ``offer 5``), ``offer Papers``, ``offer X3 to Fr2``."""
    amount = words[0].strip("£")
    if len(words) == 1 and amount.isdigit():
        return _typed(head, (diplomacy.MONEY, int(amount)))
    chit = next((c.name for c in state.edition.chits if c.name.lower() == words[0].lower()),
                None)  # fmt: skip
    if len(words) == 1 and chit is not None:
        return _typed(head, (diplomacy.CHIT, chit))
    if len(words) == 3 and words[1].lower() == "to":
        return _typed(head, (diplomacy.SECRET, _piece(state, words[0]), _label(state, words[2])))
    return None


def _piece(state: SpiesState, text: str) -> str:
    """A spy, police unit or Secret label as typed, in any case."""
    lower = text.lower()
    found = next((s for s in state.board.secrets if s.lower() == lower), None)
    return found if found is not None else _label(state, text)


def _label(state: SpiesState, text: str) -> str:
    """A piece label as typed, in any case."""
    lower = text.lower()
    for label in (*state.board.spies, *state.board.police):
        if label.lower() == lower:
            return label
    return text


def why_illegal(state: SpiesState, action: Action) -> str:
    if state.pending:
        kind, power, spy = state.pending[0]
        if kind == chits.SURPLUS:
            return f"{power} holds more than ten Action Chits: it returns one first (3.21)"
        if kind == REACT:
            return reactions.why_not(state)
        if kind == TALKS:
            if action.kind == "accept":
                return f"{power} does not hold all that the offer asks of it (rule 3.9)"
            return diplomacy.question(state) + " (rule 4.3)"
        if kind == bidding.BID:
            return bidding.why_not(state, power)
        return (
            f"{power} first decides whether to search for {spy} (rule 4.1): 'search {spy}'"
            " or 'pass'"
        )
    if state.phase == TILE:
        if action.kind in (events.PLAY, events.DISCARD):
            return (
                f"{state.power} holds no such tile for {state.year}: a tile is played or "
                "discarded only in its years, an Any Year tile in any year (rule 3.21)"
            )
        return f"{state.power} first plays or discards an Event Tile (rule 3.21)"
    if state.talks.offer is not None:
        return diplomacy.why_not(state, action)
    if action.kind in diplomacy.KINDS or action.kind in ("accept", "refuse", "bid"):
        if action.kind == "approach" and state.phase == MOVE:
            return diplomacy.why_not_approach(state, action.target)
        if action.kind == "approach":
            return "diplomacy is opened during spy movement (rule 3.9)"
        return "there is no offer or bid to make or answer now (rules 3.9, 4.3, 8.5)"
    if action.kind in ("control", "release", "cash"):
        return _why_not_control(state, action)
    if action.kind == "chit":
        if state.phase != MOVE:
            return "Action Chits are played during spy movement (rule 3.8)"
        return plays.why_not(state, action.target)
    if state.phase == REARRANGE:
        if action.kind == "relocate":
            return (
                "police go to home cities with the police symbol or the capital, two per "
                "city, one overseas at most, and each unit moves once (rule 3.3)"
            )
        if action.kind == "done":
            return "a city holds more police than the limits allow (rule 3.3)"
        return f"{state.power} re-arranges its police first ('done' ends it; rule 3.3)"
    if state.phase == SEARCH:
        if action.kind == "search":
            return (
                "only an enemy spy in a city with your police, once a turn, and the first "
                "search in a city costs one Action Point (rule 3.4)"
            )
        return f"{state.power} searches first ('done' ends the searches; rule 3.4)"
    if action.kind in ("search", "relocate", "done", "pass", "return", "play", "discard"):
        return "that belongs to another step of the turn (rules 3.3, 3.4, 4.1)"
    if state.phase in SETUP_PHASES:
        if action.kind != {SECRETS: "secret", POLICE: "police", SPIES: "spy"}[state.phase]:
            return f"it is set-up: {state.power} places its {state.phase} (rules 2.4-2.8)"
        return deployment.why_not(state, action)
    if action.kind == "end" and state.turn.voyage is not None:
        return f"{state.turn.moving} is at sea: a spy may not end its movement at sea (rule 3.61)"
    label = action.target if action.kind == "reroll" else (action.target or (None,))[0]
    piece = state.board.spies.get(label) if isinstance(label, str) else None
    if piece is None or piece.power != state.power:
        return f"{label} is not a spy of {state.power}"
    if state.turn.voyage is not None and label != state.turn.moving:
        return f"finish moving {state.turn.moving} first: it is at sea (rules 3.6 and 3.61)"
    if state.turn.action_points == 0:
        return "no Action Points are left this turn (rule 3.1)"
    if label in state.turn.moved:
        return f"{label} has already moved this turn: one spy at a time (rule 3.6)"
    if spaces_left(state, piece.label) == 0:
        return f"{label} has moved its {movement.SPACES} spaces this turn (rule 3.6)"
    if action.kind in ("embark", "sail", "reroll"):
        return (
            "the spy could not land in time: a voyage must end in a port within the "
            "roll and the spy's spaces and Action Points (rule 3.61)"
        )
    return "no rail line, air line or sea move joins those places (rule 3.6)"


def _why_not_control(state: SpiesState, action: Action) -> str:
    label = action.target if action.kind != "control" else action.target[0]
    secret = state.board.secrets.get(label)
    if secret is None or secret.status != IN_PLAY:
        return f"{label} is not a Secret in play"
    if state.turn.voyage is not None:
        return f"{state.turn.moving} is at sea: nothing else happens until it lands (rule 3.61)"
    if secret.holder is not None and state.piece_power(secret.holder) != state.power:
        return f"{label} is enemy-controlled: only a Discovery chit takes it (rule 3.7)"
    if action.kind == "cash":
        return (
            "only a spy controlling a foreign Secret in its own capital cashes it, on its "
            "own turn (rule 3.7)"
        )
    if action.kind == "release":
        return "only a spy of yours controlling the Secret leaves it (rule 3.7)"
    return (
        "the piece must be yours, in the Secret's city, controlling nothing and not have "
        "taken control this turn; from nobody only your original Secret in your home "
        "territory (a police unit only in its starting city), else a Discovery chit; police "
        "pass Secrets while re-arranging, spies while moving (rule 3.7)"
    )


def describe(state: SpiesState, action: Action) -> str:
    kind, target = action.kind, action.target
    if kind in diplomacy.KINDS or kind in ("accept", "refuse"):
        return diplomacy.describe(state, action)
    if kind == "bid":
        return bidding.describe(state, target)
    if kind == "done":
        what = "re-arranging police" if state.phase == REARRANGE else "searching"
        return f"Finish {what}."
    if kind == "pass":
        if state.pending[0][0] == REACT:
            return reactions.describe_pass(state)
        return f"Let {state.pending[0][2]} go by without a search."
    if kind == "chit":
        return plays.describe(state, action.target)
    if kind == "search":
        spy = state.board.spies[target]
        free = bool(state.pending) or spy.place in state.turn.paid or state.turn.free_searches
        cost = "free" if free else "1 Action Point"
        return f"Search for {target} in {spy.place} with your police there ({cost})."
    if kind == "return":
        return f"Return the Action Chit {target} to the cup (ten at most)."
    if kind in (events.PLAY, events.DISCARD):
        tile = state.edition.tile(target)
        awards = ", ".join(str(a) for a in tile.awards)
        if kind == events.DISCARD:
            return f"Discard {tile.id}, {tile.title!r}, face down (free)."
        effect = events.effect_text(tile)
        then = f"; then {effect}" if effect else ""
        return f"Play {tile.id}, {tile.title!r}: {awards}{then} (1 Action Point)."
    if kind == "relocate":
        unit = state.board.police[target[0]]
        return f"Move police {target[0]} from {unit.city} to {target[1]} (free)."
    if kind == "control":
        secret = state.board.secrets[target[0]]
        source = "uncontrolled" if secret.holder is None else f"held by {secret.holder}"
        return f"Put {target[1]} in control of Secret {target[0]} ({source}) (free)."
    if kind == "release":
        return f"Leave Secret {target} uncontrolled where it is (free)."
    if kind == "cash":
        return "Cash this foreign Secret in your capital: £20 and an Action Chit."
    if kind == "secret":
        face, city = target
        return f"Place a Secret ({face}) face down in {city}."
    if kind == "police":
        return f"Place a police unit of strength {target[0]} face down in {target[1]}."
    if kind == "spy":
        strength, cousin, city = target
        what = f"your Cousin (strength {strength})" if cousin else f"a spy of strength {strength}"
        return f"Place {what} face down in {city}."
    if kind == "end":
        return f"End {state.power}'s turn ({state.turn.action_points} Action Points unused)."
    label = target if kind == "reroll" else target[0]
    cost = "1 Action Point"
    if kind == "reroll":
        return (
            f"Roll the average die again for {label}'s voyage ({cost} and one of its "
            "five spaces; the new roll replaces the old)."
        )
    place = target[1]
    if kind == "move":
        here = state.board.spies[label].place
        kinds = " or ".join(sorted(state.edition.map.graph.routes(here)[place]))
        return f"Move {label} by {kinds} from {here} to {place} ({cost})."
    if kind == "embark":
        return (
            f"Put {label} to sea in the {place} and roll the average die for the "
            f"voyage's length ({cost})."
        )
    if kind == "sail":
        return f"Sail {label} to the {place} ({cost})."
    return f"Land {label} at {place} ({cost})."
