// The ?q= search language: parsing (precedence, quoting, operators, errors) and its results through the real API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_QUERY_DEPTH, SearchSyntaxError, parseUnitQuery } from '../../src/api/search.js';
import { type ApiHarness, type Json, allPages, startApi } from '../helpers/api-client.js';
import { thrownBy } from '../helpers/errors.js';

describe('parseUnitQuery', () => {
  it('reads nothing from an empty query', () => {
    expect(parseUnitQuery('')).toBeNull();
    expect(parseUnitQuery('   ')).toBeNull();
  });

  it('ANDs adjacent terms, binds NOT tighter than AND and AND tighter than OR', () => {
    expect(parseUnitQuery('a b OR NOT c')).toEqual({
      kind: 'or',
      items: [
        {
          kind: 'and',
          items: [
            { kind: 'text', fields: ['source', 'target', 'context'], match: 'contains', value: 'a' },
            { kind: 'text', fields: ['source', 'target', 'context'], match: 'contains', value: 'b' },
          ],
        },
        { kind: 'not', item: { kind: 'text', fields: ['source', 'target', 'context'], match: 'contains', value: 'c' } },
      ],
    });
    expect(parseUnitQuery('a AND (b or c)')).toMatchObject({ kind: 'and', items: [{ value: 'a' }, { kind: 'or' }] });
  });

  it('reads fields, operators, quotes, regexes and ranges', () => {
    expect(parseUnitQuery('source:"two words"')).toEqual({ kind: 'text', fields: ['source'], match: 'contains', value: 'two words' });
    expect(parseUnitQuery('target:="Exact"')).toEqual({ kind: 'text', fields: ['target'], match: 'exact', value: 'Exact' });
    expect(parseUnitQuery('key:app.title')).toEqual({ kind: 'text', fields: ['context'], match: 'contains', value: 'app.title' });
    expect(parseUnitQuery('note:r"^x+$"')).toEqual({ kind: 'text', fields: ['note'], match: 'regex', value: '^x+$' });
    expect(parseUnitQuery('state:>=translated')).toEqual({ kind: 'number', field: 'state', op: '>=', value: 20 });
    expect(parseUnitQuery('state:needs-editing')).toEqual({ kind: 'number', field: 'state', op: '=', value: 10 });
    expect(parseUnitQuery('position:[2 to 4]')).toEqual({ kind: 'range', field: 'position', from: 2, to: 4 });
    expect(parseUnitQuery('priority:<100')).toEqual({ kind: 'number', field: 'priority', op: '<', value: 100 });
    expect(parseUnitQuery('is:pending')).toEqual({ kind: 'property', property: 'pending' });
    expect(parseUnitQuery('has:suggestion')).toEqual({ kind: 'property', property: 'suggestion' });
    expect(parseUnitQuery('suggestion_author:jane')).toEqual({ kind: 'related', field: 'suggestion_author', match: 'contains', value: 'jane' });
    expect(parseUnitQuery('resolved_comment:="Done"')).toEqual({ kind: 'related', field: 'resolved_comment', match: 'exact', value: 'Done' });
    expect(parseUnitQuery('language:pt_BR')).toEqual({ kind: 'scope', field: 'language', value: 'pt_BR' });
    expect(parseUnitQuery('change_action:automatically-translated')).toEqual({ kind: 'change', action: 6 });
    expect(parseUnitQuery('change_action:"Translation approved"')).toEqual({ kind: 'change', action: 36 });
    expect(parseUnitQuery('changed_by:jane')).toEqual({ kind: 'change', author: 'jane' });
    // An unknown field name is plain text, as in Weblate ("Error: x" searches the words).
    expect(parseUnitQuery('Error:')).toEqual({ kind: 'text', fields: ['source', 'target', 'context'], match: 'contains', value: 'Error:' });
  });

  it.each([
    ['(source:a', /missing "\)"/],
    ['source:a)', /unexpected/],
    ['()', /empty parentheses/],
    ['a AND', /unexpected end/],
    ['state:done', /unknown state/],
    ['has:wings', /unknown value/],
    ['is:blue', /unknown value/],
    ['change_action:flying', /unknown change action/],
    ['source:r"("', /invalid regular expression/],
    ['position:abc', /needs a number/],
    ['source:>a', /does not take/],
    ['"open', /unterminated quote/],
    ['id:[1 2]', /range/],
    ['source:', /missing value/],
  ])('rejects %s', (query, message) => {
    expect(() => parseUnitQuery(query)).toThrow(SearchSyntaxError);
    expect(() => parseUnitQuery(query)).toThrow(message);
  });

  it(`takes parentheses and NOTs nested ${MAX_QUERY_DEPTH} deep, and refuses one more (not a stack overflow)`, () => {
    const nested = (depth: number) => `${'('.repeat(depth)}a${')'.repeat(depth)}`;
    expect(parseUnitQuery(nested(MAX_QUERY_DEPTH))).toMatchObject({ kind: 'text', value: 'a' });
    expect(parseUnitQuery(`${'NOT '.repeat(MAX_QUERY_DEPTH)}a`)).toMatchObject({ kind: 'not' });
    for (const query of [nested(MAX_QUERY_DEPTH + 1), nested(7000), `${'NOT '.repeat(7000)}a`, `${'(NOT '.repeat(3500)}a${')'.repeat(3500)}`]) {
      expect(thrownBy(SearchSyntaxError, () => parseUnitQuery(query)).data).toEqual({ query, depth: MAX_QUERY_DEPTH });
    }
  });
});

describe('?q= through the API', () => {
  let api: ApiHarness;
  let units: Json[];
  beforeAll(async () => {
    api = await startApi();
    units = await allPages(api, '/api/units/?page_size=1000', api.fixture.tokens.admin);
  });
  afterAll(() => api.close());

  const lower = (s: string) => s.toLowerCase();
  const text = (u: Json) => [...u.source, ...u.target, u.context];

  async function ids(path: string): Promise<number[]> {
    return (await allPages(api, path, api.fixture.tokens.admin)).map((u) => u.id);
  }

  function expected(path: string, keep: (u: Json) => boolean): number[] {
    const scope = /\/translations\/([^/]+)\/([^/]+)\/([^/]+)\//.exec(path);
    return units
      .filter((u) => !scope || u.translation.endsWith(`/api/translations/${scope[1]}/${scope[2]}/${scope[3]}/`))
      .filter(keep)
      .sort((a, b) => (scope ? a.position - b.position : a.id - b.id))
      .map((u) => u.id);
  }

  const cases: [string, (u: Json) => boolean][] = [
    ['source:FILE', (u) => u.source.some((s: string) => lower(s).includes('file'))],
    ['datei', (u) => text(u).some((s: string) => lower(s).includes('datei'))],
    ['"a file"', (u) => text(u).some((s: string) => lower(s).includes('a file'))],
    ['source:="Quit"', (u) => u.source.join('\x1e\x1e') === 'Quit'],
    ['source:r"^%n"', (u) => /^%n/.test(u.source[0])],
    ['state:<translated', (u) => u.state < 20],
    ['state:>=translated', (u) => u.state >= 20],
    ['state:read-only', (u) => u.state === 100],
    ['is:untranslated', (u) => u.state < 20],
    ['is:translated', (u) => u.translated],
    ['has:plural', (u) => u.source.length > 1],
    ['NOT has:plural', (u) => u.source.length === 1],
    ['has:note OR has:explanation', (u) => u.note !== '' || u.explanation !== ''],
    ['has:suggestion', (u) => u.has_suggestion],
    ['has:comment', (u) => u.has_comment],
    ['position:[2 to 3]', (u) => u.position >= 2 && u.position <= 3],
    ['(source:file OR source:quit) AND NOT state:read-only', (u) => u.state !== 100 && u.source.some((s: string) => /file|quit/i.test(s))],
    ['context:MainWindow source:open', (u) => u.context.includes('MainWindow') && u.source.some((s: string) => /open/i.test(s))],
    ['language:cs', (u) => u.translation.includes('/cs/')],
    ['component:glossary', (u) => u.translation.includes('/glossary/')],
    ['project:internal', (u) => u.translation.includes('/internal/')],
  ];

  it.each(cases)('all units: %s', async (q, keep) => {
    const path = `/api/units/?page_size=1000&q=${encodeURIComponent(q)}`;
    expect(await ids(path)).toEqual(expected(path, keep));
  });

  it.each(cases.slice(0, 16))('one translation: %s', async (q, keep) => {
    const path = `/api/translations/hello/app/de/units/?q=${encodeURIComponent(q)}`;
    const found = await ids(path);
    expect(found).toEqual(expected(path, keep));
  });

  it('finds something for most queries (the oracle is not vacuous)', () => {
    const nonEmpty = cases.filter(([, keep]) => units.some(keep));
    expect(nonEmpty.length).toBeGreaterThanOrEqual(cases.length - 2);
  });

  it('answers a query that does not parse with 400 on q', async () => {
    const r = await api.get('/api/units/?q=state%3Adone');
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      type: 'validation_error',
      errors: [{ code: 'invalid', detail: 'Could not parse query string: unknown state "done" at position 1', attr: 'q' }],
    });
  });

  it('answers 7,000 nested parentheses with 400 on q naming the limit, not 500 (a stack overflow)', async () => {
    // (what fits in node:http's 16 KiB request head)
    for (const q of [`${'('.repeat(7000)}a${')'.repeat(7000)}`, `${'NOT '.repeat(2000)}a`]) {
      const r = await api.get(`/api/units/?q=${encodeURIComponent(q)}`);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ type: 'validation_error', errors: [{ code: 'invalid', attr: 'q' }] });
      expect(r.json.errors[0].detail).toContain(`nested more than ${MAX_QUERY_DEPTH} levels deep`);
    }
  });

  it('answers a long flat query (1,500 terms) without a database error', async () => {
    for (const q of [Array(1500).fill('a').join(' AND '), Array(1500).fill('a').join(' OR '), Array(1500).fill('a').join(' ')]) {
      const r = await api.get(`/api/units/?q=${encodeURIComponent(q)}`);
      expect(r.status, r.text.slice(0, 300)).toBe(200);
    }
  });
});
