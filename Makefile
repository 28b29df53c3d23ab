# Every target runs on Node >= 22.12: the machine's node when it is new enough, else the one that
# scripts/ensure-node.sh installs from the npm registry under .tools/node.
SHELL := /bin/bash
NODE_BIN := $(shell ./scripts/ensure-node.sh)
export PATH := $(NODE_BIN):$(PATH)
ifneq ($(wildcard $(NODE_BIN)/../include/node),)
export npm_config_nodedir := $(abspath $(NODE_BIN)/..)
endif

.PHONY: setup start test lint bench migrate

setup:
	./scripts/setup-system.sh
	if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
	node scripts/build-console.ts
	node --version

start:
	node packages/server/src/cli.ts serve

migrate:
	node packages/server/src/cli.ts migrate

lint:
	npx tsc -p tsconfig.json
	node scripts/check-imports.ts

test: lint
	npx mocha

bench:
	node test/bench/run.ts
