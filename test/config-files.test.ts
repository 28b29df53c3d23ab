// The settings a self-hoster copies from config/: the annotated environment file loads through the
// configuration loader (its choices and every default it lists), the Prometheus rules and scrape
// config parse with the expected shape and name real series and jobs, and the systemd unit reads
// the environment file and keeps the data directory that file names.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { CONFIG_FIELDS, loadConfig } from '@gleaner/core';

const read = (f: string) => readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');
// js-yaml comes with mocha (a dev dependency); it has no type declarations of its own.
const yaml = async (f: string) => ((await import('js-yaml' as string)) as { load(text: string): any }).load(read(f));

/** KEY=value lines as systemd's EnvironmentFile reads them; `commented` also takes `# KEY=value` lines. */
function envOf(text: string, commented = false): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = (commented ? /^(?:# )?([A-Z][A-Z0-9_]*)=(.*)$/ : /^([A-Z][A-Z0-9_]*)=(.*)$/).exec(line);
    if (m) env[m[1]] = m[2];
  }
  return env;
}

describe('config/: the files a self-hoster copies', () => {
  const envFile = read('config/gleaner.env.example');

  it('gleaner.env.example lists every setting, and its choices load through the configuration loader', () => {
    const listed = envOf(envFile, true);
    for (const [key, f] of Object.entries(CONFIG_FIELDS)) expect(listed, `${key} (${f.env})`).to.have.property(f.env);
    const config = loadConfig({ env: envOf(envFile) });
    expect(config.metrics).to.include({ mode: 'bearer' });
    expect(config.metrics.token).to.have.length.greaterThan(20);
    expect(config.log.format).to.equal('json');
    expect(config.dataDir).to.equal('/var/lib/gleaner');
  });

  it('gleaner.env.example: every commented-out line is the default it claims to be', () => {
    const chosen = envOf(envFile);
    const defaults = Object.fromEntries(Object.entries(envOf(envFile, true)).filter(([k]) => !(k in chosen)));
    expect(loadConfig({ env: defaults })).to.deep.equal(loadConfig({ env: {} }));
  });

  it('prometheus/alerts.yml: rule groups whose rules have an alert, an expression on known series, a severity and a summary', async () => {
    const rules = await yaml('config/prometheus/alerts.yml');
    expect(rules.groups).to.be.an('array').that.is.not.empty;
    const documented = read('docs/operations.md');
    for (const group of rules.groups) {
      expect(group.name).to.be.a('string');
      for (const rule of group.rules) {
        expect(rule.alert, JSON.stringify(rule)).to.match(/^Gleaner[A-Za-z]+$/);
        expect(rule.expr).to.be.a('string');
        expect(rule.labels.severity).to.be.oneOf(['critical', 'warning', 'info']);
        expect(rule.annotations.summary).to.be.a('string');
        for (const series of rule.expr.match(/\bgleaner_[a-z_]+/g) ?? []) expect(documented, `${rule.alert}: ${series}`).to.contain(`\`${series}\``);
      }
    }
  });

  it('prometheus/scrape.yml: a job per process kind, /metrics with the bearer token, the jobs the alerts name', async () => {
    const scrape = await yaml('config/prometheus/scrape.yml');
    const jobs = scrape.scrape_configs as Array<{
      job_name: string;
      metrics_path: string;
      authorization: { type: string };
      static_configs: Array<{ targets: string[] }>;
    }>;
    expect(jobs.map((j) => j.job_name)).to.deep.equal(['gleaner-api', 'gleaner-worker']);
    for (const job of jobs) {
      expect(job.metrics_path).to.equal('/metrics');
      expect(job.authorization.type).to.equal('Bearer');
      expect(job.static_configs[0].targets[0]).to.match(/^[\w.-]+:\d+$/);
    }
    expect(read('config/prometheus/alerts.yml')).to.contain('job=~"gleaner-api|gleaner-worker"');
  });

  it('systemd/gleaner.service: reads the environment file, runs gleaner serve, and keeps the data directory the file names', () => {
    const unit = read('config/systemd/gleaner.service');
    const directives = Object.fromEntries(
      unit
        .split('\n')
        .filter((l) => /^[A-Za-z]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(directives.EnvironmentFile).to.equal('/etc/gleaner/gleaner.env');
    expect(directives.ExecStart).to.match(/\/gleaner serve$/);
    expect(directives.KillSignal).to.equal('SIGTERM');
    expect(`/var/lib/${directives.StateDirectory}`).to.equal(envOf(envFile).GLEANER_DATA_DIR);
    expect(unit)
      .to.match(/^\[Unit\]$/m)
      .and.match(/^\[Service\]$/m)
      .and.match(/^\[Install\]$/m);
  });
});
