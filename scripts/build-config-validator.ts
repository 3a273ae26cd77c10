// Builds the configuration's validator ahead of time (Ajv standalone code) into dist/config/, so that a command
// does not load Ajv and compile the schema at every start (about 120 ms); without it, the schema is compiled then.
// Beside it, V8's code cache of the validator once it has run (see loadPrebuilt in src/config/validator.ts).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { buildSync } from 'esbuild';
import { configSchema } from '../src/config/schema.js';
import { AJV_OPTIONS, codeCacheFile, compilePrebuilt, runPrebuilt, sourceMark } from '../src/config/validator.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The validator's module source (CommonJS, so that the configuration loader can load it synchronously), with the
 * helpers it takes from Ajv's runtime bundled in (resolving the package cost a start about a millisecond), and a last
 * line marking it (see sourceMark in src/config/validator.ts).
 */
export function configValidatorSource(): string {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  const contents = standalone.default(ajv, ajv.compile(configSchema));
  const bundled = buildSync({
    stdin: { contents, resolveDir: root, sourcefile: 'config-validator.cjs', loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  }).outputFiles[0]!.text;
  return `${bundled}// source ${createHash('sha256').update(bundled).digest('hex')}\n`;
}

/**
 * V8's code cache of the validator module `file` (source `source`), taken after validating a few configurations so
 * that it holds the validating functions compiled; prefixed with the source's mark.
 */
export function configValidatorCodeCache(file: string, source: string): Buffer {
  const script = compilePrebuilt(file, source);
  const validate = runPrebuilt(script, file);
  const component = { name: 'App', slug: 'app', repo: 'https://example.test/app.git', filemask: 'po/*.po', file_format: 'po' };
  for (const sample of [{ projects: [{ name: 'Hello', slug: 'hello', components: [component] }] }, { projects: [{ components: [{}] }], bogus: 1 }]) {
    validate(sample);
  }
  const mark = sourceMark(source);
  if (!mark) throw new Error(`${file}: no source mark on its last line`);
  return Buffer.concat([Buffer.from(mark, 'latin1'), script.createCachedData()]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.join(root, 'dist', 'config');
  mkdirSync(out, { recursive: true });
  const file = path.join(out, 'config-validator.cjs');
  const source = configValidatorSource();
  writeFileSync(file, source);
  writeFileSync(codeCacheFile(file), configValidatorCodeCache(file, source));
  console.log('config validator: dist/config/config-validator.cjs (and its code cache)');
}
