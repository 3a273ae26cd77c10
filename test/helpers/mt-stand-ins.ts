// Local stand-ins for machine translation services that cannot be installed here (LibreTranslate, DeepL, an
// OpenAI-compatible chat endpoint): each speaks its service's documented HTTP protocol on a loopback ephemeral port,
// checks what a real one checks (key, fields) and "translates" by tagging each text with the target language, so
// tests see which text went where. They are stand-ins, not the services.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandIn {
  url: string;
  /** Requests served, as `METHOD path`, and their JSON bodies. */
  requests: { line: string; body: unknown; headers: http.IncomingHttpHeaders }[];
  /** Calls in progress at most at one time. */
  maxInFlight: number;
  /** Makes each answer wait this long first (a slow service). */
  delayMs: number;
  close(): Promise<void>;
}

type Handler = (method: string, path: string, body: unknown, headers: http.IncomingHttpHeaders) => { status: number; json: unknown };

async function serve(handler: Handler): Promise<StandIn> {
  let inFlight = 0;
  const standIn: StandIn = { url: '', requests: [], maxInFlight: 0, delayMs: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      inFlight++;
      standIn.maxInFlight = Math.max(standIn.maxInFlight, inFlight);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        body = text;
      }
      const url = new URL(req.url ?? '/', 'http://x');
      standIn.requests.push({ line: `${req.method} ${url.pathname}${url.search}`, body, headers: req.headers });
      if (standIn.delayMs > 0) await new Promise((r) => setTimeout(r, standIn.delayMs).unref());
      const answer = handler(req.method ?? 'GET', url.pathname + url.search, body, req.headers);
      inFlight--;
      if (res.destroyed) return;
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}

/** The stand-ins' "translation": the text with its target language in front (tags and all kept). */
export const fakeTranslation = (text: string, target: string) => `[${target}] ${text}`;

/** LibreTranslate's `/languages` and `/translate` (`q` a string or a list; `api_key` required when `key` is set). */
export function libreTranslateStandIn(opts: { key?: string; languages?: string[] } = {}): Promise<StandIn> {
  const codes = opts.languages ?? ['en', 'es', 'de', 'pt-BR'];
  return serve((method, path, body) => {
    if (method === 'GET' && path === '/languages')
      return { status: 200, json: codes.map((code) => ({ code, name: code, targets: codes.filter((c) => c !== code) })) };
    if (method === 'POST' && path === '/translate') {
      const b = body as { q?: unknown; source?: string; target?: string; format?: string; api_key?: string };
      if (opts.key && b.api_key !== opts.key) return { status: 403, json: { error: 'Invalid API key' } };
      if (!b.source || !b.target || !codes.includes(b.target)) return { status: 400, json: { error: `${b.target} is not supported` } };
      if (typeof b.q === 'string') return { status: 200, json: { translatedText: fakeTranslation(b.q, b.target) } };
      if (!Array.isArray(b.q)) return { status: 400, json: { error: 'Invalid request: missing q parameter' } };
      return { status: 200, json: { translatedText: b.q.map((q: string) => fakeTranslation(q, b.target!)) } };
    }
    return { status: 404, json: { error: 'Not Found' } };
  });
}

/** DeepL API v2's `/v2/languages?type=` and `/v2/translate` (`DeepL-Auth-Key` header; at most 50 texts). */
export function deeplStandIn(key: string): Promise<StandIn> {
  const sources = ['EN', 'DE', 'ES', 'PT'];
  const targets = ['EN-GB', 'EN-US', 'DE', 'ES', 'PT-BR', 'PT-PT'];
  return serve((method, path, body, headers) => {
    if (headers.authorization !== `DeepL-Auth-Key ${key}`) return { status: 403, json: { message: 'Wrong endpoint or key' } };
    if (method === 'GET' && path.startsWith('/v2/languages')) {
      const list = path.includes('type=target') ? targets : sources;
      return { status: 200, json: list.map((language) => ({ language, name: language })) };
    }
    if (method === 'POST' && path === '/v2/translate') {
      const b = body as { text?: unknown; source_lang?: string; target_lang?: string; tag_handling?: string };
      if (!Array.isArray(b.text) || b.text.length === 0 || b.text.length > 50) return { status: 400, json: { message: "Value for 'text' not supported." } };
      if (!b.target_lang || !targets.includes(b.target_lang)) return { status: 400, json: { message: "Value for 'target_lang' not supported." } };
      return {
        status: 200,
        json: { translations: b.text.map((t: string) => ({ detected_source_language: b.source_lang ?? 'EN', text: fakeTranslation(t, b.target_lang!) })) },
      };
    }
    return { status: 404, json: { message: 'Not found' } };
  });
}

/** An OpenAI-compatible `/v1/chat/completions`: the user message's JSON list translated, as the system prompt asks. */
/** `mangle` changes each translation afterwards (a model that rewrites what it was told to keep). */
export function chatStandIn(key: string, opts: { fence?: boolean; mangle?: (text: string) => string } = {}): Promise<StandIn> {
  return serve((method, path, body, headers) => {
    if (headers.authorization !== `Bearer ${key}`)
      return { status: 401, json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } };
    if (method !== 'POST' || path !== '/v1/chat/completions') return { status: 404, json: { error: { message: 'Not found' } } };
    const b = body as { model?: string; messages?: { role: string; content: string }[] };
    const system = b.messages?.find((m) => m.role === 'system')?.content ?? '';
    const user = b.messages?.find((m) => m.role === 'user')?.content ?? '[]';
    const target = /into the language with the code "([^"]+)"/.exec(system)?.[1] ?? '?';
    const list = (JSON.parse(user) as string[]).map((t) => (opts.mangle ?? ((x: string) => x))(fakeTranslation(t, target)));
    const content = opts.fence ? `\`\`\`json\n${JSON.stringify(list)}\n\`\`\`` : JSON.stringify(list);
    return {
      status: 200,
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: b.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      },
    };
  });
}

/** A service that takes the connection and never answers (a hung engine). */
export function silentStandIn(): Promise<StandIn> {
  return serve(() => ({ status: 200, json: {} })).then((s) => {
    s.delayMs = 3_600_000;
    return s;
  });
}
