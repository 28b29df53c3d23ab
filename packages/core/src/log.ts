import { pino } from 'pino';
import type { Logger as PinoLogger } from 'pino';

/** The logger every part of Gleaner receives (pino's interface: JSON lines, child loggers). */
export type Logger = PinoLogger;

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to stdout. CLI commands log to stderr so stdout stays for their output. */
  destination?: 1 | 2;
  name?: string;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  return pino(
    {
      name: opts.name ?? 'gleaner',
      level: opts.level ?? 'info',
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', '*.apiKey', '*.password'], censor: '***' },
    },
    pino.destination({ fd: opts.destination ?? 1, sync: false }),
  );
}

/** A logger that drops everything (library use and tests). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
