/** The resolved configuration: packages/core/src/config/schema.json's fields as a nested, frozen object. */
export interface GleanerConfig {
  configFile: string;
  dataDir: string;
  database: {
    url: string;
    schema: string;
    poolMax: number;
    connectTimeoutMs: number;
    embeddedPort: number;
    embeddedUser: string;
  };
  jobs: {
    schema: string;
    concurrency: number;
    batchSize: number;
    pollingSeconds: number;
    heartbeatSeconds: number;
    superviseSeconds: number;
    shutdownGraceSeconds: number;
  };
  worker: { enabled: boolean };
  server: {
    host: string;
    port: number;
    agentsPort: number;
    bodyLimitBytes: number;
    requestTimeoutMs: number;
  };
  log: { level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'; format: 'auto' | 'json' | 'pretty' };
  auth: { tokenTtlSeconds: number; secretsKey: string };
  metrics: { mode: 'disabled' | 'open' | 'bearer'; token: string; workerPort: number };
  client: { server: string; apiKey: string };
  limits: { requestsPerMinute: number; concurrentJobs: number; queuedJobs: number };
  llm: {
    provider: '' | 'openai' | 'ollama';
    model: string;
    timeoutMs: number;
    maxRetries: number;
    concurrency: number;
    contextWindow: number;
    /** Model name -> US dollars per million input / output tokens. */
    pricing: Record<string, { input: number; output: number }>;
  };
  /** Declared by @gleaner/llm-openai (its settings.json); present when that package is installed. */
  openai: { apiKey: string; baseUrl: string };
  /** Declared by @gleaner/llm-ollama (its settings.json); present when that package is installed. */
  ollama: { host: string; keepAlive: string };
  network: {
    allowNetworks: string[];
    proxies: Record<string, string>;
    defaultProxyCountry: string;
    unproxiedCountry: 'direct' | 'refuse';
  };
  fetch: {
    timeoutMs: number;
    maxBytes: number;
    maxRedirects: number;
    userAgent: string;
  };
  browser: {
    chromiumPath: string;
    chromedriverPath: string;
    wsEndpoint: string;
    /** Declared by @gleaner/driver-selenium (its settings.json); present when that package is installed. */
    seleniumUrl: string;
    maxPages: number;
    retireAfterPages: number;
    escalation: 'auto' | 'always' | 'never';
    driver: 'playwright' | 'selenium';
    launchTimeoutMs: number;
    closeTimeoutMs: number;
    proxyListenHost: string;
    proxyAdvertiseHost: string;
  };
  agent: { maxSteps: number; maxTokens: number; timeoutMs: number; actionTimeoutMs: number };
  runs: { waitSeconds: number };
  schedules: { cronSeconds: number; failuresBeforeDegraded: number };
  snapshots: { retentionDays: number; storage: 'postgres' | 'directory'; directory: string };
  scrapers: { selfHeal: boolean; generateRounds: number };
  extract: { maxPagesLimit: number; chunkTokens: number; maxChunks: number };
  callbacks: { timeoutMs: number; maxAttempts: number; retryDelaySeconds: number; retryDelayMaxSeconds: number };
  credits: { extractPage: number; recipePage: number; per1kModelTokens: number; scraperBuild: number };
  politeness: { concurrency: number; delayMs: number; maxRetries: number; maxRetryAfterSeconds: number; backoffBaseMs: number };
  robots: { respect: boolean; userAgent: string; ttlSeconds: number };
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

export type ConfigOptions = DeepPartial<GleanerConfig>;
