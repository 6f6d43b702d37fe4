"""The event tile step at the start of a turn (rules 3.21, 3.22, and 2.9's early end).

The power to play either plays a tile face up for one Action Point or discards one face down for
nothing. A tile of a year range may be played or discarded only in those years; an "Any Year"
tile may be discarded or played in any year (our ruling). A power with no such tile skips the
step. A played tile's awards go city by city in the printed order and, in a city, power by power
in turn order, to every power with an active spy there outside its own territory; chits are
drawn one award at a time, and a power taken over ten returns the surplus before the next award
(``awarding`` is the queue; ``resume`` works through it). The tile's special effect follows the
awards. Played tiles are public; a discarded tile is seen only by the seat playing its power.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.engine import Action

from . import chits, money
from .geography import POWERS
from .notation import action
from .pieces import ACTIVE
from .steps import DONE

if TYPE_CHECKING:
    from .edition import Tile
    from .rules import SpiesState

PLAY, DISCARD = "play", "discard"
EARLY_END = 1938  # rule 2.9: the Polish Crisis ends the game after 1938
EFFECT_DRAW = "effect"  # an award queue entry for a tile's own chit draw


def tile_of(state: SpiesState, token: str) -> Tile:
    return state.edition.tile(token)


def fits(tile: Tile, year: int) -> bool:
    """Whether ``tile`` may be played or discarded in ``year`` (rule 3.21)."""
    return tile.years is None or tile.years[0] <= year <= tile.years[1]


def tile_actions(state: SpiesState) -> list[Action]:
    usable = [t for t in state.hands.tiles[state.power] if fits(tile_of(state, t), state.year)]
    return [action(PLAY, t) for t in usable] + [action(DISCARD, t) for t in usable]


def has_tile(state: SpiesState) -> bool:
    return any(fits(tile_of(state, t), state.year) for t in state.hands.tiles[state.power])


def apply_tile(state: SpiesState, kind: str, token: str) -> str | None:
    power = state.power
    state.hands.tiles[power].remove(token)
    if kind == DISCARD:
        state.hands.discarded[power].append((token, state.year))
        state.say(
            f"{power} discards {token} face down",
            [state.controller(power)],
            f"{power} discards an Event Tile face down",
        )
        return DONE
    tile = tile_of(state, token)
    state.turn.action_points -= 1
    state.hands.played.append((power, token, state.year))
    state.say(f"{power} plays {tile.id}, {tile.title!r} (one Action Point)")
    for award in tile.awards:
        for city in award.cities:
            for receiver in POWERS:
                if _rewarded(state, receiver, city):
                    state.turn.awarding.append((receiver, award.unit, award.amount, city))
    effect = tile.effect
    if effect is not None and effect.kind == "draw_chits":
        state.turn.awarding.append((power, "c", effect.count, EFFECT_DRAW))
    return resume(state)


def _rewarded(state: SpiesState, power: str, city: str) -> bool:
    """Rule 3.21: a power with a spy in ``city`` outside its own territory (one award however
    many spies it has there)."""
    if state.territory(city) == power:
        return False
    return any(
        s.power == power and s.place == city and s.status == ACTIVE
        for s in state.board.spies.values()
    )


def resume(state: SpiesState) -> str | None:
    """Work through the awards until a power must return chits over ten, then apply the tile's
    effect: the tile step is done (None while a power returns chits)."""
    while state.turn.awarding:
        if state.pending:
            return None
        power, unit, amount, city = state.turn.awarding.pop(0)
        if unit == "£":
            money.change(state, power, amount)
            state.say(f"{power} receives £{amount} for its spy in {city}")
        else:
            where = "from the tile" if city == EFFECT_DRAW else f"for its spy in {city}"
            state.say(f"{power} draws {amount} Action Chits {where}")
            chits.draw(state, power, amount)
    if state.pending:
        return None
    _effect(state)
    return DONE


def effect_text(tile: Tile) -> str:
    """The tile's special effect in a few words ("" for none)."""
    effect = tile.effect
    if effect is None:
        return ""
    return {
        "annex": f"{effect.country} becomes home territory",
        "early_end": f"played in {EARLY_END}, the game ends with {EARLY_END}",
        "pact": "the Soviet-German Non-aggression Pact (rule 8.5)",
        "free_searches": "this turn's searches are free",
        "draw_chits": f"draw {effect.count} Action Chits",
    }[effect.kind]


def _effect(state: SpiesState) -> None:
    power, token, year = state.hands.played[-1]
    effect = tile_of(state, token).effect
    if effect is None:
        return
    if effect.kind == "annex":
        state.annexed[effect.country] = power  # type: ignore[index]
        state.say(f"{effect.country} becomes {power}'s home territory")
    elif effect.kind == "early_end" and year == EARLY_END:
        state.last_year = EARLY_END
        state.say(f"the game will end when {EARLY_END} is complete (rule 2.9)")
    elif effect.kind == "pact":
        state.pact = True
        state.say(
            "the Soviet-German Non-aggression Pact is signed: under rule 8.5 only the player "
            "of Germany could take Russia over"
        )
    elif effect.kind == "free_searches":
        state.turn.free_searches = True
        state.say(f"{power}'s searches cost no Action Points this turn")
