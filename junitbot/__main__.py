"""`python -m junitbot` runs the command line."""

from __future__ import annotations

import sys

from junitbot.cli import main

# Guarded: vLLM's engine starts its processes with `spawn`, which imports this module again in each child (as
# `__mp_main__`); unguarded, every child would run the command line once more.
if __name__ == "__main__":
    sys.exit(main())
