"""How often the Tinker, Sailor, Soldier, Spy solver settles a deal in a CPU allowance.

    python benchmarks/solver_tinker_sailor.py [--deals 200] [--first 0] [--seconds 2]
        [--seed 2026] [--generic]

The same measurement as ``solver_syndicate.py`` (the strength run's deals), for
Tinker, Sailor, Soldier, Spy.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from solver_syndicate import main

if __name__ == "__main__":
    sys.exit(main(game_id="tinker-sailor-soldier-spy"))
