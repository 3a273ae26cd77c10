import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqlOn } from '../../test/helpers/store.js';
import { parseConfig } from '../config/config.js';
import { applyConfig } from '../sync/config.js';
import { openStore } from './index.js';
import { findComponent, findProjectBySlug } from './projects.repo.js';

const config = (components: Record<string, unknown>[], name = 'Hello') =>
  parseConfig(JSON.stringify({ projects: [{ name, slug: 'hello', components }] }), '/srv/tms.config.json');
const component = (slug: string, repo = 'https://bot:s3cret@example.org/app.git') => ({ name: slug, slug, repo, filemask: 'po/*.ts', file_format: 'ts' });
const tempStore = () => openStore(path.join(mkdtempSync(path.join(tmpdir(), 'tms-projects-')), 'tms.sqlite'));

describe('applyConfig', () => {
  it('creates, updates in place, writes nothing when unchanged, and reports what left the configuration', async () => {
    // SQLite in memory on either suite: its total_changes() counts the rows a call wrote
    const store = await openStore(':memory:');
    const apply = (c: ReturnType<typeof config>) => store.write((tx) => applyConfig(tx, c));
    const project = () => store.read((tx) => findProjectBySlug(tx, 'hello'));
    const app = () => store.read((tx) => findComponent(tx, 'hello', 'app'));
    await apply(config([component('app'), component('web')]));
    const first = { project: (await project())!, app: (await app())! };
    const settings = JSON.parse(first.app.settings);
    expect(settings.repo).toBe('https://example.org/app.git');
    expect(JSON.stringify(settings)).not.toContain('s3cret');

    const written = () => sqlOn(store).value('SELECT total_changes()');
    const before = await written();
    await apply(config([component('app'), component('web')]));
    expect(await written()).toBe(before);

    const { removedComponents } = await apply(config([component('app', 'https://example.org/moved.git')], 'Hello!'));
    expect(await project()).toMatchObject({ id: first.project.id, name: 'Hello!' });
    expect(await app()).toMatchObject({ id: first.app.id });
    expect(JSON.parse((await app())!.settings).repo).toBe('https://example.org/moved.git');
    expect(removedComponents.map((c) => c.slug)).toEqual(['web']);
    await store.close();
  });
});

describe('applyConfig with prune', () => {
  it('deletes components that left the configuration, keeps one with uncommitted edits, and drops empty projects', async () => {
    const store = await tempStore();
    const sql = sqlOn(store);
    await store.write((tx) => applyConfig(tx, config([component('app'), component('web'), component('docs')])));
    const web = (await store.read((tx) => findComponent(tx, 'hello', 'web')))!;
    const de = await sql.value<number>("SELECT id FROM languages WHERE code = 'de'");
    await sql.run("INSERT INTO translations (component_id, language_id, language_code) VALUES (?, ?, 'de')", web.id, de);
    const translation = await sql.value<number>('SELECT id FROM translations WHERE component_id = ?', web.id);
    await sql.run("INSERT INTO units (translation_id, id_hash, content_hash, position, pending, timestamp) VALUES (?, 1, 1, 1, 1, 'x')", translation);

    const result = await store.write((tx) => applyConfig(tx, config([component('app')]), { prune: true }));
    expect(result.removedComponents.map((c) => c.slug).sort()).toEqual(['docs', 'web']);
    expect(result.keptComponents.map((c) => c.slug)).toEqual(['web']);
    expect(await store.read((tx) => findComponent(tx, 'hello', 'docs'))).toBeUndefined();
    expect(await store.read((tx) => findComponent(tx, 'hello', 'web'))).toBeDefined();
    expect(await sql.value('SELECT count(*) FROM units')).toBe(1);

    const other = parseConfig(JSON.stringify({ projects: [{ name: 'Other', slug: 'other', components: [] }] }), '/srv/tms.config.json');
    await sql.run('UPDATE units SET pending = 0');
    await store.write((tx) => applyConfig(tx, other, { prune: true }));
    expect(await store.read((tx) => findProjectBySlug(tx, 'hello'))).toBeUndefined();
    expect(await sql.value('SELECT count(*) FROM units')).toBe(0);
    await store.close();
  });
});
