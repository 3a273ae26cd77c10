// Builds the configuration's validator ahead of time (Ajv standalone code) into dist/config/, so that a command
// does not load Ajv and compile the schema at every start (about 120 ms); without it, the schema is compiled then.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { configSchema } from '../src/config/schema.js';
import { AJV_OPTIONS } from '../src/config/validator.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The validator's module source (CommonJS, so that the configuration loader can require it synchronously). */
export function configValidatorSource(): string {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  return standalone.default(ajv, ajv.compile(configSchema));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = path.join(root, 'dist', 'config');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'config-validator.cjs'), configValidatorSource());
  console.log('config validator: dist/config/config-validator.cjs');
}
