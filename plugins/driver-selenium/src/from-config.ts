import type { Driver, PluginFromConfig } from '@gleaner/core/plugin';
import { createSeleniumDriver } from './driver.ts';

/** The driver as core's plugin table builds it (KNOWN_PLUGINS.driver.selenium); the browser starts on the first page that needs it. */
export const fromConfig: PluginFromConfig<Driver> = ({ config, logger }) => createSeleniumDriver({ config, logger });
