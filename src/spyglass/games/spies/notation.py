"""The moves' notation, with the Action objects memoised (they are immutable and recur in every
turn of every game, so each is built once per process), and the card tokens of the decks."""

from __future__ import annotations

from typing import Any

from spyglass.engine import Action, RulesError

from .edition import EDITION, Edition

_MEMO: dict[tuple[str, object], Action] = {}


def action(kind: str, target: object) -> Action:
    """The Action of ``kind`` aimed at ``target``, with its notation."""
    key = (kind, target)
    found = _MEMO.get(key)
    if found is None:
        found = _MEMO[key] = Action(kind, (), target, spell(kind, target))
    return found


def spell(kind: str, target: Any) -> str:
    if kind in ("end", "done", "pass", "send", "withdraw", "accept", "refuse"):
        return kind
    if kind in ("approach", "bid"):
        return f"{kind} {target}"
    if kind in ("offer", "ask"):
        what = target[0]
        if what == "money":
            return f"{kind} £{target[1]}"
        if what == "chit":
            return f"{kind} {target[1]}"
        return f"{kind} {target[1]} to {target[2]}"
    if kind == "chit":
        return " ".join(target)
    if kind == "search":
        return f"search {target}"
    if kind in ("return", "play", "discard"):
        return f"{kind} {target}"
    if kind == "relocate":
        label, city = target
        return f"{label} {city}"
    if kind == "control":
        secret, piece = target
        return f"{secret} to {piece}"
    if kind in ("release", "cash"):
        return f"{target} {kind}"
    if kind == "reroll":
        return f"{target} reroll"
    if kind == "move":
        label, place = target
        return f"{label} {place}"
    if kind in ("embark", "sail", "land"):
        label, place = target
        return f"{label} {kind} {place}"
    if kind == "secret":
        face, city = target
        return f"secret {face} {city}"
    if kind == "police":
        strength, city = target
        return f"police {strength} {city}"
    if kind == "spy":
        strength, cousin, city = target
        return f"cousin {city}" if cousin else f"spy {strength} {city}"
    raise ValueError(f"no notation for {kind!r}")


def tile_token(tile_id: str) -> str:
    """A tile's one-word token: "Ge 1" -> "Ge1"."""
    return tile_id.replace(" ", "")


def _tokens(edition: Edition) -> dict[str, str]:
    """Every card token of the three decks, by its lower-case spelling."""
    tokens = [s.id for s in edition.secrets] + [c.name for c in edition.chits]
    tokens += [tile_token(t.id) for t in edition.tiles]
    return {t.lower(): t for t in tokens}


TOKENS = _tokens(EDITION)


def parse_token(text: str) -> str:
    """A Secret id, an Action Chit name or a tile token, as the decks spell them."""
    token = TOKENS.get(str(text).strip().lower())
    if token is None:
        raise RulesError(f"{text!r} is not a Secret, an Action Chit or an Event Tile")
    return token
