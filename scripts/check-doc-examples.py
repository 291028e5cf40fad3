#!/usr/bin/env python3
"""Checks that the examples of the DocC catalogs are the code Tests/DocExamplesTests compiles.

A landing page is the module-named article of a product's catalog (Sources/AFAuth/AFAuth.docc/
AFAuth.md, Plugins/AFLogging/AFLogging.docc/AFLogging.md, ...); its examples live in
Tests/DocExamplesTests/<Product>Examples.swift. Any other article of a catalog with a ```swift
block (Sources/AFCore/AFCore.docc/Recipes.md, ...) has its examples in
Tests/DocExamplesTests/Articles/<Article>Examples.swift, except the articles in NOT_CHECKED_HERE.
Every ```swift block of a page must be found in its file line for line, ignoring the block's common
leading indentation:

- The block is split into paragraphs at its blank lines. Each paragraph must appear in the file as
  consecutive lines, all indented by the same extra amount (a paragraph of statements sits in a
  function's body), and the paragraphs must appear in the block's order.
- Between two paragraphs the file may hold only blank lines, comments, `import` lines and the line
  that opens the example's function (`func ...`): imports sit at the top of the file, type
  declarations at file scope, statements in the function. Nothing else may come between them, so
  the file compiles no line the page does not show, except the function's signature (where names
  the example takes as given are declared) and what comes before the block's first line or after
  its last (such as stand-ins for names the example takes as given).

A landing page without a ```swift block, an article with one but without its examples file, an
examples file under Articles/ without an article of that name, and an article name used by two
catalogs are mismatches too. Prints each mismatch and exits 1 if there is one; else prints how
many blocks were checked.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "Tests" / "DocExamplesTests"
ARTICLE_EXAMPLES = EXAMPLES / "Articles"
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")

# Articles whose first blocks are checked elsewhere: how many, and where.
CHECKED_ELSEWHERE = {
    "Daemons": (1, "Examples/PollingDaemon/check.sh compares its first block with the daemon it builds and runs"),
}

# Articles whose code is compiled by another test target, in this file.
COMPILED_ELSEWHERE = {
    "WritingAPlugin": ROOT / "Tests" / "AFPluginTests" / "GuideExample.swift",
}

# Articles whose blocks are not looked for under Articles/, and why.
NOT_CHECKED_HERE = {}


def landing_pages():
    """(product, page) for each catalog whose module-named article exists."""
    pages = []
    for parent in ("Sources", "Plugins"):
        for catalog in sorted((ROOT / parent).glob("*/*.docc")):
            page = catalog / f"{catalog.stem}.md"
            if page.is_file():
                pages.append((catalog.stem, page))
    return pages


def articles():
    """(article name, page) for each article of a catalog that is not its landing page."""
    found = []
    for parent in ("Sources", "Plugins"):
        for catalog in sorted((ROOT / parent).glob("*/*.docc")):
            for page in sorted(catalog.glob("*.md")):
                if page.stem != catalog.stem:
                    found.append((page.stem, page))
    return found


def swift_blocks(text):
    """(first line number, lines) of each ```swift block."""
    blocks, current, start, indent = [], None, 0, ""
    for number, line in enumerate(text.splitlines(), 1):
        fence = FENCE.match(line)
        if current is None:
            if fence and fence.group(2) == "swift":
                current, start, indent = [], number + 1, fence.group(1)
        elif fence and fence.group(2) == "":
            blocks.append((start, current))
            current = None
        else:
            # A fence indented in a list item indents its lines the same way.
            current.append(line[len(indent):] if line.startswith(indent) else line)
    return blocks


def is_blank(line):
    return not line.strip()


def dedented(lines):
    """The lines without their common leading indentation (blank lines do not count) and trailing spaces."""
    lines = [line.rstrip() for line in lines]
    widths = [len(line) - len(line.lstrip(" ")) for line in lines if not is_blank(line)]
    cut = min(widths, default=0)
    return [line[cut:] if not is_blank(line) else "" for line in lines]


def paragraphs(lines):
    """The runs of lines between blank lines."""
    runs, current = [], []
    for line in lines:
        if is_blank(line):
            if current:
                runs.append(current)
            current = []
        else:
            current.append(line)
    if current:
        runs.append(current)
    return runs


def matches_at(paragraph, file_lines, start):
    """Whether `paragraph` is file_lines[start:], each line with the same extra indentation."""
    if start + len(paragraph) > len(file_lines):
        return False
    first = file_lines[start]
    if not first.endswith(paragraph[0]):
        return False
    prefix = first[: len(first) - len(paragraph[0])]
    if prefix.strip():
        return False
    return all(file_lines[start + offset] == prefix + line for offset, line in enumerate(paragraph))


SEAM = re.compile(r"^\s*(//.*|import\s+\S+|(@\w+(\(.*?\))?\s+)*((public|internal|private|fileprivate)\s+)?func\s.*)?$")


def is_seam(line):
    """A line that may come between two paragraphs: blank, a comment, an import, a function's opening."""
    return bool(SEAM.match(line))


def find(paragraphs_left, file_lines, start, first):
    """Whether the paragraphs appear in order from `start` on, with only seam lines between them."""
    if not paragraphs_left:
        return True
    paragraph = paragraphs_left[0]
    for position in range(start, len(file_lines)):
        if matches_at(paragraph, file_lines, position):
            if find(paragraphs_left[1:], file_lines, position + len(paragraph), False):
                return True
        # After the first paragraph, the next must follow across seam lines only.
        if not first and not is_seam(file_lines[position]):
            return False
    return False


def closest(paragraphs_list, file_lines):
    """How many leading paragraphs of the block can be matched, for the message."""
    for count in range(len(paragraphs_list), 0, -1):
        if find(paragraphs_list[:count], file_lines, 0, True):
            return count
    return 0


def check_blocks(page, blocks, examples, mismatches):
    """Appends a message for each block of `page` not found in `examples`; returns how many were checked."""
    relative_page = page.relative_to(ROOT)
    file_lines = [line.rstrip() for line in examples.read_text(encoding="utf-8").splitlines()]
    for start, lines in blocks:
        runs = paragraphs(dedented(lines))
        if not runs or find(runs, file_lines, 0, True):
            continue
        matched = closest(runs, file_lines)
        offending = runs[matched]
        mismatches.append(
            f"{relative_page}:{start}: block not in {examples.relative_to(ROOT)} line for line; "
            f"paragraph {matched + 1} of {len(runs)} (from {offending[0].strip()!r}) has no match "
            f"after the ones before it")
    return len(blocks)


def main():
    landing_checked, article_checked, checked_articles, mismatches = 0, 0, [], []
    for product, page in landing_pages():
        relative_page = page.relative_to(ROOT)
        blocks = swift_blocks(page.read_text(encoding="utf-8"))
        if not blocks:
            mismatches.append(f"{relative_page}: no ```swift example")
            continue
        examples = EXAMPLES / f"{product}Examples.swift"
        if not examples.is_file():
            mismatches.append(f"{relative_page}: {examples.relative_to(ROOT)} does not exist")
            continue
        landing_checked += check_blocks(page, blocks, examples, mismatches)

    seen = {}
    for name, page in articles():
        relative_page = page.relative_to(ROOT)
        if name in seen:
            mismatches.append(f"{relative_page}: another catalog has an article of the same name "
                              f"({seen[name]}); their examples would share one file")
            continue
        seen[name] = relative_page
        blocks = swift_blocks(page.read_text(encoding="utf-8"))
        if name in CHECKED_ELSEWHERE:
            blocks = blocks[CHECKED_ELSEWHERE[name][0]:]
        if not blocks or name in NOT_CHECKED_HERE:
            continue
        examples = COMPILED_ELSEWHERE.get(name, ARTICLE_EXAMPLES / f"{name}Examples.swift")
        if not examples.is_file():
            mismatches.append(f"{relative_page}: {len(blocks)} ```swift block(s) but "
                              f"{examples.relative_to(ROOT)} does not exist")
            continue
        checked_articles.append(name)
        article_checked += check_blocks(page, blocks, examples, mismatches)

    for examples in sorted(ARTICLE_EXAMPLES.glob("*.swift")):
        name = examples.name[: -len("Examples.swift")]
        if not examples.name.endswith("Examples.swift") or name not in seen:
            mismatches.append(f"{examples.relative_to(ROOT)}: no article {name}.md in any catalog")
        elif name in NOT_CHECKED_HERE:
            mismatches.append(f"{examples.relative_to(ROOT)}: {name}.md is not checked against this "
                              f"file ({NOT_CHECKED_HERE[name]})")
        elif not swift_blocks((ROOT / seen[name]).read_text(encoding="utf-8")):
            mismatches.append(f"{examples.relative_to(ROOT)}: {seen[name]} has no ```swift block")

    for mismatch in mismatches:
        print(mismatch)
    if mismatches:
        return 1
    print(f"{landing_checked + article_checked} example blocks checked against the code the tests compile: "
          f"{landing_checked} of the landing pages, {article_checked} of {len(checked_articles)} articles "
          f"({', '.join(checked_articles)})")
    for name, (count, reason) in sorted(CHECKED_ELSEWHERE.items()):
        print(f"checked elsewhere: the first {count} block(s) of {name}.md: {reason}")
    for name, reason in sorted(NOT_CHECKED_HERE.items()):
        print(f"not checked here: {name}.md: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
