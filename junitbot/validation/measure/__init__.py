"""What tests cover and kill: JaCoCo, exec data, per-test coverage, PIT, the existing suite's baseline."""
