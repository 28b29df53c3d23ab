import type { Driver, PluginFromConfig } from '@gleaner/core/plugin';
import { createHttpDriver } from './driver.ts';

/** The driver as core's plugin table builds it (KNOWN_PLUGINS.driver.http). */
export const fromConfig: PluginFromConfig<Driver> = ({ config, logger }) => createHttpDriver({ config, logger });
