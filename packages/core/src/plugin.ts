// @gleaner/core/plugin — what a driver or model-provider plugin needs: the two interfaces, the plugin
// API version they declare, and the helpers that make every driver behave alike (the SSRF guard,
// cookies, content types, and for browsers the pool, the filtering proxy, the request check and the
// page scripts). Each name is listed on purpose; plugins import nothing else from core.

// The plugin API version a plugin declares (`apiVersion`); createEngine refuses another major.
export { PLUGIN_API_VERSION, checkPluginApiVersion } from './plugins/version.ts';
// What a plugin package exports as `fromConfig`, for core's table of known plugins (KNOWN_PLUGINS).
export type { PluginContext, PluginFromConfig } from './plugins/registry.ts';

// Errors and the options plugins read (configuration, logger).
export { ERROR_CODES, GleanerError, isGleanerError, toGleanerError } from './errors.ts';
export type { ErrorCode } from './errors.ts';
export { CONFIG_FIELDS } from './config/index.ts';
export type { GleanerConfig } from './config/index.ts';
export { createLogger, silentLogger } from './log.ts';
export type { Logger } from './log.ts';

// Drivers.
export { READ_LOCAL_STORAGE_SCRIPT, isInteractive, localStorageInitScript } from './plugins/driver.ts';
export type {
  ActionOptions,
  Driver,
  DriverCapabilities,
  DriverFactory,
  DriverOptions,
  DriverSession,
  DriverSessionOptions,
  DriverTimeouts,
  GotoOptions,
  InteractiveSession,
  LocalStorageState,
  OutlineElement,
  PageOutline,
  PageSnapshot,
  ScrollOptions,
  WaitForOptions,
} from './plugins/driver.ts';

// Model providers.
export { LlmProviderError, isLlmProviderError, retryAfterFromHeaders } from './plugins/llm.ts';
export type {
  LlmFinishReason,
  LlmJsonSchema,
  LlmJsonSchemaRequest,
  LlmMessage,
  LlmProvider,
  LlmProviderErrorKind,
  LlmProviderFactory,
  LlmRequest,
  LlmResult,
  LlmTool,
  LlmToolCall,
  LlmUsage,
  ModelSpec,
} from './plugins/llm.ts';
export { createModelClient } from './llm/call-model.ts';
export { parseModelJson } from './llm/json-output.ts';
export type { JsonParseOutcome } from './llm/json-output.ts';
export type { ModelClient, ModelClientOptions } from './llm/call-model.ts';

// The SSRF guard: every navigation and redirect hop, connecting only to the checked address.
export { createSsrfGuard, describeRange, isIpLiteral, parseAllowNetworks, unbracket } from './net/ssrf.ts';
export type { AddressVerdict, ResolvedAddress, Resolver, SsrfGuard, SsrfGuardOptions } from './net/ssrf.ts';

// Cookies.
export { buildCookieHeader, cookieMatches, defaultCookiePath, domainMatches, normalizeCookies, pathMatches } from './net/cookies.ts';
export type { Cookie, CookieInput, SameSite } from './net/cookies.ts';
export { CookieJar, parseSetCookie } from './net/cookie-jar.ts';

// What a response is: drivers accept and refuse the same content.
export { classifyMediaType, hasBom, parseContentType, sniffBinary } from './net/content-type.ts';
export type { ContentKind, MediaType } from './net/content-type.ts';

// Browser drivers: options, pool, filtering proxy, request check, page scripts.
export { CHROMIUM_BASE_FLAGS } from './browser/chromium-flags.ts';
export { charsetLabel, pickOption, readReserveMs, resolveBrowserOptions, settlesWithin, showsDocument } from './browser/driver-options.ts';
export type { BrowserDriver, BrowserDriverOptions, ResolvedBrowserOptions } from './browser/driver-options.ts';
export { abortable, createBrowserPool, killProcessGroup } from './browser/pool.ts';
export type { BrowserPool, BrowserPoolOptions, BrowserPoolStats, LaunchedBrowser, PageLease } from './browser/pool.ts';
export { FILTER_PROXY_BLOCKED_HEADER, FILTER_PROXY_ERROR_HEADER, startFilterProxy } from './net/filter-proxy.ts';
export type { BlockedRequest, FilterProxy, FilterProxyOptions } from './net/filter-proxy.ts';
export { literalAddressRegExp, literalAddressScope, literalAddressUrlPatterns, refusedRequest } from './browser/request-check.ts';
export type { LiteralAddressScope } from './browser/request-check.ts';
export {
  capOutline,
  clickPoint,
  documentCall,
  domSize,
  findRef,
  focusField,
  FRAME_SEPARATOR,
  isRef,
  OUTLINE_LIMITS,
  outlinePage,
  PAGE_SCRIPTS,
  changeRecorder,
  quietPage,
  refSelector,
  scriptCall,
  scrollPage,
  snapshotHtml,
  splitFrameSelector,
} from './browser/page-scripts.ts';
export type {
  ChangeRecorder,
  ClickPoint,
  OutlineScriptOptions,
  PageDocument,
  PageScriptName,
  QuietArgs,
  QuietResult,
  ScrollResult,
} from './browser/page-scripts.ts';
export { waitUntilQuiet } from './browser/quiet.ts';
export type { QuietWait } from './browser/quiet.ts';
