"""Bots that play a seat sensibly, so the table can demo itself and fill empty seats.

A bot is pure like the engines: it reads the engine's legal actions, its own
seat's registered hand and the public snapshot, and draws any randomness from
an injected ``random.Random``.
"""
