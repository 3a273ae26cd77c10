import { describe, expect, it } from 'vitest';
import { decodePayload } from '../../src/hooks/payload.js';
import { HookPayloadError, type Service, deliveryId, parseHook } from '../../src/hooks/services.js';
import { thrownBy } from '../helpers/errors.js';
import { loadFixture } from './fixtures.js';

function parse(service: Service, name: string) {
  const f = loadFixture(service, name);
  return parseHook(service, f.headers, f.body);
}

describe('payload parsing per service', () => {
  it('GitHub push: every URL form, with and without .git, sorted', () => {
    expect(parse('github', 'push')).toEqual({
      service_long_name: 'GitHub',
      repo_url: 'https://github.com/tms-test/hello',
      repos: [
        'git://github.com/tms-test/hello',
        'git://github.com/tms-test/hello.git',
        'git@github.com:tms-test/hello',
        'git@github.com:tms-test/hello.git',
        'https://github.com/tms-test/hello',
        'https://github.com/tms-test/hello.git',
      ],
      branch: 'main',
      full_name: 'tms-test/hello',
    });
  });

  it('GitHub push without clone_url: URL forms from owner.name and name', () => {
    const hook = parse('github', 'push-without-clone-url')!;
    expect(hook.repos).toContain('git@github.com:tms-test/hello.git');
    expect(hook.repos).toContain('https://github.com/tms-test/hello');
    expect(hook.repos).toContain('git://github.com/tms-test/hello.git');
    expect(hook.full_name).toBe('tms-test/hello');
  });

  it('GitHub ping and other events are no push', () => {
    expect(parse('github', 'ping')).toBeNull();
    expect(parse('github', 'issues')).toBeNull();
  });

  it('GitLab push, tag push (a ref that is no branch) and an issue (ping)', () => {
    expect(parse('gitlab', 'push')).toEqual({
      service_long_name: 'GitLab',
      repo_url: 'https://gitlab.com/tms-test/hello',
      repos: ['git@gitlab.com:tms-test/hello.git', 'https://gitlab.com/tms-test/hello.git', 'https://gitlab.com/tms-test/hello'],
      branch: 'main',
      full_name: 'tms-test/hello',
    });
    expect(parse('gitlab', 'tag-push')?.branch).toBe('refs/tags/v1.0');
    expect(parse('gitlab', 'issue')).toBeNull();
  });

  it('Bitbucket Cloud push: URL forms built for bitbucket.org from full_name', () => {
    const hook = parse('bitbucket', 'push')!;
    expect(hook.service_long_name).toBe('Bitbucket');
    expect(hook.repo_url).toBe('https://bitbucket.org/tms-test/hello');
    expect(hook.branch).toBe('main');
    expect(hook.full_name).toBe('tms-test/hello');
    expect(hook.repos).toEqual(
      expect.arrayContaining([
        'ssh://git@bitbucket.org/tms-test/hello.git',
        'git@bitbucket.org:tms-test/hello.git',
        'https://bitbucket.org/tms-test/hello.git',
      ]),
    );
    // scm is "git": no Mercurial forms
    expect(hook.repos.some((r) => r.includes('hg'))).toBe(false);
  });

  it('Bitbucket Server push: the clone links, project key and slug, branch from displayId', () => {
    expect(parse('bitbucket', 'server-push')).toEqual({
      service_long_name: 'Bitbucket',
      repo_url: 'https://bitbucket.example.com/projects/TMS/repos/hello/browse',
      repos: ['ssh://git@bitbucket.example.com:7999/tms/hello.git', 'https://bitbucket.example.com/scm/tms/hello.git'],
      branch: 'main',
      full_name: 'TMS/hello',
    });
  });

  it('Bitbucket ping and other events are no push', () => {
    expect(parse('bitbucket', 'ping')).toBeNull();
    expect(parse('bitbucket', 'issue')).toBeNull();
  });

  it('Gitea and Forgejo push: clone, ssh (also as ssh://) and html URLs', () => {
    expect(parse('gitea', 'push')).toEqual({
      service_long_name: 'Gitea',
      repo_url: 'https://gitea.example.com/tms-test/hello',
      repos: [
        'https://gitea.example.com/tms-test/hello.git',
        'git@gitea.example.com:tms-test/hello.git',
        'ssh://git@gitea.example.com/tms-test/hello.git',
        'https://gitea.example.com/tms-test/hello',
      ],
      branch: 'main',
      full_name: 'tms-test/hello',
    });
    const forgejo = parse('forgejo', 'push')!;
    expect(forgejo.service_long_name).toBe('Forgejo');
    expect(forgejo.repos[0]).toBe('https://codeberg.org/tms-test/hello.git');
    expect(parse('gitea', 'issues')).toBeNull();
    expect(parse('forgejo', 'create')).toBeNull();
  });

  it('Gitee push and an issue', () => {
    expect(parse('gitee', 'push')).toEqual({
      service_long_name: 'Gitee',
      repo_url: 'https://gitee.com/tms-test/hello',
      repos: [
        'https://gitee.com/tms-test/hello.git',
        'git@gitee.com:tms-test/hello.git',
        'git://gitee.com/tms-test/hello.git',
        'https://gitee.com/tms-test/hello',
      ],
      branch: 'main',
      full_name: 'tms-test/hello',
    });
    expect(parse('gitee', 'issue')).toBeNull();
  });

  it('Pagure git.receive and another topic', () => {
    expect(parse('pagure', 'push')).toEqual({
      service_long_name: 'Pagure',
      repo_url: 'https://pagure.io/tms/hello',
      repos: ['https://pagure.io/tms/hello', 'https://pagure.io/tms/hello.git', 'ssh://git@pagure.io/tms/hello', 'ssh://git@pagure.io/tms/hello.git'],
      branch: 'main',
      full_name: 'tms/hello',
    });
    expect(parse('pagure', 'issue')).toBeNull();
  });

  it('Azure DevOps git.push: organization from remoteUrl, project and repository forms', () => {
    const hook = parse('azure', 'push')!;
    expect(hook.service_long_name).toBe('Azure');
    expect(hook.branch).toBe('main');
    expect(hook.full_name).toBe('hello');
    expect(hook.repos).toEqual(
      expect.arrayContaining([
        'https://dev.azure.com/tms-test/Hello World/_git/hello',
        'git@ssh.dev.azure.com:v3/tms-test/Hello World/hello',
        'https://tms-test.visualstudio.com/Hello World/_git/hello',
        'tms-test@vs-ssh.visualstudio.com:v3/tms-test/Hello World/hello',
        'https://dev.azure.com/tms-test/6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c/_git/278d5cd2-584d-4b63-824a-2ba458937249',
        'https://dev.azure.com/tms-test/Hello%20World/_git/hello',
      ]),
    );
    expect(parse('azure', 'build')).toBeNull();
  });

  it('a push payload that lacks what a push carries is a HookPayloadError', () => {
    const f = loadFixture('github', 'push');
    const { ref: _ref, ...noRef } = f.body;
    expect(() => parseHook('github', f.headers, noRef)).toThrow(HookPayloadError);
    expect(thrownBy(HookPayloadError, () => parseHook('gitea', { 'x-gitea-event': 'push' }, { ref: 'refs/heads/main' })).data).toMatchObject({
      service: 'gitea',
      reason: 'missing repository.html_url',
    });
    expect(() => parseHook('github', f.headers, [1, 2])).toThrow(HookPayloadError);
  });

  it('delivery ids from each service', () => {
    const id = (service: Service, name: string) => {
      const f = loadFixture(service, name);
      return deliveryId(service, f.headers, f.body);
    };
    expect(id('github', 'push')).toBe('72d3162e-cc78-11e3-81ab-4c9367dc0958');
    expect(id('gitlab', 'push')).toBe('8e0c5f44-2a7b-4d1e-b3c9-6f2a1e0d9c8b');
    expect(id('bitbucket', 'push')).toBe('c0ffee00-1234-4abc-8def-0123456789ab');
    expect(id('bitbucket', 'server-push')).toBe('5d0c7a4e-9b8f-4e21-a3c6-7d1e2f3a4b5c');
    expect(id('gitea', 'push')).toBe('f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9');
    expect(id('forgejo', 'push')).toBe('1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9');
    expect(id('pagure', 'push')).toBe('2026-5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9');
    expect(id('azure', 'push')).toBe('03c164c2-8912-4d5e-8009-3707d5f83734');
    expect(id('gitee', 'push')).toBeUndefined();
  });
});

describe('decoding the body', () => {
  const json = JSON.stringify({ ref: 'refs/heads/main' });

  it('reads JSON, a urlencoded form and a multipart form with a payload field', () => {
    expect(decodePayload(Buffer.from(json), 'application/json')).toEqual({ ref: 'refs/heads/main' });
    expect(decodePayload(Buffer.from(`payload=${encodeURIComponent(json)}`), 'application/x-www-form-urlencoded')).toEqual({ ref: 'refs/heads/main' });
    const multipart = [
      '--XyZ',
      'Content-Disposition: form-data; name="other"',
      '',
      'x',
      '--XyZ',
      'Content-Disposition: form-data; name="payload"',
      '',
      json,
      '--XyZ--',
      '',
    ].join('\r\n');
    expect(decodePayload(Buffer.from(multipart), 'multipart/form-data; boundary=XyZ')).toEqual({ ref: 'refs/heads/main' });
  });

  it("answers Weblate's errors for a form without payload, bad JSON and an empty body", () => {
    expect(() => decodePayload(Buffer.from('other=1'), 'application/x-www-form-urlencoded')).toThrow('Missing payload parameter!');
    expect(() => decodePayload(Buffer.from('{nope'), 'application/json')).toThrow(/^JSON parse error - /);
    expect(() => decodePayload(Buffer.from(''), 'application/json')).toThrow('Invalid data in json payload!');
    expect(() => decodePayload(Buffer.from('{}'), 'application/json')).toThrow('Invalid data in json payload!');
  });
});
