PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: demo test bench docs clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.demo-installed: $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[examples,plot]'
	touch $@

$(VENV)/.test-installed: $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[test,examples,plot]'
	touch $@

demo: $(VENV)/.demo-installed
	$(PY) examples/demo.py

# Two pytest workers on two cores: one BLAS thread each, or BLAS threads spin against
# each other and small matrix products get a hundred times slower.
test: $(VENV)/.test-installed
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 $(PY) -m pytest -q -n 2 tests

bench: $(VENV)/.test-installed
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) result build *.egg-info
