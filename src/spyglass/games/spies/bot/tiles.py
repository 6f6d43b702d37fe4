"""The bot's event tile step: which tile to play or discard (rule 3.21)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spyglass.engine import Action

from ..events import fits
from ..pieces import ACTIVE

if TYPE_CHECKING:
    from ..edition import Tile
from .context import Context


def _schedulable(tiles: list[Tile], years: range) -> int:
    """How many of ``tiles`` can still be played, one a year in ``years`` (earliest deadline
    first is optimal for unit jobs with windows)."""
    left = list(tiles)
    count = 0
    for year in years:
        fitting = [t for t in left if fits(t, year)]
        if fitting:
            first = min(fitting, key=lambda t: t.years[1] if t.years else 9999)
            left.remove(first)
            count += 1
    return count


def _awards(ctx: Context, tile: Tile) -> float:
    """The net worth of a tile's awards now: to the bot's powers, less half of the enemies'."""
    state = ctx.state
    worth = 0.0
    for award in tile.awards:
        unit = ctx.chit_points if award.unit == "c" else ctx.pound_points
        for city in award.cities:
            for power in {s.power for s in state.board.spies.values()
                          if s.place == city and s.status == ACTIVE}:  # fmt: skip
                if state.territory(city) == power:
                    continue
                gain = award.amount * unit
                worth += gain if not ctx.enemy(power) else -0.5 * gain
    effect = tile.effect
    if effect is not None:
        if effect.kind == "draw_chits":
            worth += effect.count * ctx.chit_points
        elif effect.kind in ("free_searches", "annex"):
            worth += 1.0
    return worth


def choose_tile(ctx: Context, actions: list[Action]) -> Action:
    state = ctx.state
    own = [state.edition.tile(t) for t in state.hands.tiles[ctx.power]
           if state.edition.tile(t).power == ctx.power]  # fmt: skip
    future = range(state.year + 1, state.last_year + 1)

    def score(act: Action) -> float:
        tile = state.edition.tile(act.target)
        rest = [t for t in own if t.id != tile.id]
        later = 2.0 * _schedulable(rest, future)
        if act.kind == "discard":
            return later
        mine = 2.0 if tile.power == ctx.power else 0.0
        return mine + _awards(ctx, tile) - ctx.ap_points + later

    return max(actions, key=score)
