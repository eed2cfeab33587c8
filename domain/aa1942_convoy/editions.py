"""The edition table of aa1942-convoy (domain/editions.py): every released edition and each behaviour change that alters
what recorded commands or rolls decide, with the edition that introduced it. Rule code asks
`state.edition.has(change_id)`; docs/rules/aa1942-convoy.md "Editions" lists the same table for readers."""

from domain.editions import Change, Editions, Released

EDITIONS = Editions(
    ruleset="aa1942-convoy",
    released=(
        Released("3.0.0", "the first released edition (AA-1..AA-R16; AA-11 raid chips come off when the owner pays)"),
        Released("4.0.0", "the cold audit of aa1942-convoy 3.0.0: in its combat a power records no loss of its own "
                 "submarines that raided nor of its allies' (AA-E4-1)"),
    ),
    changes=(
        Change("AA-E4-1", "4.0.0", ("AA-6", "AA-7", "AA-R10"),
               "in the acting power's combat, lose_submarines records its enemies' submarines and its own that fought, "
               "moved or are unused, never its own that raided this turn ('any enemy Destroyer within the SZ cannot "
               "do anything about it. It is up to the Convoy SZ owner's to use Destroyers (and more) on his turn's "
               "attack phase to sink Subs') nor its allies' (allies do not attack together in A&A 1942.2); 3.0.0 "
               "recorded any power's submarines, the acting power's raiders last"),
    ),
    retired=("1", "2"),
)
