// Runs started from this console, remembered for the tab (the API has no list of runs).
const KEY = 'gleaner.runs';

export interface StartedRun {
  run_id: string;
  scraper: string;
  urls: number;
  at: string;
}

export const startedRuns = (): StartedRun[] => JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
export const rememberRun = (run: StartedRun) => sessionStorage.setItem(KEY, JSON.stringify([run, ...startedRuns()].slice(0, 50)));
