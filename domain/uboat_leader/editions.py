"""The edition table of uboat-leader (domain/editions.py): every released edition and each behaviour change that alters
what recorded commands or rolls decide, with the edition that introduced it. Rule code asks
`state.edition.has(change_id)`; docs/rules/uboat-leader.md "Editions" lists the same table for readers."""

from domain.editions import Change, Editions, Released

EDITIONS = Editions(
    ruleset="uboat-leader",
    released=(
        Released("2.0.0", "the first released edition (UL-1..UL-42, UL-S1..UL-S10, UL-R28..UL-R48)"),
        Released(
            "3.0.0",
            "the third audit (issue 18): UL-E3-1 one attack a turn, UL-E3-2 mission boats leave port, UL-E3-3 abort "
            "before the first box Event, UL-E3-4 an abandoned campaign scores no level, UL-E3-5 Unfit Bearing speeds, "
            "UL-E3-6 Mines missions add, UL-E3-8 the next escort chosen one at a time, UL-E3-9 every contact drawn, "
            "UL-E3-10 no T5 bonus in the Raider mission, UL-E3-11 an Unknown escort revealed only as it rolls",
        ),
        Released(
            "4.0.0",
            "rules fidelity (issue 31): UL-E4-1 Type II boats in every Area of Comienza la Batalla (a data revision), "
            "UL-E4-2 entering a Special Mission box from its Area draws the Area's Move value, not its Patrol value",
            data_file="data/default.4.0.0.json",
        ),
        Released(
            "5.0.0",
            "rules fidelity (issue 31, the second and third cold passes): UL-E5-1 aborting the Attack mission moves the "
            "boat out of the box, which draws the Area's Move value of Events; UL-E5-2 a Mines mission names the "
            "torpedoes its mines replace, Ready or Stored, of any kind",
        ),
        Released(
            "6.0.0",
            "rules fidelity (the cold audit of the tactical segment, F1 and F2): UL-E6-1 an escort rolls for detection "
            "against each U-boat in its range, Detected ones too, so an Unknown escort with any boat in range is "
            "revealed as it rolls; UL-E6-2 a U-boat standing on the Convoy Wake may stay there (a move of 0 areas)",
        ),
        Released(
            "7.0.0",
            "rules fidelity (an open reading settled): UL-E7-1 the Attack mission's round fires at least one torpedo "
            "where the boat carries any (\"contra alguna o todas las cartas Objetivo\")",
        ),
        Released(
            "8.0.0",
            "rules fidelity (the cold audit of 7.0.0, F1 and N1): UL-E8-1 a Warning only on the boat's first Convoy "
            "card drawn in the Area, none on a later one after withdrawing from the first; UL-E8-2 one Radio Call a "
            "contact",
        ),
        Released("9.0.0", "UL-E9-1 a game's one seat is `commander`, the seat its rules await (a cold review)"),
    ),
    changes=(
        Change(
            "UL-E3-1",
            "3.0.0",
            ("UL-37", "UL-S2", "UL-R49"),
            "a boat attacks at most once a combat turn: one that attacked in the Aggressive step and was made Shaken "
            "(Cautious) by the enemy's attack is not queued again in the Cautious step",
        ),
        Change(
            "UL-E3-2",
            "3.0.0",
            ("UL-20", "UL-R6"),
            "a fit boat in port with a Special Mission counter must sail toward its box in the Operations Segment "
            "(end_operations is refused until it moves), as a boat at sea already had to",
        ),
        Change(
            "UL-E3-3",
            "3.0.0",
            ("UL-18", "UL-R45"),
            "the Attack mission may be aborted before its box's first Event card too (after any Patrol value Events)",
        ),
        Change(
            "UL-E3-4",
            "3.0.0",
            ("UL-22", "UL-S10"),
            "end_campaign abandons the campaign: CampaignAbandoned, no result level, no final VP; it may be sent in "
            "any Strategic Segment (boats at sea too), since it locks in nothing",
        ),
        Change(
            "UL-E3-5",
            "3.0.0",
            ("UL-33", "UL-R20"),
            "an Unfit boat is offered only the Bearing speeds whose drift leaves it nearest the edge of the display "
            "(the Wake's removal counts as off the display)",
        ),
        Change(
            "UL-E3-6",
            "3.0.0",
            ("UL-16", "UL-17", "UL-R29", "UL-R50"),
            "a second Mines mission adds its mines to those aboard instead of replacing the count; each Mines counter "
            "lays, and scores by, the mines it was bought with",
        ),
        Change(
            "UL-E3-8",
            "3.0.0",
            ("UL-34", "UL-R46"),
            "the escorts' order is chosen one escort at a time (escort_order with one label: the next to detect and "
            "move), after the previous escort's detection and move",
        ),
        Change(
            "UL-E3-9",
            "3.0.0",
            ("UL-26", "UL-S8"),
            "a fit active boat draws a Convoy card for every contact it rolled: after Post-Combat the next card is "
            "drawn at once (no end_activation with contacts left); Retirarse on the card is the way out",
        ),
        Change(
            "UL-E3-10",
            "3.0.0",
            ("UL-19", "UL-S3", "UL-R44"),
            "a Raider roll with a T5 gets no +2: the T5's bonus is against an escort and the Raider's targets are the "
            "convoy's merchant ships (the FAT's +1 against a Merchant stays)",
        ),
        Change(
            "UL-E3-11",
            "3.0.0",
            ("UL-31", "UL-34", "UL-R21"),
            "an Unknown escort is revealed in its detection step only when it rolls, i.e. with a boat in its range not "
            "yet Detected (the last cold audit: with every boat in range Detected it was revealed without a roll)",
        ),
        Change(
            "UL-E4-1",
            "4.0.0",
            ("UL-42",),
            "the default data set's revision data/default.4.0.0.json: no Area of the Comienza la Batalla map bars the "
            "Type II boats (U-23, U-56), which may now enter the Western Approaches and the North Atlantic and fly the "
            "Raider mission; 2.0.0 and 3.0.0 games keep data/default.json, which barred them from both",
        ),
        Change(
            "UL-E4-2",
            "4.0.0",
            ("UL-20", "UL-R56"),
            "a boat that enters a Special Mission box from the box's Area, not having moved this segment, draws the "
            "Area's Move value of Events before the box's own (entering a box is a move); 3.0.0 drew its Patrol value",
        ),
        Change(
            "UL-E5-1",
            "5.0.0",
            ("UL-18", "UL-R56"),
            "a boat that aborts the Attack mission moves to the Area's Search box and, leaving the Special Mission box, "
            "draws the Area's Move value of Events (\"se mueve al Recuadro de Búsqueda\"; \"cuando … sale de un recuadro "
            "de Misión Especial, roba\"); 4.0.0 and earlier drew nothing",
        ),
        Change(
            "UL-E5-2",
            "5.0.0",
            ("UL-17", "UL-R29"),
            "a Mines mission may name the torpedoes its mines replace, by section (Ready or Stored) and kind (normal, "
            "FAT, T5): \"Puedes sustituir cualquier número de Torpedos 'Listos' o 'Almacenados' del U-Boat por Minas\"; "
            "the replacement is recorded (MinesLoaded); left out, Stored normal torpedoes go first, then Ready, as "
            "4.0.0 and earlier always did",
        ),
        Change(
            "UL-E6-1",
            "6.0.0",
            ("UL-31", "UL-34", "UL-R21"),
            "an escort rolls for detection against each U-boat in its range, Detected ones too (\"contra cada "
            "U-Boat\"; \"No es necesario colocar más de una ficha de Detectado\": a success on a Detected boat adds "
            "nothing), so an Unknown escort with any boat in its range is revealed as it rolls (UL-31); 5.0.0 and "
            "earlier rolled only against boats not yet Detected, and from 3.0.0 (UL-E3-11) left the escort Unknown "
            "with only Detected boats in range",
        ),
        Change(
            "UL-E6-2",
            "6.0.0",
            ("UL-30", "UL-R28"),
            "a U-boat standing on the Convoy Wake (it drifted there with no movement left, UL-R19) may stay there, "
            "either side up: \"puede moverse un número de Áreas hasta el valor de Velocidad\" takes in 0; it still "
            "never moves into the Wake from elsewhere; 5.0.0 and earlier made it leave the Wake",
        ),
        Change(
            "UL-E7-1",
            "7.0.0",
            ("UL-18", "UL-R32"),
            "the Attack mission's one round of torpedoes is fired \"contra alguna o todas las cartas Objetivo\" (at some"
            " or all of the target cards): at least one torpedo where the boat in the box carries any and a Naval card"
            " was drawn, and none only where it carries none or none was drawn; 6.0.0 and earlier took a round of no"
            " torpedo, which ended the mission with the Naval cards discarded and nothing fired",
        ),
        Change(
            "UL-E8-1",
            "8.0.0",
            ("UL-27", "UL-R14"),
            "a Warning is placed \"la primera vez que cada U-Boat roba una carta de Convoy en el Área\" (the first time"
            " each U-boat draws a Convoy card in the Area): only when the card engaged is the boat's first drawn in the"
            " Area, so a boat that withdrew from that one places none on a later card there; 7.0.0 and earlier placed"
            " it on the first card the boat engaged in the Area",
        ),
        Change(
            "UL-E8-2",
            "8.0.0",
            ("UL-15", "UL-R15"),
            "one Radio Call a contact: once bought, \"Puedes elegir libremente a otros U-Boats en el Área\" (you may"
            " freely choose other U-boats in the Area) is that call's, so a second in the same contact is refused,"
            " naming UL-R15, and not offered; 7.0.0 and earlier sold a second (SO again and another of the"
            " campaign's purchases) to add a boat",
        ),
        Change(
            "UL-E9-1",
            "9.0.0",
            ("UL-R60",),
            "a game's one seat is `commander`, the seat the rules await: another name is refused when the game is made"
            " (invalid-seats); 8.0.0 and earlier made the game, and then refused every command of the rules from its"
            " seat, which no command could ever be sent from (a cold review)",
        ),
    ),
    retired=("1",),
)
