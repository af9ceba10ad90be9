"""Play (L3): events and their rules, rounds and the seating draw, hands, table sheets,
confirmations, lots, and a round's results filled in offline. Reads in ``reads``, writes in
``services`` (one function, one transaction), forms in ``forms``. A sibling of ``register``:
neither imports the other."""
