"""A heuristic bot for Spies!: one policy that plays whichever powers the deciding seat controls.

It reads the state only through what the deciding seat may know: faces of pieces through
``sees_piece``, Secrets through ``sees_secret``, hands only of the powers the seat plays now.
Everything hidden is replaced by the spread of what it could be: a face-down spy or police unit
by the strengths of its power's pieces the seat has not seen, a face-down Secret by the Secret
cards the seat has not seen. So the bot chooses the same move on the true state and on any
determinization of the seat (the tests check it).

The policy, step by step:

- **set-up**: valuable Secrets go to the capital and the police cities, Counterspies to exposed
  cities without police (bait); police, strongest first, on the cities holding the most valuable
  Secrets; spies (the Cousin and the strongest first) abroad on undefended Secrets near home,
  the weakest at home in the capital.
- **tiles**: play or discard so as to play as many own-colour tiles as their years allow
  (earliest deadline first), counting each tile's awards to the bot's spies against those to
  enemy spies; random tiles are played only when their awards pay.
- **police**: units, strongest first, go where they add most: onto enemy spies (the chance of a
  capture times what it is worth) and onto own Secrets (more when enemy spies are near), then
  take control of the Secrets in their cities. Searches when the capture chance pays for the
  Action Point; arriving spies are always searched for when a capture is possible.
- **movement**: cash foreign Secrets in the capital; spies holding a Secret head for home
  (the capital, or its starting city for an own original) by the route least exposed to enemy
  police, dropping it to the capital with a Drop chit when home is out of reach this turn; free
  spies are matched to the Secrets they could take (expected points of the card, Counterspy
  risk, the holder's strength, the way home) while Discovery chits last, then to enemy spies
  they could Sanction while Sanction chits last, then to the award cities of the tiles likely
  to be played before they move again (the power's own next tile from its hand, the others'
  from the public list of their unplayed tiles); they take the Secret with Discovery on
  arrival. Sanction, Escape and Recruit when they pay; Cover for spies left exposed at the end
  of the turn.
- **answers**: Papers, Cover or Escape when a search, Sanction, Discovery or Counterspy is
  likely to cost more than the chit; Double Cross when a spy or a Secret is at stake;
  Intercept always; the spoils of a Sanction always taken. Over ten chits, the least useful is
  returned.
- **diplomacy**: an offer is valued item by item for both sides as the seat sees them: money at
  the ``pound`` weight a £ (more when short, less when ample), a chit by its use (less for
  copies already held and in the last turns), a foreign Secret by its points at the multiple of
  the year it was taken and the cash of cashing it, times the chance of carrying it to the
  capital in the turns left (fewer for every space, and under enemy police); an own original by
  its points back home. The bot accepts when its own gain, less the other side's gain weighted
  by how dangerous that rival is (fully in a two-seat game or against a seat ahead, a tenth
  against one far behind), clears the ``margin`` weight. Between spies' movements it approaches
  (one Action Point, each power at most once a turn), and again when its turn has nothing left
  to do but end (then the points left are free), with the offer its model of the other bot would
  accept that nets it most: a foreign Secret it cannot bring home sold to a piece of another
  power in the same city that can (or bought the other way), or a chit it needs (Discovery with
  a free spy, Escape or Recruit with a spy to bring back) bought for money, weighed by the
  chance, from the size of the other's hand, that it holds one.
- **unknown decisions** (moves the bot was not written for): refuse or pass when it may, else a
  legal move it knows, else a random legal move.

The worths the bot weighs everything with (of an Action Chit, a £, a spy, an Action Point, a sea
space, the £ kept back, a trade's margin) are named in ``WEIGHTS``; ``decide(state, rng,
weights)`` plays the bot with others (``agents.policies.spies``), ``choose`` with its own.

The parts: ``context`` (the values and one decision's context), ``knowledge`` (hidden faces as
distributions), ``routes`` (the map), ``setup``, ``tiles``, ``policing``, ``plans`` and ``moving``
(the spies' targets and moves), ``answers``, ``trading`` (diplomacy), ``dispatch`` (``choose``).
"""

from .context import WEIGHTS
from .dispatch import choose, decide
from .routes import distances

__all__ = ["WEIGHTS", "choose", "decide", "distances"]
