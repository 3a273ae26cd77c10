import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/config.js';
import { matchComponents } from '../../src/hooks/match.js';
import { normalizeRepoUrl } from '../../src/hooks/repo-url.js';
import { type Service, parseHook } from '../../src/hooks/services.js';
import { loadFixture } from './fixtures.js';

const component = (slug: string, repo: string, extra: Record<string, unknown> = {}) => ({
  name: slug,
  slug,
  repo,
  branch: 'main',
  filemask: 'po/*.ts',
  file_format: 'ts',
  ...extra,
});

function config(projects: { slug: string; components: unknown[]; [k: string]: unknown }[]) {
  return parseConfig(JSON.stringify({ projects: projects.map((p) => ({ name: p.slug, ...p })) }), '/srv/tms/tms.config.json');
}

function hookOf(service: Service, name = 'push') {
  const f = loadFixture(service, name);
  return parseHook(service, f.headers, f.body)!;
}

const slugs = (r: ReturnType<typeof matchComponents>) => r.matched.map((t) => `${t.project.slug}/${t.component.slug}`);

describe('normalizeRepoUrl', () => {
  it('makes the https, ssh, scp-like and git:// forms of one repository equal', () => {
    const forms = [
      'https://github.com/tms-test/hello',
      'https://github.com/tms-test/hello.git',
      'https://github.com/tms-test/hello/',
      'https://github.com/tms-test/hello.git/',
      'https://bot:s3cr3t@github.com/tms-test/hello.git',
      'https://x-access-token@GitHub.com/Tms-Test/Hello',
      'http://github.com:443/tms-test/hello',
      'ssh://git@github.com/tms-test/hello.git',
      'ssh://git@github.com:22/tms-test/hello',
      'git@github.com:tms-test/hello.git',
      'git@github.com:/tms-test/hello.git',
      'git://github.com/tms-test/hello.git',
      '  https://github.com/tms-test/hello.git  ',
    ];
    for (const form of forms) expect(normalizeRepoUrl(form), form).toBe('github.com/tms-test/hello');
  });

  it('keeps different repositories and hosts apart', () => {
    expect(normalizeRepoUrl('https://github.com/tms-test/hello2')).not.toBe(normalizeRepoUrl('https://github.com/tms-test/hello'));
    expect(normalizeRepoUrl('https://gitlab.com/tms-test/hello')).not.toBe(normalizeRepoUrl('https://github.com/tms-test/hello'));
    expect(normalizeRepoUrl('https://dev.azure.com/o/Hello%20World/_git/r')).toBe('dev.azure.com/o/hello world/_git/r');
  });

  it('is null for local paths and local components', () => {
    for (const local of ['', 'local:', '/srv/git/hello.git', './hello', 'file:///srv/git/hello.git', 'C:\\repos\\hello', 'C:/repos/hello']) {
      expect(normalizeRepoUrl(local), local).toBeNull();
    }
  });
});

describe('matching components', () => {
  it('matches each service fixture to the component configured with another URL form of the repository', () => {
    const cases: [Service, string, string][] = [
      ['github', 'push', 'git@github.com:tms-test/hello.git'],
      ['github', 'push-without-clone-url', 'https://github.com/tms-test/hello/'],
      ['gitlab', 'push', 'https://oauth2:glpat-xyz@gitlab.com/tms-test/hello.git'],
      ['bitbucket', 'push', 'https://bitbucket.org/tms-test/hello'],
      ['bitbucket', 'server-push', 'https://user:pw@bitbucket.example.com/scm/tms/hello.git'],
      ['gitea', 'push', 'ssh://git@gitea.example.com:2222/tms-test/hello.git'],
      ['forgejo', 'push', 'https://codeberg.org/tms-test/hello'],
      ['gitee', 'push', 'git@gitee.com:tms-test/hello.git'],
      ['pagure', 'push', 'https://pagure.io/tms/hello.git'],
      ['azure', 'push', 'https://tms-test@dev.azure.com/tms-test/Hello%20World/_git/hello'],
      ['azure', 'push', 'git@ssh.dev.azure.com:v3/tms-test/Hello World/hello'],
    ];
    for (const [service, fixture, repo] of cases) {
      const cfg = config([{ slug: 'p', components: [component('c', repo), component('other', 'https://github.com/someone/else.git')] }]);
      const result = matchComponents(cfg, hookOf(service, fixture));
      expect(slugs(result), `${service}/${fixture} ↔ ${repo}`).toEqual(['p/c']);
      expect(result.status).toEqual({ repository_matches: 1, branch_matches: 1, enabled_hook_matches: 1 });
    }
  });

  it('falls back to the owner/repo name only when no URL matches', () => {
    // a mirror host: no URL form matches, the name does
    const cfg = config([
      {
        slug: 'p',
        components: [
          component('mirror', 'https://git.example.org/mirrors/tms-test/hello.git'),
          component('near', 'https://git.example.org/xtms-test/hello.git'),
        ],
      },
    ]);
    expect(slugs(matchComponents(cfg, hookOf('github')))).toEqual(['p/mirror']);
    // when a URL matches, the name fallback is not used
    const both = config([
      {
        slug: 'p',
        components: [component('exact', 'https://github.com/tms-test/hello'), component('mirror', 'https://git.example.org/mirrors/tms-test/hello.git')],
      },
    ]);
    expect(slugs(matchComponents(both, hookOf('github')))).toEqual(['p/exact']);
  });

  it('filters by branch, then by enable_hooks, and explains an empty result', () => {
    const cfg = config([
      {
        slug: 'a',
        components: [component('main', 'https://github.com/tms-test/hello'), component('dev', 'https://github.com/tms-test/hello', { branch: 'dev' })],
      },
      { slug: 'b', enable_hooks: false, components: [component('main', 'https://github.com/tms-test/hello.git')] },
      { slug: 'c', components: [component('default', 'https://github.com/tms-test/hello', { branch: '' })] },
    ]);
    const result = matchComponents(cfg, hookOf('github'));
    expect(slugs(result)).toEqual(['a/main', 'c/default']);
    expect(result.status).toEqual({ repository_matches: 4, branch_matches: 3, enabled_hook_matches: 2 });
    expect(result.nearMisses).toEqual([
      { component: 'a/dev', reason: 'follows branch "dev", the push was to "main"' },
      { component: 'b/main', reason: 'hooks are disabled for project "b"' },
    ]);

    // a GitLab tag push for the same owner/repo: no URL matches, the name does, no branch does
    const tag = matchComponents(cfg, hookOf('gitlab', 'tag-push'));
    expect(tag.matched).toEqual([]);
    expect(tag.status).toMatchObject({ repository_matches: 4, branch_matches: 0, enabled_hook_matches: 0 });

    const gitlabCfg = config([{ slug: 'a', components: [component('main', 'git@gitlab.com:tms-test/hello.git')] }]);
    const tagged = matchComponents(gitlabCfg, hookOf('gitlab', 'tag-push'));
    expect(tagged.status).toMatchObject({ repository_matches: 1, branch_matches: 0, enabled_hook_matches: 0 });
    expect(tagged.status.reason).toBe('1 component(s) use https://gitlab.com/tms-test/hello, but none follows the pushed branch "refs/tags/v1.0".');

    const disabled = config([{ slug: 'b', enable_hooks: false, components: [component('main', 'https://github.com/tms-test/hello')] }]);
    expect(matchComponents(disabled, hookOf('github')).status.reason).toMatch(/hooks are disabled/);
  });

  it('explains a repository mismatch and lists near misses by repository name', () => {
    const cfg = config([
      { slug: 'p', components: [component('fork', 'https://gitlab.com/other/hello.git'), component('x', 'https://github.com/tms-test/world')] },
    ]);
    const result = matchComponents(cfg, hookOf('github'));
    expect(result.matched).toEqual([]);
    expect(result.status).toMatchObject({ repository_matches: 0, branch_matches: 0, enabled_hook_matches: 0 });
    expect(result.status.reason).toContain("No component's repository is https://github.com/tms-test/hello");
    expect(result.nearMisses).toEqual([
      { component: 'p/fork', reason: 'its repository https://gitlab.com/other/hello.git is not https://github.com/tms-test/hello' },
    ]);
  });

  it('never matches local components or local paths, and never shows credentials', () => {
    const cfg = config([
      {
        slug: 'p',
        components: [
          component('local', '', { vcs: 'local' }),
          component('path', '/srv/git/tms-test/hello.git'),
          component('creds', 'https://bot:s3cr3t@gitlab.com/x/hello.git'),
        ],
      },
    ]);
    const result = matchComponents(cfg, hookOf('github'));
    expect(result.matched).toEqual([]);
    expect(JSON.stringify(result)).not.toContain('s3cr3t');
  });
});
