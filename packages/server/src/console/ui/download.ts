// Downloads of results as JSON or CSV, built in the page.

/** RFC 4180 CSV of records: the union of their keys as the header, nested values as JSON. */
export function toCsv(rows: Array<Record<string, unknown>>): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [columns.map(cell).join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\r\n') + '\r\n';
}

/**
 * A run's rows for CSV: every URL of the run, failed ones included. The run's own columns come
 * first and are named apart (`source_url`, `status`, `error`), so a record's own `url` field stays
 * a column of its own instead of replacing the page it came from; a URL with no records is one row.
 */
export function runCsvRows(urls: string[], data: Record<string, unknown>, errors: Record<string, unknown>): Array<Record<string, unknown>> {
  return urls.flatMap((u) => {
    if (errors[u] !== undefined) return [{ source_url: u, status: 'failed', error: errors[u] }];
    const records = Array.isArray(data[u]) ? (data[u] as Array<Record<string, unknown>>) : [];
    const own = { source_url: u, status: 'completed' };
    // The run's columns first and never overwritten by a record's field of the same name.
    return records.length ? records.map((r) => Object.assign({ ...own }, r, own)) : [own];
  });
}

export function download(name: string, content: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
