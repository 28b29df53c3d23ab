// A worker thread of the evaluation (anchors.ts): runs Readability and defuddle on the pages it is
// sent and answers with their plain text. A page an anchor fails on gives ''.
import { parentPort } from 'node:worker_threads';
import { defuddle, readability } from './anchors.ts';

parentPort!.on('message', async (m: { id: string; html: string; url: string }) => {
  let rd = '';
  let df = '';
  try {
    rd = readability(m.html, m.url);
  } catch {
    rd = '';
  }
  try {
    df = await defuddle(m.html, m.url);
  } catch {
    df = '';
  }
  parentPort!.postMessage({ id: m.id, readability: rd, defuddle: df });
});
