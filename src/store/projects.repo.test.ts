import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.js';
import { openDb } from './db.js';
import { applyConfig, findComponent, findProjectBySlug } from './projects.repo.js';

const config = (components: Record<string, unknown>[], name = 'Hello') =>
  parseConfig(JSON.stringify({ projects: [{ name, slug: 'hello', components }] }), '/srv/tms.config.json');
const component = (slug: string, repo = 'https://bot:s3cret@example.org/app.git') => ({ name: slug, slug, repo, filemask: 'po/*.ts', file_format: 'ts' });

describe('applyConfig', () => {
  it('creates, updates in place, writes nothing when unchanged, and reports what left the configuration', () => {
    const db = openDb(':memory:');
    applyConfig(db, config([component('app'), component('web')]));
    const project = findProjectBySlug(db, 'hello')!;
    const app = findComponent(db, 'hello', 'app')!;
    const settings = JSON.parse(app.settings);
    expect(settings.repo).toBe('https://example.org/app.git');
    expect(JSON.stringify(settings)).not.toContain('s3cret');

    const before = db.prepare('SELECT total_changes()').pluck().get() as number;
    applyConfig(db, config([component('app'), component('web')]));
    expect(db.prepare('SELECT total_changes()').pluck().get()).toBe(before);

    const { removedComponents } = applyConfig(db, config([component('app', 'https://example.org/moved.git')], 'Hello!'));
    expect(findProjectBySlug(db, 'hello')).toMatchObject({ id: project.id, name: 'Hello!' });
    expect(findComponent(db, 'hello', 'app')).toMatchObject({ id: app.id });
    expect(JSON.parse(findComponent(db, 'hello', 'app')!.settings).repo).toBe('https://example.org/moved.git');
    expect(removedComponents.map((c) => c.slug)).toEqual(['web']);
  });
});

describe('applyConfig with prune', () => {
  it('deletes components that left the configuration, keeps one with uncommitted edits, and drops empty projects', () => {
    const db = openDb(':memory:');
    applyConfig(db, config([component('app'), component('web'), component('docs')]));
    db.prepare("INSERT INTO languages (id, code, name, plural_number, plural_formula, plural_type) VALUES (1, 'de', 'German', 2, 'n != 1', 1)").run();
    const web = findComponent(db, 'hello', 'web')!;
    const translation = Number(
      db.prepare("INSERT INTO translations (component_id, language_id, language_code) VALUES (?, 1, 'de')").run(web.id).lastInsertRowid,
    );
    db.prepare("INSERT INTO units (translation_id, id_hash, content_hash, position, pending, timestamp) VALUES (?, 1, 1, 1, 1, 'x')").run(translation);

    const result = applyConfig(db, config([component('app')]), { prune: true });
    expect(result.removedComponents.map((c) => c.slug).sort()).toEqual(['docs', 'web']);
    expect(result.keptComponents.map((c) => c.slug)).toEqual(['web']);
    expect(findComponent(db, 'hello', 'docs')).toBeUndefined();
    expect(findComponent(db, 'hello', 'web')).toBeDefined();
    expect(db.prepare('SELECT count(*) FROM units').pluck().get()).toBe(1);

    const other = parseConfig(JSON.stringify({ projects: [{ name: 'Other', slug: 'other', components: [] }] }), '/srv/tms.config.json');
    db.prepare('UPDATE units SET pending = 0').run();
    applyConfig(db, other, { prune: true });
    expect(findProjectBySlug(db, 'hello')).toBeUndefined();
    expect(db.prepare('SELECT count(*) FROM units').pluck().get()).toBe(0);
  });
});
