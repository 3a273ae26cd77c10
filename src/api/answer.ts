// What a route handler returns: JSON text, or file bytes with their type.

export type Answer =
  | { status?: number; json: string; headers?: Record<string, string> }
  | { status?: number; bytes: Uint8Array; contentType: string; headers?: Record<string, string> };

/** A 200 JSON answer from already-serialized text. */
export function json(text: string): Answer {
  return { json: text };
}
