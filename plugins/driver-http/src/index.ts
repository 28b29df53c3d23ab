// @gleaner/driver-http: plain HTTP fetch over undici (no JavaScript). One factory, registered explicitly:
// createEngine({ drivers: [createHttpDriver({ config })] }).
export { createHttpDriver, HTTP_DRIVER_NAME } from './driver.ts';
export type { HttpDriverOptions } from './driver.ts';
export { fromConfig } from './from-config.ts';
