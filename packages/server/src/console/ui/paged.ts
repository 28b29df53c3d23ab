// A list endpoint read a page at a time (GET /v1/runs, /v1/tasks: `{<items>, next_cursor}`): the
// first page is read again every `everyMs` while `live` says something on it is still moving, and
// "Load more" appends the next page.
import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { useRepeat } from './poll.ts';

export function usePagedList<T>(path: string, field: string, idOf: (item: T) => string, live: (item: T) => boolean, everyMs = 1500) {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const sep = path.includes('?') ? '&' : '?';
  useRepeat(
    path,
    async (alive) => {
      const page = await api<Record<string, any>>('GET', path);
      if (!alive()) return false;
      const first = page[field] as T[];
      // Only the first page is refreshed; items loaded further down stay (those now on it once).
      const fresh = new Set(first.map(idOf));
      setItems((old) => [...first, ...(old ?? []).slice(first.length).filter((item) => !fresh.has(idOf(item)))]);
      setCursor((old) => old ?? page.next_cursor);
      return first.some(live);
    },
    everyMs,
    setError,
  );
  const loadMore = async () => {
    if (!cursor) return;
    try {
      const page = await api<Record<string, any>>('GET', `${path}${sep}cursor=${encodeURIComponent(cursor)}`);
      setItems((old) => [...(old ?? []), ...(page[field] as T[])]);
      setCursor(page.next_cursor);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return { items, error, more: cursor !== null, loadMore };
}
