"""How often Skyway's own solver settles a deal within a CPU allowance, and how fast.

    python benchmarks/solver_skyway.py [--deals 200] [--first 0] [--seconds 2]
        [--seed 2026] [--generic]

The same measurement as ``solver_syndicate.py`` (the strength run's deals), for Skyway.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from solver_syndicate import main

if __name__ == "__main__":
    sys.exit(main(game_id="skyway"))
