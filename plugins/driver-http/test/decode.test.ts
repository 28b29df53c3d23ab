import { expect } from 'chai';
import { classifyMediaType, parseContentType, sniffBinary } from '@gleaner/core/plugin';
import { detectEncoding, prescanCharset } from '../src/decode.ts';

const bytes = (s: string) => Buffer.from(s, 'latin1');

describe('driver-http decoding rules', () => {
  it('parses Content-Type', () => {
    expect(parseContentType('Text/HTML; Charset="ISO-8859-1"')).to.deep.equal({ type: 'text/html', charset: 'ISO-8859-1' });
    expect(parseContentType(undefined)).to.deep.equal({ type: '' });
  });

  it('classifies media types', () => {
    expect(classifyMediaType('text/html')).to.equal('html');
    expect(classifyMediaType('application/xhtml+xml')).to.equal('html');
    for (const t of ['text/plain', 'text/csv', 'application/json', 'application/ld+json', 'application/rss+xml', 'application/xml']) {
      expect(classifyMediaType(t), t).to.equal('text');
    }
    for (const t of ['image/png', 'application/pdf', 'application/octet-stream', 'video/mp4', 'application/zip', 'font/woff2']) {
      expect(classifyMediaType(t), t).to.equal('unsupported');
    }
  });

  it('finds the charset in <meta charset>, http-equiv and XML declarations, skipping comments', () => {
    expect(prescanCharset(bytes('<html><head><meta charset="windows-1251">'))).to.equal('windows-1251');
    expect(prescanCharset(bytes('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">'))).to.equal('shift_jis');
    expect(prescanCharset(bytes('<?xml version="1.0" encoding="ISO-8859-1"?><rss/>'))).to.equal('windows-1252');
    expect(prescanCharset(bytes('<!-- <meta charset="koi8-r"> --><p>'))).to.equal(undefined);
    expect(prescanCharset(bytes('<meta charset="utf-16">'))).to.equal('utf-8');
    expect(prescanCharset(bytes('<meta charset="no-such-thing">'))).to.equal(undefined);
  });

  it('orders BOM, header, meta, then UTF-8', () => {
    expect(detectEncoding(Buffer.from([0xef, 0xbb, 0xbf, 0x41]), 'iso-8859-1', 'html')).to.equal('utf-8');
    expect(detectEncoding(bytes('<meta charset="koi8-r">'), 'iso-8859-2', 'html')).to.equal('iso-8859-2');
    expect(detectEncoding(bytes('<meta charset="koi8-r">'), 'bogus', 'html')).to.equal('koi8-r');
    expect(detectEncoding(bytes('<p>plain</p>'), undefined, 'html')).to.equal('utf-8');
  });

  it('sniffs binary bodies sent without Content-Type', () => {
    expect(sniffBinary(bytes('%PDF-1.7'))).to.equal('application/pdf');
    expect(sniffBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).to.equal('image/png');
    expect(sniffBinary(Buffer.from([0x41, 0x00, 0x42]))).to.equal('application/octet-stream');
    expect(sniffBinary(bytes('<!doctype html><p>hi</p>'))).to.equal(undefined);
  });
});
