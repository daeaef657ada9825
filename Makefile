# make test is the one command that checks everything: formatting, vet,
# staticcheck and every test with the race detector. It installs what the
# tests need (redis-server for the Redis store and Redis Cluster,
# clickhouse-server and clickhouse-client for the audit on ClickHouse
# shards, chromium for the browser tests, nginx, apache2, caddy and haproxy
# for the generated server configurations) with apt-get when they are
# missing; a test that cannot find them fails, it never skips.

# The robots.txt corpus (15 MB of third-party files) is not in the
# repository: tests read it from $REP_CORPUS, by default ../shared/corpus
# beside the checkout. Without it the tests that read it fail.
export REP_CORPUS ?= $(abspath $(CURDIR)/../shared/corpus)

GO           ?= go
GOBIN        := $(shell $(GO) env GOPATH)/bin
STATICCHECK  := $(GOBIN)/staticcheck
STATICCHECK_VERSION := v0.8.2
FUZZTIME     ?= 5000x
PYSPARK_VERSION := 4.3.0

.PHONY: test deps fmt-check tidy-check vet staticcheck unit stress fuzz bench bench-serve mutate

test: deps fmt-check tidy-check vet staticcheck unit fuzz

# deps installs the system packages the tests use, only when missing.
deps:
	@missing=""; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	for s in nginx apache2 caddy haproxy; do \
		command -v $$s >/dev/null 2>&1 || [ -x /usr/sbin/$$s ] || missing="$$missing $$s"; \
	done; \
	{ command -v clickhouse-server || test -x /usr/sbin/clickhouse-server; } >/dev/null 2>&1 || missing="$$missing clickhouse-server"; \
	command -v clickhouse-client >/dev/null 2>&1 || missing="$$missing clickhouse-client"; \
	command -v java >/dev/null 2>&1 || missing="$$missing default-jre-headless"; \
	python3 -m venv --help >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@# PySpark for the Spark local-mode test of contrib/spark, in its own
	@# virtual environment (never in rep's core).
	@contrib/spark/.venv/bin/python -c 'import pyspark' >/dev/null 2>&1 || { \
		echo "installing: pyspark $(PYSPARK_VERSION) into contrib/spark/.venv"; \
		python3 -m venv contrib/spark/.venv && \
		contrib/spark/.venv/bin/pip install -q pyspark==$(PYSPARK_VERSION); }

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# tidy-check fails when go.mod or go.sum differ from what go mod tidy
# writes (a dependency imported but marked indirect, a stale sum).
tidy-check:
	$(GO) mod tidy -diff

vet:
	$(GO) vet ./...
	if [ -f bench/go.mod ]; then cd bench && $(GO) vet ./...; fi

$(STATICCHECK):
	$(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./...

unit:
	$(GO) test -race -timeout 12m ./...
	# Tests that measure a rep process under load (memory, latency) run
	# alone, after the parallel run, on a machine nothing else loads.
	REP_SERIAL=1 $(GO) test -race -count=1 -timeout 5m -run '^(TestServeMemoryBound|TestServeLintLoad)$$' ./cmd/rep
	if [ -f bench/go.mod ]; then cd bench && $(GO) test -timeout 5m ./...; fi

# stress runs the unit tests STRESS_ROUNDS times (go test -race -count=1)
# on a loaded machine: STRESS_BUSY CPU-bound processes beside them, and
# the tests at GOMAXPROCS twice the core count. It prints every test that
# failed at least once, with its output each time, and fails if any did
# (internal/stress). A test that fails here fails by chance somewhere.
STRESS_ROUNDS ?= 5
STRESS_BUSY   ?= 2
STRESS_PKGS   ?= ./...
stress: deps
	$(GO) run ./internal/stress -rounds $(STRESS_ROUNDS) -busy $(STRESS_BUSY) $(STRESS_PKGS)

# fuzz runs every fuzz target for FUZZTIME each: briefly in make test (a
# count of inputs, so a loaded machine cannot turn the time limit into a
# spurious "context deadline exceeded"), for hours by hand
# (make fuzz FUZZTIME=4h). Crashers land in testdata/fuzz.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "== $$pkg $$f"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

# bench runs rep beside its peers (separate module, see BENCHMARKS.md).
bench:
	cd bench && $(GO) test -run '^$$' -bench . -benchmem -count 6 -timeout 3h ./...

# bench-serve measures rep serve's GET /api/allowed on a warm cache beside a
# bare net/http handler, with wrk (installed with apt-get when missing),
# memory and Redis stores; results in bench/results/<date>-serve/.
bench-serve:
	cd bench && ./serve.sh

# mutate runs mutation testing (internal/mutate) on the core packages: one
# small change to the source at a time, the package's tests run against it.
# Slow (hours on two cores), so not part of make test: run it before a
# release and after large changes, on some packages with
# make mutate MUTATE_PKGS="internal/netguard robotsmeta" MUTATE_SERVER=.
# It fails when a mutant lives that docs/mutation.md does not accept as
# equivalent; the report is left in MUTATE_REPORT.
MUTATE_PKGS ?= internal/netguard crawlers/identity robotsmeta robotsmeta/internal/htmlscan@robotsmeta robotsfetch audit robotstxt
MUTATE_REPORT ?= mutation-report.txt
MUTATE_FLAGS ?=
# The server's guard and limits are tested by the tests written for them:
# every server test reaches decodeBody, and the whole suite (chromium
# included) for each of its mutants would take hours.
MUTATE_SERVER ?= server/client.go server/limit.go server/json.go
MUTATE_SERVER_TESTS ?= ^(TestFleetNotLimited|TestClientLimit|TestOriginLimit|TestTrustedNetwork|TestLimiter[A-Za-z]*|TestAdmit|TestAdmitFetch|TestClientAddr|TestWarm[A-Za-z]*|TestBodyLimit|TestSizeText|TestPageRedirectLimit|TestFetchTimeouts|TestResponseHeaderCap|TestFetchHTTP2|TestFetchTarget|TestGuardLiteral|TestFetchErrorMessage|TestDecodeBody|TestWriteJSON|TestJSONKind|TestBadInput|TestCheckBadURLs|TestCrossOriginPostRefused)$$

mutate: deps
	@status=0; \
	if [ -n "$(MUTATE_PKGS)" ]; then \
		$(GO) run ./internal/mutate -o $(MUTATE_REPORT) $(MUTATE_FLAGS) $(MUTATE_PKGS) || status=1; \
	fi; \
	if [ -n "$(MUTATE_SERVER)" ]; then \
		$(GO) run ./internal/mutate -run '$(MUTATE_SERVER_TESTS)' -o server-$(MUTATE_REPORT) $(MUTATE_FLAGS) $(MUTATE_SERVER) || status=1; \
	fi; \
	exit $$status
