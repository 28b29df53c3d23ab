// A minimal Chrome DevTools Protocol client over the browser-level WebSocket (flat sessions).
// WebDriver cannot create browser contexts nor report status, headers or redirects; the browser's
// own DevTools endpoint can, and Node 22 ships a WebSocket, so no extra package is needed.

type EventHandler = (method: string, params: Record<string, unknown>) => void;

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  method: string;
}

/** A CDP error answer, e.g. `{"code":-32000,"message":"No target with given id found"}`. */
export class CdpError extends Error {
  readonly code: number;
  constructor(method: string, code: number, message: string) {
    super(`${method}: ${message}`);
    this.name = 'CdpError';
    this.code = code;
  }
}

export interface CdpConnectOptions {
  /** Longest wait for the socket to open. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Longest wait for one command's answer (default 15000). */
  commandTimeoutMs?: number;
}

/** One WebSocket to the browser; page sessions are multiplexed on it by `sessionId`. */
export class CdpConnection {
  #ws: WebSocket;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #handlers = new Map<string, Set<EventHandler>>();
  #closed = false;
  #commandTimeoutMs: number;

  private constructor(ws: WebSocket, commandTimeoutMs: number) {
    this.#ws = ws;
    this.#commandTimeoutMs = commandTimeoutMs;
    ws.addEventListener('message', (ev) => this.#onMessage(String(ev.data)));
    ws.addEventListener('close', () => this.#shutdown(new Error('the DevTools connection closed')));
    ws.addEventListener('error', () => this.#shutdown(new Error('the DevTools connection failed')));
  }

  /** Opens the browser-level DevTools socket (`ws://host:port/devtools/browser/<id>` or Grid's `se:cdp`). */
  static connect(url: string, opts: CdpConnectOptions): Promise<CdpConnection> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const fail = (err: Error) => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        ws.close();
        reject(err);
      };
      const onAbort = () => fail(opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('aborted'));
      const timer = setTimeout(() => fail(new Error(`the DevTools socket did not open within ${opts.timeoutMs} ms`)), opts.timeoutMs);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      ws.addEventListener(
        'open',
        () => {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          resolve(new CdpConnection(ws, opts.commandTimeoutMs ?? 15_000));
        },
        { once: true },
      );
      ws.addEventListener('error', () => fail(new Error(`cannot open the DevTools socket ${url}`)), { once: true });
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends a command (to the browser, or to a page when `sessionId` is given) and awaits its result. */
  send<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}, sessionId?: string, timeoutMs?: number): Promise<T> {
    if (this.#closed) return Promise.reject(new Error(`${method}: the DevTools connection is closed`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const ms = timeoutMs ?? this.#commandTimeoutMs;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method}: no answer from the browser within ${ms} ms`));
      }, ms);
      timer.unref();
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, method });
      this.#ws.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  }

  /** Receives the events of one session ('' = browser-level events); returns the unsubscribe. */
  subscribe(sessionId: string, handler: EventHandler): () => void {
    let set = this.#handlers.get(sessionId);
    if (!set) this.#handlers.set(sessionId, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
      if (!set.size) this.#handlers.delete(sessionId);
    };
  }

  close(): void {
    this.#shutdown(new Error('the DevTools connection was closed'));
    try {
      this.#ws.close();
    } catch {
      // already closing
    }
  }

  #onMessage(text: string): void {
    let msg: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
      result?: unknown;
      error?: { code: number; message: string };
    };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof msg.id === 'number') {
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) p.reject(new CdpError(p.method, msg.error.code, msg.error.message));
      else p.resolve(msg.result ?? {});
      return;
    }
    if (msg.method) {
      const set = this.#handlers.get(msg.sessionId ?? '');
      if (!set) return;
      for (const h of [...set]) {
        try {
          h(msg.method, msg.params ?? {});
        } catch {
          // a handler's bug must not break the connection
        }
      }
    }
  }

  #shutdown(err: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) {
      clearTimeout(p.timer);
      p.reject(new Error(`${p.method}: ${err.message}`));
    }
    this.#pending.clear();
    for (const set of this.#handlers.values())
      for (const h of set) {
        try {
          h('Gleaner.disconnected', {});
        } catch {
          // ignore
        }
      }
    this.#handlers.clear();
  }
}
