import { readFileSync } from 'node:fs';

/** This package's version (package.json, one directory up from src/ and from dist/ alike). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
