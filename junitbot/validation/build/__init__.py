"""The project's build as junitbot reads and runs it: poms, Maven, module classpaths and JDKs, frameworks, tools."""
