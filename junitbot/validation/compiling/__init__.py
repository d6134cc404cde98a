"""javac for test and main classes: one batch per round, compile rounds with deterministic repairs."""
