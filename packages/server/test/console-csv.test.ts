// The console's run CSV (console/ui/download.ts): every URL of the run, failed ones included, and
// the page a record came from kept apart from a record's own `url` field.
import { expect } from 'chai';
import { runCsvRows, toCsv } from '../src/console/ui/download.ts';

describe('console: the CSV of a run', () => {
  const data = {
    'https://shop.example/list?p=1': [
      { url: 'https://shop.example/p/1', name: 'Kettle' },
      { url: 'https://shop.example/p/2', name: 'Toaster, 2 slots' },
    ],
    'https://shop.example/list?p=2': [],
    'https://shop.example/gone': [],
  };
  const errors = { 'https://shop.example/gone': 'HTTP 404 from the page', 'https://shop.example/blocked': 'URL_BLOCKED: 10.0.0.1 is a private address' };

  it('keeps the source URL when a record has a url field, lists URLs without records and failed URLs', () => {
    const urls = [...new Set([...Object.keys(data), ...Object.keys(errors)])];
    const csv = toCsv(runCsvRows(urls, data, errors));
    expect(csv.split('\r\n')).to.deep.equal([
      'source_url,status,url,name,error',
      'https://shop.example/list?p=1,completed,https://shop.example/p/1,Kettle,',
      'https://shop.example/list?p=1,completed,https://shop.example/p/2,"Toaster, 2 slots",',
      'https://shop.example/list?p=2,completed,,,',
      'https://shop.example/gone,failed,,,HTTP 404 from the page',
      'https://shop.example/blocked,failed,,,URL_BLOCKED: 10.0.0.1 is a private address',
      '',
    ]);
  });

  it("never lets a record's own source_url or status replace the run's", () => {
    const [row] = runCsvRows(['https://a.example/'], { 'https://a.example/': [{ source_url: 'elsewhere', status: 'in stock' }] }, {});
    expect(row).to.deep.equal({ source_url: 'https://a.example/', status: 'completed' });
  });
});
