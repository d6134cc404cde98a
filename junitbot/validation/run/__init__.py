"""Running test classes: the JUnit launcher, isolation and the runtime guard, batches that survive a dying JVM."""
