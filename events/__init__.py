"""The vocabulary and the log: event Structs, canonical encoding, hash chain, store and bundles.

Imports nothing of domain/ or service/.
"""
