"""Results (L4), read from the stored results and hands: the standings and the live pages' tables
of them, fixed pairs' ranking, the statistics and their charts, the rating, and the history of
changes."""
