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
import re
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

# --- the quick yes ----------------------------------------------------------------------------
# jsonschema builds a validator object for every value it descends into, and a bundle's values
# are many: a 2,000-player bundle took many times as long as the checker before the schema
# (docs/performance.md). So the schema is also turned, once, into one Python function per
# subschema that says yes to a value the schema certainly accepts; only a bundle it does not say
# yes to is walked by jsonschema, whose first error is what the director reads. The functions
# know the keywords below and nothing else: for a schema with any other keyword none is made,
# and jsonschema walks every bundle (a test says so).
QUICK_KEYWORDS = frozenset(
    {
        "description",
        "type",
        "const",
        "enum",
        "format",
        "pattern",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "required",
        "properties",
        "$ref",
    }
)
LOCAL = "#/$defs/"
Test = Callable[[Any], bool]


def _all(tests: list[Test]) -> Test:
    if not tests:
        return lambda _value: True
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        first, second = tests
        return lambda value: first(value) and second(value)
    return lambda value: all(test(value) for test in tests)


def _quick(schema: Any, depth: int = 0) -> Test | None:
    """A function that says whether a value certainly passes ``schema`` (as ``VALIDATOR``), or
    None when the schema has a keyword this function does not know. It may say no where
    jsonschema says yes (jsonschema has the last word then), never yes where jsonschema says no."""
    if not isinstance(schema, dict) or not schema.keys() <= QUICK_KEYWORDS or depth > 30:
        return None
    tests: list[Test] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        target = _quick(SCHEMA["$defs"].get(ref[len(LOCAL) :]), depth + 1)
        if not ref.startswith(LOCAL) or target is None:
            return None
        tests.append(target)
    if "type" in schema:
        kinds = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        if not all(kind in KINDS for kind in kinds):
            return None
        tests.append(KINDS[kinds[0]] if len(kinds) == 1 else _any(kinds))
    for key in ("const", "enum"):
        if key in schema:
            allowed = [schema[key]] if key == "const" else schema[key]
            # strings and whole numbers compared as jsonschema compares them: 1 is not true
            values = frozenset((type(v), v) for v in allowed if type(v) in (str, int))
            tests.append(
                lambda value, values=values: (
                    type(value) in (str, int) and (type(value), value) in values
                )
            )
    if "format" in schema:
        conforms, name = FORMATS.conforms, schema["format"]
        tests.append(lambda value: conforms(value, name))
    if "pattern" in schema:
        search = re.compile(schema["pattern"]).search
        tests.append(lambda value: type(value) is not str or search(value) is not None)
    if "minimum" in schema or "maximum" in schema:
        low, high = schema.get("minimum", -float("inf")), schema.get("maximum", float("inf"))
        tests.append(
            lambda value: (
                (type(value) is int and low <= value <= high) or not isinstance(value, (int, float))
            )
        )
    if schema.keys() & {"items", "minItems", "maxItems"}:
        each = _quick(schema.get("items", {}), depth + 1)
        if each is None:
            return None
        shortest, longest = schema.get("minItems", 0), schema.get("maxItems", float("inf"))
        tests.append(
            lambda value: (
                type(value) is not list
                or (shortest <= len(value) <= longest and all(map(each, value)))
            )
        )
    if "required" in schema:
        required = tuple(schema["required"])
        tests.append(lambda value: type(value) is not dict or all(k in value for k in required))
    if "properties" in schema:
        fields = [(name, _quick(field, depth + 1)) for name, field in schema["properties"].items()]
        if any(test is None for _name, test in fields):
            return None
        tests.append(lambda value: type(value) is not dict or _fields(fields, value))
    return _all(tests)


def _any(kinds: list[str]) -> Test:
    checks = [KINDS[kind] for kind in kinds]
    return lambda value: any(check(value) for check in checks)


def _fields(fields: list[tuple[str, Any]], value: dict[str, Any]) -> bool:
    # a loop rather than all() over a generator: it runs for every game of the bundle
    for name, test in fields:  # noqa: SIM110
        if name in value and not test(value[name]):
            return False
    return True


QUICK = _quick(SCHEMA["$defs"]["content"])


def errors(content: Any) -> Iterable[ValidationError]:
    """jsonschema's errors for a bundle's ``content`` in the schema's order (a record's missing
    key before its fields, its fields before the records inside it); none for a content the
    quick test says yes to."""
    if QUICK is not None and QUICK(content):
        return ()
    return CONTENT.iter_errors(content)
