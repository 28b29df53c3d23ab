// The opt-in `details` of /v1/extract and /v1/parse (?details=true, a Gleaner extension): the
// driver and size of each page, exactly what the model was shown, the model, its tokens and the
// credits charged — checked against the page as served, the scripted model's recorded requests and
// the owner's usage row. Without the flag the bodies stay those of the interface.
import { expect } from 'chai';
import { countTokens } from '@gleaner/core/internal';
import { startStack, sentSchema, userContent, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, openBookshop, shelf } from './support/books.ts';

describe('extraction details (?details=true) over HTTP', function () {
  this.timeout(60_000);
  let s: Stack;
  let shelfUrl: (n: number) => string;
  before(async () => {
    s = await startStack();
    shelfUrl = openBookshop(s);
  });
  after(() => s?.close());

  const lastUsage = async () =>
    (
      await s.engine.db.query(
        `SELECT model_calls, input_tokens, output_tokens, credits FROM usage_events u JOIN owners o ON o.id = u.owner_id WHERE o.name = 'alice' ORDER BY u.id DESC LIMIT 1`,
      )
    ).rows[0];

  it('leaves the body as the interface has it without the flag', async () => {
    const res = await s.api('POST', '/v1/extract', { url: shelfUrl(1), attributes: BOOK_ATTRS });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ data: shelf(1) });
    const off = await s.api('POST', '/v1/extract?details=false', { url: shelfUrl(1), attributes: BOOK_ATTRS });
    expect(Object.keys(off.body)).to.deep.equal(['data']);
  });

  it('says which driver read the page, its raw size, what the model saw, the model, tokens and credits', async () => {
    const calls = s.model.chatRequests().length;
    const res = await s.api('POST', '/v1/extract?details=true', { url: shelfUrl(2), attributes: BOOK_ATTRS });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.equal(shelf(2));
    const d = res.body.details;
    const served = await (await fetch(shelfUrl(2))).arrayBuffer();
    expect(d).to.include({ mode: 'standard', driver: 'http', raw_bytes: served.byteLength });
    expect(d.model).to.deep.equal({ provider: 'openai', name: 'test-model' });
    expect(d.pages).to.have.length(1);
    const [page] = d.pages;
    expect(page).to.include({ url: shelfUrl(2), driver: 'http', records: 3, raw_bytes: served.byteLength, read_by: 'reduced_page' });
    // The text shown is the text the model received, and it is smaller than the page.
    const sent = s.model.chatRequests().slice(calls);
    expect(sent).to.have.length(1);
    expect(userContent(sent[0])).to.contain(page.model_input.text);
    expect(page.model_input.text).to.contain('Book 2.1').and.not.contain('<li');
    expect(page.model_input).to.include({ chars: page.model_input.text.length, tokens: countTokens(page.model_input.text) });
    expect(page.model_input.chars).to.be.lessThan(served.byteLength);
    // Tokens as the model server reported them; credits as charged to the owner.
    expect(d.usage).to.deep.equal({ model_calls: 1, input_tokens: 200, output_tokens: 40 });
    const usage = await lastUsage();
    expect(usage).to.include({ model_calls: 1, input_tokens: 200, output_tokens: 40 });
    expect(d.credits).to.equal(Number(usage.credits));
  });

  it('in code mode shows the page skeleton the recipe was written from, and the recipe', async () => {
    const calls = s.model.chatRequests().length;
    const res = await s.api('POST', '/v1/extract?details=true', { url: shelfUrl(3), attributes: BOOK_ATTRS, mode: 'code' });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.equal(shelf(3));
    const d = res.body.details;
    expect(d.mode).to.equal('code');
    expect(d.recipe.container).to.deep.equal({ selector: 'li.book' });
    expect(d.pages[0].read_by).to.equal('page_skeleton');
    const recipeCall = s.model
      .chatRequests()
      .slice(calls)
      .find((r) => sentSchema(r)?.properties?.container);
    expect(userContent(recipeCall!)).to.contain(d.pages[0].model_input.text);
    expect(d.usage.model_calls).to.be.greaterThan(0);
  });

  it('on /v1/parse, the supplied content is the page (driver "content")', async () => {
    const content = '<ul><li class="book"><span class="t">Book 9.1</span> <span class="p">901 pages</span></li></ul>';
    const res = await s.api('POST', '/v1/parse?details=true', { content, attributes: BOOK_ATTRS });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.equal([{ title: 'Book 9.1', pages: 901 }]);
    expect(res.body.details).to.include({ driver: 'content' });
    expect(res.body.details.pages[0]).to.include({ driver: 'content', read_by: 'reduced_page' });
    expect(res.body.details.pages[0].raw_bytes).to.be.at.least(Buffer.byteLength(content));
    expect(res.body.details.pages[0].model_input.text).to.contain('Book 9.1');
  });

  it('refuses a details value that is not a boolean with a 422 at query.details', async () => {
    const res = await s.api('POST', '/v1/extract?details=please', { url: shelfUrl(1), attributes: BOOK_ATTRS });
    expect(res.status).to.equal(422);
    expect(res.body.detail[0].loc).to.deep.equal(['query', 'details']);
  });
});
