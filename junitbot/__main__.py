"""`python -m junitbot` runs the command line."""

from __future__ import annotations

import sys

from junitbot.cli import main

sys.exit(main())
