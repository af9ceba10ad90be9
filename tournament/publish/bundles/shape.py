"""A bundle's shape: the published JSON Schema (``bundle.schema.json``, draft 2020-12, documented in
``docs/bundle-format.md``) and the validator made from it once, when the app starts.

The schema says which keys each record has, of which kind, and which values a key allows; what a
value may be beyond that (lengths, characters, ranges, unique numbers, the games themselves) is
``check``'s, from the model fields and the scoring engine. ``errors(content)`` gives jsonschema's
errors for a bundle's ``content``, in the order of the file; ``check`` says them in the
director's words."""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from django.utils import timezone
from jsonschema import Draft202012Validator, FormatChecker, ValidationError, validators

SCHEMA_FILE = Path(__file__).with_name("bundle.schema.json")
SCHEMA: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))

# JSON's kinds as ``json.loads`` gives them. A whole number is an int, never 1.0 or true: the
# exporter writes none, and jsonschema's own "integer" would take 1.0 where a table's size or a
# seat is counted with
KINDS: dict[str, Callable[[Any], bool]] = {
    "object": lambda value: type(value) is dict,
    "array": lambda value: type(value) is list,
    "string": lambda value: type(value) is str,
    "integer": lambda value: type(value) is int,
    "boolean": lambda value: type(value) is bool,
    "null": lambda value: value is None,
}

# the formats the schema names, read as the import reads them (``write._parsed``, ``uuid.UUID``);
# jsonschema asserts none of them by itself
FORMATS = FormatChecker(formats=())


@FORMATS.checks("date-time", raises=ValueError)
def _moment(value: Any) -> bool:
    """A time with its offset from UTC."""
    return not isinstance(value, str) or timezone.is_aware(datetime.datetime.fromisoformat(value))


@FORMATS.checks("date", raises=ValueError)
def _date(value: Any) -> bool:
    if isinstance(value, str):
        datetime.date.fromisoformat(value)
    return True


@FORMATS.checks("uuid", raises=ValueError)
def _uuid(value: Any) -> bool:
    if isinstance(value, str):
        uuid.UUID(value)
    return True


Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many(
        {kind: (lambda _checker, value, test=test: test(value)) for kind, test in KINDS.items()}
    ),
)
# the whole file (``format``, ``version``, ``sha256``, ``content``), and its ``content`` alone
VALIDATOR = Validator(SCHEMA, format_checker=FORMATS)
CONTENT = VALIDATOR.evolve(schema=SCHEMA["$defs"]["content"])


def errors(content: Any) -> Iterable[ValidationError]:
    """jsonschema's errors for a bundle's ``content`` in the schema's order (a record's missing
    key before its fields, its fields before the records inside it)."""
    return CONTENT.iter_errors(content)
