# Two entry points for people (README quick start) and CI: `make demo`, `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint setup clean

setup: $(STAMP)

# torch is pinned to the release that this machine (and CI) keeps on local disk.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.14.1 torchvision==0.29.1
	$(BIN)/pip install -q -e '.[train,dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/belote demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy engine vision device

clean:
	rm -rf $(VENV)
