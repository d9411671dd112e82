#!/usr/bin/env python3
"""Checks the repository's tracked files, as CI does:

1. every relative link in a tracked Markdown file resolves: the file or folder exists, and a
   `#anchor` names a heading of the target file (GitHub's heading slugs);
2. no tracked text file names a path outside the repository (a sibling `shared` folder, or an
   absolute path of a developer's machine);
3. no product file tells the history of the work (sessions, ticket numbers, branches) or cites
   the specification by section number instead of the rules book.

Prints every problem as `path:line: message` and exits 1 when there is one.
Run from anywhere: `scripts/check-docs.py`.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Patterns are assembled from pieces so that this file does not match itself.
MACHINE_PATHS = re.compile(
    "|".join(
        [
            r"\.\./" + "shared",
            "/" + "work/",
            "/" + r"home/[A-Za-z]",
            "/" + "Users/",
            "/" + "root/",
            r"[A-Z]:\\" + r"Users",
        ]
    )
)
HISTORY = re.compile(
    "|".join(
        [
            r"(second|third|fourth|fifth|sixth|this|next|last|earlier) " + "session",
            r"first " + r"session[,)]",
            r"\bissue " + r"#?[0-9]+",
            r"branch " + "`",
            r"the " + r"helper\b",
            "SPEC " + "§",
            r"shared/" + r"formats",
        ]
    ),
    re.IGNORECASE,
)
# Where history and specification citations must not appear: the product's own files.
HISTORY_SCOPE = ("README.md", "CONTRIBUTING.md", "docs/", "src/", "crates/", "tests/",
                 "benches/", "scripts/", "openapi/", ".ci/", "docker/", "migrations/")

LINK = re.compile(r"(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def tracked_files():
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    return [p for p in out.decode().split("\0") if p]


def is_text(path: Path) -> bool:
    try:
        chunk = path.read_bytes()[:8192]
    except OSError:
        return False
    return b"\0" not in chunk


def slug(text: str) -> str:
    """GitHub's anchor for a heading: lower case, inline markup dropped, punctuation other
    than `-` and `_` removed, spaces turned into `-`."""
    text = re.sub(r"`([^`]*)`", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def without_code(lines, keep_inline=False):
    """Yields (line number, text) of lines outside fenced code blocks, inline code removed
    unless `keep_inline`."""
    fence = None
    for n, line in enumerate(lines, 1):
        stripped = line.lstrip()
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            if fence is None:
                fence = m.group(1)[0] * len(m.group(1))
            elif stripped.startswith(fence):
                fence = None
            continue
        if fence is None:
            yield n, line if keep_inline else re.sub(r"`[^`]*`", "", line)


_anchor_cache = {}


def anchors(path: Path):
    if path not in _anchor_cache:
        seen = {}
        found = set()
        text = path.read_text(encoding="utf-8")
        for _, line in without_code(text.splitlines(), keep_inline=True):
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            found.add(s if k == 0 else f"{s}-{k}")
        for n in re.findall(r'<a\s+(?:name|id)="([^"]+)"', text):
            found.add(n)
        _anchor_cache[path] = found
    return _anchor_cache[path]


def check_links(rel: str, problems):
    path = ROOT / rel
    lines = path.read_text(encoding="utf-8").splitlines()
    for n, line in without_code(lines):
        for m in list(LINK.finditer(line)) + list(IMAGE.finditer(line)):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # http:, https:, mailto: …
            file_part, _, anchor = target.partition("#")
            dest = path if file_part == "" else (path.parent / file_part).resolve()
            if file_part and not dest.exists():
                problems.append(f"{rel}:{n}: broken link {target}: no such file")
                continue
            try:
                dest.relative_to(ROOT)
            except ValueError:
                problems.append(f"{rel}:{n}: link {target} leaves the repository")
                continue
            if anchor:
                if dest.is_dir() or dest.suffix.lower() != ".md":
                    problems.append(f"{rel}:{n}: anchor #{anchor} on a file that is not Markdown")
                elif anchor not in anchors(dest):
                    problems.append(f"{rel}:{n}: broken anchor {target}")


def main() -> int:
    problems = []
    for rel in tracked_files():
        path = ROOT / rel
        if not path.is_file() or not is_text(path):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        in_scope = rel.startswith(HISTORY_SCOPE)
        for n, line in enumerate(text.splitlines(), 1):
            if MACHINE_PATHS.search(line):
                problems.append(f"{rel}:{n}: names a path outside the repository: {line.strip()}")
            if in_scope and HISTORY.search(line):
                problems.append(
                    f"{rel}:{n}: tells the history of the work or cites the specification "
                    f"instead of the rules book: {line.strip()}"
                )
        if rel.endswith(".md"):
            check_links(rel, problems)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("docs check: links resolve, no machine paths, no history in product files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
