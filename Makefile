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

test: $(VENV)/.test-installed
	$(PY) -m pytest -q -n 2 tests

bench: $(VENV)/.test-installed
	$(PY) benchmarks/run.py

clean:
	rm -rf $(VENV) result build *.egg-info
