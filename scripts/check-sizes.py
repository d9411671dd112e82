#!/usr/bin/env python3
"""Keeps the files a newcomer reads short, as CI does (CONTRIBUTING.md#style).

In `src/` and `crates/core/` (the engine crate has its own reviewers and is left out):

1. no Rust file over 800 lines;
2. no function over 120 lines, unless a comment in the lines just above it (its doc comment
   or a line comment among its attributes) starts with `Long:` and says why it stays whole.

`ALLOWED_FILES` and `ALLOWED_FUNCTIONS` name the files and functions that still pass the
bounds, each with its reason; an entry is removed when its file or function is split.
A function is counted from its `fn` line to the line of its closing brace; braces inside
string and character literals and comments are skipped. Prints every problem as
`path:line: message` and exits 1 when there is one. Run from anywhere:
`scripts/check-sizes.py`.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = [ROOT / "src", ROOT / "crates" / "core"]
MAX_FILE = 800
MAX_FN = 120

# path (relative to the repository) -> why it may pass MAX_FILE lines
ALLOWED_FILES = {
    "crates/core/src/services/attendance.rs": "the attendance rules of one round; to be split",
}

# (path, function) -> why it may pass MAX_FN lines
TO_SPLIT = "one use case written as one block; to be split into steps"
ALLOWED_FUNCTIONS = {
    ("src/web/competition.rs", "round_robin_tables"): TO_SPLIT,
    ("src/web/player.rs", "render"): TO_SPLIT,
    ("crates/core/src/config.rs", "from_lookup"): "reads every setting in one pass; to be split",
    ("crates/core/src/services/arbiter/claim.rs", "make_claim"): TO_SPLIT,
    ("crates/core/src/services/check_in.rs", "check_in_and_view"): TO_SPLIT,
    ("crates/core/src/services/competitions/settings.rs", "validate"): TO_SPLIT,
    ("crates/core/src/services/demo.rs", "seed_keizer"): TO_SPLIT,
    ("crates/core/src/services/pairing/keizer.rs", "keizer_input"): TO_SPLIT,
    ("crates/core/src/services/pairing/swiss.rs", "dutch"): TO_SPLIT,
    ("crates/core/src/services/playoff.rs", "create"): TO_SPLIT,
    ("crates/core/src/services/prizes.rs", "create_playoffs"): TO_SPLIT,
    ("crates/core/src/services/ratings.rs", "push"): TO_SPLIT,
    ("crates/core/src/services/results.rs", "enter"): TO_SPLIT,
    ("crates/core/src/services/standings_view.rs", "standings_view"): TO_SPLIT,
    ("crates/core/src/services/withdrawal.rs", "withdraw"): TO_SPLIT,
}

FN = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+\"[^\"]*\"\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)")


def strip(line, state):
    """The line without comments and literal text; `state` carries an open block comment."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"] = False
            i = end + 2
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = True
            i += 2
            continue
        if c == '"':
            # a raw string r"…" or r#"…"# is rare; a plain string ends at an unescaped quote
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if c == "'":
            m = re.match(r"'(\\.|[^\\'])'", line[i:])
            if m:
                i += len(m.group(0))
                continue
        out.append(c)
        i += 1
    return "".join(out)


def says_why(lines, at):
    """A comment starting `Long:` among the comment and attribute lines just above line `at`."""
    k = at - 1
    while k >= 0:
        s = lines[k].strip()
        if s.startswith("//"):
            if re.match(r"//[/!]?\s*Long:", s):
                return True
        elif not s.startswith("#["):
            return False
        k -= 1
    return False


def check(path, problems):
    rel = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) > MAX_FILE and rel not in ALLOWED_FILES:
        problems.append(f"{rel}:1: {len(lines)} lines (at most {MAX_FILE}): split it into a module")
    state = {"block": False}
    code = [strip(line, state) for line in lines]
    for i, line in enumerate(code):
        m = FN.match(line)
        if not m:
            continue
        depth = 0
        opened = False
        end = None
        for j in range(i, len(code)):
            for c in code[j]:
                if c == "{":
                    depth += 1
                    opened = True
                elif c == "}":
                    depth -= 1
                elif c == ";" and not opened and depth == 0:
                    end = j  # a declaration without a body
                    break
                if opened and depth == 0:
                    end = j
                    break
            if end is not None:
                break
        if end is None or not opened:
            continue
        length = end - i + 1
        if length > MAX_FN and not says_why(lines, i) and (rel, m.group(1)) not in ALLOWED_FUNCTIONS:
            problems.append(
                f"{rel}:{i + 1}: fn {m.group(1)} has {length} lines (at most {MAX_FN}, "
                "or a `Long:` comment above it saying why)"
            )


def main():
    problems = []
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.rs")):
            check(path, problems)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} size problems (at most {MAX_FILE} lines a file, {MAX_FN} a function)")
        return 1
    print("sizes: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
