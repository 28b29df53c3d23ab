// Hash routes (#/scrapers/ID): the server serves one page, and reloads keep the view.
import { useEffect, useState } from 'preact/hooks';

export const navigate = (path: string) => {
  location.hash = `#${path}`;
};

export function useRoute(): string[] {
  const read = () => (location.hash.replace(/^#\/?/, '') || 'playground').split('/').map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}
