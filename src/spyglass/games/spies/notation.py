"""The moves' notation, with the Action objects memoised (they are immutable and recur in every
turn of every game, so each is built once per process)."""

from __future__ import annotations

from spyglass.engine import Action

_MEMO: dict[tuple[str, object], Action] = {}


def action(kind: str, target: object) -> Action:
    """The Action of ``kind`` aimed at ``target``, with its notation."""
    key = (kind, target)
    found = _MEMO.get(key)
    if found is None:
        found = _MEMO[key] = Action(kind, (), target, spell(kind, target))
    return found


def spell(kind: str, target: object) -> str:
    if kind in ("end", "done", "pass", "send", "withdraw", "accept", "refuse"):
        return kind
    if kind in ("approach", "bid"):
        return f"{kind} {target}"
    if kind in ("offer", "ask"):
        what = target[0]  # type: ignore[index]
        if what == "money":
            return f"{kind} £{target[1]}"  # type: ignore[index]
        if what == "chit":
            return f"{kind} {target[1]}"  # type: ignore[index]
        return f"{kind} {target[1]} to {target[2]}"  # type: ignore[index]
    if kind == "chit":
        return " ".join(target)  # type: ignore[arg-type]
    if kind == "search":
        return f"search {target}"
    if kind in ("return", "play", "discard"):
        return f"{kind} {target}"
    if kind == "relocate":
        label, city = target  # type: ignore[misc]
        return f"{label} {city}"
    if kind == "control":
        secret, piece = target  # type: ignore[misc]
        return f"{secret} to {piece}"
    if kind in ("release", "cash"):
        return f"{target} {kind}"
    if kind == "reroll":
        return f"{target} reroll"
    if kind == "move":
        label, place = target  # type: ignore[misc]
        return f"{label} {place}"
    if kind in ("embark", "sail", "land"):
        label, place = target  # type: ignore[misc]
        return f"{label} {kind} {place}"
    if kind == "secret":
        face, city = target  # type: ignore[misc]
        return f"secret {face} {city}"
    if kind == "police":
        strength, city = target  # type: ignore[misc]
        return f"police {strength} {city}"
    if kind == "spy":
        strength, cousin, city = target  # type: ignore[misc]
        return f"cousin {city}" if cousin else f"spy {strength} {city}"
    raise ValueError(f"no notation for {kind!r}")
