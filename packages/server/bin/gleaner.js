#!/usr/bin/env node
// npm bin shim: runs the built CLI (dist/) on Node >= 22.12.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`gleaner: Node ${process.versions.node} is too old; Gleaner needs Node >= 22.12.`);
  process.exit(1);
}
await import('../dist/cli.js');
