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
        Released("5.0.0", "issue 31: a pattern's 3 hits earn the Mentioned in Despatches at 4 in all too (CC-E5-1); "
                 "a U-boat hurt in a convoy stays hurt in it and attacks no more (CC-E5-2); under 12,500 t a convoy "
                 "scores 4 VP (CC-E5-3); a wolfpack's caller is not among the boats that answer it (CC-E5-4); a "
                 "boat's 3 or 4 attacks are a convoy's (CC-E5-5); a boat calls the wolfpack once a convoy, a wolfpack "
                 "boat never (CC-E5-6)"),
        Released("6.0.0", "issue 31, the second cold audit: a possible kill the guns finish on a boat the depth "
                 "charges hit opens the Depth Charge growth roll (CC-E6-1)"),
        Released("7.0.0", "issue 31, the second cold audit: a U-boat a pattern hits (not a probable, not a wolfpack "
                 "boat) rolls the WOLFPACK table as it escapes, though it called earlier in the convoy (CC-E7-1); a "
                 "pattern that misses opens no Depth Charge growth roll (CC-E7-2)"),
        Released("8.0.0", "the cold audit of 7.0.0: with nothing left to drop, a U-boat found at close range evades "
                 "as one beyond long range does, and calls no wolfpack unhurt with attacks left (CC-E8-1); the captain "
                 "may drop no other pattern (`hold_pattern`, CC-E8-2); the Depth Charge growth roll is the escort's "
                 "own sinking's (CC-E8-3); each depth-charge pattern of 3 hits earns its Mentioned in Despatches "
                 "(CC-E8-4)"),
        Released("9.0.0", "the cold check of 8.0.0's open questions: a U-boat the guns alone hurt withdraws after its "
                 "last attack, not escapes (CC-E9-1)"),
        Released("10.0.0", "the cold audit of 9.0.0: two-player, a wolfpack's boats at the two sections come one of "
                 "each in turn, the section with more first, so the escort done with its own helps with the other's "
                 "boats beyond its own number (CC-E10-1)"),
    ),
    changes=(
        Change("CC-E4-1", "4.0.0", ("CC-39", "CC-R24"),
               "a year is scored as soon as the calendar passes it, at sea as in port, and a campaign ended by the "
               "corvette sinking scores its years too (3.0.0 scored only years a port turnaround passed; the rest "
               "waited for the campaign's end in port, or were never scored)"),
        Change("CC-E4-2", "4.0.0", ("CC-45", "CC-39"),
               "a quick-play convoy logs no convoy VP for a year and gets no yearly status (3.0.0 scored its year "
               "0 VP, 'Stalemate'); its result is the quick-play scale alone"),
        Change("CC-E5-1", "5.0.0", ("CC-28", "CC-30", "CC-R15"),
               "a depth-charge pattern of 3 hits (a Hedgehog salvo of 1) earns the 'probable' and its Mentioned in "
               "Despatches also when it takes the U-boat to 4 or more hits in all, which puts it out of the game "
               "(4.0.0 credited the probable without the award)"),
        Change("CC-E5-2", "5.0.0", ("CC-28", "CC-31", "CC-R14", "CC-R15"),
               "a U-boat that leaves hurt is drawn again in the same convoy as it left: its hits, its grade, no "
               "attack after a pattern's hit, no wolfpack after a probable; it is hunted, never attacks (4.0.0 "
               "drew it back unhurt, and it attacked)"),
        Change("CC-E5-3", "5.0.0", ("CC-39", "CC-R48"),
               "the convoy VP row 'Under 24,999 ... 3+' is split like the others, 12,500 t wide: 12,500-24,999 t "
               "scores 3, under 12,500 t scores 4 (4.0.0 scored 3 for both)"),
        Change("CC-E5-4", "5.0.0", ("CC-31", "CC-R29", "CC-R42"),
               "the U-boat that calls the wolfpack is passed over when its wolfpack boats are drawn (the deck "
               "reformed from the discards holds it again); when no other U-boat is left, that wolfpack boat does "
               "not come (4.0.0 could draw the caller as one of its own wolfpack)"),
        Change("CC-E5-5", "5.0.0", ("CC-31", "CC-R14", "CC-R15"),
               "the card's 3 or 4 attacks are the most a U-boat makes on one convoy: drawn again in the convoy it "
               "left, it has the attacks it left with (none: it withdrew when they were spent), is hunted and makes "
               "no attack (4.0.0 gave it its card's attacks afresh)"),
        Change("CC-E5-6", "5.0.0", ("CC-31", "CC-R15"),
               "a U-boat calls the wolfpack at most once a convoy, and one that came with a wolfpack never calls "
               "in that convoy, hurt or not (4.0.0: drawn again, it called again; a wolfpack boat drawn again "
               "from a U counter called)"),
        Change("CC-E6-1", "6.0.0", ("CC-38", "CC-R45"),
               "a possible kill the guns finish (4 hits in all) on a U-boat a depth-charge or Hedgehog pattern hit "
               "earlier in the convoy opens the Depth Charge growth roll: the depth charges had their part in the "
               "sinking (5.0.0 opened it only for a grade a pattern earned)"),
        Change("CC-E7-1", "7.0.0", ("CC-28", "CC-31", "CC-R15"),
               "a U-boat a depth-charge pattern hits 1 or 2 times, or to 3 in all, rolls the WOLFPACK table when it "
               "escapes, though it called earlier in the convoy ('If it does escape roll on the WOLFPACK Table'); a "
               "boat that called and leaves again unhit in the convoy still calls no second time, a probable one and "
               "a wolfpack boat never (6.0.0 let a boat call once a convoy, CC-E5-6, whatever hit it later)"),
        Change("CC-E7-2", "7.0.0", ("CC-38", "CC-44", "CC-R45"),
               "a depth-charge pattern that misses opens no Depth Charge growth roll, though the boat bears a grade "
               "another escort's pattern earned (two-player: 6.0.0 opened it for the escort that missed)"),
        Change("CC-E8-1", "8.0.0", ("CC-27", "CC-31", "CC-R14", "CC-R28", "CC-R40"),
               "with no depth charges and no Hedgehog left, a U-boat found at close range evades as one beyond long "
               "range does: it re-engages from its designated range while it has attacks and is unhurt, else it "
               "leaves (withdrawing when its attacks are spent, escaping when hurt); 7.0.0 made it leave as if it "
               "escaped a pattern, so an unhurt boat with attacks left rolled the WOLFPACK table, which no sentence "
               "gives it (the cold audit of 7.0.0, F1: 239 such rolls in 300 bot campaigns)"),
        Change("CC-E8-2", "8.0.0", ("CC-22", "CC-R8", "CC-R28"),
               "'If you are successful, you have detected the U-Boat and may drop another Depth Charge pattern': the "
               "captain may drop none (`hold_pattern`) once it has attacked the boat since the boat last attacked the "
               "convoy (the first pattern, and the first after each attack, is no choice: it 'commences its Depth "
               "Charge attack'), keeping the charges, and the U-boat evades as in CC-E8-1; 7.0.0 offered only the "
               "weapons (F5)"),
        Change("CC-E8-3", "8.0.0", ("CC-38", "CC-44", "CC-R45"),
               "the Depth Charge growth roll is the escort's own sinking's: a pattern opens it only when it scores a "
               "grade itself (its own hits, or the 4 in all it makes), and the guns' possible kill only on a boat this "
               "escort's own pattern hit (two-player: 7.0.0 opened it for a 1-hit pattern on a boat the other escort "
               "had made probable, F3, and for guns finishing a boat only the other escort's pattern had hit, F2)"),
        Change("CC-E8-4", "8.0.0", ("CC-30", "CC-R15"),
               "each depth-charge pattern of 3 hits earns its Mentioned in Despatches, on a boat already probable in "
               "the convoy too (a Hedgehog salvo of 1, whose award is the ruling's, once a boat as before): 'If you "
               "score 3 hits in one pattern ... Your Commanding Officer will be awarded a Mentioned in Despatches'; "
               "7.0.0 gave one a boat, so in the two-player game the second escort's 3 hits went unawarded (F4)"),
        Change("CC-E9-1", "9.0.0", ("CC-31", "CC-R27"),
               "a U-boat hurt by the guns alone leaves after its last attack as one that withdrew ('after which it will "
               "withdraw'), not one that escaped: escaping is what a depth-charge pattern's hits make it do ('will "
               "attempt to escape'); its WOLFPACK roll, −1 per damage point, is as before (8.0.0 recorded it as escaped "
               "in its UBoatLeft event, the campaign sheet and the digest)"),
        Change("CC-E10-1", "10.0.0", ("CC-44", "CC-R38"),
               "two-player: the U-boats a wolfpack call sends at the two sections come one of each in turn, the "
               "section with more first (escort-a's on equal numbers), so an escort that has dealt with the boats at its "
               "own section helps with the other's boats beyond its own number ('Player A rolls two U-boats, Player B rolls 1 ... Once Player B has dealt with the "
               "U-boat on their side of the convoy they are now free to give Player A assistance with the second "
               "U-boat'); 9.0.0 sent all of escort-a's first, so escort-b, its own boat waiting, never helped, and "
               "escort-a helped with escort-b's instead (the cold audit of 9.0.0, F1)"),
    ),
    retired=("1", "2"),
)
