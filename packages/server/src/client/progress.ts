/**
 * Progress of a long command on stderr (stdout carries the results): a bar redrawn in place on a
 * terminal, plain lines otherwise (logs, CI, pipes) — one line each time the count moves.
 */
export interface Progress {
  update(done: number, total: number, failed: number): void;
  /** Ends the bar's line (a terminal) so later output starts on a fresh one. */
  finish(): void;
}

const WIDTH = 30;

export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, label: string): Progress {
  const tty = stream.isTTY === true;
  let last = '';
  let drawn = false;
  return {
    update(done, total, failed) {
      const pct = total ? Math.floor((done / total) * 100) : 0;
      const failures = failed ? `, ${failed} failed` : '';
      if (!tty) {
        const line = `${label}: ${done}/${total} URLs done (${pct}%${failures})`;
        if (line !== last) stream.write(`${line}\n`);
        last = line;
        return;
      }
      const filled = total ? Math.round((done / total) * WIDTH) : 0;
      const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
      stream.write(`\r\x1b[2K${label} ${bar} ${done}/${total} ${pct}%${failures}`);
      drawn = true;
    },
    finish() {
      if (tty && drawn) stream.write('\n');
      drawn = false;
    },
  };
}
