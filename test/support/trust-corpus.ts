// The benchmark corpus (news, product, listing, docs and forum pages and a 2 MB catalog) as a site
// a model reads, for the trust tests and the grounding benchmark: per page, the attributes asked
// and the records a faithful model answers (values as the page shows them, sometimes in another
// form: numbers as "$12.34", dates as ISO), plus one invented record per page whose values appear
// nowhere on it. The scripted model answers each chunk with the records it shows, and reports
// tokens counted with the o200k tokenizer on what it was sent, as an OpenAI model would.
import { countTokens } from '@gleaner/core/internal';
import { buildCorpus, type CorpusPage } from './corpus.ts';
import { sentSchema, userContent } from './stack.ts';
import type { ModelRequest as RecordedRequest } from '@gleaner/testing';

export interface TrustPage {
  page: CorpusPage;
  /** The page's URL made unique (two listings of one category share theirs): the base of /v1/parse. */
  url: string;
  attributes: Array<{ name: string; type: string; description?: string }>;
  /** What a faithful model answers (before coercion). */
  records: Array<Record<string, unknown>>;
  /** One record of values the page does not hold. */
  invented: Record<string, unknown>;
}

const LIST_ATTRS = [
  { name: 'name', type: 'string' },
  { name: 'price', type: 'number' },
  { name: 'url', type: 'string' },
  { name: 'image', type: 'image' },
];

function monthIso(date: string): string {
  const d = new Date(`${date} 12:00 UTC`);
  return d.toISOString().slice(0, 10);
}

export function trustPage(page: CorpusPage): Omit<TrustPage, 'url'> {
  const seed = page.name.replace(/\D+/g, '');
  if (page.kind === 'listing' || page.kind === 'big') {
    const records = [];
    for (let i = 0; i + 3 < page.facts.length; i += 4) {
      const [name, price, url, image] = page.facts.slice(i, i + 4);
      records.push({ name, price, url, image });
    }
    return {
      page,
      attributes: LIST_ATTRS,
      records,
      invented: {
        name: `Invented gadget zq-${seed}`,
        price: 98765.43,
        url: `https://shop.example.com/p/invented-zq-${seed}`,
        image: `https://cdn.example.com/c/invented-zq-${seed}.webp`,
      },
    };
  }
  if (page.kind === 'product') {
    const [name, price, old, sku, gtin, image, , spec, , reviewer, availability] = page.facts;
    return {
      page,
      attributes: [
        { name: 'name', type: 'string' },
        { name: 'price', type: 'number' },
        { name: 'old_price', type: 'number' },
        { name: 'sku', type: 'string' },
        { name: 'gtin', type: 'string' },
        { name: 'image', type: 'image' },
        { name: 'spec', type: 'string' },
        { name: 'reviewer', type: 'string' },
        { name: 'availability', type: 'string' },
        { name: 'verdict', type: 'string', description: 'a one-line summary of the reviews' },
      ],
      records: [{ name, price, old_price: Number(old.slice(1)), sku, gtin, image, spec, reviewer, availability, verdict: 'Customers like it overall' }],
      invented: { name: `Invented gadget zq-${seed}`, price: 98765.43, sku: `SKU-ZQ-${seed}`, gtin: '0000000000000', reviewer: 'Zaphod Quibble' },
    };
  }
  if (page.kind === 'news') {
    const [headline, author, date, stat, image, report, earlier, tag] = page.facts;
    return {
      page,
      attributes: [
        { name: 'headline', type: 'string' },
        { name: 'author', type: 'string' },
        { name: 'date', type: 'string' },
        { name: 'statistic', type: 'string' },
        { name: 'image', type: 'image' },
        { name: 'links', type: 'list' },
        { name: 'tag', type: 'string' },
      ],
      records: [{ headline, author, date: monthIso(date), statistic: stat, image, links: [report, earlier], tag }],
      invented: { headline: `Invented headline zq-${seed}`, author: 'Zaphod Quibble', statistic: '99.9 percent' },
    };
  }
  return {
    page,
    attributes: [{ name: 'fact', type: 'string' }],
    records: page.facts.map((fact) => ({ fact })),
    invented: { fact: `An invented fact zq-${seed}` },
  };
}

export function trustCorpus(): TrustPage[] {
  return buildCorpus().map((page) => ({ ...trustPage(page), url: `${page.url}#${page.name}` }));
}

/** The first value of a record: a chunk answers the records whose first value it shows. */
const anchor = (r: Record<string, unknown>) => String(Object.values(r)[0]);

/**
 * A model reading the corpus pages (by the "Page URL:" of its input): each chunk answers the records
 * it shows; with `invent`, the first chunk adds the page's invented record.
 */
export function corpusModel(pages: TrustPage[], opts: { invent: boolean }) {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  return (req: RecordedRequest) => {
    const input = userContent(req);
    const url = /Page URL: (\S+)/.exec(input)?.[1] ?? '';
    const tp = byUrl.get(url);
    const first = !/\(part (\d+) of/.exec(input) || /\(part 1 of/.test(input);
    const records = tp ? tp.records.filter((r) => input.includes(anchor(r))) : [];
    if (tp && opts.invent && first) records.push(tp.invented);
    const json = { records };
    const system = (req.body.messages as Array<{ role: string; content: string }>).map((m) => m.content).join('\n');
    // As a real server counts: the messages and the response schema, plus a few tokens of framing per message.
    const inputTokens = countTokens(system) + countTokens(JSON.stringify(sentSchema(req) ?? {})) + 4 * req.body.messages.length;
    return { json, usage: { inputTokens, outputTokens: countTokens(JSON.stringify(json)) } };
  };
}
