// @gleaner/core public API. Plugins import only from here.
export * from './errors.ts';
export * from './config/index.ts';
export * from './log.ts';
