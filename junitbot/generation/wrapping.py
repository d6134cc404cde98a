"""Long statements of a generated test (its methods, its set-up) broken after their outermost call's commas, as
formatters wrap them (pure).

Session 21's WordUtils test had a 130-column `assertThrows(IllegalArgumentException.class, () -> ...)`: most
builds' checkstyle stops at 120, and a reviewer reads a wrapped call more easily than one that runs off the screen.
"""

from __future__ import annotations

from junitbot.analysis.brackets import opening_bracket, split_arguments

MAX_COLUMNS = 120
# A statement in a test method: the class's members are indented 4, the method's statements 4 more.
STATEMENT_INDENT = 8
# Continuation lines, as IntelliJ's and Eclipse's Java formatters indent them.
CONTINUATION = 8


def wrapped(line: str, indent: int = STATEMENT_INDENT) -> list[str]:
    """`line` (one statement, without its indentation) as lines that fit `MAX_COLUMNS` at `indent`: broken after
    the commas between the arguments of the call that ends the statement, greedily, each continuation indented
    `CONTINUATION` more. A statement that fits, has no such call or only one argument, or holds a text block, stays
    one line (so does one of several lines); an argument longer than a line stays whole."""
    if indent + len(line) <= MAX_COLUMNS or not line.endswith(");") or '"""' in line or "\n" in line:
        return [line]
    opening = opening_bracket(line, len(line) - 2)
    if opening < 0:
        return [line]
    arguments = split_arguments(line[opening + 1:-2])
    if len(arguments) < 2:
        return [line]
    # A statement inside a block of the body keeps its own indentation (counted in its length) and continues deeper.
    pad = " " * (len(line) - len(line.lstrip(" ")) + CONTINUATION)
    lines = [line[:opening + 1] + arguments[0]]
    for argument in arguments[1:]:
        joined = f"{lines[-1]}, {argument}"
        if indent + len(joined) + 2 <= MAX_COLUMNS:  # its "," or ");" fits too
            lines[-1] = joined
        else:
            lines[-1] += ","
            lines.append(pad + argument)
    lines[-1] += ");"
    return lines
