"""The app's own date formats per language (``FORMAT_MODULE_PATH``), where Django's differ from
how the players write: German keeps Django's; English writes the day before the month, as in
Europe (5 December 2026, 05/12/2026), and the hours of the day (14:30)."""
