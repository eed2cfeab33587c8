"""The edition table of corvette-command (domain/editions.py): every released edition and each behaviour change that alters
what recorded commands or rolls decide, with the edition that introduced it. Rule code asks
`state.edition.has(change_id)`; docs/rules/corvette-command.md "Editions" lists the same table for readers."""

from domain.editions import Change, Editions, Released

EDITIONS = Editions(
    ruleset="corvette-command",
    released=(
        Released("3.0.0", "the first released edition (CC-1..CC-R45; CC-27 a detection beyond close closes one band)"),
        Released("4.0.0", "issue 18: a year is scored when it ends, at sea or with the corvette (CC-E4-1); quick play "
                 "keeps no yearly table (CC-E4-2)"),
    ),
    changes=(
        Change("CC-E4-1", "4.0.0", ("CC-39", "CC-R24"),
               "a year is scored as soon as the calendar passes it, at sea as in port, and a campaign ended by the "
               "corvette sinking scores its years too (3.0.0 scored only years a port turnaround passed; the rest "
               "waited for the campaign's end in port, or were never scored)"),
        Change("CC-E4-2", "4.0.0", ("CC-45", "CC-39"),
               "a quick-play convoy logs no convoy VP for a year and gets no yearly status (3.0.0 scored its year "
               "0 VP, 'Stalemate'); its result is the quick-play scale alone"),
    ),
    retired=("1", "2"),
)
