"""Syndicate: promote undercover agents up five mafia ranks; replacements must fit the digits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.components.cards import Card, card_list, cards_text, parse_card, standard_deck
from spyglass.engine import Action, Result, State

RANKS = (5, 4, 3, 2, 1)  # rank 5 is the lowest rung, rank 1 the highest
DEAL = {5: 9, 4: 7, 3: 5, 2: 3, 1: 1}  # candidates dealt to each rank's column
FIRST_MEMBERS = 3
MEMBER_LIMIT = 3

#: Destinations of a promoted member, as written in the notation.
TO_MEMBER, TO_CANDIDATE, OUT = "m", "c", "out"


def value(card: Card) -> int:
    """A card's digit: Ace 1, Two to Nine their rank, Ten 0."""
    return card.rank % 10


def fitting_digits(first: Card, second: Card) -> frozenset[int]:
    """The digits a replacement may have next to these two members: last digit of sum or product."""
    a, b = value(first), value(second)
    return frozenset({(a + b) % 10, (a * b) % 10})


NUMBER_CARDS = tuple(c for c in standard_deck() if c.rank <= 10)
# Hot-path tables: a card's digit by code, and the fitting digits of two digits as a bitmask.
DIGIT = tuple(value(Card(code)) if Card(code).rank else 0 for code in range(54))
FITS = tuple((1 << (a + b) % 10) | (1 << (a * b) % 10) for a in range(10) for b in range(10))
# Memo of pure functions: the same cards always make the same immutable Action.
_ACTIONS: dict[tuple[Any, ...], Action] = {}


def _promotion(member: Card, replacement: Card, target: str, victim: Card | None) -> Action:
    key = (member, replacement, target, victim)
    action = _ACTIONS.get(key)
    if action is None:
        if victim is None:
            action = Action(
                "promote", (member, replacement), target, f"{member} {target} {replacement}"
            )
        else:
            action = Action(
                "promote",
                (member, replacement, victim),
                target,
                f"{member} {target} {replacement} sac {victim}",
            )
        _ACTIONS[key] = action
    return action


_GROUPS: dict[tuple[Any, ...], tuple[Action, ...]] = {}  # memo of _promotion_group


def _promotion_group(
    member: Card, replacement: Card, above: list[Card] | None
) -> tuple[Action, ...]:
    if above is None:
        return (_promotion(member, replacement, OUT, None),)
    group = [_promotion(member, replacement, TO_CANDIDATE, None)]
    if len(above) < MEMBER_LIMIT:
        group.append(_promotion(member, replacement, TO_MEMBER, None))
    else:
        # Four members: one of them (the newcomer included) is sacrificed.
        group += [_promotion(member, replacement, TO_MEMBER, victim) for victim in above]
        group.append(_promotion(member, replacement, TO_MEMBER, member))
    return tuple(group)


def _pick(card: Card) -> Action:
    key = ("pick", card)
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action("pick", (card,), None, f"pick {card}")
    return action


class SyndicateState(State):
    DECK = NUMBER_CARDS  # the deck (engine State.deck_contents)
    parse_card = staticmethod(parse_card)
    notation_help = (
        "pick a first member with 'pick 6C'; promote with 'MEMBER DEST REPLACEMENT', DEST being"
        " m (member), c (candidate) or out (from rank 1), e.g. '6C m 9H', '5C m 4D sac 7C'"
    )

    members: dict[int, list[Card]]
    candidates: dict[int, list[Card]]
    leftover: list[Card]  # the fifteen undealt cards, while the first members are chosen
    removed: list[Card]  # undealt cards not chosen: out of the game
    sacrificed: list[Card]
    promoted_out: Card | None  # the agent promoted beyond rank 1: the game is won
    _moves: list[Action]

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        # Each promotion moves one card one rank up, never down: a card dealt to rank r can
        # move r times, and the three first members five times each.
        return FIRST_MEMBERS + sum(rank * count for rank, count in DEAL.items()) + 5 * 3

    def _setup(self) -> None:
        order = list(self._deck("deck"))
        self.members = {rank: [] for rank in RANKS}
        self.candidates = {}
        position = 0
        for rank in RANKS:
            self.candidates[rank] = order[position : position + DEAL[rank]]
            position += DEAL[rank]
        self.leftover = order[position:]
        self.removed = []
        self.sacrificed = []
        self.promoted_out = None
        for rank in RANKS:
            self._say(f"rank {rank} candidates: {cards_text(self.candidates[rank])}")
        self._say(f"left over: {cards_text(self.leftover)}")
        self._moves = self._find_moves()

    # ---------------------------------------------------------------- rules

    @property
    def choosing(self) -> bool:
        """Still choosing the three first members of rank 5 from the left-over cards."""
        return bool(self.leftover)

    @property
    def won(self) -> bool:
        return self.promoted_out is not None

    @property
    def is_over(self) -> bool:
        return not self._moves

    def _legal_actions(self) -> list[Action]:
        return self._moves

    def _find_moves(self) -> list[Action]:
        if self.won:
            return []
        if self.choosing:
            return [_pick(card) for card in self.leftover]
        moves: list[Action] = []
        digit = DIGIT
        for rank in RANKS:
            members = self.members[rank]
            candidates = self.candidates[rank]
            if len(members) != MEMBER_LIMIT or not candidates:
                continue
            d0, d1, d2 = digit[members[0]], digit[members[1]], digit[members[2]]
            fits = (FITS[d1 * 10 + d2], FITS[d0 * 10 + d2], FITS[d0 * 10 + d1])
            above = self.members[rank - 1] if rank > 1 else None
            for i in range(MEMBER_LIMIT):
                mask = fits[i]
                member = members[i]
                for replacement in candidates:
                    if mask >> digit[replacement] & 1:
                        self._promotions(moves, member, replacement, above)
        return moves

    @staticmethod
    def _promotions(
        moves: list[Action], member: Card, replacement: Card, above: list[Card] | None
    ) -> None:
        # The promotions of one member with one replacement depend only on the rank above: out
        # of rank 1, a rank with room, or a full rank (whose members can be sacrificed).
        situation = (
            -1 if above is None else len(above) if len(above) < MEMBER_LIMIT else tuple(above)
        )
        key = (member, replacement, situation)
        group = _GROUPS.get(key)
        if group is None:
            group = _GROUPS[key] = _promotion_group(member, replacement, above)
        moves.extend(group)

    def _apply(self, action: Action) -> None:
        if action.kind == "pick":
            self._pick(action.cards[0])
        else:
            self._promote(action)
        self._moves = self._find_moves()
        if not self._moves and not self.won:
            self._say("no promotion has a fitting replacement: stuck, the game is lost")

    def _pick(self, card: Card) -> None:
        self.leftover.remove(card)
        self.members[5].append(card)
        self._say(f"{card} joins rank 5 as a member")
        if len(self.members[5]) == FIRST_MEMBERS:
            self.removed = self.leftover
            self.leftover = []
            self._say(f"removed from the game: {cards_text(self.removed)}")

    def _promote(self, action: Action) -> None:
        member, replacement = action.cards[:2]
        rank = self._rank_of_member(member)
        members = self.members[rank]
        members[members.index(member)] = replacement
        self.candidates[rank].remove(replacement)
        if action.target == OUT:
            self.promoted_out = member
            self._say(
                f"{member} promoted out of rank 1, {replacement} replaces it: the syndicate"
                " falls, the game is won"
            )
            return
        above = rank - 1
        if action.target == TO_CANDIDATE:
            self.candidates[above].append(member)
            where = "candidate"
        else:
            self.members[above].append(member)
            where = "member"
        text = f"{member} promoted to rank {above} {where}, {replacement} replaces it"
        if len(action.cards) == 3:
            victim = action.cards[2]
            self.members[above].remove(victim)
            self.sacrificed.append(victim)
            text += f"; {victim} is sacrificed"
        self._say(text)

    def _rank_of_member(self, card: Card) -> int:
        for rank in RANKS:
            if card in self.members[rank]:
                return rank
        raise KeyError(card)

    def _result(self) -> Result:
        highest = min((r for r in RANKS if self.members[r]), default=5)
        detail = {
            "sacrificed": len(self.sacrificed),
            "sacrificed_cards": card_list(self.sacrificed),
            "highest_rank_with_members": 0 if self.won else highest,
            "promoted_out": None if self.promoted_out is None else str(self.promoted_out),
        }
        n = len(self.sacrificed)
        if self.won:
            summary = f"Won: {self.promoted_out} promoted out of rank 1 with {n} sacrificed"
            return Result.solo(True, n, detail, summary + " (score, lower is better)")
        summary = f"Lost: stuck with members up to rank {highest} ({n} sacrificed)"
        return Result.solo(False, None, detail, summary)

    # ---------------------------------------------------------------- views

    def _table(self) -> dict[str, Any]:
        return {
            "ranks": [
                {
                    "title": f"R{rank}",
                    "rank": rank,
                    "members": card_list(self.members[rank]),
                    "candidates": card_list(self.candidates[rank]),
                }
                for rank in RANKS
            ],
            "leftover": card_list(self.leftover),
            "removed": card_list(self.removed),
            "sacrificed": card_list(self.sacrificed),
            "promoted_out": None if self.promoted_out is None else str(self.promoted_out),
        }

    def _view(self, observer: int | None) -> dict[str, Any]:
        # Every card is face up: the seat sees the whole table.
        return self._table()

    def _snapshot(self) -> dict[str, Any]:
        return self._table()

    def _copy_containers(self) -> None:
        self.members = {rank: list(cards) for rank, cards in self.members.items()}
        self.candidates = {rank: list(cards) for rank, cards in self.candidates.items()}
        self.leftover = list(self.leftover)
        self.removed = list(self.removed)
        self.sacrificed = list(self.sacrificed)

    def _cards(self) -> list[Card]:
        cards = [*self.leftover, *self.removed, *self.sacrificed]
        for rank in RANKS:
            cards += self.members[rank] + self.candidates[rank]
        if self.promoted_out is not None:
            cards.append(self.promoted_out)
        return cards

    # ---------------------------------------------------------------- notation

    def _parse(self, text: str) -> Action | None:
        tokens = text.split()
        if len(tokens) == 2 and tokens[0].lower() == "pick":
            return self._parse_pick(tokens[1])
        if self.choosing and len(tokens) == 1:
            return self._parse_pick(tokens[0])
        return self._parse_promotion(tokens)

    def _parse_pick(self, token: str) -> Action | None:
        try:
            return _pick(parse_card(token))
        except ValueError:
            return None

    def _parse_promotion(self, tokens: list[str]) -> Action | None:
        if len(tokens) not in (3, 5):
            return None
        try:
            member, replacement = parse_card(tokens[0]), parse_card(tokens[2])
            victim = parse_card(tokens[4]) if len(tokens) == 5 else None
        except ValueError:
            return None
        target = tokens[1].lower()
        cards = (member, replacement) if victim is None else (member, replacement, victim)
        return Action("promote", cards, target, " ".join(tokens))

    def _why_illegal(self, action: Action) -> str:
        if action.kind not in ("pick", "promote"):
            return "a move is 'pick CARD' or a promotion 'MEMBER DEST REPLACEMENT'"
        if self.choosing:
            if action.kind != "pick":
                return "first choose the three rank-5 members from the left-over cards"
            if len(action.cards) != 1:
                return "pick one card at a time"
            return f"{action.cards[0]} is not among the left-over cards"
        if action.kind == "pick":
            return "the first members are already chosen"
        if len(action.cards) not in (2, 3):
            return "a promotion names the member, its replacement and, if needed, a sacrifice"
        return self._why_not_promotion(action)

    def _why_not_promotion(self, action: Action) -> str:
        member, replacement = action.cards[:2]
        try:
            rank = self._rank_of_member(member)
        except KeyError:
            return f"{member} is not a member of any rank"
        members = self.members[rank]
        if len(members) != MEMBER_LIMIT:
            return f"rank {rank} has {len(members)} members; only a rank of exactly three promotes"
        if replacement not in self.candidates[rank]:
            return f"{replacement} is not a candidate of rank {rank}"
        others = [c for c in members if c != member]
        digits = fitting_digits(*others)
        if value(replacement) not in digits:
            a, b = (value(c) for c in others)
            return (
                f"{replacement} does not fit: with {cards_text(others)} left the replacement"
                f" must end in {(a + b) % 10} ({a}+{b}) or {(a * b) % 10} ({a}×{b})"
            )
        if rank == 1 and action.target != OUT:
            return "a rank-1 member can only be promoted out (destination 'out')"
        if rank > 1 and action.target not in (TO_MEMBER, TO_CANDIDATE):
            return "the destination is m (member of the next rank) or c (candidate)"
        full = len(self.members[rank - 1]) == MEMBER_LIMIT if rank > 1 else False
        if action.target == TO_MEMBER and full and len(action.cards) != 3:
            return f"rank {rank - 1} would have four members: name one to sacrifice ('sac CARD')"
        if len(action.cards) == 3:
            if not full or action.target != TO_MEMBER:
                return "a sacrifice is only made when a rank would have four members"
            return f"{action.cards[2]} is not one of the four members who could be sacrificed"
        return "it is not one of the legal moves in this position"

    def _describe(self, action: Action) -> str:
        if action.kind == "pick":
            return f"Choose {action.cards[0]} as one of the three first members of rank 5."
        member, replacement = action.cards[:2]
        rank = self._rank_of_member(member)
        others = [c for c in self.members[rank] if c != member]
        a, b = (value(c) for c in others)
        fit = "sum" if (a + b) % 10 == value(replacement) else "product"
        why = f"{a}+{b}={a + b}" if fit == "sum" else f"{a}×{b}={a * b}"
        if action.target == OUT:
            return f"Promote {member} out of rank 1 and win; {replacement} replaces it ({why})."
        where = "member" if action.target == TO_MEMBER else "candidate"
        text = f"Promote {member} from rank {rank} to rank {rank - 1} {where}; "
        text += f"{replacement} replaces it ({why})"
        if len(action.cards) == 3:
            text += f"; sacrifice {action.cards[2]}"
        return text + "."
