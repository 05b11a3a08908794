#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""kcidb_validate.py SCHEMA FILE...: each FILE against the vendored KCIDB
JSON schema (fixtures/kcidb/), with Debian's python3-jsonschema: Draft-07
as kcidb-io validates, format checking on. A format the document uses that
this host cannot check ("uri" needs python3-rfc3987) is an error, not a
silent pass. Prints one "ok"/"not ok" line per file; exit 1 on any error."""

import datetime
import json
import re
import sys

import jsonschema

RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def rfc3339(value):
    """JSON schema's date-time (RFC 3339), checked here: Debian 12's
    jsonschema wants rfc3339-validator, which Debian does not package."""
    if not isinstance(value, str):
        return True
    if not RFC3339.match(value):
        return False
    text = re.sub(r"[Zz]$", "+00:00", value)
    text = re.sub(r"\.\d+", "", text)
    try:
        datetime.datetime.fromisoformat(text.replace("t", "T"))
    except ValueError:
        return False
    return True


def formats_used(schema):
    """Every "format" the schema names."""
    found = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                found.add(node["format"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def main(argv):
    if len(argv) < 3:
        print("usage: kcidb_validate.py SCHEMA FILE...", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.Draft7Validator
    cls.check_schema(schema)
    checker = cls.FORMAT_CHECKER
    if "date-time" not in checker.checkers:
        checker.checks("date-time")(rfc3339)
    missing = formats_used(schema) - set(checker.checkers)
    if missing:
        print(f"not ok cannot check formats {sorted(missing)} "
              "(install python3-rfc3987)")
        return 1
    validator = cls(schema, format_checker=checker)
    bad = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        counts = ", ".join(f"{len(doc.get(k, []))} {k}" for k in (
            "checkouts", "builds", "tests", "issues", "incidents"))
        if errors:
            bad += 1
            print(f"not ok {path}: {len(errors)} schema errors, e.g.")
            for e in errors[:5]:
                where = "/".join(str(p) for p in getattr(e, "path", []))
                print(f"#   {where}: {getattr(e, 'message', e)}")
        else:
            print(f"ok {path}: valid KCIDB v{doc['version']['major']}."
                  f"{doc['version'].get('minor', 0)} ({counts})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
