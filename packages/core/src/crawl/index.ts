// Maps and crawls (Gleaner extensions): a site's URLs, and a classic scraper run over them.
export { MAP_BODY, MAX_MAP_LIMIT, mapSite, normalizeUrl, parseSitemap, type MapRequest, type MapResult, type MappedUrl, type MapSource } from './map.ts';
export { CRAWL_BODY, CRAWL_JOB, crawlJob, crawlOperations, type CrawlOperations, type CrawlRequest, type CrawlStatus, type CrawlStatusBody } from './crawls.ts';
