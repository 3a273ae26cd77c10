// The engines over their protocols: Debian's Apertium APy for real, LibreTranslate, DeepL and an OpenAI-compatible
// chat endpoint as contract tests against local stand-ins (test/helpers/mt-stand-ins.ts), and what the machinery
// adds to every engine (timeout, calls in flight, cache, batches, placeables, failures per engine).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/api/app.js';
import type { Config, MachineryConfig } from '../../src/config/config.js';
import { EngineError, Machinery } from '../../src/machinery/index.js';
import type { Store } from '../../src/store/store.js';
import { type Apertium, apertiumMissing, startApertium } from '../helpers/apertium.js';
import { rejectedWith } from '../helpers/errors.js';
import { type StandIn, chatStandIn, deeplStandIn, libreTranslateStandIn, silentStandIn } from '../helpers/mt-stand-ins.js';

const EN_ES = { source: 'en', target: 'es', sourceId: 1, targetId: 2 };
const EN_DE = { source: 'en', target: 'de', sourceId: 1, targetId: 3 };
const CTX = { projects: null, userId: null };
const LIMITS = { timeout_ms: 10_000, max_in_flight: 4 };
// engines over HTTP never read the store
const machineryOf = (config: MachineryConfig) => new Machinery({} as Store, config);

const missing = apertiumMissing();
describe.skipIf(missing !== null)('Apertium APy (Debian apertium-apy with apertium-eng-spa)', () => {
  let apy: Apertium;
  beforeAll(async () => {
    apy = await startApertium();
  }, 40_000);
  afterAll(() => apy?.close());

  it('translates English into Spanish (tms es is Apertium spa)', async () => {
    const m = machineryOf({ 'apertium-apy': { url: apy.url, ...LIMITS } });
    const answer = await m.answer('apertium-apy', 'The file was saved', EN_ES, CTX);
    expect(answer.status).toBe('ok');
    expect(answer.suggestions).toHaveLength(1);
    expect(answer.suggestions[0]!.text).toMatch(/archivo|lima|fichero/);
    expect(answer.suggestions[0]!.source).toBe('The file was saved');
  });

  it('keeps placeables Apertium would otherwise translate ({name} became {Nombre})', async () => {
    const m = machineryOf({ 'apertium-apy': { url: apy.url, ...LIMITS } });
    const s = (await m.translate('apertium-apy', ['Hello {name}, delete %s from <b>%1</b>?'], EN_ES, CTX))[0]![0]!;
    expect(s.text).toContain('{name}');
    expect(s.text).toContain('%s');
    expect(s.text).toMatch(/<b>%1<\/b>/);
    expect(s.text).not.toContain('<x');
  });

  it('answers a pair it does not have as not available, not as an error', async () => {
    const m = machineryOf({ 'apertium-apy': { url: apy.url, ...LIMITS } });
    expect(await m.answer('apertium-apy', 'Hello', EN_DE, CTX)).toMatchObject({ status: 'unavailable', suggestions: [] });
  });

  it('answers from its cache once the engine is asked the same text again', async () => {
    const own = await startApertium();
    const m = machineryOf({ 'apertium-apy': { url: own.url, ...LIMITS } });
    const first = await m.translate('apertium-apy', ['Save the document'], EN_ES, CTX);
    await own.close();
    expect(await m.translate('apertium-apy', ['Save the document'], EN_ES, CTX)).toEqual(first);
    // a text not asked before needs the engine, which is gone
    const e = await rejectedWith(EngineError, m.translate('apertium-apy', ['Close the window'], EN_ES, CTX));
    expect(e.data.engine).toBe('Apertium APy');
  }, 40_000);
});

describe('LibreTranslate (contract test against a local stand-in)', () => {
  let lt: StandIn;
  beforeAll(async () => {
    lt = await libreTranslateStandIn({ key: 'lt-secret' });
  });
  afterAll(() => lt.close());

  it('sends a batch as one call with q as a list, the key in the body, HTML format; restores placeables', async () => {
    const m = machineryOf({ libretranslate: { url: lt.url, key: 'lt-secret', ...LIMITS } });
    lt.requests.length = 0;
    const texts = Array.from({ length: 30 }, (_, i) => `String %s number ${i}`);
    const out = await m.translate('libretranslate', texts, EN_ES, CTX);
    expect(out.map((s) => s[0]!.text)).toEqual(texts.map((t) => `[es] ${t}`));
    const calls = lt.requests.filter((r) => r.line === 'POST /translate');
    // 25 a call
    expect(calls.map((c) => (c.body as { q: string[] }).q.length)).toEqual([25, 5]);
    expect(calls[0]!.body).toMatchObject({ source: 'en', target: 'es', format: 'html', api_key: 'lt-secret' });
    expect((calls[0]!.body as { q: string[] }).q[0]).toBe('String <x id="0"/> number 0');
  });

  it('maps pt_BR to pt-BR and says a language it lacks is not available', async () => {
    const m = machineryOf({ libretranslate: { url: lt.url, key: 'lt-secret', ...LIMITS } });
    expect((await m.answer('libretranslate', 'Hi', { ...EN_ES, target: 'pt_BR' }, CTX)).suggestions[0]!.text).toBe('[pt-BR] Hi');
    expect((await m.answer('libretranslate', 'Hi', { ...EN_ES, target: 'fi' }, CTX)).status).toBe('unavailable');
  });

  it('reports a wrong key as the engine failing, with the service message and without the key', async () => {
    const m = machineryOf({ libretranslate: { url: lt.url, key: 'wrong-key', ...LIMITS } });
    const answer = await m.answer('libretranslate', 'Hi', EN_ES, CTX);
    expect(answer.status).toBe('error');
    expect(answer.error).toContain('403');
    expect(answer.error).not.toContain('wrong-key');
  });
});

describe('DeepL (contract test against a local stand-in)', () => {
  let deepl: StandIn;
  beforeAll(async () => {
    deepl = await deeplStandIn('deepl-secret:fx');
  });
  afterAll(() => deepl.close());

  it('sends the key as DeepL-Auth-Key, texts as a list with XML tag handling, target languages with region', async () => {
    const m = machineryOf({ deepl: { url: `${deepl.url}/v2/`, key: 'deepl-secret:fx', formality: 'less', ...LIMITS } });
    deepl.requests.length = 0;
    const out = await m.translate('deepl', ['Open <b>%s</b>', 'Close'], { ...EN_ES, target: 'pt_BR' }, CTX);
    expect(out).toEqual([
      [{ text: '[PT-BR] Open <b>%s</b>', quality: 90, source: 'Open <b>%s</b>', origin: '' }],
      [{ text: '[PT-BR] Close', quality: 90, source: 'Close', origin: '' }],
    ]);
    const call = deepl.requests.find((r) => r.line === 'POST /v2/translate')!;
    expect(call.body).toMatchObject({ source_lang: 'EN', target_lang: 'PT-BR', tag_handling: 'xml', ignore_tags: ['x'], formality: 'less' });
    expect(call.headers.authorization).toBe('DeepL-Auth-Key deepl-secret:fx');
  });

  it('a wrong key fails this engine only', async () => {
    const m = machineryOf({
      deepl: { url: `${deepl.url}/v2/`, key: 'nope', formality: 'default', ...LIMITS },
    });
    expect(await m.answer('deepl', 'Hi', EN_ES, CTX)).toMatchObject({ status: 'error' });
  });
});

describe('OpenAI-compatible chat endpoint (contract test against a local stand-in)', () => {
  let chat: StandIn;
  let fenced: StandIn;
  beforeAll(async () => {
    chat = await chatStandIn('sk-local');
    fenced = await chatStandIn('sk-local', { fence: true });
  });
  afterAll(async () => {
    await chat.close();
    await fenced.close();
  });

  it('asks /chat/completions with the texts as a JSON list and reads the list back (fenced or not)', async () => {
    for (const server of [chat, fenced]) {
      const m = machineryOf({ openai: { base_url: `${server.url}/v1`, key: 'sk-local', model: 'llama3', persona: '', style: 'Be formal.', ...LIMITS } });
      const out = await m.translate('openai', ['Delete {count} files?', 'Quit'], EN_DE, CTX);
      expect(out.map((s) => s[0]!.text)).toEqual(['[de] Delete {count} files?', '[de] Quit']);
      const call = server.requests.at(-1)!;
      expect(call.line).toBe('POST /v1/chat/completions');
      expect(call.headers.authorization).toBe('Bearer sk-local');
      expect(call.body).toMatchObject({ model: 'llama3', temperature: 0 });
      expect(JSON.parse((call.body as { messages: { content: string }[] }).messages[1]!.content)).toEqual(['Delete <x id="0"/> files?', 'Quit']);
    }
  });
});

describe('what the machinery adds to every engine', () => {
  it('gives up on an engine that does not answer within its timeout, and the others still answer', async () => {
    const hung = await silentStandIn();
    const lt = await libreTranslateStandIn();
    try {
      const m = machineryOf({ 'apertium-apy': { url: hung.url, timeout_ms: 300, max_in_flight: 2 }, libretranslate: { url: lt.url, ...LIMITS } });
      const started = Date.now();
      const [dead, alive] = await Promise.all([m.answer('apertium-apy', 'Hi', EN_ES, CTX), m.answer('libretranslate', 'Hi', EN_ES, CTX)]);
      expect(dead).toMatchObject({ status: 'error', error: 'no answer in time' });
      expect(alive).toMatchObject({ status: 'ok', suggestions: [{ text: '[es] Hi' }] });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await hung.close();
      await lt.close();
    }
  });

  it('keeps at most max_in_flight calls running at once', async () => {
    const lt = await libreTranslateStandIn();
    try {
      lt.delayMs = 50;
      const m = machineryOf({ libretranslate: { url: lt.url, timeout_ms: 10_000, max_in_flight: 2 } });
      await m.supports('libretranslate', EN_ES);
      await Promise.all(Array.from({ length: 8 }, (_, i) => m.translate('libretranslate', [`text ${i}`], EN_ES, CTX)));
      expect(lt.maxInFlight).toBe(2);
    } finally {
      await lt.close();
    }
  });

  it('drops an answer that broke a placeable instead of offering it', async () => {
    const chat = await chatStandIn('k', { mangle: (t) => t.replace(/<x id="0"\/>/g, '') });
    try {
      const m = machineryOf({ openai: { base_url: `${chat.url}/v1`, key: 'k', model: 'm', persona: '', style: '', ...LIMITS } });
      expect(await m.translate('openai', ['Keep %s', 'Quit'], EN_ES, CTX)).toEqual([[], [{ text: '[es] Quit', quality: 90, source: 'Quit', origin: '' }]]);
    } finally {
      await chat.close();
    }
  });
});

describe("a project's engines", () => {
  it("are the site's less those it excludes, with its own, and follow the configuration in force", () => {
    const site = { 'apertium-apy': { url: 'http://127.0.0.1:1', ...LIMITS }, deepl: { url: 'http://127.0.0.1:2/', key: 'k', formality: 'default', ...LIMITS } };
    const project = { slug: 'h', machinery: { libretranslate: { url: 'http://127.0.0.1:3', ...LIMITS } }, machinery_exclude: ['deepl'] };
    let config = { machinery: site, projects: [project] } as unknown as Config;
    const services = createServices({} as Store, () => config, 'test');
    expect(services.machinery('h').configured()).toEqual(['apertium-apy', 'libretranslate']);
    expect(services.machinery().configured()).toEqual(['apertium-apy', 'deepl']);
    expect(services.machinery('h')).toBe(services.machinery('h'));
    // a configuration read again (a watched file) gives the project the engines it now says
    config = { machinery: site, projects: [{ ...project, machinery_exclude: [] }] } as unknown as Config;
    expect(services.machinery('h').configured()).toEqual(['apertium-apy', 'libretranslate', 'deepl']);
  });
});
