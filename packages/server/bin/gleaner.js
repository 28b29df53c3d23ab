#!/usr/bin/env node
// npm bin shim: Gleaner's TypeScript runs on Node >= 22.12 (type stripping).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`gleaner: Node ${process.versions.node} is too old; Gleaner needs Node >= 22.12. Run 'make setup' and use ./bin/gleaner from the repository, which picks the Node it installs.`);
  process.exit(1);
}
await import('../src/cli.ts');
