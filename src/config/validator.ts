// The configuration schema's validator: the one built ahead of time beside this module when there is one (see
// scripts/build-config-validator.ts), else Ajv compiling the schema on first use.
import { createRequire } from 'node:module';
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
    const built = require('./config-validator.cjs') as ValidateFunction | { default: ValidateFunction };
    validate = typeof built === 'function' ? built : built.default;
  } catch {
    const { Ajv } = require('ajv') as typeof import('ajv');
    validate = new Ajv(AJV_OPTIONS).compile(configSchema);
  }
  return validate;
}
