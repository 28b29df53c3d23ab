// Loaded by mocha (package.json "mocha", which `mocha --no-config` still reads). Tests run the
// packages' TypeScript sources: the `gleaner-source` export condition, set for the test process by
// the node-option beside it. This passes the condition on to the processes tests spawn (the CLI,
// workers), so they run the same sources instead of dist/.
const flag = '--conditions=gleaner-source';
if (!(process.env.NODE_OPTIONS ?? '').includes(flag)) process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${flag}`.trim();
