/**
 * Standard (and precision) extraction: the model reads the reduced page, in chunks when it is long,
 * and answers records under a JSON Schema built from the attributes; answers are coerced to each
 * attribute's type and merged across chunks.
 */
import { absoluteLinks, reducePage, chunkText, countTokens, type ReducedPage } from '../page/index.ts';
import { RECORDS_ACCEPT_SCHEMA, coerceRecord, mergeRecords, recordsJsonSchema, type Attribute, type ExtractedRecord } from '../records/attributes.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { type ModelUsage, emptyUsage, addUsage } from '../usage.ts';

const SYSTEM = [
  "You extract structured data from one web page, given as compact markdown (links as [text](url), images as ![alt](src), tables as tables) followed by the page's JSON-LD, microdata and meta data.",
  'Answer only with JSON matching the schema: {"records": [...]}, one record per item the user asks for, in the order they appear on the page.',
  "Copy values from the page; never invent them. Use null for a value the page does not give. Give URLs exactly as they appear: links and images on the page's own site are written from the site's root (/path), others in full.",
  'If the page holds a list of items (products, articles, rows), return one record per item; if it describes one thing, return one record.',
].join('\n');

function describe(attributes: Attribute[]): string {
  if (!attributes.length) return '';
  return `Attributes to extract for each record:\n${attributes.map((a) => `- ${a.name} (${a.type})${a.description ? `: ${a.description}` : ''}`).join('\n')}`;
}

/** Tokens of page text per call: what the model's context leaves after the prompt and the answer. */
export async function chunkBudget(ctx: OperationContext, overheadTokens: number): Promise<number> {
  if (ctx.config.extract.chunkTokens > 0) return ctx.config.extract.chunkTokens;
  const spec = await ctx.modelSpec();
  const window = ctx.config.llm.contextWindow || spec?.context_window || 8192;
  const answerReserve = Math.min(spec?.max_output_tokens ?? 4096, Math.floor(window / 4));
  return Math.max(256, window - answerReserve - overheadTokens - 64);
}

export interface ModelExtraction {
  records: ExtractedRecord[];
  usage: ModelUsage;
  chunks: number;
  /** Chunks not read because of extract.maxChunks. */
  skippedChunks: number;
  /** The reduced page the model read (its text is what the grounding check searches). */
  page: ReducedPage;
}

/** What standard extraction sends for one page: the system prompt, schema, instructions and the page's chunks. */
async function modelRequests(ctx: OperationContext, reduced: ReducedPage, attributes: Attribute[], prompt: string) {
  const schema = recordsJsonSchema(attributes);
  const instructions = [describe(attributes), prompt ? `Instructions: ${prompt}` : ''].filter(Boolean).join('\n\n');
  const overhead = countTokens(SYSTEM) + countTokens(JSON.stringify(schema)) + countTokens(instructions) + 100;
  const all = chunkText(reduced.text, await chunkBudget(ctx, overhead));
  const chunks = all.slice(0, ctx.config.extract.maxChunks);
  const userMessage = (chunk: string, i: number, url: string) => {
    const part = chunks.length > 1 ? ` (part ${i + 1} of ${chunks.length}; extract only what this part shows)` : '';
    return `${instructions}\n\nPage URL: ${url}${part}\n\n---\n${chunk}\n---`;
  };
  return { schema, chunks, skipped: all.length - chunks.length, userMessage };
}

/** Tokens of a chat request's framing (roles, separators) beyond its texts, per message. */
const MESSAGE_OVERHEAD = 4;

/**
 * What standard extraction of one page would cost, without calling the model: the calls (one per
 * chunk), their input tokens counted on the exact texts that would be sent (system prompt, schema,
 * page chunk), and an output guess (records of the attributes' size for the items the page seems to
 * list). Used by dry runs and budgets.
 */
export async function estimateModelPage(
  ctx: OperationContext,
  input: { html: string; url: string; attributes: Attribute[]; prompt: string; precision: boolean },
): Promise<ModelUsage & { reducedTokens: number }> {
  const reduced = reducePage(input.html, { url: input.url, mode: input.precision ? 'precision' : 'standard' });
  if (!reduced.text.trim()) return { modelCalls: 0, inputTokens: 0, outputTokens: 0, reducedTokens: 0 };
  const req = await modelRequests(ctx, reduced, input.attributes, input.prompt);
  const fixed = countTokens(SYSTEM) + countTokens(JSON.stringify(req.schema)) + 2 * MESSAGE_OVERHEAD;
  let inputTokens = 0;
  for (let i = 0; i < req.chunks.length; i++) inputTokens += fixed + countTokens(req.userMessage(req.chunks[i], i, input.url));
  return {
    modelCalls: req.chunks.length,
    inputTokens,
    outputTokens: estimateOutput(reduced.text, input.attributes, req.chunks.length),
    reducedTokens: countTokens(reduced.text),
  };
}

/**
 * A guess at the answer's size: one record per list item when the page lists three or more (a
 * listing), else one record; about 11 tokens per attribute and the JSON around it. Tables are not
 * counted: on most pages they hold a record's details, not records.
 */
export function estimateOutput(text: string, attributes: Attribute[], calls: number): number {
  let listItems = 0;
  for (const line of text.split('\n')) if (/^\s*[-*] /.test(line)) listItems++;
  const items = listItems >= 3 ? listItems : 1;
  const perRecord = attributes.length ? 4 + attributes.length * 11 : 40;
  return calls * 10 + items * perRecord;
}

export async function extractWithModel(
  ctx: OperationContext,
  input: { html: string; url: string; attributes: Attribute[]; prompt: string; precision: boolean; signal?: AbortSignal; asShown?: boolean },
): Promise<ModelExtraction> {
  const model = requireModel(ctx);
  const reduced = reducePage(input.html, { url: input.url, mode: input.precision ? 'precision' : 'standard', asShown: input.asShown });
  const usage = emptyUsage();
  if (!reduced.text.trim()) return { records: [], usage, chunks: 0, skippedChunks: 0, page: reduced };
  const { schema, chunks, skipped, userMessage } = await modelRequests(ctx, reduced, input.attributes, input.prompt);
  const results = await Promise.all(
    chunks.map(async (chunk, i) => {
      const res = await model.generateJson<{ records: unknown[] }>({
        system: SYSTEM,
        messages: [{ role: 'user', content: userMessage(chunk, i, input.url) }],
        jsonSchema: { name: 'records', schema, acceptSchema: RECORDS_ACCEPT_SCHEMA },
        temperature: 0,
        signal: input.signal,
      });
      addUsage(usage, res.usage);
      // Site-relative link targets the model copied are made absolute again (reducePage writes them from the root).
      return (res.json.records ?? []).map((r) => coerceRecord(absoluteLinks(r, reduced.text, input.url), input.attributes, input.url));
    }),
  );
  return { records: mergeRecords(results), usage, chunks: chunks.length, skippedChunks: skipped, page: reduced };
}
