import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDeliveryLog } from './deliveries.js';
import { checkSignature, safeEqual } from './signature.js';

const body = Buffer.from('{"ref":"refs/heads/main"}');
const secret = 'It5-a-s3cret';

/** Hex HMAC-SHA256 of a body, as the forges sign it. */
const hmacHex = (key: string, data: Buffer): string => createHmac('sha256', key).update(data).digest('hex');

describe('checkSignature', () => {
  it('GitHub: sha256= HMAC of the raw body, hex in either case; SHA-1 X-Hub-Signature alone is not enough', () => {
    const hex = hmacHex(secret, body);
    expect(checkSignature('github', { 'x-hub-signature-256': `sha256=${hex}` }, body, secret)).toBe('valid');
    expect(checkSignature('github', { 'x-hub-signature-256': `sha256=${hex.toUpperCase()}` }, body, secret)).toBe('valid');
    expect(checkSignature('github', { 'x-hub-signature-256': hex }, body, secret)).toBe('invalid');
    expect(checkSignature('github', { 'x-hub-signature-256': `sha256=${hex}` }, Buffer.from(`${body} `), secret)).toBe('invalid');
    const sha1 = createHmac('sha1', secret).update(body).digest('hex');
    expect(checkSignature('github', { 'x-hub-signature': `sha1=${sha1}` }, body, secret)).toBe('missing');
    expect(checkSignature('github', {}, body, secret)).toBe('missing');
  });

  it("Gitea and Forgejo accept each other's header and the GitHub-style one they also send", () => {
    const hex = hmacHex(secret, body);
    for (const service of ['gitea', 'forgejo'] as const) {
      expect(checkSignature(service, { 'x-gitea-signature': hex }, body, secret)).toBe('valid');
      expect(checkSignature(service, { 'x-forgejo-signature': hex }, body, secret)).toBe('valid');
      expect(checkSignature(service, { 'x-hub-signature-256': `sha256=${hex}` }, body, secret)).toBe('valid');
      expect(checkSignature(service, { 'x-gitea-signature': hmacHex('other', body) }, body, secret)).toBe('invalid');
    }
  });

  it('GitLab token, Bitbucket sha256=, Pagure hex, Azure basic password', () => {
    expect(checkSignature('gitlab', { 'x-gitlab-token': secret }, body, secret)).toBe('valid');
    expect(checkSignature('gitlab', { 'x-gitlab-token': `${secret}x` }, body, secret)).toBe('invalid');
    expect(checkSignature('bitbucket', { 'x-hub-signature': `sha256=${hmacHex(secret, body)}` }, body, secret)).toBe('valid');
    expect(checkSignature('pagure', { 'x-pagure-signature-256': hmacHex(secret, body) }, body, secret)).toBe('valid');
    const basic = (user: string, pw: string) => `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}`;
    expect(checkSignature('azure', { authorization: basic('any', secret) }, body, secret)).toBe('valid');
    expect(checkSignature('azure', { authorization: basic('any', 'nope') }, body, secret)).toBe('invalid');
    expect(checkSignature('azure', { authorization: 'Bearer x' }, body, secret)).toBe('missing');
  });

  it('safeEqual compares whole strings of any length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});

describe('createDeliveryLog', () => {
  it('remembers ids and forgets the oldest beyond its limit', () => {
    const log = createDeliveryLog(3);
    expect(['a', 'b', 'c'].map((id) => log.accept(id, []))).toEqual([true, true, true]);
    expect(log.accept('a', [])).toBe(false);
    expect(log.accept('d', [])).toBe(true);
    expect(log.size).toBe(3);
    expect(log.accept('a', [])).toBe(true);
  });
});
