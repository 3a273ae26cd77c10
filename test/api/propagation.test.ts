// Translation propagation: an edit fills the same string (source, context, language) in the project's other
// components that allow it, each recorded as its own change 77 and checked as any edit (an enforced check applies),
// never in a component that turned propagation off; an upload's translations propagate too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Action } from '../../src/domain/actions.js';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { demoFile } from '../helpers/sync-env.js';

type Unit = { id: number; source: string[]; target: string[]; state: number; pending: boolean };

describe('translation propagation', () => {
  let env: WriteEnv;
  const unitOf = async (component: string, source: string): Promise<Unit> =>
    ((await env.request('GET', `/api/translations/hello/${component}/de/units/`, { token: env.tokens.admin })).json.results as Unit[]).find(
      (u) => u.source[0] === source,
    )!;

  beforeAll(async () => {
    env = await createWriteEnv({}, {}, [
      { slug: 'copy' },
      // a translation longer than 3 characters fails an enforced check here
      { slug: 'short', settings: { check_flags: 'max-length:3', enforced_checks: ['max-length'] } },
      { slug: 'apart', settings: { allow_translation_propagation: false } },
    ]);
  }, 90_000);
  afterAll(() => env?.close());

  it('fills the same string in the other components, each a change of its own, checked as any edit', async () => {
    const quit = await unitOf('app', 'Quit');
    expect(quit.state).toBe(0);
    const r = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Beenden'], state: 20 } });
    expect(r.status).toBe(200);

    expect(await unitOf('copy', 'Quit')).toMatchObject({ target: ['Beenden'], state: 20, pending: true });
    // the enforced check made it "needs editing" there, as it would an edit made there
    expect(await unitOf('short', 'Quit')).toMatchObject({ target: ['Beenden'], state: 10 });
    expect(await unitOf('apart', 'Quit')).toMatchObject({ target: [''], state: 0 });

    for (const c of ['copy', 'short']) {
      const changes = (await env.request('GET', `/api/components/hello/${c}/changes/`, { token: env.tokens.admin })).json.results as {
        action: number;
        user: string;
        target: string;
      }[];
      const propagated = changes.filter((x) => x.action === Action.PROPAGATED_EDIT);
      expect(propagated, c).toHaveLength(1);
      expect(propagated[0]!.user).toMatch(/\/users\/jane\/$/);
      expect(propagated[0]!.target).toBe('Beenden');
    }
    const enforced = (await env.request('GET', '/api/components/hello/short/changes/', { token: env.tokens.admin })).json.results.filter(
      (x: { action: number }) => x.action === Action.ENFORCED_CHECK,
    );
    expect(enforced).toHaveLength(1);
    // the edited component records its own edit only
    const own = (await env.request('GET', '/api/components/hello/app/changes/', { token: env.tokens.admin })).json.results.map(
      (x: { action: number }) => x.action,
    );
    expect(own).not.toContain(Action.PROPAGATED_EDIT);
  });

  it('does not propagate from a component that turned propagation off', async () => {
    const open = await unitOf('apart', 'Quit');
    await env.request('PATCH', `/api/units/${open.id}/`, { token: env.tokens.jane, json: { target: ['Schließen'], state: 20 } });
    expect((await unitOf('copy', 'Quit')).target).toEqual(['Beenden']);
  });

  it("fills the same string from an uploaded file's translations (Weblate's upload propagates)", async () => {
    expect((await unitOf('copy', '&File')).target).toEqual(['&Datei']);
    const form = new FormData();
    form.set('file', new Blob([demoFile('app/translations/app_de.ts').replace('&amp;Datei', '&amp;Ablage')]), 'app_de.ts');
    form.set('method', 'translate');
    form.set('conflicts', 'replace-translated');
    const r = await fetch(`${env.origin}/api/translations/hello/app/de/file/`, {
      method: 'POST',
      headers: { Authorization: `Token ${env.tokens.mike}` },
      body: form,
    });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(((await r.json()) as { accepted: number }).accepted).toBe(1);
    expect(await unitOf('app', '&File')).toMatchObject({ target: ['&Ablage'], state: 20 });
    expect(await unitOf('copy', '&File')).toMatchObject({ target: ['&Ablage'], state: 20, pending: true });
    expect((await unitOf('apart', '&File')).target).toEqual(['&Datei']);
    const changes = (await env.request('GET', '/api/components/hello/copy/changes/', { token: env.tokens.admin })).json.results as {
      action: number;
      target: string;
    }[];
    expect(changes.filter((c) => c.action === Action.PROPAGATED_EDIT).map((c) => c.target)).toContain('&Ablage');
  });
});
