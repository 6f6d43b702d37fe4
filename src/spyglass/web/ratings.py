"""Ratings per game: openskill's Plackett-Luce model, updated once per finished table.

A table is rated when its game ends with two or more seats and at least one seat belongs to an
account. Every seat is a team of one, ranked by the game's result (the winners first, then by
score; equal places tie). Accounts and bots have stored ratings per game (a bot per agent and
budget: ``bot:ismcts@200``), so a win against a strong bot counts for more than one against a
weak bot; a guest plays at the starting rating and keeps nothing.

**Once per table.** The update is one transaction that first inserts the table into
``spyglass_rated`` (its primary key): a second attempt, by this process or another that saw the
same end, or after a restart, fails there and changes nothing. The rows of the ratings it
changes are locked (PostgreSQL ``SELECT ... FOR UPDATE``, in a fixed order) so that two tables
ending at once for one account both count.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, exists, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from .store import OVER, SeatRow, Store, accounts_t, rated_t, ratings_t, seats_t, tables_t

MODEL = PlackettLuce()  # mu 25, sigma 25/3, as the lab's tournaments
RATED_PLAYERS = 2  # solo games have no opponents to be rated against


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The rating people compare: mu less three sigmas (low until it is well known)."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "games": self.games,
        }


START = Rating(MODEL.mu, MODEL.sigma)


def ranks(scores: Sequence[float], winners: Sequence[int], out: Sequence[int] = ()) -> list[int]:
    """Each seat's place, 1 first: the seats that lost on time (``out``) after everyone,
    winners before everyone else (a tie-break the rules made is in the winners), then by
    score; equal places share a rank."""
    keys = [(seat not in out, seat in winners, score) for seat, score in enumerate(scores)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def player_key(seat: SeatRow) -> str | None:
    """Whose rating a seat plays with: its account's, its bot's, or None (a guest)."""
    if seat.account_id is not None:
        return f"account:{seat.account_id}"
    if seat.kind == "bot":
        return f"bot:{seat.agent}" + (f"@{seat.budget}" if seat.budget else "")
    return None


def rateable(seats: Sequence[SeatRow]) -> bool:
    return len(seats) >= RATED_PLAYERS and any(s.account_id for s in seats)


class Ratings:
    """The ratings queries (synchronous, run on the database threads)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def rate(
        self, table_id: str, game: str, seats: Sequence[SeatRow], result: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Rate a finished table once: the changes (per seat: rank, rating before and
        after), or None if it is not rated (no account, solo) or was rated already."""
        if not rateable(seats):
            return None
        places = ranks(result["scores"], result["winners"], result.get("out", ()))
        keys = [player_key(s) for s in seats]
        stored = sorted({k for k in keys if k is not None})  # one lock order for everyone
        now = time.time()
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(rated_t).values(table_id=table_id, at=now, changes="{}"))
                dialect: Any = sqlite if self.store.is_sqlite else postgresql
                for player in stored:
                    conn.execute(
                        dialect.insert(ratings_t)
                        .values(
                            player=player,
                            game=game,
                            mu=START.mu,
                            sigma=START.sigma,
                            games=0,
                            updated=now,
                        )
                        .on_conflict_do_nothing()
                    )
                query = (
                    select(ratings_t)
                    .where(ratings_t.c.game == game, ratings_t.c.player.in_(stored))
                    .order_by(ratings_t.c.player)
                )
                if not self.store.is_sqlite:
                    query = query.with_for_update()
                before = {r.player: Rating(r.mu, r.sigma, r.games) for r in conn.execute(query)}
                now_ratings = [before[k] if k is not None else START for k in keys]
                teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in now_ratings]
                rated = MODEL.rate(teams, ranks=[float(p) for p in places])
                changes = []
                for seat, key, old, team, place in zip(
                    seats, keys, now_ratings, rated, places, strict=True
                ):
                    new = Rating(team[0].mu, team[0].sigma, old.games + 1)
                    if key is not None:
                        conn.execute(
                            update(ratings_t)
                            .where(ratings_t.c.player == key, ratings_t.c.game == game)
                            .values(mu=new.mu, sigma=new.sigma, games=new.games, updated=now)
                        )
                    changes.append(
                        {
                            "seat": seat.seat,
                            "rank": place,
                            "kind": "account" if seat.account_id else seat.kind,
                            "before": None if key is None else old.to_json(),
                            "after": None if key is None else new.to_json(),
                        }
                    )
                data = {"game": game, "at": now, "seats": changes}
                conn.execute(
                    update(rated_t)
                    .where(rated_t.c.table_id == table_id)
                    .values(changes=json.dumps(data))
                )
                self.store.note(conn, table_id, "rated")
        except IntegrityError:
            return None  # rated already (the primary key of spyglass_rated)
        return data

    def unrated(self) -> list[str]:
        """Finished tables with an account at them that were never rated (their process
        stopped between the last move and the rating)."""
        with self.engine.connect() as conn:
            has_account = exists().where(
                and_(seats_t.c.table_id == tables_t.c.id, seats_t.c.account_id.is_not(None))
            )
            done = exists().where(rated_t.c.table_id == tables_t.c.id)
            query = select(tables_t.c.id).where(
                tables_t.c.status == OVER, tables_t.c.players >= RATED_PLAYERS
            )
            return list(conn.execute(query.where(has_account, ~done)).scalars())

    def of(self, account_id: str) -> dict[str, Rating]:
        """An account's rating per game."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_t).where(ratings_t.c.player == f"account:{account_id}")
            ).all()
        return {r.game: Rating(r.mu, r.sigma, r.games) for r in rows}

    def leaders(self, game: str, limit: int = 20) -> list[dict[str, Any]]:
        """The accounts with the best ratings at a game (ordinal, highest first)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ratings_t, accounts_t.c.name)
                .join(accounts_t, ratings_t.c.player == "account:" + accounts_t.c.id)
                .where(ratings_t.c.game == game)
                .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc())
                .limit(limit)
            ).all()
        return [{"name": r.name, **Rating(r.mu, r.sigma, r.games).to_json()} for r in rows]
