import { GleanerError } from '../errors.ts';

/**
 * The plugin API this core implements, `major.minor`. A plugin declares the version it was written
 * against (`apiVersion` on its Driver or LlmProvider); a minor adds optional members only, so a
 * plugin is compatible when its major equals core's and its minor is not newer than core's.
 *
 * - 1.1: `WaitForOptions.quietMs` and `afterChange` (wait for the page to change and be quiet),
 *   `GotoOptions.content` (navigate without reading the document).
 * - 1.2: `PageSnapshot.body` (the bytes the page was decoded from, as sent; the snapshot archive keeps them).
 * - 1.3: the page scripts `clickPoint` and `focusField` (`PAGE_SCRIPTS`, with `ClickPoint`): the fast
 *   paths of a click and of typing that the browser drivers share; `DriverSessionOptions.localStorage`
 *   and `DriverSession.localStorage()` (a profile's local storage, with `localStorageInitScript`).
 */
export const PLUGIN_API_VERSION = '1.3';

function parse(v: string): [number, number] | null {
  const m = /^(\d+)\.(\d+)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** Throws PLUGIN_INCOMPATIBLE naming both versions unless `plugin` can run on this core. */
export function checkPluginApiVersion(plugin: { readonly name: string; readonly apiVersion?: string }, kind: 'driver' | 'model provider'): void {
  const [major, minor] = parse(PLUGIN_API_VERSION)!;
  const declared = typeof plugin.apiVersion === 'string' ? parse(plugin.apiVersion) : null;
  if (declared && declared[0] === major && declared[1] <= minor) return;
  const says = plugin.apiVersion === undefined ? 'declares no plugin API version' : `implements plugin API ${String(plugin.apiVersion)}`;
  throw new GleanerError(
    'PLUGIN_INCOMPATIBLE',
    `${kind} "${plugin.name}" ${says}, but this @gleaner/core implements plugin API ${PLUGIN_API_VERSION} ` +
      `(compatible: ${major}.0 to ${PLUGIN_API_VERSION}); install a version of the plugin built for @gleaner/core's plugin API ${major}.x`,
  );
}

/** True when `plugin` declares plugin API `major.minor` or a later minor of the same major. */
export function pluginApiAtLeast(plugin: { readonly apiVersion?: string }, version: string): boolean {
  const want = parse(version);
  const has = typeof plugin.apiVersion === 'string' ? parse(plugin.apiVersion) : null;
  return Boolean(want && has && has[0] === want[0] && has[1] >= want[1]);
}
