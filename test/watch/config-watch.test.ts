import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Config, parseConfig } from '../../src/config/config.js';
import { type ConfigDiff, type Watcher, diffConfig, watchConfig } from '../../src/watch/config-watch.js';
import { tempDir } from '../helpers/git-repo.js';
import { sleep, waitFor } from '../helpers/wait.js';

const component = (slug: string, extra: Record<string, unknown> = {}) => ({
  name: slug,
  slug,
  repo: `https://example.org/${slug}.git`,
  filemask: 'po/*.ts',
  file_format: 'ts',
  ...extra,
});
const text = (projects: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ projects, ...extra }, null, 2);

describe('diffConfig', () => {
  const parse = (t: string) => parseConfig(t, '/srv/tms/tms.config.json');

  it('lists added, removed and changed components, project setting changes, and what needs a restart', () => {
    const before = parse(text([{ name: 'P', slug: 'p', components: [component('a'), component('b'), component('c')] }]));
    const after = parse(
      text(
        [
          { name: 'P', slug: 'p', enable_hooks: false, components: [component('a'), component('b', { branch: 'dev' }), component('d')] },
          { name: 'Q', slug: 'q', components: [component('a')] },
        ],
        { database: 'other.sqlite' },
      ),
    );
    expect(diffConfig(before, after)).toEqual({
      added: [
        { project: 'p', component: 'd' },
        { project: 'q', component: 'a' },
      ],
      removed: [{ project: 'p', component: 'c' }],
      changed: [{ project: 'p', component: 'b' }],
      projectsChanged: ['p'],
      needsRestart: ['database'],
    });
  });

  it('does not count reordered keys as a change', () => {
    const a = parse(
      JSON.stringify({
        projects: [{ name: 'P', slug: 'p', components: [{ name: 'a', slug: 'a', repo: 'https://x/a.git', filemask: '*.ts', file_format: 'ts' }] }],
      }),
    );
    const b = parse(
      JSON.stringify({
        projects: [{ components: [{ file_format: 'ts', filemask: '*.ts', repo: 'https://x/a.git', slug: 'a', name: 'a' }], slug: 'p', name: 'P' }],
      }),
    );
    expect(diffConfig(a, b)).toEqual({ added: [], removed: [], changed: [], projectsChanged: [], needsRestart: [] });
  });
});

describe('watchConfig', () => {
  let dir: string;
  let file: string;
  let watcher: Watcher | undefined;
  const changes: { config: Config; diff: ConfigDiff }[] = [];
  const invalid: Error[] = [];

  beforeEach(async () => {
    dir = await tempDir('tms-config-watch-');
    file = path.join(dir, 'tms.config.json');
    writeFileSync(file, text([{ name: 'P', slug: 'p', components: [component('a')] }]));
    changes.length = 0;
    invalid.length = 0;
    watcher = watchConfig(file, { onChange: (config, diff) => changes.push({ config, diff }), onInvalid: (e) => invalid.push(e) }, { debounceMs: 50 });
    await watcher.ready;
  });
  afterEach(async () => {
    await watcher?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('hands over a valid edit with its difference', async () => {
    writeFileSync(file, text([{ name: 'P', slug: 'p', components: [component('a'), component('b')] }]));
    await waitFor('the change', () => changes.length === 1);
    expect(changes[0]!.diff.added).toEqual([{ project: 'p', component: 'b' }]);
    expect(changes[0]!.config.projects[0]!.components.map((c) => c.slug)).toEqual(['a', 'b']);
    expect(invalid).toEqual([]);
  });

  it('reports an invalid edit and keeps comparing with the last valid configuration', async () => {
    writeFileSync(file, '{ "projects": [ { "name": "P", ');
    await waitFor('the JSON error', () => invalid.length === 1);
    expect(invalid[0]).toMatchObject({ code: 'ConfigError' });
    expect(invalid[0]!.message).toContain('not valid JSON');

    writeFileSync(file, text([{ name: 'P', slug: 'p', components: [component('a', { file_format: 'no-such-format' })] }]));
    await waitFor('the schema error', () => invalid.length === 2);
    expect((invalid[1] as Error & { data: { problems: string[] } }).data.problems[0]).toMatch(/^projects\[0\]\.components\[0\]\.file_format: must be one of/);
    expect(changes).toEqual([]);

    writeFileSync(file, text([{ name: 'P', slug: 'p', components: [component('a', { branch: 'dev' })] }]));
    await waitFor('the change', () => changes.length === 1);
    expect(changes[0]!.diff).toMatchObject({ added: [], removed: [], changed: [{ project: 'p', component: 'a' }] });
  });

  it('follows an editor that replaces the file, and reports a deleted file', async () => {
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, text([{ name: 'P', slug: 'p', components: [] }]));
    renameSync(tmp, file);
    await waitFor('the change', () => changes.length === 1);
    expect(changes[0]!.diff.removed).toEqual([{ project: 'p', component: 'a' }]);

    await rm(file);
    await waitFor('the missing file', () => invalid.length >= 1);
    expect(invalid[0]!.message).toContain('file not found');

    writeFileSync(file, text([{ name: 'P', slug: 'p', components: [component('z')] }]));
    await waitFor('the file back', () => changes.length === 2);
    expect(changes[1]!.diff.added).toEqual([{ project: 'p', component: 'z' }]);
  });

  it('ignores writes that leave the text as it was', async () => {
    const same = readFileSync(file, 'utf8');
    writeFileSync(file, text([{ name: 'P', slug: 'p', components: [component('a'), component('b')] }]));
    await waitFor('the change', () => changes.length === 1);
    writeFileSync(file, same);
    await waitFor('the change back', () => changes.length === 2);
    writeFileSync(file, same);
    await sleep(400);
    expect(changes).toHaveLength(2);
  });
});
