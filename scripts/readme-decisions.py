#!/usr/bin/env python3
"""Copies docs/decisions/*.md into the README's "Rules and decisions" section, between the
markers <!-- decisions:start --> and <!-- decisions:end -->, one subsection per file (headings
shifted down two levels). Run after editing a decisions file; a test checks they agree."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = root / "README.md"
text = readme.read_text()
start, end = "<!-- decisions:start -->", "<!-- decisions:end -->"
parts = []
for f in sorted((root / "docs" / "decisions").glob("*.md")):
    body = f.read_text().strip()
    body = re.sub(r"^(#+) ", lambda m: "#" * min(len(m.group(1)) + 2, 6) + " ", body, flags=re.M)
    parts.append(f"<!-- from docs/decisions/{f.name} -->\n{body}\n")
block = start + "\n\n" + "\n".join(parts) + "\n" + end
if start in text:
    text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
else:
    text = text.rstrip() + "\n\n" + block + "\n"
if "--check" in sys.argv:
    sys.exit(0 if readme.read_text() == text else 1)
readme.write_text(text)
