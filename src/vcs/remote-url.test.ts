import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialsOf, parseRemote, redactUrl } from './remote-url.js';

describe('redactUrl', () => {
  it.each([
    ['https://bot:s3cret@example.com/repo.git', 'https://example.com/repo.git'],
    ['https://TOKEN@example.com/repo.git', 'https://example.com/repo.git'],
    ['HTTPS://user:p%40ss@example.com:8443/a/b.git', 'HTTPS://example.com:8443/a/b.git'],
    ['https://user:p@ss@example.com/repo.git', 'https://example.com/repo.git'],
    ['https://example.com/users/@me/repo.git', 'https://example.com/users/@me/repo.git'],
    ['file:///srv/repo.git', 'file:///srv/repo.git'],
    ['/srv/repo.git', '/srv/repo.git'],
  ])('%s → %s', (input, output) => {
    expect(redactUrl(input)).toBe(output);
  });
});

describe('credentialsOf', () => {
  it('percent-decodes user and password', () => {
    expect(credentialsOf('https://bot%40corp:pa%3Ass%2Fw@example.com/r.git')).toEqual({ username: 'bot@corp', password: 'pa:ss/w' });
  });
  it('returns null without userinfo', () => {
    expect(credentialsOf('https://example.com/r.git')).toBeNull();
  });
  it('accepts a token alone as the username', () => {
    expect(credentialsOf('https://ghp_abc@example.com/r.git')).toEqual({ username: 'ghp_abc', password: '' });
  });
});

describe('parseRemote', () => {
  it('keeps http(s) URLs and takes their credentials out', () => {
    expect(parseRemote('https://bot:pw@example.com/r.git')).toEqual({
      transport: 'http',
      url: 'https://example.com/r.git',
      display: 'https://example.com/r.git',
      credentials: { username: 'bot', password: 'pw' },
    });
  });
  it('turns file:// URLs and paths into absolute local paths', () => {
    expect(parseRemote('file:///srv/my%20repo.git')).toMatchObject({ transport: 'local', path: '/srv/my repo.git' });
    expect(parseRemote('/srv/repo.git')).toMatchObject({ transport: 'local', path: '/srv/repo.git' });
    expect(parseRemote('../up.git', '/srv/wc')).toMatchObject({ transport: 'local', path: path.resolve('/srv/up.git') });
  });
  it.each(['git@example.com:org/repo.git', 'ssh://git@example.com/org/repo.git', 'git://example.com/repo.git'])('refuses %s', (url) => {
    expect(() => parseRemote(url)).toThrow(expect.objectContaining({ code: 'ValidationError' }));
  });
});
