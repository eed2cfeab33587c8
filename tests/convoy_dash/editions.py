"""The edition table of `convoy-dash` (domain/editions.py): its released editions and the one behaviour change."""

from domain.editions import Change, Editions, Released

EDITIONS = Editions(
    ruleset="convoy-dash",
    released=(
        Released("1.0.0", "the first edition"),
        Released("2.0.0", "a 1 always misses (CD-E2-1)"),
    ),
    changes=(Change("CD-E2-1", "2.0.0", ("CD-3",), "a search roll of 1 misses, whatever the depth"),),
)
