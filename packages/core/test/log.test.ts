// Log lines: pino's JSON for collectors, one readable line per event on a terminal (log.format).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { prettyLine } from '../src/log.ts';

const run = promisify(execFile);
const logOnce = (format: string) =>
  run(process.execPath, [
    '--input-type=module',
    '-e',
    `import { createLogger } from '@gleaner/core'; const l = createLogger({ format: '${format}' }); l.warn({ code: 'MODEL_UNAVAILABLE', route: '/v1/parse' }, 'request failed'); l.flush();`,
  ]);

describe('log: JSON for machines, one line per event for people', () => {
  it('prints an event as one line: time, level, message, then its fields', () => {
    const line = prettyLine(
      JSON.stringify({
        level: 40,
        time: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
        pid: 1,
        hostname: 'h',
        name: 'gleaner',
        msg: 'request failed: MODEL_UNAVAILABLE',
        req: { method: 'POST', url: '/v1/parse' },
        res: { statusCode: 503 },
        code: 'MODEL_UNAVAILABLE',
        responseTime: 12,
      }),
    );
    expect(line).to.equal('03:04:05.678 WARN  request failed: MODEL_UNAVAILABLE req="POST /v1/parse" res=503 code=MODEL_UNAVAILABLE responseTime=12\n');
  });

  it('shows an error by its message, and a stack only for error-level events', () => {
    const err = { type: 'Error', message: 'cannot reach the model', stack: 'Error: cannot reach the model\n    at x (y.ts:1:1)' };
    expect(prettyLine(JSON.stringify({ level: 40, time: 0, msg: 'retrying', err }))).to.equal('00:00:00.000 WARN  retrying err="cannot reach the model"\n');
    const bug = prettyLine(JSON.stringify({ level: 50, time: 0, msg: 'unhandled error', err }));
    expect(bug.split('\n')[0]).to.equal('00:00:00.000 ERROR unhandled error err="cannot reach the model"');
    expect(bug).to.contain('    at x (y.ts:1:1)');
  });

  it('writes JSON lines when asked (and, by default, when the output is not a terminal), readable lines with pretty', async () => {
    const json = JSON.parse((await logOnce('json')).stdout);
    expect(json).to.include({ level: 40, msg: 'request failed', code: 'MODEL_UNAVAILABLE' });
    expect(JSON.parse((await logOnce('auto')).stdout)).to.include({ msg: 'request failed' }); // a pipe is not a terminal
    expect((await logOnce('pretty')).stdout).to.match(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}request failed code=MODEL_UNAVAILABLE route=\/v1\/parse\n$/);
  });
});
