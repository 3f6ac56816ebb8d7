# `make test` is the one command that runs every test: Go (vet, unit,
# protocol and golden tests), the Neovim/Vim tests in every installed Neovim,
# the Helix and Emacs end-to-end tests when those editors are installed, and
# the VS Code extension's tests when its packages are. Under CI (CI set) a
# missing editor is a failure, not a skip.
GO      ?= go
BIN     := $(CURDIR)/bin/lreview-lsp
PREFIX  ?= $(HOME)/.local
# Several Neovims may be tested in one run: NVIMS="/a/nvim /b/nvim"; NVIM
# (one) is kept for compatibility.
NVIMS   ?= $(or $(NVIM),$(wildcard /opt/lreview-nvim/bin/nvim /opt/lreview-nvim-sid/bin/nvim),$(shell command -v nvim 2>/dev/null))
# HX and EMACS (the editor to test) are passed on as given: unset, the test
# scripts pick the default (/opt/lreview-helix/bin/hx, else hx or emacs on PATH).
# tree-sitter's JSON grammar (sh scripts/build-json-grammar): with it the Helix
# test checks the diff colours and the Emacs test runs on json-ts-mode too.
TS_JSON ?= $(wildcard /opt/lreview-tree-sitter-json/libtree-sitter-json.so)

.PHONY: test test-go test-vim test-helix test-emacs test-vscode test-vscode-e2e build install lint test-race bench clean

test: test-go test-vim test-helix test-emacs test-vscode test-vscode-e2e test-sarif test-mcp-client

# -buildvcs=auto stamps the commit (and Go, the version from the git tag
# or a pseudo-version) that `lreview-lsp version` prints, even where GOFLAGS
# says -buildvcs=false; outside a clone it stamps nothing and still builds.
VCS := -buildvcs=auto
# Built without cgo, as internal/dist builds the release: the binary the
# tests drive and bench-peer measures is the static one users run (a cgo
# build links libc only for the resolver, and maps 1.5 MB more).
GOBUILD := CGO_ENABLED=0 $(GO) build $(VCS)

build:
	$(GOBUILD) -o $(BIN) ./cmd/lreview-lsp

# Installs the binary as PREFIX/bin/lreview-lsp (default ~/.local/bin).
install:
	$(GOBUILD) -o $(DESTDIR)$(PREFIX)/bin/lreview-lsp ./cmd/lreview-lsp

# Tests that need reference data nobody here wrote (the LSP meta model,
# the forges' schemas: sh scripts/fetch-testdata, or ../shared beside the
# repository) skip without it and are named here in one line.
test-go:
	$(GO) vet ./...
	@skipped=$$(mktemp); \
	LREVIEW_SKIPPED=$$skipped $(GO) test ./...; status=$$?; \
	if [ -s $$skipped ]; then \
		echo "skipped for want of reference data (sh scripts/fetch-testdata): $$(cut -f1 $$skipped | sort -u | paste -sd ' ' -)"; \
	fi; \
	rm -f $$skipped; exit $$status

# The other systems the release is built for: each builds, and go vet
# checks the code, tests included, as that system sees it (file names,
# build tags). Tests that need Unix (FIFOs, file ownership, flock, another
# user's credentials) live in _unix_test.go files or carry a unix tag.
vet-cross:
	@set -e; for os in windows darwin; do \
		echo "=== GOOS=$$os"; \
		GOOS=$$os GOARCH=amd64 $(GO) build -o /dev/null ./...; \
	done
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...

# lint: go vet and staticcheck at a pinned release (run from the module
# proxy, so nothing is installed and every machine runs the same checks).
STATICCHECK_VERSION := v0.8.2
lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# test-race: the Go tests under the race detector, as .ci/run runs them.
# -short trims the randomised rounds and skips the 8 MB documents; RACE_SKIP
# names the tests of big inputs in one goroutine, where the detector has
# nothing to find and costs minutes. `make test` runs them all without it.
RACE_SKIP := ^(TestDiffLarge|TestMapperLongLines|TestFastColumnsMatchReference|TestMapperEditedMatchesNewMapper)$$
test-race:
	$(GO) test -race -short -skip '$(RACE_SKIP)' ./...

test-vim: build
	@if [ -z "$(strip $(NVIMS))" ]; then \
		if [ -n "$$CI" ]; then echo "vim tests: no Neovim under CI (sh scripts/install-nvim)" >&2; exit 1; fi; \
		echo "vim tests skipped: no Neovim (install it with: sh scripts/install-nvim)"; \
	fi
	@set -e; for nvim in $(NVIMS); do \
		echo "=== Neovim: $$nvim ($$($$nvim --version | head -n 1))"; \
		NVIM="$$nvim" LREVIEW_LSP="$(BIN)" bash editors/vim/test/run.sh; \
		NVIM="$$nvim" LREVIEW_LSP="$(BIN)" bash editors/vim/test/screen.sh; \
	done

test-helix: build
	@HX="$(HX)" TS_JSON="$(TS_JSON)" LREVIEW_LSP="$(BIN)" bash editors/helix/test/run.sh
	@HX="$(HX)" LREVIEW_LSP="$(BIN)" bash editors/helix/test/sources.sh

test-emacs: build
	@EMACS="$(EMACS)" TS_JSON="$(TS_JSON)" LREVIEW_LSP="$(BIN)" bash editors/emacs/test/run.sh

test-vscode: build
	@if [ -d editors/vscode/node_modules ]; then \
		cd editors/vscode && LREVIEW_LSP="$(BIN)" npm test; \
	else \
		echo "vscode tests skipped: run 'npm ci' in editors/vscode first"; \
	fi

# The extension in a real VS Code (code-server + headless Chromium from
# scripts/install-code-server, prefix $LREVIEW_CODE_SERVER or
# /opt/lreview-code-server). Skipped when missing, except when CI is set.
test-vscode-e2e: build
	@cs="$${LREVIEW_CODE_SERVER:-/opt/lreview-code-server}"; \
	if [ -f "$$cs/.ok" ] && [ -d editors/vscode/node_modules ]; then \
		cd editors/vscode && LREVIEW_LSP="$(BIN)" LREVIEW_CODE_SERVER="$$cs" npm run --silent test:e2e; \
	elif [ -n "$$CI" ]; then \
		echo "vscode e2e: no code-server in $$cs or no editors/vscode/node_modules; CI needs both (sh scripts/install-code-server; npm ci)"; exit 1; \
	else \
		echo "vscode e2e skipped: no code-server in $$cs (install it with: sh scripts/install-code-server) or no editors/vscode/node_modules (npm ci)"; \
	fi

# The SARIF of `check --format sarif` (examples, check's golden reviews, a
# failed read) validated by Microsoft's SARIF multitool, pinned in
# tools/sarif/package-lock.json (install: cd tools/sarif && npm ci): any
# error or warning fails. Skipped without it, except when CI is set.
.PHONY: test-sarif
test-sarif: build
	@if [ -d tools/sarif/node_modules/@microsoft/sarif-multitool ]; then \
		sh tools/sarif/validate.sh "$(BIN)"; \
	elif [ -n "$$CI" ]; then \
		echo "sarif tests: no tools/sarif/node_modules under CI (cd tools/sarif && npm ci --no-audit --no-fund)" >&2; exit 1; \
	else \
		echo "sarif tests skipped: run 'npm ci' in tools/sarif first"; \
	fi

# The agent's loop (`lreview-lsp mcp`) driven by a third-party client: the
# TypeScript MCP SDK's, pinned in tools/mcp-client/package-lock.json
# (install: cd tools/mcp-client && npm ci), which validates every
# structuredContent against its tool's outputSchema. Skipped without it,
# except when CI is set.
.PHONY: test-mcp-client
test-mcp-client: build
	@if [ -d tools/mcp-client/node_modules/@modelcontextprotocol/sdk ]; then \
		cd tools/mcp-client && LREVIEW_LSP="$(BIN)" npm test --silent; \
	elif [ -n "$$CI" ]; then \
		echo "mcp client tests: no tools/mcp-client/node_modules under CI (cd tools/mcp-client && npm ci --no-audit --no-fund)" >&2; exit 1; \
	else \
		echo "mcp client tests skipped: run 'npm ci' in tools/mcp-client first"; \
	fi

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf bin dist editors/vscode/dist editors/vscode/out

# dist: the release, in dist/ — lreview-lsp for linux, darwin and windows
# on amd64 and arm64, reproducible, their archives (.tar.gz, .zip for
# Windows) and checksums.txt, by a plain loop over `go build`
# (internal/dist); then the VS Code extension's platform packages, each
# carrying its binary, added to dist/ and checksums.txt (npm ci runs in
# editors/vscode first when its modules are missing, as in a fresh clone).
.PHONY: dist test-dist test-install test-vscode-install test-vim-install
dist:
	$(GO) run ./internal/dist -out dist
	@[ -d editors/vscode/node_modules ] || (cd editors/vscode && npm ci --no-audit --no-fund)
	cd editors/vscode && node scripts/package.mjs --dist ../../dist

# test-dist: the same bytes from two builds (scripts/check-dist): the
# release built again into another folder, compared with dist/; with
# DIST_COLD=1, linux/amd64 once more with an empty build cache too (over
# two minutes more, so CI leaves it out).
test-dist:
	@[ -f dist/checksums.txt ] || { echo "test-dist: run make dist first" >&2; exit 2; }
	@GO="$(GO)" DIST_COLD="$(DIST_COLD)" sh scripts/check-dist

# The two installs a new user makes, from what `make dist` built: the
# linux-x64 VS Code package into a code-server whose PATH has neither Go nor
# lreview-lsp, and the repository as a Neovim 0.12 plugin by vim.pack.add.
test-install: test-vscode-install test-vim-install
test-vscode-install:
	@cs="$${LREVIEW_CODE_SERVER:-/opt/lreview-code-server}"; \
	vsix=$$(ls dist/lreview-linux-x64-*.vsix 2>/dev/null | head -n 1); \
	if [ -z "$$vsix" ]; then echo "test-vscode-install: no dist/lreview-linux-x64-*.vsix: run make dist first" >&2; exit 2; fi; \
	if [ -f "$$cs/.ok" ]; then \
		cd editors/vscode && LREVIEW_CODE_SERVER="$$cs" node test/e2e/install.mjs --vsix "../../$$vsix"; \
	elif [ -n "$$CI" ]; then \
		echo "test-vscode-install: no code-server in $$cs under CI (sh scripts/install-code-server)" >&2; exit 1; \
	else \
		echo "vscode install test skipped: no code-server in $$cs (sh scripts/install-code-server)"; \
	fi
test-vim-install: build
	@NVIM="$(or $(NVIM_NEW),/opt/lreview-nvim-sid/bin/nvim)" LREVIEW_LSP="$(BIN)" bash editors/vim/test/pack_install.sh

# bench-peer (not in CI) times the server beside VS Code's JSON language
# server on a generated 8 MB review: the peer is installed from npm once
# into PEER_DIR, then both run through one harness in interleaved rounds.
PEER_VERSION := 4.10.0
PEER_DIR     ?= $(HOME)/.cache/lreview-bench-peer/$(PEER_VERSION)
PEER_BIN     := $(PEER_DIR)/node_modules/.bin/vscode-json-language-server

# bench-track (not in CI) measures how comments follow the code (issue
# 45) on a copy of the Go distribution's source tree (GOROOT is only
# read): a 60-file change, a 400-comment review, typing, pastes,
# deletions and moves in the editor and on disk. It fails when a comment
# is published on a line that is not its own.
.PHONY: bench-track
bench-track: build
	$(GO) run ./internal/bench/trackbench -server "$(BIN)"

.PHONY: bench-peer
bench-peer: build
	@if [ ! -x "$(PEER_BIN)" ]; then \
		mkdir -p "$(PEER_DIR)" && \
		npm install --no-save --no-audit --no-fund --prefix "$(PEER_DIR)" vscode-langservers-extracted@$(PEER_VERSION); \
	fi
	$(GO) run ./internal/bench/peerbench -ours "$(BIN)" -peer "$(PEER_BIN)"
