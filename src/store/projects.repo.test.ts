import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.js';
import { openDb } from './db.js';
import { applyConfig, findComponent, findProjectBySlug } from './projects.repo.js';

const config = (components: Record<string, unknown>[], name = 'Hello') =>
  parseConfig(JSON.stringify({ projects: [{ name, slug: 'hello', components }] }), '/srv/tms.config.json');
const component = (slug: string, repo = 'https://bot:s3cret@example.org/app.git') =>
  ({ name: slug, slug, repo, filemask: 'po/*.ts', file_format: 'ts' });

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
