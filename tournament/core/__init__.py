"""The lowest floor (L0): what every package uses and that knows no model and no game: German
names matched and sorted, numbers and hands formatted, who made a change, ``Refused``, the choice
values the draw needs, form fields, validators of single-line text, query parameters cleaned,
the workbook writer, the upload reader, the address phones reach this machine by, and the app's
date formats."""
