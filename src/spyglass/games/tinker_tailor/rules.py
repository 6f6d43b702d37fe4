"""Tinker Tailor: rounds of a role draft, then the rhyme calls every role in order; each role's
holder performs it and may then buy goods. Sets, collections and money score at the end.

Set-up deals the money market, then the goods market (players+2 cards each; 6 each with two
players), from the top of each deck; with five players the third, fourth and fifth players from
the starting player then draw a goods card each. Each round's role cards come from the top of the
role deck: round 1 from the deck as dealt (stackable), later rounds from a fresh shuffle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyglass.engine import Action, Result, Rng, RulesError, plural

from . import draft as drafting
from . import notation as move
from . import scoring, views, words
from .cards import (
    ROLE_CARDS,
    Card,
    expand,
    goods_deck,
    money_deck,
    names,
    parse_card,
    role_deck,
)
from .draft import DISCARD, PICK, Draft
from .edition import EDITION, Effect
from .hidden import resample_cards
from .knowledge import NOTHING, counts_of
from .perform import BUY, Pending, Performance
from .table import PIRATE_ROLES, empty_hand

#: Rounds by player count (the two-player variant plays 6).
ROUNDS = {2: 6, 3: 12, 4: 8, 5: 7, 6: 6}
TWO_PLAYER_MARKET = 6
#: Five players: the 3rd, 4th and 5th players from the starting player draw a goods card.
COMPENSATED = {5: (2, 3, 4)}

DRAFT, PERFORM, BUYING, OVER = "draft", "perform", "buy", "over"
#: What is said when a held role is called: its name and text.
CALLS = tuple(f"{r.title}. {r.role.text}" for r in ROLE_CARDS)


def market_size(players: int) -> int:
    return TWO_PLAYER_MARKET if players == 2 else players + 2


def roles_held(players: int) -> int:
    return 4 if players == 2 else players


def _decisions(effects: tuple[Effect, ...], slots: int) -> int:
    """An upper bound on the decisions a list of effects can ask for."""
    total = 0
    for e in effects:
        if e.op == "take":
            total += e.count + (1 if e.optional else 0)
        elif e.op in ("gift",):
            total += e.count
        elif e.op == "look":
            total += e.keep
        elif e.op == "exchange":
            total += e.count + 1
        elif e.op in ("steal", "demand"):
            total += 1
        elif e.op == "collect":
            total += len(e.from_roles)
        elif e.op == "sell":
            total += e.count + 1 + slots + 1
        elif e.op == "act":
            total += 1 + max(
                _decisions(r.effects, slots)
                for r in EDITION.roles
                if all(x.op != "act" for x in r.effects)
            )
        elif e.op == "if":
            total += max(_decisions(e.then, slots), _decisions(e.otherwise, slots))
    return total


class TinkerTailorState(Performance):
    parse_card = staticmethod(parse_card)
    notation_help = (
        "e.g. 'pick tailor', 'take wine', 'take 3', 'buy wine with 4 1', 'change 1',"
        " 'give wine to 2', 'rob 2', 'name 2 gems', 'done'"
    )

    rounds: int
    phase: str
    start: int  # the starting player of this round (holds the rhyme card)
    rhyme: int  # the rhyme position being called (-1 before the first call)

    # ---------------------------------------------------------------- set-up

    @classmethod
    def deck_contents(cls, options: Mapping[str, Any], players: int) -> dict[str, list[Card]]:
        return {"money": money_deck(), "goods": goods_deck(), "roles": role_deck()}

    @classmethod
    def max_actions(cls, options: Mapping[str, Any], players: int) -> int:
        slots = market_size(players)
        role = max(_decisions(r.effects, slots) for r in EDITION.roles)
        # Buying: every money card could be paid (those taken as change too), every goods
        # slot bought and every money slot taken as change, then "done".
        money_cards = sum(m.cards for m in EDITION.money)
        buying = money_cards + 3 * slots + 1
        per_round = drafting.steps(players) + (roles_held(players) + 1) * (role + buying)
        return ROUNDS[players] * per_round

    def _setup(self) -> None:
        n = self.players
        slots = market_size(n)
        self.money_deck = list(reversed(self._deck("money")))
        self.goods_deck = list(reversed(self._deck("goods")))
        self.money_deck_known = counts_of(self.money_deck)
        self.goods_deck_known = counts_of(self.goods_deck)
        self.money_discard, self.goods_discard = [], []
        self.hands = [empty_hand() for _ in range(n)]
        self.known = [[NOTHING] * n for _ in range(n)]
        self.public = [NOTHING] * n
        self.lent = [() for _ in range(n + 1)]
        self.looking = []
        self.round, self.rounds = 1, ROUNDS[n]
        self.pending = None
        self.offered = None
        self.frames, self.taken = [], []
        self.acting = self.acted = None
        self.reveal = None
        self.holder = [-1] * len(ROLE_CARDS)
        self.performer = None
        self.rhyme = -1
        self.phase = DRAFT
        self.draft = Draft(n, 0, ())
        self.role_deck = []
        self.money_market = [self._draw("money", public=True) for _ in range(slots)]
        self.goods_market = [self._draw("goods", public=True) for _ in range(slots)]
        # Freshly dealt: every slot holds a card.
        self._say(f"the money market: {' '.join(names(self.market_cards(self.money_market)))}")
        self._say(f"the goods market: {' '.join(names(self.market_cards(self.goods_market)))}")
        self.start = self.rng.below(n)
        self._say(f"seat {self.start} is chosen at random to start and takes the rhyme card")
        for k in COMPENSATED.get(n, ()):
            self._draw_unseen((self.start + k) % n)
        self._begin_round(list(self._deck("roles")))
        self._run_to_decision()

    # ---------------------------------------------------------------- rounds and the draft

    def _begin_round(self, order: list[Card]) -> None:
        """Deal this round's role cards from ``order`` (top first) and start the draft."""
        n = self.players
        k = drafting.dealt_size(n)
        self.draft = Draft(n, self.start, tuple(order[:k]))
        self.role_deck = list(reversed(order[k:]))
        self.phase = DRAFT
        self.rhyme = -1
        self.holder = [-1] * len(ROLE_CARDS)
        self.acted = self.acting = None
        self.reveal = None
        self._say(f"round {self.round} of {self.rounds}: seat {self.start} deals {k} role cards")
        self._ask_draft()

    def _ask_draft(self) -> None:
        drafter = self.draft.drafter()
        assert drafter is not None  # asked only while the draft goes on
        self.pending = Pending(self.draft.decision(), drafter)
        self.offered = None

    def _draft_choice(self, p: Pending, role: Card) -> None:
        seat = p.seat
        d = self.draft
        self.draft = Draft(d.players, d.start, d.deal, d.deal2, (*d.choices, role))
        if p.kind == DISCARD:
            back = next(c for c in d.hand() if c != role)
            self._say(
                f"seat {seat} discards the {role.title} face down and hands the {back.title} back",
                [seat],
                f"seat {seat} discards a role card face down and hands one back",
            )
        else:
            self._say(f"seat {seat} keeps the {role.title}", [seat], f"seat {seat} keeps a role")
        if self.draft.needs_second_deal:
            added = tuple(self.role_deck.pop() for _ in range(drafting.SECOND_DEAL_2P))
            d = self.draft
            self.draft = Draft(d.players, d.start, d.deal, added, d.choices)
            self._say(
                f"seat {self.start} adds {' '.join(names(added))} from the role deck",
                [self.start],
                f"seat {self.start} adds {len(added)} role cards from the deck",
            )
        if not self.draft.complete:
            self._ask_draft()
            return
        left = drafting.dealt_size(self.players) + len(self.draft.deal2) - roles_held(self.players)
        self._say(f"the draft is over: {left} role cards lie face down, unpicked")
        for seat, held in enumerate(self.draft.picks()):
            for card in held:
                self.holder[card.index] = seat
        self.phase = PERFORM

    def _run_to_decision(self) -> None:
        """Run the game forward until a seat must decide or the game is over."""
        while self.pending is None and self.phase not in (DRAFT, OVER):
            if self.frames:
                self._step_effects()
            elif self.phase == PERFORM and self.performer is not None:
                self._end_role()
            elif self.phase == BUYING:
                self._end_buying()
            else:
                self._call_next()

    def _call_next(self) -> None:
        """Call the rhyme on to the next role somebody holds (or to the end of the round)."""
        unheld: list[str] = []
        while True:
            self.rhyme += 1
            if self.rhyme >= len(ROLE_CARDS):
                self._say_unheld(unheld)
                self._end_round()
                return
            role = ROLE_CARDS[self.rhyme]
            self.reveal = None
            if self.rhyme in PIRATE_ROLES:
                self._say_unheld(unheld)
                removed = self._remove_pirates()
                if removed:
                    self._say(
                        f"the {role.title} is called: {removed} pirate cards leave the market"
                    )
                    self._refill()
            holder = self.holder[self.rhyme]
            if holder < 0:
                unheld.append(role.title)
                continue
            self._say_unheld(unheld)
            self._say(f"{role.title}: seat {holder} reveals the {CALLS[self.rhyme]}")
            self.performer = holder
            self.acting = role
            self.taken = []
            self.frames = [(role.role.effects, 0)]
            return

    def _say_unheld(self, unheld: list[str]) -> None:
        if unheld:
            self._say(f"called, held by nobody: {', '.join(unheld)}")
            unheld.clear()

    def _end_role(self) -> None:
        """After the role's action: the market is refilled, then its performer may buy."""
        self._refill()
        self.phase = BUYING
        self.taken = []
        assert self.performer is not None  # a role was just performed
        self._offer(Pending(BUY, self.performer))

    def _end_buying(self) -> None:
        self._refill()
        self.phase = PERFORM
        self.performer = None
        self.acting = None

    def _end_round(self) -> None:
        if self.round == self.rounds:
            self.phase = OVER
            self._say(self._result().summary)
            return
        self.round += 1
        self.start = (self.start + 1) % self.players
        self._say(f"seat {self.start} takes the rhyme card and gathers the role cards")
        order = list(ROLE_CARDS)
        self.rng.shuffle(order)
        self._begin_round(order)

    # ---------------------------------------------------------------- moves

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def _current(self) -> int:
        return self.pending.seat if self.pending is not None else 0

    def _legal_actions(self) -> list[Action]:
        if self.pending is None:
            return []
        if self.offered is None:
            options = self._options(self.pending)
            # In a determinization another seat's guessed hand may leave its pending decision
            # without a choice (nothing it can afford): in play such a step is skipped, so the
            # guess offers only to end it.
            self.offered = options or [move.DONE]
        return self.offered

    def _options(self, p: Pending) -> list[Action]:
        if p.kind == PICK:
            return [move.pick(r) for r in self.draft.hand()]
        if p.kind == DISCARD:
            return [move.discard(r) for r in self.draft.hand()]
        return super()._options(p)

    def _decide(self, p: Pending, action: Action) -> None:
        if p.kind in (PICK, DISCARD):
            self._draft_choice(p, action.cards[0])
        else:
            super()._decide(p, action)

    def _apply(self, action: Action) -> None:
        pending = self.pending
        assert pending is not None  # a legal action answers the decision waited for
        self.pending = self.offered = None
        self._decide(pending, action)
        self._run_to_decision()

    # ---------------------------------------------------------------- the end

    def _result(self) -> Result:
        hands = self.hands
        totals = [scoring.total(h) for h in hands]
        winners = scoring.winners(hands)
        detail = tuple(scoring.breakdown(h) for h in hands)
        best = max(totals)
        tied = [s for s in range(self.players) if totals[s] == best]
        names_ = " and ".join(f"seat {s}" for s in winners)
        if len(winners) > 1:
            summary = f"{names_} tie with {plural(best, 'point')}, even on the tie-breaks"
        elif len(tied) > 1:
            summary = (
                f"{names_} wins with {plural(best, 'point')} on the tie-breaks (Gems, Wine, ...)"
            )
        else:
            summary = f"{names_} wins with {plural(best, 'point')}"
        return Result(
            scores=tuple(float(t) for t in totals),
            winners=winners,
            detail=detail,
            summary=summary,
        )

    # ---------------------------------------------------------------- views and records

    def _view(self, observer: int | None) -> dict[str, Any]:
        return views.table_view(self, observer)

    def _snapshot(self) -> dict[str, Any]:
        p = self.pending
        return {
            "round": self.round,
            "rounds": self.rounds,
            "phase": self.phase,
            "start": self.start,
            "rhyme": self.rhyme,
            "hands": [names(expand(h)) for h in self.hands],
            # Knowledge as counts by card code (goods, then money): compact, and exact.
            "known": [[list(k) for k in row] for row in self.known],
            "public": [list(k) for k in self.public],
            "lent": [
                [[source, list(region), [list(d) for d in dests]] for source, region, dests in row]
                for row in self.lent
            ],
            "goods_market": views.market_names(self.goods_market),
            "money_market": views.market_names(self.money_market),
            "goods_deck_top_first": names(reversed(self.goods_deck)),
            "money_deck_top_first": names(reversed(self.money_deck)),
            "goods_deck_known": list(self.goods_deck_known),
            "money_deck_known": list(self.money_deck_known),
            "goods_discard": names(self.goods_discard),
            "money_discard": names(self.money_discard),
            "looking": names(self.looking),
            "draft": {
                "start": self.draft.start,
                "deal": names(self.draft.deal),
                "deal2": names(self.draft.deal2),
                "choices": names(self.draft.choices),
            },
            "role_deck_top_first": names(reversed(self.role_deck)),
            "holder": list(self.holder),
            "performer": self.performer,
            "acting": None if self.acting is None else str(self.acting),
            "acted": None if self.acted is None else str(self.acted),
            "taken": names(self.taken),
            "frames": [[len(effects), pc] for effects, pc in self.frames],
            "reveal": None if self.reveal is None else list(self.reveal),
            "pending": None
            if p is None
            else [p.kind, p.seat, p.done, p.credit, list(p.queue), repr(p.effect), p.owing],
        }

    def _copy_containers(self) -> None:
        self._copy_table()
        self.frames = list(self.frames)
        self.taken = list(self.taken)
        self.holder = list(self.holder)

    def _cards(self) -> list[Card]:
        return self._table_cards()

    def _resample(self, observer: int | None, rng: Rng) -> None:
        self.offered = None  # another seat's hidden cards may change its moves
        called = ROLE_CARDS[: self.rhyme + 1] if self.phase in (PERFORM, BUYING, OVER) else ()
        self.draft, self.role_deck = drafting.resample(
            self.draft, self.role_deck, called=called, acted=self.acted, observer=observer, rng=rng
        )
        if self.draft.complete:
            self.holder = [-1] * len(ROLE_CARDS)
            for seat, held in enumerate(self.draft.picks()):
                for card in held:
                    self.holder[card.index] = seat
        resample_cards(self, observer, rng, hands_shown=self.phase == OVER)

    # ---------------------------------------------------------------- words for people

    def _describe(self, action: Action) -> str:
        return words.describe(self, action)

    def _why_illegal(self, action: Action) -> str:
        try:
            return words.why_illegal(self, action)
        except (TypeError, ValueError, AttributeError, IndexError, KeyError, RulesError):
            return "it is not one of the legal moves in this position"

    def _parse(self, text: str) -> Action | None:
        return words.parse(self, text)
