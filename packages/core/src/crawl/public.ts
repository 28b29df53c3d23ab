// What @gleaner/core exports of maps, crawls and politeness (the engine's operations take these).
export { CRAWL_BODY, type CrawlOperations, type CrawlRequest, type CrawlStatusBody } from './crawls.ts';
export { MAP_BODY, type MapRequest, type MapResult, type MappedUrl } from './map.ts';
export { POLITENESS_REQUEST_SCHEMA, type OwnerPoliteness } from '../politeness/policy.ts';
