"""The edition table of battlefleet-1900 (domain/editions.py): every released edition and each behaviour change that alters
what recorded commands or rolls decide, with the edition that introduced it. Rule code asks
`state.edition.has(change_id)`; docs/rules/battlefleet-1900.md "Editions" lists the same table for readers."""

from domain.editions import Change, Editions, Released


def _blur(options) -> bool:
    """A hiding change that concerns the fog: under `open` every pose is public anyway."""
    return options.get("fog", "blur") == "blur"

EDITIONS = Editions(
    ruleset="battlefleet-1900",
    released=(
        Released("3.0.0", "the first released edition (BF-R1..BF-R58)"),
        Released(
            "4.0.0",
            "the third audit and hidden means hidden: ordered turns finished when the allowance permits "
            "(BF-E4-1), any main magazine floods (BF-E4-2), sinking ships roll Step One (BF-E4-3), a flagship may drop "
            "out (BF-E4-4), damage control one simultaneous set (BF-E4-5), every base an obstacle (BF-E4-6), S and T "
            "hits among every gun of the ship (BF-E4-7), a follower finishes a turn it reaches (BF-E4-8); fresh fog offsets per sighting (BF-E4-20), a salvo that "
            "fires nothing tells nothing (BF-E4-21), overlap warnings only between a seat's own ships (BF-E4-22), "
            "the abandon roll only when a sinking ship fires (BF-E4-23), one AP/HE choice per target (BF-E4-24)",
        ),
        Released(
            "5.0.0",
            "issue 31: under fog blur the referee's overlap record is sealed after every move, an empty one too, so "
            "its presence no longer says that an enemy base touches one's own (BF-E5-1)",
        ),
        Released(
            "6.0.0",
            "issue 31: under fog blur a line reversed by a turn together (BF-R57) and a succession arrow converted out"
            " of line ahead (BF-R4) are sealed to their seat, so that they no longer tell everyone a sealed turn's"
            " degrees (BF-E6-1); the boat gun crews are public, announced at the start (BF-E6-2); an heir is the closest along the line, not by true distance (BF-E6-3)",
        ),
        Released(
            "7.0.0",
            "issue 31, the second cold audit: a launch publishes the torpedoes' running depth only where it decides "
            "the outcome (BF-E7-1)",
        ),
        Released(
            "8.0.0",
            "issue 31, the second cold audit: under fog blur a drop-out (BF-E8-1) and a division's multiple arrows"
            " (BF-E8-2) are judged on what every reader knows, the line in its last public order and the damage,"
            " not on a sealed reversal or the sealed last move",
        ),
        Released(
            "9.0.0",
            "issue 31, the cold pass over 8.0.0: under fog blur a public roll's purpose names no aspect taken from"
            " sealed poses, the side a flooding hit falls on or a torpedo's beam, ends and half range (BF-E9-1)",
        ),
        Released(
            "10.0.0",
            "issue 31, the narrow cold pass over BF-E8: a division's later arrows are judged on the lead it will have"
            " once the ships dropping out in the same orders have left (BF-E10-1), and a later arrow needs movement left"
            " over after the least arcs before it, not merely none missing (BF-E10-2)",
        ),
        Released(
            "11.0.0",
            "issue 31, the cold pass over 10.0.0: a division every ship of which drops out takes no orders"
            " (BF-E11-1); a division's orders are judged under the flagship it has once its flagship drops out, and"
            " with none it goes straight (BF-E11-2); a line whose lead leaves keeps its formation (BF-E11-3); under fog"
            " blur a torpedo that could not reach its target says so without saying why (BF-E11-4)",
        ),
        Released(
            "12.0.0",
            "issue 31, the second pass over the give_orders form: a division whose flagship surrenders with no ship to"
            " take command goes straight, its orders lapsed (BF-E12-1)",
        ),
        Released(
            "13.0.0",
            "the cold audit of 12.0.0: a lozenge main battery hit from ahead or astern is located in thirds, never at"
            " its far end (BF-E13-1); a surrendered ship rolls its fires, flooding and sinking as every ship on the"
            " table does, and may go under (BF-E13-2)",
        ),
        Released(
            "14.0.0",
            "a cold check of 13.0.0's open questions: a counter-flood floods a zone opposing the list or trim and"
            " leaves it smaller (BF-E14-1)",
        ),
        Released(
            "15.0.0",
            "a referee's trial: a pick's re-roll records the roll it supersedes, as the dice specification says"
            " (BF-E15-1)",
        ),
    ),
    changes=(
        Change(
            "BF-E4-1",
            "4.0.0",
            ("BF:2.1", "BF-R5", "BF-R33"),
            "a ship moves at least far enough to finish the turns it makes this move when its allowance permits; only "
            "a turn it cannot finish with all its movement is cut short (it then moves its whole allowance)",
        ),
        Change(
            "BF-E4-2",
            "4.0.0",
            ("BF:6.3", "BF-R38"),
            "any main gun position's magazine may be flooded, an intact one too",
        ),
        Change(
            "BF-E4-3",
            "4.0.0",
            ("BF:6.0", "BF-R42"),
            "a sinking ship still rolls Step One for each fire and each heavy or severe compartment, and their "
            "results happen",
        ),
        Change(
            "BF-E4-4",
            "4.0.0",
            ("BF:2.1", "BF-R9", "BF-R35"),
            "a division flagship may drop out; the division it leaves passes to its closest qualified ship "
            "(`CommandTransferred` how `dropped_out`)",
        ),
        Change(
            "BF-E4-5",
            "4.0.0",
            ("BF:6.3", "BF-R21", "BF-R24"),
            "a Step Three's actions are one simultaneous set taken in a canonical order (repairs and containment, then "
            "flooded magazines, then counter-floods, then scuttling), whatever order they were written in: severe "
            "flooding is never contained",
        ),
        Change(
            "BF-E4-6",
            "4.0.0",
            ("BF:6.0", "BF-R29"),
            "every base on the table is a navigational obstacle, not only a sinking one: moves run in lockstep and a "
            "ship stops where its base would first touch another",
        ),
        Change(
            "BF-E4-7",
            "4.0.0",
            ("BF:6.2", "BF-R19"),
            "a secondary or tertiary hit picks one item among every position and undamaged pattern gun of its "
            "category on the ship, not an entry first",
        ),
        Change(
            "BF-E4-8",
            "4.0.0",
            ("BF:2.1", "BF-R5", "BF-R8"),
            "a follower in succession that reaches a pivot of the lead's with the movement it has finishes the turn "
            "there: its distance is raised to what that takes, or to all its movement when it cannot finish it",
        ),
        Change(
            "BF-E4-20",
            "4.0.0",
            ("BF-R48",),
            "each sighting draws fresh fog offsets, keyed by the sighting (turn and moment: the start or after the"
            " move), not by the turn: turn 1's two sightings no longer share one offset, so the public start positions"
            " no longer give it away",
            hides=_blur,
        ),
        Change(
            "BF-E4-21",
            "4.0.0",
            ("BF-R41", "BF-R53"),
            "under fog blur a salvo that fires no round (no_los, out_of_arc, out_of_range, or measured with every gun"
            " that bears already spent, BF-R53) is public only as `could_not_bear`, with no bracket and no marker; its"
            " true outcome and bracket are sealed to the referee",
            hides=_blur,
        ),
        Change(
            "BF-E4-22",
            "4.0.0",
            ("BF-R29",),
            "under fog blur a seat's overlap warnings after a move name only pairs of its own ships; a pair with an"
            " enemy ship is sealed to the referee (it told where the enemy truly was)",
            hides=_blur,
        ),
        Change(
            "BF-E4-23",
            "4.0.0",
            ("BF-R16",),
            "a sinking ship rolls to keep its guns only when its sealed `fire` names it, at the reveal, before its"
            " salvos are measured (6.0: 'If a sinking vessel attempts to fire its guns'); on 4-6 none of them fires",
        ),
        Change(
            "BF-E4-24",
            "4.0.0",
            ("BF-R15",),
            "one AP/HE choice per target entry: every gun order of a salvo names the same ammunition (4.0: 'whether"
            " or not those guns are firing AP')",
        ),
        Change(
            "BF-E5-1",
            "5.0.0",
            ("BF-R29",),
            "under fog blur the referee's `poses` record of the pairs with an enemy ship (BF-E4-22) is sealed after"
            " every Movement Phase, empty when no such pair touches: 4.0.0 sealed it only when one did, and its"
            " public presence told everyone an overlap existed",
            hides=_blur,
        ),
        Change(
            "BF-E6-1",
            "6.0.0",
            ("BF:2.1", "BF-R4", "BF-R34", "BF-R57"),
            "under fog blur a seat's line changes that follow from its secret poses, a line reversed by a turn"
            " together onto the reverse of its bearing (BF-R57) and a succession arrow converted to together out of"
            " line ahead (BF-R4), are sealed to it (`line` records after every Command reveal and Movement Phase, an"
            " empty one too) instead of public `LineReversed` and `OrderConverted` events: their presence told"
            " everyone whether the lead's heading was exactly on the line's bearing or its reverse, that is the"
            " sealed move's degrees; the other seat and the public read the line in its last public order",
            hides=_blur,
        ),
        Change(
            "BF-E6-2",
            "6.0.0",
            ("BF:6.2", "BF-R3", "BF-R20", "BF-R34"),
            "the boat gun crews are public: each armoured-deck ship's crews from the sealed `start` are announced at"
            " the setup reveal (`BoatGunsManned`, as give_orders' changes always were), every reader's ship log shows"
            " them, and who owes a `fire` step counts them as they are; up to 5.0.0 a change of crews was public"
            " while the crews at the start were sealed and read as manned by the others",
        ),
        Change(
            "BF-E6-3",
            "6.0.0",
            ("BF:2.1", "BF-R11", "BF-R35", "BF-R36", "BF-R49"),
            "under fog blur the ship that takes a division's command when its flagship is lost, drops out or is"
            " relieved involuntarily is the qualified ship the fewest places from it in the line, ties to the earlier"
            " in the scenario's order: the heir is public (`CommandTransferred`), and chosen by the true distance"
            " between funnels it told everyone which ship truly lay nearer, which the fog keeps from them",
            hides=_blur,
        ),
        Change(
            "BF-E7-1",
            "7.0.0",
            ("BF:5.0", "BF-R27", "BF-R34"),
            "a launch's public `TorpedoesResolved` names the running depth (logged in the sealed `start`) only where"
            " it decides the outcome: under a small target (`under`) and in hits on a ship of good or great flood"
            " protection (a surface skimmer's hits are halved there); elsewhere it is null. Up to 6.0.0 every launch,"
            " out of arc, range or sight included, told both seats and the public the depth the ship log hides",
            hides=True,
        ),
        Change(
            "BF-E8-1",
            "8.0.0",
            ("BF:2.1", "BF-R9", "BF-R54", "BF-R57"),
            "under fog blur the ship 'next aft' of a ship dropping out is the next in its line's last public order:"
            " the drop-out is public at the Command reveal, and judged on a line its seat had reversed in secret"
            " (BF-E6-1) its acceptance told everyone which way the line now ran; under fog open the true line decides",
            hides=_blur,
        ),
        Change(
            "BF-E8-2",
            "8.0.0",
            ("BF:2.1", "BF-R5", "BF-R6", "BF-R57"),
            "under fog blur the 'sufficient movement allowance' for a division's later arrows is that of the lead in"
            " its line's last public order at its top speed box (BF-R23), not the true lead's one-box limit from its"
            " sealed last move (BF-R6): the orders are public at the reveal, and how many arrows were accepted told"
            " everyone a bound on that last move and which ship led; a turn the lead then cannot finish is cut short"
            " as BF-R5 says",
            hides=_blur,
        ),
        Change(
            "BF-E9-1",
            "9.0.0",
            ("BF:5.0", "BF:6.2", "BF-R27", "BF-R32"),
            "under fog blur the public purpose of a flooding location roll no longer names the embattled side, nor a"
            " torpedo hit roll the target's aspect (beam or ends) and whether it lay within half range: both come from"
            " the sealed poses, and a 1 mm change of a secret position flipped the words",
            hides=_blur,
        ),
        Change(
            "BF-E10-1",
            "10.0.0",
            ("BF:2.1", "BF-R5", "BF-R9"),
            "a division's multiple arrows are judged on the lead it will have after the drop-outs of the same orders"
            " (2.1 Dropping Out: the ship \"becomes a one-ship division\" when announced, and the ship behind closes"
            " up): the division moves under that lead, and 9.0.0 judged the arrows on the ship leaving it",
        ),
        Change(
            "BF-E10-2",
            "10.0.0",
            ("BF:2.1", "BF-R5"),
            "a later arrow needs the lead's speed to exceed the least arcs of the arrows before it (\"If, once it has"
            " fulfilled the minimum requirement of its order, it has remaining movement … execute further multiple"
            " orders\"): 9.0.0 accepted an arrow with exactly 0 mm left, which then turned 0°",
        ),
        Change(
            "BF-E11-1",
            "11.0.0",
            ("BF:2.1", "BF-R9", "BF-E10-1"),
            "a division every ship of which drops out in the same orders takes none (each ship \"becomes a one-ship"
            " division and receives its own movement order\"); 10.0.0 accepted any arrows for it, judged on no ship",
        ),
        Change(
            "BF-E11-2",
            "11.0.0",
            ("BF:2.1", "BF-R30", "BF-R35", "glossary BR", "glossary CT"),
            "a division's orders are judged under the flagship it has once a flagship dropping out in the same orders"
            " has gone (the heir BF-R35 names: its bridge and conning tower decide), and a division left with no ship"
            " to command it goes straight, as BF-R35 says; 10.0.0 judged the old flagship and then executed the arrows"
            " of a division with none",
        ),
        Change(
            "BF-E11-3",
            "11.0.0",
            ("BF:2.1", "BF-R4", "BF-R57"),
            "a line whose lead leaves it (dropping out, sinking, lost, surrendered or withdrawn) keeps its formation:"
            " its bearing turns with the new lead as it lay to the old one (\"the ship behind it … close the existing"
            " divisional formation\"); 10.0.0 kept the bearing of a lead that had turned in succession ahead of the"
            " rest, so the column was read as abreast and its succession arrows executed together",
        ),
        Change(
            "BF-E11-4",
            "11.0.0",
            ("BF:5.0", "BF-R27", "BF-R48"),
            "under fog blur a torpedo launch that could not reach its target (out of arc, out of range, or land in the"
            " way, from the sealed exact poses) is published as could_not_reach, the reason the referee's only, as"
            " BF-E4-21 does for a salvo that could not bear; 10.0.0 named the reason, and a 1 mm change of a secret"
            " position flipped it",
            hides=_blur,
        ),
        Change(
            "BF-E12-1",
            "12.0.0",
            ("BF:2.1", "BF-R30", "glossary CT", "BF-R63"),
            "a division the Command Phase leaves with no flagship able to command (its flagship surrendered in the same"
            " orders and no ship qualifies to take over) goes straight, its given orders lapsed (`OrdersLapsed`), as"
            " BF-R30 says of a division that has none; 11.0.0 executed them",
        ),
        Change(
            "BF-E13-1",
            "13.0.0",
            ("BF:6.2", "BF-R18"),
            "a main hit from ahead or astern on a lozenge (main wings both sides) is located in thirds by the"
            " embattled-side rule: its far end drops (the centre-line positions aft from ahead, forward from astern),"
            " its wings stay (\"break the location die roll into thirds instead of halves\"); a fire's critical comes"
            " from no side (no third left out). 12.0.0 rolled among all four from ahead or astern, so a hit from ahead"
            " could land on the aft turret, and gave a fire's damage the stand-in side ahead",
        ),
        Change(
            "BF-E13-2",
            "13.0.0",
            ("BF:6.0", "BF-R13", "BF-R26", "BF-R42"),
            "a surrendered ship rolls Step One for each fire and each heavy or severe compartment and Step Four's sink"
            " and capsize rolls, as every ship on the table does (\"*All* commanders whose vessels have active fires"
            " and/or heavy or severe flooding must roll\"), and goes under when they say so; 12.0.0 skipped it, so a"
            " burning, flooded hulk stayed a base blocking sight and movement until the battle ended",
        ),
        Change(
            "BF-E14-1",
            "14.0.0",
            ("BF:6.3", "BF-R25"),
            "a counter-flood floods an opposing zone, one less flooded than the zone across from it (port against"
            " starboard, fore against aft), to a level that leaves that list or trim smaller: 'flood all or part of an"
            " opposing zone in order to reduce the vessel's list'; 13.0.0 let any zone be flooded to any deeper level,"
            " so a ship could flood its lower side deeper, or its higher one past the other, its list growing (with"
            " the stand-in table, list 4 cost no boxes where list 3 cost 2)",
        ),
        Change(
            "BF-E15-1",
            "15.0.0",
            ("BF-R32",),
            "a pick's re-roll (the dice fell past the last item, 'roll again') records the roll it supersedes,"
            " `DiceRolled.rerolls`, as the dice specification says a superseded roll is marked; 14.0.0 left it null,"
            " so the ledger and a roll's page could not tell a re-roll from a first roll, nor which roll counted",
        ),
    ),
    retired=("1", "2"),
)
