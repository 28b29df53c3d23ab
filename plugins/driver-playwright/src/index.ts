// @gleaner/driver-playwright: Chromium through playwright-core (the system browser, never a download,
// or a remote one). One factory, registered explicitly:
// createEngine({ drivers: [createPlaywrightDriver({ config })] }).
export { createPlaywrightDriver, PLAYWRIGHT_DRIVER_NAME } from './driver.ts';
export type { PlaywrightDriver, PlaywrightDriverOptions, PlaywrightDriverStats } from './driver.ts';
export { CHROMIUM_ARGS } from './launcher.ts';
export type { LaunchRecord } from './launcher.ts';
export { fromConfig } from './from-config.ts';
