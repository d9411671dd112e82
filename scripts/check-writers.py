#!/usr/bin/env python3
"""Each table is written by one service module, as CI checks (docs/architecture.md#the-layers).

A write is `diesel::insert_into(t::table)`, `diesel::update(t::table…)` or
`diesel::delete(t::table…)` (also with the table imported under another name,
`use crate::store::schema::rounds as rd`). The writer of a table is the service module (the
first path segment below `crates/core/src/services`, so `pairing/swiss.rs` is `pairing`) or
the store file (`crates/core/src/store/…`) that holds the write. The store's own writes (its
models' insert helpers, the cache stamps, the event log) count as one module, `store`. Outside tests,
a table written from two modules is a problem unless `SHARED` names it with its reason.
Prints every problem as `path:line: message` and exits 1 when there is one.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "crates" / "core" / "src"

# table -> why more than one module writes it (empty: every table has one writer)
SHARED = {}

WRITE = re.compile(r"diesel::(insert_into|update|delete)\(\s*([a-z_][a-z0-9_]*)::table")
ALIAS = re.compile(r"schema::\{?([^;]*?)\}?;", re.S)


def aliases(text):
    """`alias -> table` from the file's `use …schema::…` lines."""
    out = {}
    for m in re.finditer(r"use\s+crate::store::schema::(\{[^}]*\}|[^;]*);", text, re.S):
        body = m.group(1).strip("{}")
        for item in body.split(","):
            item = item.strip()
            if not item or item == "*" or "::" in item:
                continue
            parts = item.split(" as ")
            out[parts[-1].strip()] = parts[0].strip()
    return out


def without_tests(text):
    m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)
    return text[: m.start()] if m else text


def module_of(path):
    rel = path.relative_to(CORE)
    if rel.parts[0] == "services":
        return "services::" + Path(rel.parts[1]).stem
    if rel.parts[0] == "store":
        return "store"
    return "::".join(rel.with_suffix("").parts)


def main():
    writers = {}
    for path in sorted(CORE.rglob("*.rs")):
        if path.name == "tests.rs" or path.name.endswith("_tests.rs"):
            continue
        text = without_tests(path.read_text(encoding="utf-8"))
        names = aliases(text)
        for m in WRITE.finditer(text):
            table = names.get(m.group(2), m.group(2))
            line = text.count("\n", 0, m.start()) + 1
            rel = path.relative_to(ROOT).as_posix()
            writers.setdefault(table, {}).setdefault(module_of(path), f"{rel}:{line}")
    problems = []
    for table, mods in sorted(writers.items()):
        if len(mods) > 1 and table not in SHARED:
            where = ", ".join(f"{m} ({w})" for m, w in sorted(mods.items()))
            problems.append(f"table {table} is written by {len(mods)} modules: {where}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} tables with more than one writer (move the writes into the owner)")
        return 1
    print("writers: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
