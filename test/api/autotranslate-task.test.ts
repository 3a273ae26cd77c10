// Automatic translation as a background task, with a slow engine (a LibreTranslate stand-in that answers after
// 2.5 s): the request answers "in progress" with the task to follow, the component stays open to edits meanwhile,
// and a string a translator saved while the engine was thinking is left as the translator saved it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WriteEnv, createWriteEnv } from '../helpers/api-write-env.js';
import { type StandIn, libreTranslateStandIn } from '../helpers/mt-stand-ins.js';

type Unit = { id: number; source: string[]; target: string[]; state: number };

describe('automatic translation as a background task (slow LibreTranslate stand-in)', () => {
  let env: WriteEnv;
  let lt: StandIn;
  const units = async (): Promise<Unit[]> => (await env.request('GET', '/api/translations/hello/app/es/units/', { token: env.tokens.admin })).json.results;

  beforeAll(async () => {
    lt = await libreTranslateStandIn();
    env = await createWriteEnv({ machinery: { libretranslate: { url: lt.url } } }, { app: { new_base: 'translations/app_de.ts' } });
    expect((await env.request('POST', '/api/components/hello/app/translations/', { token: env.tokens.mike, json: { language_code: 'es' } })).status).toBe(201);
  }, 90_000);
  afterAll(async () => {
    await env?.close();
    await lt?.close();
  });

  it('answers in progress, keeps the component open to edits, and leaves alone a string saved meanwhile', async () => {
    lt.delayMs = 2_500;
    const started = await env.request('POST', '/api/translations/hello/app/es/autotranslate/', {
      token: env.tokens.mike,
      json: { mode: 'translate', auto_source: 'mt', engines: ['libretranslate'], threshold: 50 },
    });
    expect(started.status).toBe(200);
    expect(started.json.details).toBe('Automatic translation in progress.');
    const running = await env.request('GET', started.json.task_url, { token: env.tokens.mike });
    expect(running.json).toMatchObject({ completed: false });

    // a translator saves one of the selected strings while the engine is asked (still "needs editing": only its
    // having changed since the task read it keeps the task's result off it)
    const quit = (await units()).find((u) => u.source[0] === 'Quit')!;
    const before = performance.now();
    const edit = await env.request('PATCH', `/api/units/${quit.id}/`, { token: env.tokens.jane, json: { target: ['Salir'], state: 10 } });
    expect(edit.status).toBe(200);
    expect(performance.now() - before).toBeLessThan(1_500);
    // a second run of the same translation waits for this one
    const again = await env.request('POST', '/api/translations/hello/app/es/autotranslate/', {
      token: env.tokens.mike,
      json: { mode: 'translate', auto_source: 'mt', engines: ['libretranslate'] },
    });
    expect(again.status).toBe(400);

    let task = running.json;
    for (let i = 0; i < 100 && !task.completed; i++) {
      await new Promise((r) => setTimeout(r, 100));
      task = (await env.request('GET', started.json.task_url, { token: env.tokens.mike })).json;
    }
    // the singular strings but Quit, and the plural one form by form
    expect(task).toMatchObject({ completed: true, progress: 100, result: { updated: 4 } });
    const after = await units();
    expect(after.find((u) => u.source[0] === 'Quit')).toMatchObject({ target: ['Salir'], state: 10 });
    expect(after.find((u) => u.source[0] === 'Open a file')).toMatchObject({ target: ['[es] Open a file'], state: 20 });
    expect(after.find((u) => u.source[0] === 'About %1')).toMatchObject({ target: ['[es] About %1'], state: 20 });
    expect(after.find((u) => u.source[0] === '%n file selected')).toMatchObject({ target: ['[es] %n file selected', '[es] %n files selected'], state: 20 });
  }, 30_000);
});
