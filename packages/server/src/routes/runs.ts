// PLACEHOLDER (replaced by the runs work).
import { defineRoutes } from '../http/route.ts';
export function runsRoutes() {
  return defineRoutes([]);
}
