"""The rules, pure: dice, the game core and one package per ruleset. No I/O, no clock, no `random`."""
