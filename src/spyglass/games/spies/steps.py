"""The names of the game's phases and of the events that end them, shared by ``flow`` (the table
of what follows what) and the rule modules that report the events (a leaf: it imports nothing,
so every module may name them).
"""

from __future__ import annotations

# The set-up steps (rules 2.4, 2.5, 2.8), then the steps of a power's turn (3.21, 3.3, 3.4, 3.6).
SECRETS, POLICE, SPIES = "secrets", "police", "spies"
SETUP_PHASES = (SECRETS, POLICE, SPIES)
TILE, REARRANGE, SEARCH, MOVE, OVER = "tile", "rearrange", "search", "move", "over"
TURN_PHASES = (TILE, REARRANGE, SEARCH, MOVE)

# Events: what a step reports when it ends.
PLACED = "placed"  # a set-up piece was placed
SET_UP = "set up"  # every piece is on the map
SETTLED = "settled"  # the bids for Russia are settled (rule 8.5)
DONE = "done"  # the step is over (the tile step, re-arrangement, searches, movement)
RESTRICTED = "restricted"  # rule 8.5: after the Pact, Russia's bidder only searches
