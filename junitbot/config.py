"""JunitbotConfig: `.junitbot.yml` in the target repo, then `JUNITBOT_*` variables, then flags."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, SecretStr, ValidationError, field_validator

from junitbot.errors import ConfigError
from junitbot.records import Record

CONFIG_FILE = ".junitbot.yml"
ENV_PREFIX = "JUNITBOT_"
NOT_CONFIG = frozenset({"JUNITBOT_HOME", "JUNITBOT_REPO"})
"""Variables with the prefix that are not settings: JUNITBOT_REPO names the repository of the Dagster location."""


class LayerRule(Record):
    """A DDD layer: a type belongs to the first rule whose package segment or name suffix matches."""

    name: str
    packages: tuple[str, ...] = Field(
        default=(), description="package segments that place a type in this layer, e.g. 'domain'"
    )
    suffixes: tuple[str, ...] = Field(
        default=(), description="simple-name suffixes that place a type in this layer, e.g. 'Controller'"
    )


DEFAULT_LAYERS: tuple[LayerRule, ...] = (
    LayerRule(name="presentation", packages=("web", "api", "rest", "controller", "ui"),
              suffixes=("Controller", "Resource", "Endpoint")),
    LayerRule(name="infrastructure", packages=("infrastructure", "infra", "adapter", "adapters", "persistence"),
              suffixes=("Adapter", "Dao", "Client", "Repository")),
    LayerRule(name="application", packages=("application", "app", "usecase", "usecases", "service"),
              suffixes=("UseCase", "Service", "Handler")),
    LayerRule(name="domain", packages=("domain", "model", "core"), suffixes=()),
)


STATIC_PASSES = ("syntax", "structure", "mocking", "forbidden", "symbols", "anti_patterns", "builders")


class ValidationSettings(Record):
    """How candidate tests are checked, compiled, run and measured."""

    disabled_passes: tuple[str, ...] = Field(
        default=(), description=f"static passes to skip: {', '.join(STATIC_PASSES)}"
    )
    allow_reflection: bool = Field(default=False, description="allow tests to reach into private members")
    max_builder_chain: int = Field(default=12, ge=1, description="longest builder chain before a warning")
    repetitions: int = Field(default=2, ge=1, le=10, description="runs per test class; outcomes must agree")
    class_timeout_s: float = Field(default=60.0, gt=0, description="time one test class may take")
    batch_timeout_s: float = Field(default=900.0, gt=0, description="time one JVM batch may take")
    parallel_runs: int = Field(default=2, ge=1, le=64, description="independent test JVMs run at once (a class's "
                                                                   "repeated runs under other conditions); 1 runs "
                                                                   "them one after another")
    mutation_budget_s_per_class: float = Field(
        default=30.0, gt=0,
        description="PIT's time per target class: a mutation run may take this times its classes plus a start-up "
                    "allowance; a run stopped at that limit measures nothing (PIT writes its report at the end)",
    )
    max_heap: str = Field(default="512m", description="-Xmx of test JVMs: bytes, or with k, m or g (at least 16m, at "
                                                       "most this machine's memory)")
    max_output_bytes: int = Field(default=1_000_000, gt=0, description="captured output per process")
    classpath: tuple[str, ...] = Field(default=(), description="explicit test classpath entries (jars, folders)")
    jacoco_agent: Path | None = Field(default=None, description="a standard (shaded) JaCoCo agent jar")
    maven_repo_local: Path | None = Field(
        default=None,
        description="Maven's local repository for classpaths and the pinned Java tools (default: Maven's own, "
                    "usually ~/.m2/repository)",
    )
    isolation: Literal["auto", "bwrap", "unshare", "none"] = Field(
        default="auto", description="how test JVMs are isolated; auto picks the strongest that works"
    )
    build_gate: bool = Field(
        default=True,
        description="kept tests must also pass the project's own build (mvn test, in a scratch copy) when the "
                    "repository has a root pom.xml; false skips that last gate",
    )
    require_gain: bool = Field(
        default=True,
        description="keep a test method only if it covers a line or branch, or kills a mutant, that the repository's "
                    "own tests of the class and the methods kept before it do not",
    )
    mutation: bool = Field(default=True, description="measure mutants with PIT (score per class; a method that "
                                                     "kills a mutant nobody else kills is kept)")
    carve: bool = Field(default=True, description="record, while the repository's own tests run as the baseline, "
                                                  "the arguments they pass to the classes under test (the carver "
                                                  "agent, Byte Buddy): values the no-model generator tries first")

    @field_validator("max_heap")
    @classmethod
    def _jvm_heap(cls, value: str) -> str:
        # Checked here, with the rest of the config: a JVM that cannot start would drop every test as "exited with 1".
        size = _jvm_size_bytes(value)
        if size < _MIN_HEAP_BYTES:
            raise ValueError(f"{value!r} is too small for the test JVM: the JUnit launcher alone needs 16m")
        memory = _physical_memory_bytes()
        if memory is not None and size > memory:
            raise ValueError(f"{value!r} is more than this machine's memory ({memory / 2**30:.1f} GiB); the test JVM "
                             "could not reserve it")
        return value

    @field_validator("disabled_passes")
    @classmethod
    def _known_passes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = sorted(set(value) - set(STATIC_PASSES))
        if unknown:
            raise ValueError(f"unknown pass {', '.join(unknown)}; known: {', '.join(STATIC_PASSES)}")
        return value


_JVM_SIZE = re.compile(r"^(\d+)([kKmMgG]?)$")
_MIN_HEAP_BYTES = 16 * 2**20


def _jvm_size_bytes(value: str) -> int:
    """A JVM size option's value (-Xmx: `512m`, `2G`, `1048576`) in bytes."""
    match = _JVM_SIZE.match(value)
    if match is None:
        raise ValueError(f"{value!r} is not a JVM size: digits, optionally followed by k, m or g (e.g. 512m)")
    unit: int = 1024 ** " kmg".index(match.group(2).lower() or " ")
    return int(match.group(1)) * unit


def _physical_memory_bytes() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # not a POSIX system: the JVM judges
        return None


BackendName = Literal["auto", "vllm", "openai", "transformers", "template"]


class LLMSettings(Record):
    """How tests are generated with a model: which backend, which model, how it samples, how it is fed."""

    backend: BackendName = Field(
        default="auto",
        description="auto: vllm with a GPU and vLLM installed, else openai when a server URL is set, else template",
    )
    model: str = Field(default="Qwen/Qwen2.5-Coder-7B-Instruct",
                       description="local model directory or model name (the served name for openai)")
    tokenizer: str | None = Field(default=None,
                                  description="local tokenizer directory for counting context tokens (default: model)")
    dtype: Literal["auto", "float16", "bfloat16", "float32"] = Field(default="auto", description="weights dtype")
    quantization: str | None = Field(default=None, description="vLLM quantization: awq, gptq, fp8, ... (None: off)")
    gpu_memory_utilization: float = Field(default=0.85, gt=0.0, le=1.0, description="share of GPU memory vLLM takes")
    kv_cache_gib: float | None = Field(default=None, gt=0.0,
                                       description="vLLM's KV cache in GiB, instead of a share of the GPU's memory "
                                                   "(the CPU engine's size of it; None: vLLM's default)")
    enforce_eager: bool = Field(default=False,
                                description="vLLM without compiled graphs: loads sooner, generates slower")
    max_model_len: int | None = Field(default=16384, ge=256, description="longest prompt + answer in tokens")
    enable_prefix_caching: bool = Field(default=True, description="vLLM reuses the shared system-prompt prefix")
    device: Literal["auto", "cpu", "cuda"] = Field(default="auto", description="transformers backend device")
    batch_size: int = Field(default=8, ge=1, le=256, description="prompts per transformers generate call")
    generation_timeout_s: float = Field(default=600.0, gt=0, description="wall-clock limit of one local generate call")

    temperature: float = Field(default=0.2, ge=0.0, le=2.0, description="sampling temperature (0: greedy)")
    top_p: float = Field(default=0.95, gt=0.0, le=1.0, description="nucleus sampling")
    max_tokens: int = Field(default=2048, ge=16, description="tokens one answer may have")
    n: int = Field(default=1, ge=1, le=8, description="candidates per target and round")
    seed: int | None = Field(default=0, description="sampling seed, for repeatable runs (None: random)")
    repetition_penalty: float | None = Field(
        default=None, gt=0.0, le=2.0,
        description="vLLM: penalty on tokens the prompt or answer already holds (1: none; None: the model's own, "
                    "from its generation_config.json, with its top_k, min_p and other penalties)")
    frequency_penalty: float | None = Field(
        default=None, ge=-2.0, le=2.0,
        description="vLLM: penalty growing with each time a token recurs in the answer (0: none; None: the "
                    "model's own); unlike the repetition penalty it can stop a small model repeating a whole test")

    openai_base_url: str | None = Field(default=None,
                                        description="chat-completions server, e.g. http://localhost:8000/v1 "
                                                    "(else OPENAI_BASE_URL)")
    openai_api_key: SecretStr | None = Field(default=None, description="API key (else OPENAI_API_KEY); never logged")
    request_timeout_s: float = Field(default=300.0, gt=0, description="time one HTTP answer may take")
    connect_timeout_s: float = Field(default=10.0, gt=0, description="time to open a connection")
    concurrency: int = Field(default=8, ge=1, le=256, description="HTTP requests in flight at once")
    retries: int = Field(default=3, ge=0, le=10, description="retries on 429, 5xx and connection errors")
    backoff_s: float = Field(default=1.0, ge=0.0, description="first retry delay; doubles per retry")
    max_backoff_s: float = Field(default=30.0, ge=0.0, description="longest retry delay, Retry-After included")
    max_response_bytes: int = Field(default=2_000_000, ge=1024, description="larger HTTP answers are refused")

    repair_rounds: int = Field(default=2, ge=0, le=5, description="repair rounds for candidates that fail validation")
    repair_temperature: float = Field(default=0.6, ge=0.0, le=2.0,
                                      description="sampling temperature of repair and coverage rounds (at least "
                                                  "`temperature`); each round also gets its own seed, so a model "
                                                  "asked again does not answer the same text again")
    coverage_rounds: int = Field(default=1, ge=0, le=5,
                                 description="rounds that show a kept class's uncovered lines and surviving mutants "
                                             "to the model for more tests")
    context_tokens: int = Field(default=6000, ge=256, description="token budget of the code context in a prompt")
    similar_tests: int = Field(default=2, ge=0, le=10, description="existing tests shown as style examples")
    use_skeleton: bool = Field(default=True,
                               description="the model writes test methods into the no-model generator's class shell")
    max_answer_bytes: int = Field(default=200_000, ge=1024, description="longer model answers are rejected")


class GenerationSettings(Record):
    """How tests are generated and where they go."""

    backend: BackendName = Field(
        default="auto",
        description="auto: vllm with a GPU and vLLM installed, else openai when a server URL is set (generation.llm "
                    "or OPENAI_BASE_URL), else template (no model)",
    )
    test_suffix: str = Field(default="GeneratedTest", pattern=r"^[A-Z]\w*$",
                             description="generated tests are <Class><suffix>.java beside the class's package")
    max_scenarios_per_method: int = Field(default=8, ge=1, le=50, description="inputs tried per method")
    max_classes_per_run: int = Field(default=200, ge=1, description="targets beyond this are left for later runs")
    coverage_rounds: int = Field(
        default=1, ge=0, le=5,
        description="rounds of new inputs aimed at uncovered lines; kept if they add coverage or a kill"
    )
    seed_from_tests: bool = Field(
        default=True, description="start scenarios from the set-ups of the repository's own tests of a class (its "
                                  "fixtures, helpers and arguments) and vary them; a method is kept for what it adds")
    llm: LLMSettings = Field(default_factory=LLMSettings, description="model, engine, sampling, server, repair loop")

    def llm_settings(self) -> LLMSettings:
        """The model settings with the backend chosen here (`generation.backend` is the one switch)."""
        return self.llm.model_copy(update={"backend": self.backend})


class RetrievalSettings(Record):
    """The embedding index and hybrid search over code and tests."""

    enabled: bool = Field(default=True, description="build the embedding index beside the graph")
    model: str = Field(
        default="all-MiniLM-L6-v2",
        description="sentence-transformers model: the bundled all-MiniLM-L6-v2, or a local model directory",
    )
    device: Literal["auto", "cpu", "cuda"] = Field(default="auto", description="where embeddings are computed")
    batch_size: int = Field(default=64, ge=1, le=4096, description="chunks per encode batch")
    chunk_max_tokens: int = Field(default=256, ge=16, le=8192, description="method chunks are cut to this many tokens")
    index_type: Literal["auto", "flat", "ivf", "hnsw"] = Field(
        default="auto", description="FAISS index: auto is exact (flat) below ann_threshold vectors, IVF above"
    )
    ann_threshold: int = Field(default=50_000, ge=1, description="vectors above which auto picks an IVF index")
    hnsw_m: int = Field(default=32, ge=4, le=256, description="HNSW neighbours per node (index_type hnsw)")
    ivf_probe: int = Field(default=16, ge=1, description="IVF lists searched per query")
    rrf_k: int = Field(default=60, ge=1, description="reciprocal rank fusion constant")


class ScheduleSettings(Record):
    """When Dagster's schedule runs a full pass, and which branch its sensor watches."""

    cron: str = Field(default="0 3 * * *", description="cron expression of the scheduled full-repo pass")
    timezone: str = Field(default="UTC", description="time zone of the cron expression")
    branch: str = Field(default="main", description="branch whose new commits the sensor runs incremental_job for")
    sensor_interval_s: int = Field(default=60, ge=5, description="seconds between two looks at the branch")


class FullPassSettings(Record):
    """How a full pass over every class is split, run and resumed (`junitbot run --full`, the scheduled pass)."""

    partitioned: bool = Field(
        default=True, description="split the pass into partitions (by module, then package batches), each recorded "
                                  "when done, so a killed pass resumes with the ones it had not finished")
    batch_size: int = Field(default=25, ge=1, le=500, description="classes per partition at most (each partition "
                            "pays its own JVM, baseline and PIT start-up: small batches resume finer, cost more)")
    workers: int = Field(default=1, ge=1, le=256, description="partitions generated at once (Dagster's "
                                                               "multiprocess executor; a Celery or Kubernetes "
                                                               "executor takes its own)")


_TRAILER = re.compile(r"^[A-Za-z][A-Za-z0-9-]*: \S.*$")


class ApiSettings(Record):
    """How the GitHub REST client retries and paces its calls."""

    retries: int = Field(default=4, ge=0, le=20, description="retries of a call that failed with 5xx or a rate limit")
    backoff_s: float = Field(default=1.0, ge=0, description="exponential backoff factor between retries, seconds")
    max_rate_limit_wait_s: float = Field(
        default=300.0, ge=0, description="longest wait for a rate limit to reset before the run gives up"
    )
    seconds_between_writes: float = Field(
        default=1.0, ge=0, description="pause between write calls, as GitHub asks of integrations"
    )
    timeout_s: int = Field(default=30, ge=1, description="timeout of one HTTP request")


class BotSettings(Record):
    """Every knob of the GitHub side; functions take it as a parameter, nothing reads it globally."""

    branch_pattern: str = Field(
        default="junitbot/{base}", description="the bot branch for a base branch; must contain {base}"
    )
    labels: tuple[str, ...] = Field(default=("junitbot",), description="labels put on the bot's pull requests")
    draft: bool = Field(default=False, description="open pull requests as drafts")
    max_open_pull_requests: int = Field(default=5, ge=1, description="no new bot pull request while this many are open")
    max_new_pull_requests_per_hour: int = Field(default=2, ge=1, description="new bot pull requests per hour")
    max_commands_per_pull_request_per_hour: int = Field(
        default=5, ge=1, description="regenerations one pull request may ask for per hour"
    )
    max_classes_per_command: int = Field(default=20, ge=1, description="class names one command may list")
    mode: Literal["pr", "commit"] = Field(
        default="pr", description="deliver tests as a bot pull request, or commit them onto the PR's own branch"
    )
    allow_commit_mode: bool = Field(default=False, description="allow mode commit (pushes onto people's branches)")
    allow_fork_prs: bool = Field(
        default=False,
        description="run for pull requests from forks; only ever in a job without a write token (split set-up)",
    )
    command_prefix: str = Field(default="/junitbot", pattern=r"^/[\w-]+$", description="what starts a command")
    command_permissions: tuple[str, ...] = Field(
        default=("admin", "maintain", "write"), description="collaborator permissions that may command the bot"
    )
    commit_trailer: str = Field(default="Generated-by: junitbot", description="trailer that marks the bot's commits")
    commit_author_name: str = Field(default="junitbot", description="author and committer name of bot commits")
    commit_author_email: str = Field(
        default="junitbot@users.noreply.github.com", description="author and committer email of bot commits"
    )
    bot_login: str = Field(
        default="github-actions[bot]", description="the login the token acts as (an App: '<slug>[bot]')"
    )
    ignore_logins: tuple[str, ...] = Field(
        default=("dependabot[bot]", "renovate[bot]"), description="senders whose events never trigger the bot"
    )
    remote: str = Field(default="origin", description="git remote (name or URL) the bot pushes to")
    api: ApiSettings = Field(default_factory=ApiSettings)

    @field_validator("branch_pattern")
    @classmethod
    def _has_base(cls, value: str) -> str:
        if "{base}" not in value or value.startswith("{base}"):
            raise ValueError("must contain {base} after a fixed prefix, e.g. 'junitbot/{base}'")
        if any(part in value for part in ("..", " ", "~", "^", ":", "\\")):
            raise ValueError("not a valid git branch name")
        return value

    @field_validator("commit_trailer")
    @classmethod
    def _is_trailer(cls, value: str) -> str:
        if not _TRAILER.match(value):
            raise ValueError("must read 'Key: value', e.g. 'Generated-by: junitbot'")
        return value

    def bot_branch(self, base: str) -> str:
        """`junitbot/{base}` for a base branch."""
        return self.branch_pattern.replace("{base}", base)

    def is_bot_branch(self, branch: str) -> bool:
        """A branch the bot itself pushes (any base)."""
        prefix, _, suffix = self.branch_pattern.partition("{base}")
        return branch.startswith(prefix) and branch.endswith(suffix) and len(branch) > len(prefix) + len(suffix)

    def ignored_logins(self) -> frozenset[str]:
        """Senders the bot never reacts to: other bots and itself."""
        return frozenset(login.lower() for login in (*self.ignore_logins, self.bot_login))


class JunitbotConfig(Record):
    """Every setting junitbot reads; unknown keys are errors so typos never pass silently."""

    include: tuple[str, ...] = Field(
        default=(), description="repo-relative globs of sources that get tests (empty: all main sources)"
    )
    exclude: tuple[str, ...] = Field(default=(), description="repo-relative globs of sources that never get tests")
    ignore: tuple[str, ...] = Field(
        default=(), description="repo-relative globs never analysed, on top of build output (target/, build/, .gradle/)"
    )
    state_dir: Path | None = Field(
        default=None, description="where the graph and index live (default <repo>/.junitbot)"
    )
    max_file_bytes: int = Field(default=1_000_000, gt=0, description="larger .java files are skipped and reported")
    layers: tuple[LayerRule, ...] = Field(default=DEFAULT_LAYERS, description="DDD layer rules, first match wins")
    impact_depth: int = Field(default=3, ge=1, le=50, description="how many dependency hops impact analysis follows")
    validation: ValidationSettings = Field(default_factory=ValidationSettings)
    generation: GenerationSettings = Field(default_factory=GenerationSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    schedule: ScheduleSettings = Field(default_factory=ScheduleSettings)
    full_pass: FullPassSettings = Field(default_factory=FullPassSettings)
    bot: BotSettings = Field(default_factory=BotSettings)

    @field_validator("include", "exclude", "ignore", mode="before")
    @classmethod
    def _one_glob_is_a_list(cls, value: object) -> object:
        return (value,) if isinstance(value, str) else value

    def analysis_fingerprint(self) -> str:
        """The settings that change what the graph holds; a change means a full rebuild."""
        return json.dumps(
            {
                "ignore": list(self.ignore),
                "max_file_bytes": self.max_file_bytes,
                "layers": [rule.model_dump(mode="json") for rule in self.layers],
            },
            sort_keys=True,
        )


def load_config(
    repo: Path,
    *,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    config_file: Path | None = None,
) -> JunitbotConfig:
    """Read `.junitbot.yml` (or `config_file`), then `JUNITBOT_*` variables, then `overrides`; later wins.

    Each layer is deep-merged into the one before, so `JUNITBOT_GENERATION='{"backend": "openai"}'` keeps the
    file's other `generation` keys. `overrides` maps dotted keys to values (`{"generation.backend": "openai"}`;
    None leaves a key alone) and comes from command-line flags, which errors name. A `config_file` that is
    named must exist.
    """
    if config_file is not None:
        config_file = config_file if config_file.is_absolute() else repo / config_file
        if not config_file.is_file():
            raise ConfigError(f"config file {config_file} does not exist")
    else:
        config_file = repo / CONFIG_FILE
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}
    if config_file.is_file():
        _merge_layer(values, origin, _read_yaml(config_file), str(config_file))
    for key, value in _read_environ(os.environ if environ is None else environ).items():
        _merge_layer(values, origin, {key: value}, f"environment variable {ENV_PREFIX}{key.upper()}")
    for dotted, value in (overrides or {}).items():
        if value is not None:
            _merge_layer(values, origin, _nest(dotted, value), flag_name(dotted))
    try:
        config = JunitbotConfig.model_validate(values)
    except ValidationError as e:
        raise ConfigError(_describe(e, origin)) from e
    if config.state_dir is not None and not config.state_dir.is_absolute():
        config = config.model_copy(update={"state_dir": repo / config.state_dir})
    return config


def flag_name(dotted: str) -> str:
    """How an override is named in errors: `generation.backend` → `command-line flag --backend`."""
    return f"command-line flag --{dotted.rsplit('.', 1)[-1].replace('_', '-')}"


def config_json(config: JunitbotConfig) -> str:
    """The effective configuration as JSON, secrets left out, for handing to another process or a resource."""
    return config.model_dump_json(exclude={"generation": {"llm": {"openai_api_key"}}})


def _nest(dotted: str, value: object) -> dict[str, object]:
    """`a.b.c`, v → {"a": {"b": {"c": v}}}."""
    parts = dotted.split(".")
    nested: dict[str, object] = {parts[-1]: value}
    for part in reversed(parts[:-1]):
        nested = {part: nested}
    return nested


def _merge_layer(values: dict[str, Any], origin: dict[str, str], layer: Mapping[str, Any], source: str,
                 prefix: str = "") -> None:
    """Deep-merge `layer` into `values`, recording `source` as the origin of every key path it sets."""
    for key, value in layer.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and isinstance(values.get(key), Mapping):
            merged = dict(values[key])
            _merge_layer(merged, origin, value, source, prefix=f"{path}.")
            values[key] = merged
        else:
            values[key] = value
            origin[path] = source
            for known in [k for k in origin if k.startswith(f"{path}.")]:
                del origin[known]


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not valid YAML: {e}") from e
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of keys to values, got {type(data).__name__}")
    return {str(key): value for key, value in data.items()}


def _read_environ(environ: Mapping[str, str]) -> dict[str, Any]:
    """`JUNITBOT_KEY=value`; lists as JSON or comma-separated, nested values as JSON."""
    values: dict[str, Any] = {}
    for name, raw in environ.items():
        if not name.startswith(ENV_PREFIX) or name in NOT_CONFIG:
            continue
        key = name[len(ENV_PREFIX):].lower()
        field = JunitbotConfig.model_fields.get(key)
        if field is not None and "tuple" in str(field.annotation) and not raw.lstrip().startswith("["):
            values[key] = [part.strip() for part in raw.split(",") if part.strip()]
        elif raw.lstrip().startswith(("[", "{")):
            try:
                values[key] = json.loads(raw)
            except json.JSONDecodeError as e:
                raise ConfigError(f"environment variable {name}: not valid JSON: {e}") from e
        else:
            values[key] = raw
    return values


def _describe(error: ValidationError, origin: Mapping[str, str]) -> str:
    lines = []
    for item in error.errors():
        parts = [str(part) for part in item["loc"]]
        path = ".".join(parts) or "?"
        # The longest key path a layer set that contains the failing key says where the value came from.
        where = next((origin[".".join(parts[:n])] for n in range(len(parts), 0, -1)
                      if ".".join(parts[:n]) in origin), "defaults")
        message = "unknown key" if item["type"] == "extra_forbidden" else item["msg"]
        lines.append(f"key {path!r} ({where}): {message}")
    return "invalid configuration:\n  " + "\n  ".join(lines)
