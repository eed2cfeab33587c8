"""The edition table of aa1942-convoy (domain/editions.py): every released edition and each behaviour change that alters
what recorded commands or rolls decide, with the edition that introduced it. Rule code asks
`state.edition.has(change_id)`; docs/rules/aa1942-convoy.md "Editions" lists the same table for readers."""

from domain.editions import Editions, Released

EDITIONS = Editions(
    ruleset="aa1942-convoy",
    released=(
        Released("3.0.0", "the first released edition (AA-1..AA-R16; AA-11 raid chips come off when the owner pays)"),
    ),
    changes=(),
    retired=("1", "2"),
)
