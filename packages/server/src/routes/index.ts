import type { RouteDef } from '../http/route.ts';
import { systemRoutes } from './system.ts';
import { extractRoutes } from './extract.ts';
import { scrapersRoutes } from './scrapers.ts';
import { runsRoutes } from './runs.ts';
import { catalogRoutes } from './catalog.ts';
import { agentTaskRoutes } from './agent-tasks.ts';
import { agentScraperRoutes } from './agent-scrapers.ts';
import { historyRoutes } from './history.ts';
import { scheduleRoutes } from './schedules.ts';
import { costRoutes } from './cost.ts';
import { crawlRoutes } from './crawl.ts';
import { profileRoutes } from './profiles.ts';

/** Every route of the API listener. */
export function apiRoutes(): RouteDef[] {
  return [
    ...systemRoutes(),
    ...extractRoutes(),
    ...scrapersRoutes(),
    ...runsRoutes(),
    ...catalogRoutes(),
    ...agentTaskRoutes(),
    ...agentScraperRoutes(),
    ...historyRoutes(),
    ...scheduleRoutes(),
    ...costRoutes(),
    ...crawlRoutes(),
    ...profileRoutes(),
  ];
}
