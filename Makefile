# `make test` is the one command that runs every test: Go (vet, unit,
# protocol and golden tests), the Neovim/Vim tests in a real Neovim when one
# is installed, and the VS Code extension's tests when its packages are.
GO      ?= go
BIN     := $(CURDIR)/bin/lreview-lsp
NVIM    ?= $(firstword $(wildcard /opt/lreview-nvim/bin/nvim) $(shell command -v nvim 2>/dev/null))

.PHONY: test test-go test-vim test-vscode build bench clean

test: test-go test-vim test-vscode test-vscode-e2e

build:
	$(GO) build -o $(BIN) ./cmd/lreview-lsp

test-go:
	$(GO) vet ./...
	$(GO) test ./...

test-vim: build
	@if [ -n "$(NVIM)" ]; then \
		NVIM="$(NVIM)" LREVIEW_LSP="$(BIN)" bash editors/vim/test/run.sh; \
	else \
		echo "vim tests skipped: no Neovim (install it with: sh ../shared/tools/install-nvim)"; \
	fi

test-vscode: build
	@if [ -d editors/vscode/node_modules ]; then \
		cd editors/vscode && LREVIEW_LSP="$(BIN)" npm test; \
	else \
		echo "vscode tests skipped: run 'npm ci' in editors/vscode first"; \
	fi

# The extension in a real VS Code (code-server + headless Chromium from
# ../shared/tools/install-code-server, prefix $LREVIEW_CODE_SERVER or
# /opt/lreview-code-server). Skipped when missing, except when CI is set.
test-vscode-e2e: build
	@cs="$${LREVIEW_CODE_SERVER:-/opt/lreview-code-server}"; \
	if [ -f "$$cs/.ok" ] && [ -d editors/vscode/node_modules ]; then \
		cd editors/vscode && LREVIEW_LSP="$(BIN)" LREVIEW_CODE_SERVER="$$cs" npm run --silent test:e2e; \
	elif [ -n "$$CI" ]; then \
		echo "vscode e2e: no code-server in $$cs or no editors/vscode/node_modules; CI needs both (sh ../shared/tools/install-code-server; npm ci)"; exit 1; \
	else \
		echo "vscode e2e skipped: no code-server in $$cs (install it with: sh ../shared/tools/install-code-server) or no editors/vscode/node_modules (npm ci)"; \
	fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin editors/vscode/dist editors/vscode/out
