"""Money of an event (L5): the prize table and who gets which prize, entry fees, the check-in
desk's fee, the cash book, the settlement of games played for money, and their forms. Every
amount is whole cents."""
