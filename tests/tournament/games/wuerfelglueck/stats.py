"""Würfelglück's statistics: none beyond what every game shows (hands played, points)."""

PLAYER = None
EVENT = None
