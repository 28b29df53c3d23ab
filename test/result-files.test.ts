// Issue 23, item 10: results as files — GET /v1/scrapers/run_async/{run_id}?format=csv|jsonl and
// the same for agent tasks (and async extractions), streamed, with the source URL and status of
// every item, so a user does not need the console to get a spreadsheet.
import { expect } from 'chai';
import { insertScraper, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';

/** RFC 4180 CSV into rows of cells (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') (row.push(cell), (cell = ''));
    else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      ((row = []), (cell = ''), i++);
    } else cell += ch;
  }
  return rows;
}

const asObjects = (rows: string[][]) => rows.slice(1).map((r) => Object.fromEntries(rows[0].map((h, i) => [h, r[i]])));

describe('results as files (issue 23 item 10)', () => {
  let s: Stack;
  let owner: Owner;
  before(async () => {
    s = await startStack();
    owner = (await s.engine.authenticateApiKey(s.key))!;
    s.site.page('/shelf', '<ul><li><a href="/a">Plain</a><i>1</i></li><li><a href="/b">Has, comma "quoted"\nand a line</a><i>=SUM(1,2)</i></li></ul>');
    s.site.page('/empty', '<p>nothing here</p>');
  });
  after(() => s?.close());

  it('gives a run as CSV and JSON Lines: a row per record, one per URL without records, each with its source URL and status', async () => {
    const recipe = {
      version: 1,
      container: { selector: 'li' },
      fields: { name: { selector: 'a', read: 'text' }, url: { selector: 'a', read: 'attr', attr: 'href' }, note: { selector: 'i', read: 'text' } },
    } as const;
    const attributes = ['name', 'url', 'note'].map((name) => ({ name, type: 'string' as const, description: '' }));
    const id = await s.engine.db.tx((tx) => insertScraper(tx, { ownerId: owner.id, kind: 'extractor', url: `${s.site.url}/shelf`, attributes, recipe }));
    const urls = [`${s.site.url}/shelf`, `${s.site.url}/gone`, `${s.site.url}/empty`];
    const started = await s.api('POST', '/v1/scrapers/run_async', { template_id: id, url: urls });
    expect(started.status, started.text).to.equal(202);
    const runId = started.body.run_id;
    const status = await waitFor(
      async () => {
        const r = await s.api('GET', `/v1/scrapers/run_async/${runId}?format=json`);
        return ['completed', 'completed_partial', 'failed'].includes(r.body.status) ? r.body : undefined;
      },
      60_000,
      'the run',
    );
    expect(status.status).to.equal('completed_partial');

    const csv = await s.api('GET', `/v1/scrapers/run_async/${runId}?format=csv`);
    expect(csv.status).to.equal(200);
    expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).to.equal(`attachment; filename="run-${runId}.csv"`);
    const rows = parseCsv(csv.text);
    expect(rows[0]).to.deep.equal(['_source_url', '_status', '_error', 'name', 'url', 'note']);
    const objects = asObjects(rows);
    expect(objects.map((o) => [o._source_url, o._status])).to.deep.equal([
      [urls[0], 'completed'],
      [urls[0], 'completed'],
      [urls[1], 'failed'],
      [urls[2], 'completed'],
    ]);
    // The record's own `url` field keeps its column; text with commas, quotes and line breaks
    // survives; a cell a spreadsheet would run as a formula is quoted.
    expect(objects[0]).to.include({ name: 'Plain', url: `${s.site.url}/a`, note: '1', _error: '' });
    expect(objects[1]).to.include({ name: 'Has, comma "quoted" and a line', note: "'=SUM(1,2)" });
    expect(objects[2]._error).to.contain('404');
    expect(objects[3]).to.include({ name: '', _error: '' });

    const jsonl = await s.api('GET', `/v1/scrapers/run_async/${runId}?format=jsonl`);
    expect(jsonl.headers.get('content-type')).to.equal('application/x-ndjson; charset=utf-8');
    const lines = jsonl.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).to.have.length(4);
    expect(lines[1]).to.deep.equal({
      _source_url: urls[0],
      _status: 'completed',
      _error: null,
      name: 'Has, comma "quoted" and a line',
      url: `${s.site.url}/b`,
      note: '=SUM(1,2)',
    });
    expect(lines[2]).to.include({ _source_url: urls[1], _status: 'failed' });
  });

  it('streams a long run page by page, every item listed, unfinished ones with their status', async () => {
    // 450 items written directly (more than one page of the export), half done, half still queued.
    const runId = `run-${Date.now()}`;
    await s.engine.db.query(
      `INSERT INTO runs (id, owner_id, scraper_id, status, url_form, total, options) VALUES ($1, $2, 'x', 'running', 'list', 450, '{}')`,
      [runId, owner.id],
    );
    await s.engine.db.query(
      `INSERT INTO run_items (run_id, position, url, status, records)
       SELECT $1, n, 'https://example.com/p' || n, CASE WHEN n % 2 = 0 THEN 'completed' ELSE 'queued' END,
              CASE WHEN n % 2 = 0 THEN jsonb_build_array(jsonb_build_object('n', n, 'text', E'line, one\n"two"')) END
       FROM generate_series(0, 449) AS n`,
      [runId],
    );
    const lines = (await s.api('GET', `/v1/scrapers/run_async/${runId}?format=jsonl`)).text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).to.have.length(450);
    expect(lines.map((l) => l._source_url)).to.deep.equal(Array.from({ length: 450 }, (_, n) => `https://example.com/p${n}`));
    expect(lines[448]).to.deep.equal({ _source_url: 'https://example.com/p448', _status: 'completed', _error: null, n: 448, text: 'line, one\n"two"' });
    expect(lines[449]).to.deep.equal({ _source_url: 'https://example.com/p449', _status: 'queued', _error: null });
    const rows = parseCsv((await s.api('GET', `/v1/scrapers/run_async/${runId}?format=csv`)).text);
    expect(rows).to.have.length(451);
    expect(rows[449]).to.deep.equal(['https://example.com/p448', 'completed', '', '448', 'line, one\n"two"']);
  });

  it('gives agent tasks and async extractions as files too; 404 for another owner, 422 for an unknown format', async () => {
    const taskId = `00000000-0000-4000-8000-${String(Date.now()).slice(-12).padStart(12, '0')}`;
    await s.engine.db.query(`INSERT INTO tasks (id, owner_id, kind, status, request, data) VALUES ($1, $2, 'agent', 'completed', $3, $4)`, [
      taskId,
      owner.id,
      { url: 'https://example.com/start', prompt: 'x', attributes: [{ name: 'title' }, { name: 'price' }], source: 'api' },
      JSON.stringify([{ title: 'A', price: 1 }, { title: 'B' }]),
    ]);
    const csv = await s.api('GET', `/v1/agent/extract/${taskId}?format=csv`);
    expect(csv.status, csv.text).to.equal(200);
    expect(parseCsv(csv.text)).to.deep.equal([
      ['_source_url', '_status', '_error', 'title', 'price'],
      ['https://example.com/start', 'completed', '', 'A', '1'],
      ['https://example.com/start', 'completed', '', 'B', ''],
    ]);
    expect((await s.api('GET', `/v1/agent/extract/${taskId}`)).body.data).to.have.length(2); // JSON as before

    const failedId = taskId.replace(/.$/, (c) => String((Number(c) + 1) % 10));
    await s.engine.db.query(`INSERT INTO tasks (id, owner_id, kind, status, request, error) VALUES ($1, $2, 'extract', 'failed', $3, 'FETCH_FAILED: gone')`, [
      failedId,
      owner.id,
      { url: 'https://example.com/x' },
    ]);
    const jsonl = await s.api('GET', `/v1/extractor/extract_async/${failedId}?format=jsonl`);
    expect(JSON.parse(jsonl.text)).to.deep.equal({ _source_url: 'https://example.com/x', _status: 'failed', _error: 'FETCH_FAILED: gone' });

    const bob = (await s.engine.createApiKey('bob')).key;
    const other = await request(s.url, 'GET', `/v1/agent/extract/${taskId}?format=csv`, { headers: { 'X-API-KEY': bob } });
    expect(other.status).to.equal(404);
    expect(other.body.code).to.equal('NOT_FOUND');
    const bad = await s.api('GET', `/v1/agent/extract/${taskId}?format=xml`);
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['query', 'format']);
  });
});
