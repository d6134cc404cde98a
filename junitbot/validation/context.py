"""What one module's validation shares, built once and passed down: the repository and the module's run context.

Layer: above build/, compiling/ and run/ (it holds their records), below measure/, judge/ and validate.py, which
take it instead of the same list of folders, classpaths and settings at every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from junitbot.analysis import CodeGraph
from junitbot.config import ValidationSettings
from junitbot.records import Record
from junitbot.state import StateDir
from junitbot.validation.build.classpath import resource_folders
from junitbot.validation.build.helpers import helper_cache
from junitbot.validation.build.models import Classpath
from junitbot.validation.compiling.models import JavacOptions
from junitbot.validation.compiling.rounds import module_javac
from junitbot.validation.measure.jacoco import agent_option
from junitbot.validation.measure.per_test import per_test_config, per_test_listener
from junitbot.validation.run.models import JavaAgent, JvmLaunch
from junitbot.validation.run.sandbox import detect_isolation


@dataclass(frozen=True)
class IndexedRepo:
    """The repository validation works on: its folder, its code graph (open) and its state directory."""

    root: Path
    graph: CodeGraph
    state: StateDir


class ValidationContext(Record):
    """What every step of one module's validation (or rerun) reads: the tree and module, the settings, the isolation
    that works here, the scratch folder and main classes, the tests' classpath, javac's options and the caches."""

    root: Path
    module: Classpath
    settings: ValidationSettings
    isolation: str
    scratch: Path
    main_classes: Path
    test_classpath: tuple[str, ...]
    javac: JavacOptions
    state_root: Path
    tools_dir: Path
    baseline_dir: Path

    @classmethod
    def for_module(
        cls, root: Path, module: Classpath, *, settings: ValidationSettings, state: StateDir, scratch: Path,
        main_classes: Path,
    ) -> ValidationContext:
        """The context of `module` of the tree at `root`: the test classpath is the scratch folder's classes, the
        main classes, the module's resources and its entries; javac compiles as the build compiles its tests."""
        test_classpath = (str(scratch / "classes"), str(main_classes), *resource_folders(root, module),
                          *module.entries)
        return cls(root=root, module=module, settings=settings, isolation=detect_isolation(settings.isolation),
                   scratch=scratch, main_classes=main_classes, test_classpath=test_classpath,
                   javac=module_javac(root, module, timeout_s=settings.batch_timeout_s), state_root=state.root,
                   tools_dir=state.tools, baseline_dir=state.baselines)

    @property
    def classes_dir(self) -> Path:
        """Where the tests compile to (first on `test_classpath`)."""
        return self.scratch / "classes"

    @property
    def java_home(self) -> str | None:
        """The module's JDK (None: the default one)."""
        return self.module.java_home

    @property
    def helper_cache(self) -> Path:
        """Where junitbot's compiled helpers (JaCoCo's among them) are cached: beside the tools."""
        return helper_cache(self.tools_dir)

    def covered_launch(
        self, classpath: Sequence[str], *, includes: Sequence[str], exec_file: Path, per_test: Path,
        agents: tuple[JavaAgent, ...] = (),
    ) -> tuple[list[str], JvmLaunch]:
        """The classpath and launch of a run of tests on `classpath` under the JaCoCo agent (into `exec_file`, over
        `includes`) with the per-test listener writing each test's own exec data under `per_test`; `agents` beside
        JaCoCo. The validated tests' measured run, a rerun's and the baseline's all start this way."""
        settings, cache = self.settings, self.helper_cache
        agent = agent_option(exec_file=exec_file, includes=includes, cache_dir=cache, settings=settings,
                             tools_dir=self.tools_dir)
        listener = per_test_listener(classpath, cache_dir=cache, settings=settings, tools_dir=self.tools_dir)
        return [*classpath, str(listener)], self.launch(agent=agent, junit_config=per_test_config(per_test),
                                                        writable=(per_test,), agents=agents)

    def launch(
        self, *, agent: str | None = None, junit_config: dict[str, str] | None = None, writable: tuple[Path, ...] = (),
        agents: tuple[JavaAgent, ...] = (),
    ) -> JvmLaunch:
        """How this module's test JVMs start: isolated as detected, on its JDK, in its folder (Surefire's basedir),
        with the pinned tools; `agent`, `junit_config` and `writable` for a run under JaCoCo, `agents` beside it."""
        return JvmLaunch(settings=self.settings, isolation=self.isolation, java_home=self.java_home,
                         tools_dir=self.tools_dir, agent=agent, junit_config=junit_config or {}, writable=writable,
                         basedir=self.root / self.module.module, agents=agents)
