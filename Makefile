# Every target runs on Node >= 22.19: the machine's node when it is new enough, else the one that
# scripts/ensure-node.sh installs from the npm registry under .tools/node.
SHELL := /bin/bash
NODE_BIN := $(shell ./scripts/ensure-node.sh)
export PATH := $(NODE_BIN):$(PATH)
ifneq ($(wildcard $(NODE_BIN)/../include/node),)
export npm_config_nodedir := $(abspath $(NODE_BIN)/..)
endif
# Run the packages' TypeScript sources (package.json `exports` condition), not their built dist/.
export NODE_OPTIONS := --conditions=gleaner-source

.PHONY: setup build pack start test lint format api-report bench migrate chaos eval

setup:
	./scripts/setup-system.sh
	if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
	node scripts/build-console.ts
	NODE_OPTIONS= node scripts/build.ts
	node --version

build:
	NODE_OPTIONS= node scripts/build.ts

# Every package as an npm tarball in dist/packages/ (what an embedder installs: docs/embedding.md).
pack:
	NODE_OPTIONS= node scripts/pack.ts

start:
	node packages/server/src/cli.ts serve

migrate:
	node packages/server/src/cli.ts migrate

lint:
	npx tsc -p tsconfig.json
	node scripts/check-imports.ts
	node scripts/api-report.ts --check
	npx prettier --check --log-level warn "**/*.ts"

# Rewrites packages/core/api/*.api.md, the checked-in report of @gleaner/core's and
# @gleaner/core/plugin's exports (`make lint` fails with a diff while they are out of date).
api-report:
	node scripts/api-report.ts

# Rewrites the TypeScript files to the formatter's style (.prettierrc.json; .prettierignore lists those not yet done).
format:
	npx prettier --write --log-level warn "**/*.ts"

test: lint
	npx mocha

bench:
	node test/bench/run.ts

# The chaos suite (issue 16): minutes long and CPU-heavy, so not part of `make test`. Figures are
# printed for the closing note; the assertions are about correctness, not timings.
chaos:
	npx mocha --no-config --extension ts --timeout 1800000 --exit 'test/chaos/*.chaos.ts'

# The evaluation on real pages (docs/benchmarks.md): `make eval CORPORA=<dir holding wcxb-dev/ and
# products-dev/>`. A benchmark, not a test: it asserts nothing and `make test` never runs it.
eval:
	@if [ -z "$(CORPORA)" ]; then echo "usage: make eval CORPORA=<dir>" >&2; exit 2; fi
	node test/eval/run.ts --corpora "$(CORPORA)" $(EVAL_ARGS)
