import type { RouteDef } from '../http/route.ts';
import { systemRoutes } from './system.ts';
import { extractRoutes } from './extract.ts';

/** Every route of the API listener. */
export function apiRoutes(): RouteDef[] {
  return [...systemRoutes(), ...extractRoutes()];
}
