#!/usr/bin/env python3
"""Checks the service's layers, as CI does (docs/architecture.md#the-layers):

1. `src/api` (HTTP handlers) and `src/web` (the club pages) name no storage at all: no
   `crate::db` (nor a `super::…::db` path to it: no connection, row, model, table, snapshot
   or clock of the database) and no `diesel`; every read and every write of the database goes
   through a service;
2. `src/api` and `src/web` do not reach into the command line (`crate::cli`);
3. `src/services` does not reach up into the HTTP layer (`crate::api`, `crate::app`,
   `crate::auth`);
4. `src/db` knows nothing of the read cache (`crate::cache`) or of anything above it;
5. no cycle between the files of `src/services` (a service uses the ones below it).

The import graph is read from the code: `crate::…` paths, `super::…` paths and `use` lists.
Comments are ignored. Prints every problem as `path:line: message` and exits 1 when there is
one. Run from anywhere: `scripts/check-layers.py`.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

CRATE_PATH = re.compile(r"\bcrate::((?:[a-z_][a-z0-9_]*)(?:::[a-z_][a-z0-9_]*)*)")


def code_lines(path):
    """The file's lines with line comments (`//`, `///`, `//!`) removed."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        # a `//` inside a string is rare in this code base; strings with URLs use `://`
        cut = re.search(r"(?<![:\"])//", line)
        out.append(line[: cut.start()] if cut else line)
    return out


def rel(path):
    return path.relative_to(ROOT).as_posix()


# `crate::db`, or `super::db` / `super::super::db` (a relative path to the storage module)
STORAGE = re.compile(r"\bcrate::db\b|\bsuper::(?:super::)*db\b")


def check_http(folder, problems):
    """The HTTP layer (`src/api`, `src/web`) names no storage: every database read and write
    is a service call."""
    for path in sorted((SRC / folder).rglob("*.rs")):
        lines = code_lines(path)
        # `use crate::{db::DbConn, …}` names it inside a list
        for m in re.finditer(r"\bcrate::\{([^}]*)\}", "\n".join(lines)):
            if any(x.strip().split("::")[0] == "db" for x in m.group(1).split(",")):
                n = "\n".join(lines)[: m.start()].count("\n") + 1
                problems.append(f"{rel(path)}:{n}: storage in the HTTP layer: crate::{{db…}}")
        for n, line in enumerate(lines, 1):
            m = STORAGE.search(line)
            if m:
                problems.append(
                    f"{rel(path)}:{n}: storage in the HTTP layer: {m.group(0)} (go through a service)"
                )
            if re.search(r"\bdiesel\b", line):
                problems.append(f"{rel(path)}:{n}: diesel in the HTTP layer (move it to a service)")
            if re.search(r"\bcrate::cli\b", line):
                problems.append(f"{rel(path)}:{n}: the HTTP layer calls the command line")


def check_no_reach(folder, forbidden, why, problems):
    for path in sorted((SRC / folder).rglob("*.rs")):
        for n, line in enumerate(code_lines(path), 1):
            for m in CRATE_PATH.finditer(line):
                top = m.group(1).split("::")[0]
                if top in forbidden:
                    problems.append(f"{rel(path)}:{n}: {why}: crate::{m.group(1)}")


def service_module(path):
    """`src/services/pairing/swiss.rs` → `pairing`; `src/services/results.rs` → `results`."""
    parts = path.relative_to(SRC / "services").with_suffix("").parts
    return parts[0] if parts[0] != "mod" else None


def check_service_cycles(problems):
    edges = {}
    where = {}
    for path in sorted((SRC / "services").rglob("*.rs")):
        me = service_module(path)
        if me is None:
            continue
        lines = code_lines(path)
        text = "\n".join(lines)
        targets = set()
        for n, line in enumerate(lines, 1):
            for m in re.finditer(r"\bcrate::services::([a-z_]+)", line):
                targets.add(m.group(1))
                where.setdefault((me, m.group(1)), f"{rel(path)}:{n}")
        # `use crate::services::{a, b::c}`
        for m in re.finditer(r"crate::services::\{([^}]*)\}", text):
            for item in m.group(1).split(","):
                name = item.strip().split("::")[0]
                if name:
                    targets.add(name)
        # `super::x` from a file one level below services/ (e.g. services/pairing/swiss.rs)
        if len(path.relative_to(SRC / "services").parts) == 1:
            for m in re.finditer(r"\bsuper::([a-z_]+)", text):
                if (SRC / "services" / f"{m.group(1)}.rs").exists():
                    targets.add(m.group(1))
        targets.discard(me)
        edges.setdefault(me, set()).update(targets)
    # depth-first search for cycles
    state = {}
    stack = []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if state.get(w) == 1:
                cycle = stack[stack.index(w):] + [w]
                first = where.get((v, w), f"src/services/{v}.rs")
                problems.append(f"{first}: a cycle between services: {' → '.join(cycle)}")
            elif w in edges and state.get(w) is None:
                visit(w)
        stack.pop()
        state[v] = 2

    for v in sorted(edges):
        if state.get(v) is None:
            visit(v)


def main():
    problems = []
    check_http("api", problems)
    check_http("web", problems)
    check_no_reach("services", {"api", "app", "auth"}, "a service reaches up into the HTTP layer", problems)
    check_no_reach("db", {"cache", "api", "services", "app", "auth", "cli"}, "storage reaches up", problems)
    check_service_cycles(problems)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layer problems (docs/architecture.md#the-layers)")
        return 1
    print("layers: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
