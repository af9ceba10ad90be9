"""Query parameters cleaned before a view reads them: a page number, a page size or a sort
key that no list has becomes the default instead of an error."""

from __future__ import annotations

import re

from django.http import QueryDict

PER_PAGE_MIN, PER_PAGE_MAX = 10, 500

# A page number beyond this is no page of any list the app shows (50,000 rows a page at most
# 500); sent on to the database it overflows the OFFSET (SQLite: datatype mismatch, PostgreSQL:
# bigint out of range).
PAGE_MAX = 100_000
_NUMBER = re.compile(r"[0-9]{1,9}")


def clean_query(query: QueryDict) -> QueryDict:
    """The query string as the views may use it: no NUL characters (PostgreSQL refuses them in a
    text comparison), ``page`` a page number or absent (the first page), ``per_page`` a page
    size of 10 to 500 rows or ``all``."""
    cleaned = QueryDict(mutable=True)
    for key, values in query.lists():
        key = key.replace("\x00", "")
        for value in values:
            value = value.replace("\x00", "")
            if key == "page":
                if not _NUMBER.fullmatch(value) or not 1 <= int(value) <= PAGE_MAX:
                    continue
            elif key == "per_page" and value != "all":
                if not _NUMBER.fullmatch(value):
                    continue
                value = str(max(PER_PAGE_MIN, min(int(value), PER_PAGE_MAX)))
            cleaned.appendlist(key, value)
    cleaned._mutable = False
    return cleaned
