"""Registration (L3): players and who they are across events, entries, fixed pairs, online
registration, the check-in desk and player lists imported. Reads in ``reads``, writes in
``services`` (one function, one transaction), forms in ``forms``. A sibling of ``play``: neither
imports the other."""
