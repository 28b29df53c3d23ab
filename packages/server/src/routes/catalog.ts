// PLACEHOLDER (replaced by the catalog work).
import { defineRoutes } from '../http/route.ts';
export function catalogRoutes() {
  return defineRoutes([]);
}
