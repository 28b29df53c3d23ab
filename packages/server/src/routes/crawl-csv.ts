// A crawl's results as CSV (GET /v1/crawl/{id}/results?format=csv).
function cell(v: unknown): string {
  const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row per record (url, status, error, then the records' fields); a URL without records gets one row. */
export function resultsAsCsv(rows: Array<{ url: string; status: string; records: unknown[] | null; error: string | null }>): string {
  const fields: string[] = [];
  for (const r of rows) for (const rec of r.records ?? []) for (const k of Object.keys(rec as object)) if (!fields.includes(k)) fields.push(k);
  const lines = [['url', 'status', 'error', ...fields].map(cell).join(',')];
  for (const r of rows) {
    const records = (r.records?.length ? r.records : [null]) as Array<Record<string, unknown> | null>;
    for (const rec of records) lines.push([r.url, r.status, r.error, ...fields.map((f) => rec?.[f])].map(cell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
