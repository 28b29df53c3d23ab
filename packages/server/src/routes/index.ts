import type { RouteDef } from '../http/route.ts';
import { systemRoutes } from './system.ts';

/** Every route of the API listener. */
export function apiRoutes(): RouteDef[] {
  const routes: RouteDef[] = [];
  routes.push(...systemRoutes(() => routes));
  return routes;
}
