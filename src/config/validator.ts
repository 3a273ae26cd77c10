// The configuration schema's validator: the one built ahead of time beside this module when there is one (see
// scripts/build-config-validator.ts), else Ajv compiling the schema on first use.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { configSchema } from './schema.js';

/** Ajv's options for the configuration (the prebuilt validator is generated with the same). */
export const AJV_OPTIONS = { allErrors: true, useDefaults: true, verbose: true, strict: false } as const;

export type { ErrorObject };

const require = createRequire(import.meta.url);
let validate: ValidateFunction | undefined;

/** Validates (and fills defaults into) a parsed configuration; `errors` as Ajv gives them. */
export function configValidator(): ValidateFunction {
  if (validate) return validate;
  try {
    validate = loadPrebuilt(fileURLToPath(new URL('./config-validator.cjs', import.meta.url)));
  } catch {
    const { Ajv } = require('ajv') as typeof import('ajv');
    validate = new Ajv(AJV_OPTIONS).compile(configSchema);
  }
  return validate;
}

/**
 * The prebuilt validator (a CommonJS module), compiled with the V8 code cache the build wrote beside it when there is
 * one. Its one large function was most of a short command's configuration time: parsed when the module loaded, then
 * compiled at its first call (about 5 ms); the cache holds it compiled. V8 refuses a cache of another Node version (it
 * is compiled as usual then); one written for another source is not used.
 */
export function loadPrebuilt(file: string): ValidateFunction {
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    const cache = readFileSync(codeCacheFile(file));
    const mark = sourceMark(source);
    if (mark && cache.subarray(0, mark.length).toString('latin1') === mark) cachedData = cache.subarray(mark.length);
  } catch {
    // no cache: compiled as usual
  }
  return runPrebuilt(compilePrebuilt(file, source, cachedData), file);
}

/** Where the build writes the code cache of the prebuilt validator `file`. */
export function codeCacheFile(file: string): string {
  return file.replace(/\.cjs$/, '.cache');
}

/** The source wrapped as Node wraps a CommonJS module, compiled (with `cachedData` when given). */
export function compilePrebuilt(file: string, source: string, cachedData?: Buffer): Script {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  return new Script(wrapped, { filename: file, cachedData });
}

/** Runs a compiled prebuilt validator module; its exported function. */
export function runPrebuilt(script: Script, file: string): ValidateFunction {
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  const built = module.exports as ValidateFunction | { default: ValidateFunction };
  return typeof built === 'function' ? built : built.default;
}

/**
 * The last line of a prebuilt validator's source, `// source <hash of the rest>` (see scripts/build-config-validator.ts),
 * which its code cache starts with: a cache is used only with the source it was made from (hashing the source at
 * every start would cost more than the cache saves).
 */
export function sourceMark(source: string): string | undefined {
  return /\n(\/\/ source [0-9a-f]{64})\n$/.exec(source.slice(-100))?.[1];
}
