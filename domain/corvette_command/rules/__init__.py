"""`decide` split by rule area; each function cites its rule id (docs/rules/corvette-command.md)."""
