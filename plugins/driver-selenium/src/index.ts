// @gleaner/driver-selenium: Chromium through selenium-webdriver (a local chromedriver or a Selenium
// Grid). One factory, registered explicitly: createEngine({ drivers: [createSeleniumDriver({ config })] }).
export { createSeleniumDriver, SELENIUM_DRIVER_NAME } from './driver.ts';
export type { SeleniumDriver, SeleniumDriverOptions } from './driver.ts';
export { CHROMIUM_FLAGS } from './launcher.ts';
export { fromConfig } from './from-config.ts';
