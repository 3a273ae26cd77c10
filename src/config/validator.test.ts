import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { configValidatorCodeCache, configValidatorSource } from '../../scripts/build-config-validator.js';
import { configSchema } from './schema.js';
import { AJV_OPTIONS, codeCacheFile, compilePrebuilt, configValidator, loadPrebuilt, sourceMark } from './validator.js';

const samples: unknown[] = [
  { projects: [] },
  { projects: [{ name: 'Hello', slug: 'hello', components: [{ name: 'App', slug: 'app', repo: 'r', filemask: 'po/*.po', file_format: 'ts' }] }] },
  { projects: [{ name: 'Hello', slug: 'hello', components: [{ name: 'App', slug: 'app', filemask: 'x', file_format: 'nope', bogus: 1 }] }] },
  { database: 3, projects: 'no', extra: true },
  { projects: [{ slug: 'Bad Slug!', components: [{}] }] },
];

describe('the prebuilt configuration validator', () => {
  it('accepts, refuses and fills defaults exactly as Ajv compiling the schema at run time', () => {
    // inside the checkout, so that its requires of Ajv's runtime helpers resolve as they do from dist/config
    const cache = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const file = path.join(mkdtempSync(path.join(cache, 'tms-validator-')), 'config-validator.cjs');
    writeFileSync(file, configValidatorSource());
    const prebuilt = createRequire(import.meta.url)(file) as ValidateFunction;
    const compiled = new Ajv(AJV_OPTIONS).compile(configSchema);
    for (const sample of samples) {
      const [a, b] = [structuredClone(sample), structuredClone(sample)];
      const [okA, okB] = [prebuilt(a), compiled(b)];
      expect(okA).toBe(okB);
      // the same errors (keyword, place, parameters, the schema part the messages read) and the same defaults filled in
      const shape = (errors: ValidateFunction['errors']) =>
        (errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath, params: e.params, parentSchema: e.parentSchema }));
      expect(shape(prebuilt.errors)).toEqual(shape(compiled.errors));
      expect(a).toEqual(b);
    }
    expect(samples.some((s) => !compiled(structuredClone(s)))).toBe(true);
  });

  it('loads with the code cache made for its source (V8 takes it), and still loads beside a cache made for another source', () => {
    const cache = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    const file = path.join(mkdtempSync(path.join(cache, 'tms-validator-')), 'config-validator.cjs');
    const source = configValidatorSource();
    const mark = sourceMark(source)!;
    expect(mark).toMatch(/^\/\/ source [0-9a-f]{64}$/);
    const codeCache = configValidatorCodeCache(file, source);
    expect(codeCache.subarray(0, mark.length).toString('latin1')).toBe(mark);
    expect(compilePrebuilt(file, source, codeCache.subarray(mark.length)).cachedDataRejected).toBe(false);
    writeFileSync(file, source);
    writeFileSync(codeCacheFile(file), codeCache);
    expect(loadPrebuilt(file)({ projects: [] })).toBe(true);
    // another source (a validator rebuilt without its cache): the old cache is left alone, the source compiled as usual
    writeFileSync(file, source.replace(mark, `// source ${'0'.repeat(64)}`));
    const validate = loadPrebuilt(file);
    expect(validate({ projects: [] })).toBe(true);
    expect(validate({ projects: 1 })).toBe(false);
  });

  it('is compiled at first use when no prebuilt one sits beside the module (tests, a checkout without a build)', () => {
    const validate = configValidator();
    expect(validate({ projects: [] })).toBe(true);
    expect(validate({ projects: 1 })).toBe(false);
  });
});
