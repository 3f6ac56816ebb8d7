# `make test` is the one command that runs every test: Go (vet, unit,
# protocol and golden tests), the Neovim/Vim tests in a real Neovim when one
# is installed, and the VS Code extension's tests when its packages are.
GO      ?= go
BIN     := $(CURDIR)/bin/lreview-lsp
NVIM    ?= $(firstword $(wildcard /opt/lreview-nvim/bin/nvim) $(shell command -v nvim 2>/dev/null))

.PHONY: test test-go test-vim test-vscode build bench clean

test: test-go test-vim test-vscode

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

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin editors/vscode/dist editors/vscode/out

# bench-peer (not in CI) times the server beside VS Code's JSON language
# server on a generated 8 MB review: the peer is installed from npm once
# into PEER_DIR, then both run through one harness in interleaved rounds.
PEER_VERSION := 4.10.0
PEER_DIR     ?= $(HOME)/.cache/lreview-bench-peer/$(PEER_VERSION)
PEER_BIN     := $(PEER_DIR)/node_modules/.bin/vscode-json-language-server

.PHONY: bench-peer
bench-peer: build
	@if [ ! -x "$(PEER_BIN)" ]; then \
		mkdir -p "$(PEER_DIR)" && \
		npm install --no-save --no-audit --no-fund --prefix "$(PEER_DIR)" vscode-langservers-extracted@$(PEER_VERSION); \
	fi
	$(GO) run ./internal/lsp/peerbench -ours "$(BIN)" -peer "$(PEER_BIN)"
