// PLACEHOLDER (replaced by the scrapers work).
import { defineRoutes } from '../http/route.ts';
export function scrapersRoutes() {
  return defineRoutes([]);
}
