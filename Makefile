# `make test` and `make demo` each create .venv when missing and install what they need.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python

# A Python with TensorFlow, pytest and NumPy installed; the parity tests skip without TF.
PARITY_PYTHON ?= $(PYTHON)

.PHONY: test demo check bench parity fuzz sonnet keras clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.test-installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test]'
	touch $@

$(VENV)/.bench-installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[test,bench]'
	touch $@

$(VENV)/.demo-installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e '.[demo]'
	touch $@

test: $(VENV)/.test-installed
	$(PY) -m pytest -q src tests

# The fuzzers with many more examples, random each run (`make test` runs a fixed, short
# profile of them); failures are kept in .hypothesis/ and shrunk to a minimal case.
fuzz: $(VENV)/.test-installed
	TAPEFLOW_FUZZ=fuzz-long $(PY) -m pytest -q --hypothesis-show-statistics tests/fuzz

demo: $(VENV)/.demo-installed
	$(PY) -m tapeflow demo

check: $(VENV)/.test-installed
	$(PY) -m tapeflow check

parity:
	PYTHONPATH=src $(PARITY_PYTHON) -m pytest -q -p no:cacheprovider -m parity tests/parity

# Sonnet 2.0.2's own test suite, unmodified, with tapeflow as TensorFlow: the share of the
# tests that pass on TensorFlow 2.21 (suites/sonnet_tf_passed.txt) and the top failure causes.
sonnet: $(VENV)/.test-installed
	$(PY) suites/run.py sonnet

# Keras 3.15's own tests (a fixed subset: suites/run.py), unmodified, KERAS_BACKEND=tensorflow
# with tapeflow as TensorFlow: the share of the tests that pass on TensorFlow 2.21
# (suites/keras_tf_passed.txt) and the top failure causes.
keras: $(VENV)/.test-installed
	$(PY) suites/run.py keras

bench: $(VENV)/.bench-installed
	$(PY) -m tapeflow bench

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache
