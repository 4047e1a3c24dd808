# `make run`: set everything up and solve Leduc hold'em with CFR+ (the main job).
# `make test`: set everything up and run the test suite (two processes: pytest-xdist, a file per process).
# `make docs`: set everything up and build the documentation site into site/ (notebooks executed).
# Setting up ends with `zerosum warm-up`: Numba compiles the solvers' kernels for this machine once
# (about a minute on two cores) and caches them, so that the first solve starts at once.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[openspiel,test,dev,notebooks,docs,deep,ray,web]"
	$(BIN)/zerosum warm-up || echo "zerosum warm-up failed: the kernels compile on their first use instead"
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/zerosum solve leduc --algorithm cfr+ --iterations 1000

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 --durations=20

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 ZEROSUM_DOCS_EXECUTE=true $(BIN)/mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV)
