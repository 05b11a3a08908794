#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""kcidb_validate.py SCHEMA FILE...: each FILE against the vendored KCIDB
JSON schema (fixtures/kcidb/), with Debian's python3-jsonschema: Draft-07
as kcidb-io validates, format checking on. A format the document uses that
this host cannot check ("uri" needs python3-rfc3987) is an error, not a
silent pass. Prints one "ok"/"not ok" line per file; exit 1 on any error."""

import json
import sys

import jsonschema


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
    # date-time needs a module Debian 12 does not package: lsmconf writes
    # no date-time field, and a document that has one fails below.
    missing = formats_used(schema) - set(checker.checkers) - {"date-time"}
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
        text = json.dumps(doc)
        if "date-time" not in checker.checkers and (
                '"start_time"' in text or '"_timestamp"' in text):
            errors.append("a date-time field this host cannot check")
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
