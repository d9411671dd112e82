"""Checks that a client generator made every operation of the OpenAPI document: a generator
may skip an operation it cannot model with no more than a warning, so each operation id is
looked up in what it wrote. Run by scripts/contract-test.sh.

Usage: operations.py DOCUMENT typescript GENERATED_D_TS
       operations.py DOCUMENT python GENERATED_PACKAGE_DIR
"""

import json
import pathlib
import re
import sys

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def operations(document):
    """(operation id, method, path, request body media types) of every operation."""
    for path, item in document["paths"].items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            body = op.get("requestBody", {}).get("content", {})
            yield op.get("operationId"), method, path, sorted(body)


def typescript_missing(ops, generated):
    """The operations that openapi-typescript did not type in its `operations` interface,
    or typed without a request body the document gives them."""
    text = pathlib.Path(generated).read_text(encoding="utf-8")
    start = text.find("export interface operations {")
    if start < 0:
        return ["the generated types have no `operations` interface"]
    block = text[start:]
    # each operation is a member `    name: {` at the first level of the interface, up to the
    # next member at that level
    members = {}
    found = list(re.finditer(r"^    ([A-Za-z0-9_]+): \{$", block, re.MULTILINE))
    for i, m in enumerate(found):
        end = found[i + 1].start() if i + 1 < len(found) else len(block)
        members[m.group(1)] = block[m.end():end]
    missing = []
    for op_id, method, path, media in ops:
        body = members.get(op_id)
        if body is None:
            missing.append(f"{op_id} ({method.upper()} {path}): no type")
            continue
        for m in media:
            if f'"{m}":' not in body:
                missing.append(f"{op_id} ({method.upper()} {path}): no {m} request body")
    return missing


def python_missing(ops, package):
    """The operations that openapi-python-client did not make a module with a `sync_detailed`
    function for (it names a module after the operation id, under its tag)."""
    modules = {p.stem: p for p in pathlib.Path(package, "api").glob("*/*.py")}
    missing = []
    for op_id, method, path, _media in ops:
        module = modules.get(op_id)
        if module is None:
            missing.append(f"{op_id} ({method.upper()} {path}): no module")
        elif "def sync_detailed(" not in module.read_text(encoding="utf-8"):
            missing.append(f"{op_id} ({method.upper()} {path}): no sync_detailed")
    return missing


def main():
    document_path, generator, generated = sys.argv[1:4]
    with open(document_path, encoding="utf-8") as f:
        ops = list(operations(json.load(f)))
    unnamed = [f"{m.upper()} {p}" for op_id, m, p, _ in ops if not op_id]
    if unnamed:
        sys.exit(f"operations without an operation id: {', '.join(unnamed)}")
    check = {"typescript": typescript_missing, "python": python_missing}[generator]
    missing = check(ops, generated)
    if missing:
        print(f"{generator}: {len(missing)} of {len(ops)} operations not generated:")
        for line in missing:
            print(f"  {line}")
        sys.exit(1)
    print(f"{generator}: all {len(ops)} operations generated")


if __name__ == "__main__":
    main()
