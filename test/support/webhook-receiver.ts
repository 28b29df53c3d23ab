// A real HTTP server on 127.0.0.1 that records every callback it receives and answers as scripted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * How to answer the n-th request (0-based): a status (with an optional body), or 'hang' to never
 * answer (the sender's timeout must end it).
 */
export type WebhookAnswer = number | { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(answer: (n: number, req: ReceivedWebhook) => WebhookAnswer = () => 204): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: ReceivedWebhook = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(entry);
      const a = answer(received.length - 1, entry);
      if (a === 'hang') return;
      const { status, body, headers } = typeof a === 'number' ? { status: a, body: undefined, headers: undefined } : a;
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
