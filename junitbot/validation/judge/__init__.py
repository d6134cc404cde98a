"""What is kept: the keep rule, verdicts, reruns of written tests, the build gate."""
