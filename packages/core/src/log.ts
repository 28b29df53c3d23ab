import { isatty } from 'node:tty';
import { pino } from 'pino';
import type { Logger as PinoLogger } from 'pino';
import { environmentConventions } from './config/load.ts';

/** The logger every part of Gleaner receives (pino's interface: JSON lines, child loggers). */
export type Logger = PinoLogger;

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to stdout. CLI commands log to stderr so stdout stays for their output. */
  destination?: 1 | 2;
  name?: string;
  /** json, pretty (one readable line per event), or auto (default): pretty on a terminal, else json. */
  format?: 'auto' | 'json' | 'pretty';
}

const LEVELS: Record<number, [name: string, color: string]> = {
  10: ['TRACE', '\x1b[90m'],
  20: ['DEBUG', '\x1b[90m'],
  30: ['INFO ', '\x1b[32m'],
  40: ['WARN ', '\x1b[33m'],
  50: ['ERROR', '\x1b[31m'],
  60: ['FATAL', '\x1b[41m'],
};
/** Fields every line has, shown in the line's head or not at all. */
const HEAD = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name']);

function value(key: string, v: unknown): string {
  if (key === 'err' && v && typeof v === 'object') return value('', (v as { message?: unknown }).message ?? JSON.stringify(v));
  if (key === 'req' && v && typeof v === 'object') return `"${(v as { method?: string }).method} ${(v as { url?: string }).url}"`;
  if (key === 'res' && v && typeof v === 'object') return String((v as { statusCode?: number }).statusCode);
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

/**
 * One pino JSON line as one readable line: `12:00:01.234 WARN  message key=value ...`. Only an
 * error-level event with a stack trace (a bug, not an expected failure) adds the stack below it.
 */
export function prettyLine(line: string, color = false): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line);
  } catch {
    return line;
  }
  const [name, tint] = LEVELS[o.level as number] ?? [String(o.level), ''];
  const time = typeof o.time === 'number' ? new Date(o.time).toISOString().slice(11, 23) : '';
  const fields = Object.entries(o)
    .filter(([k]) => !HEAD.has(k))
    .map(([k, v]) => `${k}=${value(k, v)}`);
  const level = color ? `${tint}${name}\x1b[0m` : name;
  const stack =
    (o.level as number) >= 50 && typeof (o.err as { stack?: unknown })?.stack === 'string'
      ? `\n    ${(o.err as { stack: string }).stack.split('\n').join('\n    ')}`
      : '';
  return `${time} ${level} ${String(o.msg ?? '')}${fields.length ? ` ${fields.join(' ')}` : ''}${stack}\n`;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const fd = opts.destination ?? 1;
  const pretty = opts.format === 'pretty' || ((opts.format ?? 'auto') === 'auto' && isatty(fd));
  const out = pino.destination({ fd, sync: false });
  const color = pretty && isatty(fd) && !environmentConventions().noColor;
  return pino(
    {
      name: opts.name ?? 'gleaner',
      level: opts.level ?? 'info',
      redact: { paths: ['req.headers["x-api-key"]', 'req.headers.authorization', '*.apiKey', '*.password'], censor: '***' },
    },
    pretty ? { write: (line: string) => out.write(prettyLine(line, color)) } : out,
  );
}

/** A logger that drops everything (library use and tests). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
