# `make demo` and `make test` set everything up on first use (scripts/setup.sh), then run.
EXAMPLE := examples/shop

.PHONY: demo test lint bench clean

.venv/.installed: pyproject.toml scripts/setup.sh
	bash scripts/setup.sh

demo: .venv/.installed
	.venv/bin/junitbot run --repo $(EXAMPLE) --full
	.venv/bin/junitbot impact --repo $(EXAMPLE) Money

test: .venv/.installed
	.venv/bin/python -m pytest -n 2 --dist loadgroup

lint: .venv/.installed
	.venv/bin/ruff check junitbot tests bench
	.venv/bin/mypy

bench: .venv/.installed
	.venv/bin/python bench/bench_graph.py
	.venv/bin/python bench/bench_validation.py
	.venv/bin/python bench/bench_generation.py
	.venv/bin/python bench/bench_retrieval.py
	.venv/bin/python bench/bench_dagster.py
	.venv/bin/python bench/bench_classpath.py

clean:
	rm -rf $(EXAMPLE)/.junitbot .pytest_cache
	find $(EXAMPLE) -name '*GeneratedTest.java' -delete
