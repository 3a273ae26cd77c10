// Refusals of the write path: bad input on a field (the API answers 400 with `attr = field`) or a forbidden action (403).
import { TmsError } from '../domain/errors.js';

/**
 * A write the component does not take. `kind: 'invalid'` is bad input on `field` (400; Weblate's serializer-level
 * errors use `non_field_errors`); `kind: 'forbidden'` is an action the component refuses (403, `field` null).
 */
export class WriteRefusedError extends TmsError<{ kind: 'invalid' | 'forbidden'; field: string | null }> {}

/** Weblate's text for edits, added strings and uploads on a locked component. */
export const COMPONENT_LOCKED = 'The component is locked.';

/** Bad input on `field`. */
export function invalid(field: string, message: string): WriteRefusedError {
  return new WriteRefusedError(message, { kind: 'invalid', field });
}

/** An action the component refuses. */
export function forbidden(message: string): WriteRefusedError {
  return new WriteRefusedError(message, { kind: 'forbidden', field: null });
}
