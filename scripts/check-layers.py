#!/usr/bin/env python3
"""Checks the layers the compiler does not hold, as CI does (docs/architecture.md#the-layers).

The compiler holds the rest: the storage is a private module of the core crate
(`crates/core/src/store`) and the root crate has no database crate among its dependencies, so
a handler, a club page or the cached reads cannot name a table or a connection's queries, and
the core crate cannot reach up into the root (its HTTP handlers, application, extractors or
command line). What is left to this script:

1. `src/api` (HTTP handlers), `src/web` (the club pages) and `src/cached.rs` (the cached
   reads both answer with) do not reach into the command line (`crate::cli`); `src/web` uses
   nothing of `src/api`, and `src/cached.rs` nothing of either;
2. the storage (`crates/core/src/store`) knows nothing of the read cache (`crate::cache`) or
   of the services above it;
3. no cycle between the files of `crates/core/src/services` (a service uses the ones below it);
4. no cycle between the top-level modules of `src` and none between those of
   `crates/core/src` (`services`, `store`, `cache`, … : every arrow points down, as
   docs/architecture.md draws them);
5. no cycle between the files of `src`, of `crates/core/src` and of `crates/engine/src`
   (each file one node; an edge between a module's file and its own parent's or child's is not
   one, e.g. `services/webhooks.rs` and `services/webhooks/worker.rs`);
6. one service call per request in `src/api` and `src/web`: a function opens at most one
   database call (`.tx(`, `.db(`, and in `src/web` a page's `read(`), and the closure it
   passes calls at most one function with the connection (`f(c)`, `f(c, …)`; a closure inside
   it that takes a connection of its own is counted apart, by the same rule), so the service
   does the whole unit of work (`ONE_CALL_EXEMPT` names the functions left out, and why);
7. a value of a list that is a type is neither compared (`== "completed"`) nor matched
   (`"completed" =>`, `Some("eligible") =>`, `"a" | "b" =>`) as its text outside tests and
   outside the parsing code: the vocabulary files and `FromStr` impls (`ARM_PARSERS` names
   the readers of other notations whose tokens look like a list's words, and what they read).

The import graph is read from the code: `crate::…` paths, `super::…` paths and `use` lists
(nested ones too), resolved to the longest module path that is a file (a module renamed with
`#[path = …]` is followed). Comments are ignored. Tests (`#[cfg(test)]` modules, inline or in
a file of their own) count for rules 3, 4 and 5: a test's imports are arrows of its file like
any other, so a test that needs modules from both sides of an arrow sits above both (in their
parent's tests, or in the file whose code it tests when that already uses the other). Rule 6
ignores tests, string and character literals.
Prints every problem as `path:line: message` and exits 1 when there is one. Run from
anywhere: `scripts/check-layers.py`.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
CORE = ROOT / "crates" / "core" / "src"

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


def rust_files(name, base=SRC):
    """The Rust files of a folder of `base` (`api`), or the one file of a module (`cached.rs`)."""
    where = base / name
    return [where] if where.is_file() else sorted(where.rglob("*.rs"))


def check_http(folder, problems):
    """The HTTP layer (`src/api`, `src/web`, `src/cached.rs`) does not call the command line."""
    for path in rust_files(folder):
        for n, line in enumerate(code_lines(path), 1):
            if re.search(r"\bcrate::cli\b", line):
                problems.append(f"{rel(path)}:{n}: the HTTP layer calls the command line")


def check_no_reach(folder, forbidden, why, problems, base=SRC):
    for path in rust_files(folder, base):
        for n, line in enumerate(code_lines(path), 1):
            for m in CRATE_PATH.finditer(line):
                top = m.group(1).split("::")[0]
                if top in forbidden:
                    problems.append(f"{rel(path)}:{n}: {why}: crate::{m.group(1)}")


def service_module(path):
    """`services/pairing/swiss.rs` → `pairing`; `services/results.rs` → `results`."""
    parts = path.relative_to(CORE / "services").with_suffix("").parts
    return parts[0] if parts[0] != "mod" else None


def check_service_cycles(problems):
    edges = {}
    where = {}
    for path in sorted((CORE / "services").rglob("*.rs")):
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
        if len(path.relative_to(CORE / "services").parts) == 1:
            for m in re.finditer(r"\bsuper::([a-z_]+)", text):
                if (CORE / "services" / f"{m.group(1)}.rs").exists():
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
                first = where.get((v, w), f"crates/core/src/services/{v}.rs")
                problems.append(f"{first}: a cycle between services: {' → '.join(cycle)}")
            elif w in edges and state.get(w) is None:
                visit(w)
        stack.pop()
        state[v] = 2

    for v in sorted(edges):
        if state.get(v) is None:
            visit(v)


# --- cycles between modules and between files ------------------------------------------------

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments(text):
    """The text with block comments and line comments blanked, lines kept."""
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return "\n".join(
        line[: m.start()] if (m := re.search(r"(?<![:\"])//", line)) else line
        for line in text.splitlines()
    )


def without_tests(text):
    """The text without its `#[cfg(test)] mod … { … }` blocks (blanked, lines kept), and the
    names of the test modules in files of their own (`#[cfg(test)] mod tests;`)."""
    own = set()
    out = text
    test_mod = r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*([;{])"
    for m in re.finditer(test_mod, text):
        if m.group(2) == ";":
            own.add(m.group(1))
            continue
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        out = out[: m.start()] + re.sub(r"[^\n]", " ", out[m.start() : i + 1]) + out[i + 1 :]
    return out, own


def use_tree(text, i):
    """The paths of a path or `use` tree starting at `text[i]` (after `crate::` or `super::`):
    `a::b`, `a::{b, c::{d, e}}`, `{a, b}`. Each path is a list of names; `self` ends a path."""
    paths = []

    def tree(i, prefix):
        while i < len(text) and text[i] in " \n\t":
            i += 1
        if i < len(text) and text[i] == "{":
            i += 1
            while True:
                while i < len(text) and text[i] in " \n\t,":
                    i += 1
                if i >= len(text) or text[i] == "}":
                    return i + 1
                i = tree(i, prefix)
        m = re.compile(IDENT).match(text, i)
        if not m:
            paths.append(prefix)
            return i
        name, i = m.group(0), m.end()
        if name == "self":
            paths.append(prefix)
            return i
        if text.startswith("::", i) and (
            text.startswith("{", i + 2) or re.compile(IDENT).match(text, i + 2)
        ):
            return tree(i + 2, prefix + [name])
        paths.append(prefix + [name])
        return i

    tree(i, [])
    return paths


class Crate:
    """The files of one crate (`src` folder) as modules: `api/mod.rs` and `api.rs` are
    `("api",)`, `lib.rs` and `main.rs` the root `()`."""

    def __init__(self, src):
        self.src = src
        self.files = {}
        for path in sorted(src.rglob("*.rs")):
            parts = list(path.relative_to(src).with_suffix("").parts)
            if parts[-1] == "mod":
                parts.pop()
            if parts in (["lib"], ["main"]):
                parts = []
            self.files[tuple(parts)] = path
        # the code of each file, its tests included: a test's imports are edges too
        self.code = {
            me: strip_comments(path.read_text(encoding="utf-8")) for me, path in self.files.items()
        }
        # `#[path = "x/mod.rs"] mod y;`: the module y is the file's module
        self.renamed = {}
        for me, path in self.files.items():
            folder = path.parent
            for m in re.finditer(
                r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(' + IDENT + r")\s*;",
                self.code[me],
            ):
                target = (folder / m.group(1)).resolve()
                for mod, p in self.files.items():
                    if p.resolve() == target:
                        self.renamed[me + (m.group(2),)] = mod

    def resolve(self, path):
        """The module (file) a path names: the longest prefix that is a file."""
        path = tuple(path)
        for k in range(len(path), 0, -1):
            if path[:k] in self.renamed:
                path = self.renamed[path[:k]] + path[k:]
                break
        for k in range(len(path), 0, -1):
            if path[:k] in self.files:
                return path[:k]
        return None

    def edges(self):
        """`{module: {target: "path:line"}}`: every module another file names, with where."""
        out = {}
        for me, path in self.files.items():
            text = self.code[me]
            found = out.setdefault(me, {})
            starts = [(m, []) for m in re.finditer(r"\bcrate::", text)]
            for m in re.finditer(r"\b((?:super::)+)", text):
                up = m.group(1).count("super::")
                starts.append((m, list(me)[: len(me) - up]))
            for m, base in starts:
                line = text.count("\n", 0, m.start()) + 1
                for p in use_tree(text, m.end()):
                    target = self.resolve(base + p)
                    if target is None or target == me:
                        continue
                    # a module and its own parent or child (or further up or down) are one unit
                    if target[: len(me)] == me or me[: len(target)] == target:
                        continue
                    found.setdefault(target, f"{rel(path)}:{line}")
        return out


def cycles(edges):
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def one_cycle(comp, edges):
    """A shortest cycle through the first node of a component: [a, b, …, a]."""
    members = set(comp)
    start = comp[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges.get(v, ())):
            if w == start:
                return paths[v] + [start]
            if w in members and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return [start, start]


def report_cycles(edges, name, what, problems):
    for comp in cycles(edges):
        path = one_cycle(comp, edges)
        steps = ", ".join(
            f"{name(a)} → {name(b)} at {edges[a][b]}" for a, b in zip(path, path[1:])
        )
        problems.append(
            f"{edges[path[0]][path[1]]}: a cycle between {what}: "
            f"{' → '.join(name(v) for v in path)} ({steps}); "
            f"all of {', '.join(name(v) for v in comp)} reach each other"
        )


def check_module_cycles(problems):
    crates = [
        (SRC, "src"),
        (CORE, "crates/core/src"),
        (ROOT / "crates" / "engine" / "src", "crates/engine/src"),
    ]
    for src, label in crates:
        edges = Crate(src).edges()
        edges.pop((), None)
        report_cycles(edges, lambda m: "::".join(m), f"the files of {label}", problems)
    # the top-level modules of the root crate and of the core crate
    for src, label in crates[:2]:
        top = {}
        for me, targets in Crate(src).edges().items():
            if not me:
                continue
            for target, where in targets.items():
                if target and target[0] != me[0]:
                    top.setdefault(me[0], {}).setdefault(target[0], where)
        report_cycles(top, str, f"the top-level modules of {label}", problems)


# --- one service call per handler --------------------------------------------------------------

# Left out of the rule: the read cache's helper whose one snapshot looks the version up and
# makes the body on a miss (two steps its callers hand it, each one service call), and
# the password change, which like the login commits the counted attempt before the slow check
# of the current password (each of its two database calls is one service call).
ONE_CALL_EXEMPT = {
    ("src/api/own_account.rs", "change_password"): "opens",
    ("src/api/standings.rs", "serve_versioned"): "calls",
}

# a closure's parameters: `|c|`, `move |c, comp, _|`, `|c: &mut DbConn|`
CLOSURE = re.compile(r"(?:\bmove\s+)?\|([^|]*)\|")


def blank_literals(text):
    """The text with string and character literals blanked, lines kept."""

    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))

    text = re.sub(r'(?<![\w"])r(#*)".*?"\1', blank, text, flags=re.S)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', blank, text, flags=re.S)
    return re.sub(r"'(?:[^'\\\n]|\\.[^']*)'", blank, text)


def closing(text, i):
    """The index of the bracket that closes the one at `text[i]`."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    depth = 0
    for j in range(i, len(text)):
        if text[j] in pairs:
            depth += 1
        elif text[j] in pairs.values():
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def closure_end(text, i):
    """Where the body of a closure starting at `text[i]` (after its parameters) ends: its
    block's closing brace, or the end of its expression (a `,` or closing bracket outside
    brackets)."""
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text) and text[i] == "{":
        return closing(text, i) + 1
    depth = 0
    for j in range(i, len(text)):
        if text[j] in "([{":
            depth += 1
        elif text[j] in ")]}":
            if depth == 0:
                return j
            depth -= 1
        elif text[j] == "," and depth == 0:
            return j
    return len(text)


def connection_calls(body, conn):
    """How many calls in `body` take the connection `conn` as an argument (`f(c)`,
    `f(c, …)`, `x.f(&mut c, …)`), and the bodies of the closures in it that take a connection
    of their own under that name (their calls are not the outer closure's)."""
    inner = []
    out = body
    for m in CLOSURE.finditer(body):
        params = [p.split(":")[0].strip() for p in m.group(1).split(",")]
        if conn not in params:
            continue
        end = closure_end(body, m.end())
        inner.append(body[m.end() : end])
        out = out[: m.start()] + " " * (end - m.start()) + out[end:]
    calls = re.findall(r"\(\s*(?:&\s*mut\s+)?" + re.escape(conn) + r"\s*[,)]", out)
    return len(calls), inner


def functions(text):
    """`(name, start, end)` of each outermost `fn`'s body in the text."""
    out = []
    end = -1
    for m in re.finditer(r"\bfn\s+(" + IDENT + r")", text):
        if m.start() < end:
            continue
        i, depth = m.end(), 0
        while i < len(text) and not (text[i] in "{;" and depth == 0):
            depth += {"(": 1, ")": -1, "<": 1, ">": -1}.get(text[i], 0)
            if text[i - 1 : i + 1] == "->":
                depth += 1
            i += 1
        if i >= len(text) or text[i] == ";":
            continue
        end = closing(text, i)
        out.append((m.group(1), i, end))
    return out


def check_one_call(folder, problems):
    """A handler (or a club page) opens at most one database call (`state.tx`, `state.db`, and
    in `src/web` a page's `read`), and the closure it passes calls at most one function with
    the connection: the service function that does the whole unit of work. A closure inside
    it that takes a connection of its own (work handed to that service) is held to the same."""
    opener = r"\.\s*(?:tx|db)\s*\(" + (r"|(?<![.\w])read\s*\(" if folder == "web" else "")
    for path in sorted((SRC / folder).rglob("*.rs")):
        text, _ = without_tests(strip_comments(path.read_text(encoding="utf-8")))
        text = blank_literals(text)
        for name, start, end in functions(text):
            exempt = ONE_CALL_EXEMPT.get((rel(path), name))
            body = text[start:end]
            opens = list(re.finditer(opener, body))

            def at(m):
                return f"{rel(path)}:{text.count(chr(10), 0, start + m.start()) + 1}"

            if len(opens) > 1 and exempt != "opens":
                problems.append(
                    f"{at(opens[1])}: `{name}` opens {len(opens)} database calls (call one "
                    "service function that does the whole unit of work, in one transaction)"
                )
            if exempt == "calls":
                continue
            for m in opens:
                args = body[m.end() - 1 : closing(body, m.end() - 1) + 1]
                first = CLOSURE.search(args)
                if not first:
                    continue
                conn = first.group(1).split(",")[0].split(":")[0].strip()
                todo = [args[first.end() : closure_end(args, first.end())]]
                while todo:
                    n, inner = connection_calls(todo.pop(), conn)
                    todo += inner
                    if n > 1:
                        problems.append(
                            f"{at(m)}: `{name}` calls {n} functions with the connection in one "
                            "database call (call one service function that does the whole unit "
                            "of work)"
                        )
                        break


ENGINE_VOCAB = ROOT / "crates" / "engine" / "src" / "vocab.rs"
CORE_VOCAB = CORE / "vocab.rs"
# the value lists of `crates/core/src/vocab/` (result codes, …), declared with `value_list!` too
CORE_VOCAB_FILES = sorted((CORE / "vocab").glob("*.rs"))
# a variant of a value list: `Name = "text",` in `vocabulary!` (engine) or `value_list!` (core)
VOCAB_VARIANT = re.compile(r'^\s*[A-Z][A-Za-z0-9]*\s*=\s*"([^"]+)"\s*,', re.M)


def vocabulary_words():
    """The wire strings of every value list declared as a type."""
    words = set()
    for path in (ENGINE_VOCAB, CORE_VOCAB, *CORE_VOCAB_FILES):
        if path.exists():
            words.update(VOCAB_VARIANT.findall(path.read_text(encoding="utf-8")))
    return words


def check_vocabulary_literals(problems):
    """A value of a list that is a type (`RoundStatus`, `CompetitionKind`, …) is compared as
    the enum, never as its text: no `== "completed"`, `!= "keizer"` or `.eq("planned")` in
    `src` or `crates/core/src` outside tests (docs/decisions/0301-vocabulary-as-types.md)."""
    words = vocabulary_words()
    quoted = r'"((?:[^"\\]|\\.)*)"'
    patterns = [
        re.compile(r"(?:==|!=)\s*" + quoted),
        re.compile(quoted + r"\s*(?:==|!=)"),
        re.compile(r"\.(?:eq|ne)\(\s*" + quoted + r"\s*\)"),
    ]
    for path in sorted(list(SRC.rglob("*.rs")) + list(CORE.rglob("*.rs"))):
        if path == CORE_VOCAB or path in CORE_VOCAB_FILES or path.name == "tests.rs" or path.name.endswith("_tests.rs"):
            continue
        text, _ = without_tests(strip_comments(path.read_text(encoding="utf-8")))
        for n, line in enumerate(text.splitlines(), 1):
            for pat in patterns:
                for m in pat.finditer(line):
                    if m.group(1) in words:
                        problems.append(
                            f"{rel(path)}:{n}: compares the value \"{m.group(1)}\" as text "
                            "(parse it once into its enum and compare the enum)"
                        )


ENGINE = ROOT / "crates" / "engine" / "src"

# a string literal in a pattern: `"a"`, `Some("a")`, `Ok("a")`
_LIT = r'(?:(?:Some|Ok|Err)\(\s*)?"(?:[^"\\]|\\.)*"\s*\)?'
# a match arm of string literals: `"a" =>`, `Some("a") =>`, `"a" | "b" =>`, `"a" if x =>`,
# and the pattern of `matches!(x, "a" | "b")`
ARM = re.compile(
    r"(?:(?<=[{,;\n])|(?<=^))\s*(" + _LIT + r"(?:\s*\|\s*" + _LIT + r")*)\s*(?:if\b[^\n]*?)?=>"
)
MATCHES = re.compile(r"\bmatches!\(\s*[^,]*,\s*(" + _LIT + r"(?:\s*\|\s*" + _LIT + r")*)\s*[,)]")
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')

# Functions that read a notation or format of their own, whose tokens only look like the
# words of a value list (a match arm there is parsing code), with what they read.
ARM_PARSERS = {
    ("crates/engine/src/arbiter/pgn.rs", "is_result"): "PGN result tokens",
    ("crates/engine/src/arbiter/draughts/pdn.rs", "is_result"): "PDN result tokens",
    ("crates/engine/src/arbiter/san.rs", "read"): "SAN castling, `0-0`",
    ("crates/engine/src/round_robin/result.rs", "parse"): "a result code of a discipline",
    ("crates/engine/src/keizer/scenario.rs", "parse_params"): "the scenario's parameter names",
    ("crates/engine/src/keizer/scenario.rs", "parse_result"): "the scenario's result codes",
    ("src/web/competition.rs", "route"): "the pages' path segments",
    ("crates/core/src/config.rs", "frame_ancestors"): "CSP source keywords of `FRAME_ANCESTORS`",
    ("crates/core/src/mail_config.rs", "read_smtp"): "the `SMTP_TLS` setting",
}


def without_from_str(text):
    """The text with the bodies of its `impl … FromStr for …` blocks blanked (the parsing
    code, where the wire strings are matched), lines kept."""
    out = text
    for m in re.finditer(r"\bimpl\b[^{;]*\bFromStr\s+for\b[^{;]*\{", text):
        end = closing(text, m.end() - 1)
        out = out[: m.start()] + re.sub(r"[^\n]", " ", out[m.start() : end + 1]) + out[end + 1 :]
    return out


def check_vocabulary_arms(problems):
    """A value of a list that is a type is matched as the enum, never as its text: no
    `"completed" =>`, `Some("eligible") =>` or `"a" | "b" =>` (nor `matches!(x, "a")`) in
    `src`, `crates/core/src` or `crates/engine/src` outside tests and outside the parsing code
    (the vocabulary files themselves and `FromStr` impls)."""
    words = vocabulary_words()
    vocab_files = {ENGINE_VOCAB, CORE_VOCAB, *CORE_VOCAB_FILES}
    paths = sorted(list(SRC.rglob("*.rs")) + list(CORE.rglob("*.rs")) + list(ENGINE.rglob("*.rs")))
    for path in paths:
        if path in vocab_files or path.name == "tests.rs" or path.name.endswith("_tests.rs"):
            continue
        text, _ = without_tests(strip_comments(path.read_text(encoding="utf-8")))
        text = without_from_str(text)
        for name, start, end in functions(text):
            if (rel(path), name) in ARM_PARSERS:
                text = text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]
        for pat in (ARM, MATCHES):
            for m in pat.finditer(text):
                n = text.count("\n", 0, m.start(1)) + 1
                for lit in QUOTED.findall(m.group(1)):
                    if lit in words:
                        problems.append(
                            f"{rel(path)}:{n}: matches the value \"{lit}\" as text "
                            "(parse it once into its enum and match the enum)"
                        )


def main():
    problems = []
    check_http("api", problems)
    check_http("web", problems)
    check_http("cached.rs", problems)
    check_no_reach("web", {"api"}, "a club page uses a handler module (share it below both)", problems)
    check_no_reach("cached.rs", {"api", "web", "app", "cli"}, "the cached reads reach up", problems)
    check_no_reach("store", {"cache", "services"}, "storage reaches up", problems, CORE)
    check_service_cycles(problems)
    check_module_cycles(problems)
    check_one_call("api", problems)
    check_one_call("web", problems)
    check_vocabulary_literals(problems)
    check_vocabulary_arms(problems)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layer problems (docs/architecture.md#the-layers)")
        return 1
    print("layers: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
