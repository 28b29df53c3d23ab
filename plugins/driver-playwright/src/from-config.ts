import type { Driver, PluginFromConfig } from '@gleaner/core/plugin';
import { createPlaywrightDriver } from './driver.ts';

/** The driver as core's plugin table builds it (KNOWN_PLUGINS.driver.playwright); the browser starts on the first page that needs it. */
export const fromConfig: PluginFromConfig<Driver> = ({ config, logger }) => createPlaywrightDriver({ config, logger });
