"""The edition table of aa1942-convoy (domain/editions.py): every released edition and each behaviour change that alters
what recorded commands or rolls decide, with the edition that introduced it. Rule code asks
`state.edition.has(change_id)`; docs/rules/aa1942-convoy.md "Editions" lists the same table for readers."""

from domain.editions import Change, Editions, Released

EDITIONS = Editions(
    ruleset="aa1942-convoy",
    released=(
        Released("3.0.0", "the first released edition (AA-1..AA-R16; AA-11 raid chips come off when the owner pays)"),
        Released("4.0.0", "the cold audit of aa1942-convoy 3.0.0: in its combat a power records no loss of its own "
                 "submarines that raided nor of its allies' (AA-E4-1); it places at most one submarine per 6 IPCs it "
                 "spent this turn (AA-E4-2)"),
        Released("5.0.0", "the cold audit of aa1942-convoy 4.0.0: in its general combat a power records its submarines "
                 "that fought in a zone retreating to an adjacent sea zone (retreat_submarines, AA-E5-1)"),
        Released("6.0.0", "the raid roll's outcome says what the cap left before the raid and what it leaves after "
                 "(AA-E6-1); a game takes no turn clock (AA-E6-2)"),
    ),
    changes=(
        Change("AA-E4-1", "4.0.0", ("AA-6", "AA-7", "AA-R10"),
               "in the acting power's combat, lose_submarines records its enemies' submarines and its own that fought, "
               "moved or are unused, never its own that raided this turn ('any enemy Destroyer within the SZ cannot "
               "do anything about it. It is up to the Convoy SZ owner's to use Destroyers (and more) on his turn's "
               "attack phase to sink Subs') nor its allies' (allies do not attack together in A&A 1942.2); 3.0.0 "
               "recorded any power's submarines, the acting power's raiders last"),
        Change("AA-E4-2", "4.0.0", ("AA-R9", "AA-R17"),
               "the submarines a power places in its mobilize phase are at most, in all, the IPCs it spent in this "
               "turn's Purchase & Repair divided by 6 ('6 IPCs Submarines'), rounded down: none when it spent nothing "
               "or could not spend (AA-R7); 3.0.0 placed any number"),
        Change("AA-E5-1", "5.0.0", ("AA-7", "AA-R8", "AA-R10", "AA-R18"),
               "in the acting power's general combat, retreat_submarines records its submarines that fought this turn "
               "in a zone retreating to an adjacent sea zone (one sea move; canals as AA-R15): the text singles out "
               "raiders ('Once the raid is done, Submarine cannot retreat and must stay in raided SZ'), so a "
               "submarine in a regular attack may retreat as in A&A 1942.2. Never a raider, nor one that did not "
               "fight; the retreated neither raid, fight, move nor are recorded lost again this turn. 4.0.0 and "
               "3.0.0 have no such command: a submarine that fought stayed in the battle zone"),
        Change("AA-E6-1", "6.0.0", ("AA-R2", "AA-R5"),
               "the raid roll's outcome gives what the zone's chips left of the cap before the raid and what they "
               "leave after it ('3 within the cap of 4 chips a zone holds (4 left before this raid, 1 after)'); 5.0.0 "
               "and earlier said '(4 left)', the cap before the raid, which reads as what is left after it. Only the "
               "roll record's words change: no damage, chip or treasury"),
        Change("AA-E6-2", "6.0.0", ("AA-R19",),
               "a game takes no turn clock (POST /games refuses `deadlines`, 422 invalid-deadlines): the ledger "
               "records a game played at the table, and a clock that runs out has the bot act for the silent power, "
               "recording a purchase or a move nobody made (a referee's trial); 5.0.0 and earlier took one"),
    ),
    retired=("1", "2"),
)
