#!/usr/bin/env python3
"""Fails when the project's Markdown, DocC text or Swift comments speak like a development log.

Docs are for users and maintainers: what is true now and why. Run numbers, issue numbers,
"last session" and the like belong in git history and issue notes. Usage: check-docs-language.py
(from anywhere; it reads every Markdown and Swift file git tracks, and the untracked ones it
does not ignore). Exit status 1 lists each line found.
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PATTERNS = [
    (re.compile(r"\bstops? \d+", re.I), "a stop number"),
    (re.compile(r"\bissues? #?\d+", re.I), "an issue number"),
    (re.compile(r"\bsessions? \d+", re.I), "a session number"),
    # Lower-case "session": "this Session" is the type.
    (re.compile(r"\b(?i:last|previous|this|next|earlier) (session|stop)\b"), "a work session"),
    (re.compile(r"\bon this (VM|machine)\b", re.I), "one machine"),
    (re.compile(r"\b(yesterday|today)\b", re.I), "a day"),
    (re.compile(r"\b(TODO|FIXME|XXX)\b"), "a to-do"),
    (re.compile(r"\bdev(elopment)? log\b", re.I), "a log"),
]


def listed(pattern):
    """The files git tracks, and untracked ones it does not ignore, matching `pattern`."""
    names = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", pattern],
                           cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / name for name in names if not name.startswith((".build", "Fuzz/Found"))]


def swift_comment_lines():
    """(path, line number, comment text) of each `//` comment in the listed Swift files."""
    for path in listed("*.swift"):
        if not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            index = line.find("//")
            if index >= 0:
                yield path, number, line[index:]


def main():
    found = []
    markdown = listed("*.md")
    for path in markdown:
        if not path.is_file():
            continue
        in_code = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            for pattern, what in PATTERNS:
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {line.strip()}")
    for path, number, comment in swift_comment_lines():
        for pattern, what in PATTERNS:
            if pattern.search(comment):
                found.append(f"{path.relative_to(ROOT)}:{number}: {what}: {comment.strip()}")
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} line(s) speak like a development log: say what is true now, and leave the "
              "history to git", file=sys.stderr)
        return 1
    print(f"{len(markdown)} Markdown files and the Swift comments read: no development-log language")
    return 0


if __name__ == "__main__":
    sys.exit(main())
