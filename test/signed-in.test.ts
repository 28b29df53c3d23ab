// Signed-in sites (issue 27, Gleaner extensions): secret parameters typed through placeholders (a
// password and a TOTP one-time code), browser profiles saved by an agent task and by an agentic
// scraper, used by extract and by runs, and refreshed by replaying the scraper's sign-in when the
// site has ended the session. Everything goes through the HTTP API against a loopback site whose
// sign-in form checks a real RFC 6238 code. The last case checks that the secret values reached
// no request to the model, no log line and no database column.
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { pino } from 'pino';
import pg from 'pg';
import { startStack, type Stack, type StackOptions } from './support/stack.ts';
import { agentScript, call, refOf, type PlanStep } from './support/agent-script.ts';
import { ATTRIBUTES, build, names, runAndWait, runTask } from './support/agentic-api.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { addSignInSite, ORDERS, WISHLIST, type SignInSite } from './support/signin-site.ts';
import { loadProfile } from '@gleaner/core/internal';
import { TEST_DATABASE_URL } from './support/db.ts';

const PASSWORD = 'Tr0ub4dor-horse-battery-92';
const SEED = 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BANJ2W24DT';
const SECRETS = { password: { value: PASSWORD, description: 'the account password' }, otp: { type: 'totp', value: SEED } };
const expectedOrders = ORDERS.map((p) => p.name).sort();

/** Signs in on the form: username, password and code typed (the secrets as placeholders), then submit. */
const SIGN_IN: PlanStep[] = [
  (o) => [call.type(refOf(o, /"Username"/), 'alice')],
  (o) => [call.type(refOf(o, /"Password"/), '{{password}}')],
  (o) => [call.type(refOf(o, /"One-time code"/), '{{otp}}')],
  (o) => [call.click(refOf(o, /button "Sign in"/))],
  () => [call.extract()],
  () => [call.finish()],
];

function suite(label: string, opts: StackOptions): void {
  describe(`signed-in sites: ${label}`, function () {
    this.timeout(240_000);
    let s: Stack;
    let site: SignInSite;
    const lines: string[] = [];
    let builder = '';

    before(async () => {
      const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
      s = await startStack({
        ...opts,
        logger,
        config: { ...opts.config, scrapers: { selfHeal: false }, auth: { secretsKey: randomBytes(32).toString('base64') } },
      });
      site = addSignInSite(s.site, { username: 'alice', password: PASSWORD, seed: SEED });
    });
    after(() => s?.close());

    it('an agent task signs in with secret parameters; its records come from the page behind the sign-in', async () => {
      const script = agentScript(SIGN_IN);
      s.model.script(script.script);
      const done = await runTask(s, {
        url: `${s.site.url}/signin`,
        prompt: 'Sign in as alice with the password and the one-time code, then list my orders.',
        secrets: SECRETS,
        save_profile: 'club-task',
      });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(names(done.data)).to.deep.equal(expectedOrders);
      expect(site.signIns).to.equal(1);
      // The site got the real values; the task's steps keep the placeholders.
      expect(site.posts.at(-1)).to.include({ username: 'alice', password: PASSWORD });
      expect(site.posts.at(-1)!.code).to.match(/^\d{6}$/);
      expect(done.steps.filter((st: any) => st.action === 'type').map((st: any) => st.value)).to.deep.equal(['alice', '{{password}}', '{{otp}}']);
      // The model was told the placeholders, and the observation after typing shows them, not the values.
      const goal = s.model
        .chatRequests()
        .at(-1)!
        .body.messages.find((m: any) => m.role === 'user').content as string;
      expect(goal).to.include('{{password}}: the account password').and.include('{{otp}} (the current one-time code)');
      expect(script.observations[3]).to.include('{{otp}}');
    });

    it('an agentic scraper is built that way, and its replay signs in (a fresh TOTP code) with zero model calls', async () => {
      scriptBuildModel(s, SIGN_IN, []);
      const ready = await build(s, {
        url: `${s.site.url}/signin`,
        prompt: 'Sign in as alice with the password and the one-time code, then list my orders.',
        attributes: ATTRIBUTES,
        secrets: SECRETS,
        save_profile: 'club',
      });
      expect(ready.status, ready.error).to.equal('ready');
      builder = ready.template_id;
      expect(names(ready.sample_data)).to.deep.equal(expectedOrders);
      expect(ready.parameters_schema).to.deep.equal([
        { name: 'password', type: 'secret', description: 'the account password', stored: true },
        { name: 'otp', type: 'totp', stored: true },
      ]);
      const { rows } = await s.engine.db.query('SELECT script FROM scrapers WHERE id = $1', [builder]);
      const typed = rows[0].script.steps.filter((st: any) => st.action === 'type').map((st: any) => st.value);
      expect(typed).to.deep.equal(['alice', '{{password}}', '{{otp}}']);
      expect(rows[0].script.parameters).to.deep.equal({});

      const calls = s.model.requests.length;
      const signIns = site.signIns;
      const run = await runAndWait(s, { template_id: builder });
      expect(run.status, JSON.stringify(run)).to.equal('completed');
      expect(names(Object.values(run.data as Record<string, any[]>)[0])).to.deep.equal(expectedOrders);
      expect(s.model.requests.length, 'model calls of the replay').to.equal(calls);
      expect(site.signIns).to.equal(signIns + 1);

      // A run may give its own value (used for that run only); a wrong one fails to sign in.
      const wrong = await runAndWait(s, { template_id: builder, parameters: { password: 'not-the-password' } });
      expect(wrong.status).to.equal('failed');
      expect(site.posts.at(-1)!.password).to.equal('not-the-password');
    });

    it('lists profiles by name and domain only, refuses an unknown one, imports and deletes', async () => {
      const list = await s.api('GET', '/v1/profiles');
      expect(list.status).to.equal(200);
      expect(list.body.profiles.map((p: any) => [p.name, p.source, p.domains])).to.deep.equal([
        ['club', 'agentic_scraper', ['127.0.0.1']],
        ['club-task', 'agent_task', ['127.0.0.1']],
      ]);
      expect(list.body.profiles[0].scraper_id).to.equal(builder);
      expect(list.text).to.not.match(/"value"|sid=/);
      const unknown = await s.api('POST', '/v1/extract', { url: `${s.site.url}/account/orders`, attributes: ATTRIBUTES, profile: 'nope' });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.message).to.match(/there is no profile "nope"/);
      const imported = await s.api('POST', '/v1/profiles', { name: 'imported', cookies: [{ name: 'sid', value: 'x', domain: '127.0.0.1' }] });
      expect(imported.status, imported.text).to.equal(201);
      expect(imported.body).to.include({ name: 'imported', cookies: 1, source: 'import' });
      const noDomain = await s.api('POST', '/v1/profiles', { name: 'bad', cookies: [{ name: 'sid', value: 'x' }] });
      expect(noDomain.status).to.equal(422);
      expect((await s.api('DELETE', '/v1/profiles/imported')).status).to.equal(200);
      expect((await s.api('DELETE', '/v1/profiles/imported')).status).to.equal(404);
      // Another owner sees none of them.
      const bob = (await s.engine.createApiKey('bob')).key;
      const theirs = await s.api('GET', '/v1/profiles', undefined, { 'X-API-KEY': bob });
      expect(theirs.body.profiles).to.deep.equal([]);
    });

    it('extract and a run use a profile without signing in again; an expired one is refreshed by replaying the sign-in', async () => {
      let signIns = site.signIns;
      const agent = agentScript([]);
      s.model.script(agent.script);
      const orders = `${s.site.url}/account/orders`;
      const extracted = await s.api('POST', '/v1/extract', { url: orders, attributes: ATTRIBUTES, profile: 'club-task' });
      expect(extracted.status, extracted.text).to.equal(200);
      expect(names(extracted.body.data)).to.deep.equal(expectedOrders);

      // An agentic scraper of the orders page, built on the profile (no sign-in in its script).
      scriptBuildModel(s, [() => [call.extract()], () => [call.finish()]], []);
      const reader = await build(s, { url: orders, prompt: 'List my orders.', attributes: ATTRIBUTES, profile: 'club' });
      expect(reader.status, reader.error).to.equal('ready');
      const calls = s.model.requests.length;
      const run = await runAndWait(s, { template_id: reader.template_id, profile: 'club' });
      expect(run.status, JSON.stringify(run)).to.equal('completed');
      expect(names(Object.values(run.data as Record<string, any[]>)[0])).to.deep.equal(expectedOrders);
      expect(site.signIns).to.equal(signIns);

      // The site ends every session: the run (on the profile the scraper was built on) finds the sign-in
      // page, replays the builder's sign-in, and goes on.
      site.expire();
      const before = (await s.api('GET', '/v1/profiles')).body.profiles.find((p: any) => p.name === 'club').updated_at;
      const again = await runAndWait(s, { template_id: reader.template_id });
      expect(again.status, JSON.stringify(again)).to.equal('completed');
      expect(names(Object.values(again.data as Record<string, any[]>)[0])).to.deep.equal(expectedOrders);
      expect(site.signIns).to.equal(signIns + 1);
      expect(s.model.requests.length, 'model calls of the runs and the refresh').to.equal(calls);
      const after = (await s.api('GET', '/v1/profiles')).body.profiles.find((p: any) => p.name === 'club').updated_at;
      expect(after > before).to.equal(true);

      // Extract on an expired profile made by the scraper: refreshed the same way (one more sign-in), then read.
      site.expire();
      const read = await s.api('POST', '/v1/extract', { url: orders, attributes: ATTRIBUTES, profile: 'club' });
      expect(read.status, read.text).to.equal(200);
      expect(names(read.body.data)).to.deep.equal(expectedOrders);
      expect(site.signIns).to.equal(signIns + 2);

      // Markdown of the page on the profile: refreshed the same way when expired.
      site.expire();
      const markdown = await s.api('POST', '/v1/extract_markdown', { url: orders, profile: 'club' });
      expect(markdown.status, markdown.text).to.equal(200);
      expect(markdown.body.data).to.contain('Signed Kettle').and.not.contain('One-time code');
      expect(site.signIns).to.equal(signIns + 3);
      signIns++;

      // A page that answers 401 when the session is over: refreshed the same way, then read.
      site.expire();
      const statement = await s.api('POST', '/v1/extract', { url: `${s.site.url}/account/statement`, attributes: ATTRIBUTES, profile: 'club' });
      expect(statement.status, statement.text).to.equal(200);
      expect(names(statement.body.data)).to.deep.equal(expectedOrders);
      expect(site.signIns).to.equal(signIns + 3);
      // An imported profile cannot sign in again: the 401 is the answer, naming the page.
      site.expire();
      const club = await loadProfile(s.engine.context, (await s.engine.authenticateApiKey(s.key))!.id, 'club');
      const imported = await s.api('POST', '/v1/profiles', { name: 'stale', cookies: club.cookies });
      expect(imported.status, imported.text).to.equal(201);
      const stale = await s.api('POST', '/v1/extract', { url: `${s.site.url}/account/statement`, attributes: ATTRIBUTES, profile: 'stale' });
      expect(stale.status, stale.text).to.be.within(400, 599);
      expect(stale.body.message).to.contain('401');
      expect(site.signIns).to.equal(signIns + 3);
      expect((await s.api('DELETE', '/v1/profiles/stale')).status).to.equal(200);
    });

    it("a profile keeps the site's local storage: a page rendered from it reads only with the profile (browsers)", async function () {
      if (!opts.config?.browser?.driver) this.skip(); // no JavaScript, no local storage
      const owner = (await s.engine.authenticateApiKey(s.key))!;
      const origin = new URL(s.site.url).origin;
      // Saved by the agent task (its browser at the end) and by the agentic scraper's replay.
      for (const name of ['club-task', 'club']) {
        const profile = await loadProfile(s.engine.context, owner.id, name);
        expect(JSON.parse(profile.localStorage[origin]?.['club-wishlist'] ?? '[]'), name).to.deep.equal(WISHLIST);
      }
      s.model.script(agentScript([]).script);
      const wishlist = `${s.site.url}/account/wishlist`;
      const withProfile = await s.api('POST', '/v1/extract', { url: wishlist, attributes: ATTRIBUTES, profile: 'club-task' });
      expect(withProfile.status, withProfile.text).to.equal(200);
      expect(names(withProfile.body.data)).to.deep.equal(WISHLIST.map((p) => p.name).sort());
      const without = await s.api('POST', '/v1/extract', { url: wishlist, attributes: ATTRIBUTES });
      expect(without.status, without.text).to.equal(200);
      expect(without.body.data).to.deep.equal([]);
    });

    it("a profile saved by an agent task signs in again by replaying the task's sign-in, with zero model calls", async () => {
      const orders = `${s.site.url}/account/orders`;
      const profiles = async () => (await s.api('GET', '/v1/profiles')).body.profiles.find((p: any) => p.name === 'club-task');
      const before = (await profiles()).updated_at;
      const calls = s.model.requests.length;
      const signIns = site.signIns;
      site.expire();
      const markdown = await s.api('POST', '/v1/extract_markdown', { url: orders, profile: 'club-task' });
      expect(markdown.status, markdown.text).to.equal(200);
      expect(markdown.body.data).to.contain('Signed Kettle').and.not.contain('One-time code');
      expect(site.signIns, 'one sign-in, replayed').to.equal(signIns + 1);
      // The replay typed the real values (a fresh one-time code), the model was not asked.
      expect(site.posts.at(-1)).to.include({ username: 'alice', password: PASSWORD });
      expect(site.posts.at(-1)!.code).to.match(/^\d{6}$/);
      expect(s.model.requests.length, 'model calls of the refresh').to.equal(calls);
      const after = await profiles();
      expect(after.updated_at > before).to.equal(true);
      expect(after.source).to.equal('agent_task');
      // Still refreshable: the sign-in is kept with the refreshed profile.
      site.expire();
      const again = await s.api('POST', '/v1/extract_markdown', { url: orders, profile: 'club-task' });
      expect(again.body.data).to.contain('Signed Kettle');
      expect(site.signIns).to.equal(signIns + 2);
    });

    it('the secret values reached no request to the model, no log line and no database column', async () => {
      const codes = [...new Set(site.posts.map((p) => p.code))];
      const values = [PASSWORD, SEED];
      const leaks = (text: string) => [...values.filter((v) => text.includes(v)), ...codes.filter((c) => new RegExp(`(?<!\\d)${c}(?!\\d)`).test(text))];
      const model = JSON.stringify(s.model.requests.map((r) => r.body));
      expect(model).to.include('{{password}}');
      expect(leaks(model), 'in requests to the model').to.deep.equal([]);
      expect(lines.length).to.be.greaterThan(20);
      expect(leaks(lines.join('\n')), 'in log lines').to.deep.equal([]);

      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        const schemas = [s.schemas.schema, s.schemas.jobsSchema];
        const { rows: columns } = await client.query(
          `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
           WHERE table_schema = ANY($1) AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'bytea', 'ARRAY')`,
          [schemas],
        );
        expect(columns.length).to.be.greaterThan(30);
        const found: string[] = [];
        for (const c of columns) {
          const col = `"${c.table_schema}"."${c.table_name}"."${c.column_name}"`;
          const expr = c.data_type === 'bytea' ? `encode("${c.column_name}", 'escape')` : `"${c.column_name}"::text`;
          for (const v of [...values, ...codes]) {
            const { rows } = await client.query(`SELECT count(*)::int AS n FROM "${c.table_schema}"."${c.table_name}" WHERE ${expr} ~ $1`, [
              `(^|[^0-9])${v.replace(/[^\w]/g, '\\$&')}($|[^0-9])`,
            ]);
            if (rows[0].n) found.push(`${col}: ${v === PASSWORD ? 'the password' : v === SEED ? 'the seed' : 'a code'}`);
          }
        }
        expect(found, 'columns holding a secret').to.deep.equal([]);
        // They are there, encrypted.
        const sealed = await client.query(`SELECT request->>'secrets' AS s FROM "${s.schemas.schema}".scrapers WHERE id = $1`, [builder]);
        expect(sealed.rows[0].s).to.match(/^v1\./);
      } finally {
        await client.end();
      }
    });
  });
}

describe('signed-in sites without auth.secretsKey', function () {
  this.timeout(60_000);
  let s: Stack;
  before(async () => {
    s = await startStack({ config: { browser: { escalation: 'never' } } });
  });
  after(() => s?.close());

  it('refuses profiles and secrets with 503 SECRETS_KEY_MISSING naming the setting, and stores nothing', async () => {
    const answers = [
      await s.api('POST', '/v1/profiles', { name: 'p', cookies: [{ name: 'sid', value: 'x', domain: '127.0.0.1' }] }),
      await s.api('POST', '/v1/agent/extract', { url: `${s.site.url}/signin`, prompt: 'Sign in.', secrets: { password: PASSWORD } }),
      await s.api('POST', '/v1/agent/generate', { url: `${s.site.url}/signin`, prompt: 'Sign in.', secrets: { password: PASSWORD } }),
      await s.api('POST', '/v1/agent/extract', { url: `${s.site.url}/signin`, prompt: 'Sign in.', save_profile: 'p' }),
    ];
    for (const a of answers) {
      expect(a.status, a.text).to.equal(503);
      expect(a.body.code).to.equal('SECRETS_KEY_MISSING');
      expect(a.body.message).to.match(/auth\.secretsKey \(GLEANER_SECRETS_KEY\)/);
    }
    const { rows } = await s.engine.db.query(
      'SELECT (SELECT count(*) FROM tasks)::int + (SELECT count(*) FROM scrapers)::int + (SELECT count(*) FROM profiles)::int AS n',
    );
    expect(rows[0].n).to.equal(0);
  });
});

suite('http (linkedom)', { config: { browser: { escalation: 'never' } } });
suite('playwright', { config: { browser: { driver: 'playwright', escalation: 'always' } } });
suite('selenium', { config: { browser: { driver: 'selenium', escalation: 'always' } } });
