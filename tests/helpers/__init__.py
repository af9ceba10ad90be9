"""Helpers shared by test modules, one module per domain: one place to import them from, never
another test file.

db        the database as the tests watch it (no writes, many writers at once)
draw      seating draws: plans, meetings, sit-outs
forms     what a browser sends: a form's POST as rendered or as shown, the tests' posts
imports   player files to import (xlsx, CSV as German Excel saves it)
money     an event played to given totals, and its prizes
pages     what a reader reads of an answer: text, tables, messages, the projector's lines
pairs     Ziege in fixed pairs
play      a started table, the actions a user takes on it, the results its games gave
results   seasons and events the standings, exports and publication read
scoring   scoring a Cego hand with the rules alone
world     the world the access and query tests read, and the public pages they open
access    the access matrix's lists: the pages behind the login, every write

(Model factories live in tests/factories.py; fixtures used across files live in a conftest.py.)
"""
