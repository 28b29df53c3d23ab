import { expect } from 'chai';
import { base32Decode, hotp, redact, seal, secretsFrom, totp, totpFromKey, unseal, normalizeSecretsInput, type ValidationIssue } from '@gleaner/core/internal';

// RFC 6238 appendix B: the test vectors (8 digits; SHA-1, SHA-256 and SHA-512 seeds).
const SHA1_KEY = Buffer.from('12345678901234567890', 'ascii');
const SHA256_KEY = Buffer.from('12345678901234567890123456789012', 'ascii');
const SHA512_KEY = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii');
const VECTORS: Array<[number, string, string, string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

const config = (secretsKey: string) => ({ auth: { tokenTtlSeconds: 3600, secretsKey } });
const KEY = Buffer.alloc(32, 7).toString('base64');

describe('secrets: TOTP (RFC 6238) and the vault', () => {
  it('computes the RFC 6238 test vectors', () => {
    for (const [t, sha1, sha256, sha512] of VECTORS) {
      const time = t * 1000;
      expect(totpFromKey(SHA1_KEY, { time, digits: 8 }), `sha1 @${t}`).to.equal(sha1);
      expect(totpFromKey(SHA256_KEY, { time, digits: 8, algorithm: 'sha256' }), `sha256 @${t}`).to.equal(sha256);
      expect(totpFromKey(SHA512_KEY, { time, digits: 8, algorithm: 'sha512' }), `sha512 @${t}`).to.equal(sha512);
    }
  });

  it('computes RFC 4226 HOTP values and 6-digit codes from a base32 seed', () => {
    // RFC 4226 appendix D: counters 0..2 of the same seed.
    expect([0, 1, 2].map((c) => hotp(SHA1_KEY, c))).to.deep.equal(['755224', '287082', '359152']);
    // The same seed in base32, as a sign-up page shows it (case and spaces ignored).
    const seed = 'GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ';
    expect(base32Decode(seed).equals(SHA1_KEY)).to.equal(true);
    expect(totp(seed.toLowerCase(), { time: 59_000 })).to.equal('287082');
    expect(totp(seed, { time: 30_000 })).to.equal('287082'); // the same 30 s step
    expect(totp(seed, { time: 60_000 })).to.equal('359152'); // the next one
    expect(() => base32Decode('not base32!')).to.throw(/base32/);
  });

  it('seals with AES-256-GCM: a fresh IV each time, opens only with the same key, refuses without one', () => {
    const a = seal(config(KEY), { password: 'hunter22' });
    const b = seal(config(KEY), { password: 'hunter22' });
    expect(a).to.not.equal(b);
    expect(a).to.not.include('hunter22');
    expect(unseal(config(KEY), a)).to.deep.equal({ password: 'hunter22' });
    expect(unseal(config(Buffer.alloc(32, 7).toString('hex')), a)).to.deep.equal({ password: 'hunter22' });
    expect(() => unseal(config(Buffer.alloc(32, 8).toString('base64')), a)).to.throw(/key changed/);
    const tampered = a.slice(0, -2) + (a.endsWith('A') ? 'B' : 'A') + a.slice(-1);
    expect(() => unseal(config(KEY), tampered)).to.throw(/cannot be decrypted/);
    expect(() => seal(config(''), 1)).to.throw(/GLEANER_SECRETS_KEY/);
    expect(() => seal(config('short'), 1)).to.throw(/32 bytes/);
  });

  it('redacts secret values and the codes typed, and serializes a secret as its placeholder', () => {
    const secrets = secretsFrom([
      { name: 'password', type: 'secret', value: 'hunter22' },
      { name: 'otp', type: 'totp', value: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' },
    ]);
    const code = secrets.otp.reveal();
    expect(code).to.match(/^\d{6}$/);
    expect(redact(`<input value="hunter22"> code ${code}`, secrets)).to.equal('<input value="{{password}}"> code {{otp}}');
    expect(JSON.stringify({ p: secrets.password })).to.equal('{"p":"{{password}}"}');
    expect(String(secrets.password)).to.equal('{{password}}');
  });

  it('normalizes the secrets field (string or {type, value}), naming each problem', () => {
    const issues: ValidationIssue[] = [];
    const out = normalizeSecretsInput(
      { password: 'pw-123', otp: { type: 'totp', value: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' }, 'bad name': 'x', bad: { type: 'totp', value: '1!' }, e: '' },
      ['body', 'secrets'],
      issues,
    );
    expect(out.map((s) => [s.name, s.type])).to.deep.equal([
      ['password', 'secret'],
      ['otp', 'totp'],
    ]);
    expect(issues.map((i) => i.loc)).to.deep.equal([
      ['body', 'secrets', 'bad name'],
      ['body', 'secrets', 'bad', 'value'],
      ['body', 'secrets', 'e'],
    ]);
  });
});
