PYTHON ?= python3
# `make test` runs the suite on the newest NumPy 2; `make test NUMPY=1.26` on NumPy 1.26.x,
# in a virtual environment of its own (.venv-numpy1.26), so both stay installed side by side.
NUMPY ?=
ifeq ($(NUMPY),)
VENV := .venv
NUMPY_REQ :=
else
VENV := .venv-numpy$(NUMPY)
NUMPY_REQ := 'numpy==$(NUMPY).*'
endif
PY := $(VENV)/bin/python
# Small matrix products on a shared 2-core machine: one BLAS thread per process, or BLAS
# threads spin against each other (and against the other pytest worker) and get far slower.
ONE_BLAS_THREAD := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

.PHONY: demo test docs docs-test bench clean gpu-check test-gpu

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.demo-installed: $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[examples,plot]' $(NUMPY_REQ)
	touch $@

$(VENV)/.test-installed: $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[test,examples,plot,mpi]' $(NUMPY_REQ)
	touch $@

$(VENV)/.docs-installed: $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[docs,test,examples,plot]' $(NUMPY_REQ)
	touch $@

demo: $(VENV)/.demo-installed
	$(ONE_BLAS_THREAD) $(PY) examples/demo.py

test: $(VENV)/.test-installed
	$(PY) -c 'import numpy; print("NumPy", numpy.__version__)'
	$(ONE_BLAS_THREAD) $(PY) -m pytest -q -n 2 tests

docs: $(VENV)/.docs-installed
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict

docs-test: $(VENV)/.docs-installed
	$(ONE_BLAS_THREAD) $(PY) -m pytest -q tests/docs

bench: $(VENV)/.test-installed
	$(ONE_BLAS_THREAD) $(PY) benchmarks/run.py

# GPU (issue 33; docs/gpu.md): run on a machine with a GPU, CuPy and PyTorch, with the
# Python that has them (GPU_PYTHON), minichainer taken from this checkout. CI has no GPU and
# runs neither. `gpu-check` runs everything that needs a GPU in one go (<= 8 minutes) and
# prints one table last; `test-gpu` runs the GPU tests alone.
GPU_PYTHON ?= python3
CHAINER_MIRROR ?= /work/.mirror/chainer+chainer/repo
GPU_CHECK_ARGS ?=

build/chainer_examples/train_mnist.py:
	mkdir -p build/chainer_examples
	if [ -d $(CHAINER_MIRROR) ]; then git -C $(CHAINER_MIRROR) show \
	  HEAD:examples/mnist/train_mnist.py > $@.tmp && mv $@.tmp $@; \
	else echo "no Chainer mirror at $(CHAINER_MIRROR): Chainer's train_mnist.py is not run"; fi

gpu-check:
	-$(MAKE) --no-print-directory build/chainer_examples/train_mnist.py
	mkdir -p build/gpu_check
	PYTHONPATH=. $(GPU_PYTHON) benchmarks/gpu_check.py --out build/gpu_check \
	  --json build/gpu_check/results.json $(GPU_CHECK_ARGS)

test-gpu:
	MINICHAINER_TEST_REAL_CUPY=1 PYTHONPATH=. $(GPU_PYTHON) -m pytest -q -p no:cacheprovider \
	  tests -m gpu -k 'not cupy'; rc1=$$?; \
	MINICHAINER_TEST_REAL_CUPY=1 PYTHONPATH=. $(GPU_PYTHON) -m pytest -q -p no:cacheprovider \
	  tests -k cupy; rc2=$$?; \
	[ $$rc1 -eq 0 -o $$rc1 -eq 5 ] && [ $$rc2 -eq 0 -o $$rc2 -eq 5 ]

clean:
	rm -rf .venv .venv-numpy* result site build *.egg-info
