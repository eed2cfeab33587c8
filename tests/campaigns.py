"""What every ruleset's bot-campaign test shares: the hypothesis settings for whole games.

What holds for every ruleset alike (decide leaves the state it is given alone, rolls are gapless, the chain is whole,
views validate, every offered choice is accepted, evolve refuses what it does not know, bundles replay) is
tests/test_conformance.py's, over every ruleset and edition. A ruleset's campaign test checks only its own
invariants, and keeps a branch-coverage assertion: that its bot reaches every branch the campaigns are meant to test.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings

# whole games: no deadline, the same examples on every run, and no shrinking (a whole campaign shrinks slowly, and
# the failing seed and options are printed as they are)
_CAMPAIGNS = settings(
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)


def campaigns(games: int) -> settings:
    """`@campaigns(GAMES)` on a `@given` test: `games` whole bot games."""
    return settings(_CAMPAIGNS, max_examples=games)
