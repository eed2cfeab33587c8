"""`decide` split by rule area; each function names the rule it applies (ids in docs/rules/aa1942-convoy.md)."""
