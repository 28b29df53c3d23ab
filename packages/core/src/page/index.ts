// Page reduction (what the model reads), the markdown endpoint's conversion, token counting and chunking.
export { absoluteLinks, reducePage, siteRelativeUrl, type ReducedPage, type ReduceMode, type ReduceOptions } from './reduce.ts';
export { htmlToMarkdown, type MarkdownOptions } from './markdown.ts';
export { countTokens } from './tokens.ts';
export { chunkText, type ChunkOptions } from './chunk.ts';
