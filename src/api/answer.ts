// What a route handler returns: JSON text, or file bytes with their type.

export type Answer =
  /** JSON text, or JSON already encoded as UTF-8 (pages of records). */
  | { status?: number; json: string | Buffer; headers?: Record<string, string> }
  | { status?: number; bytes: Uint8Array; contentType: string; headers?: Record<string, string> };

/** A 200 JSON answer from already-serialized text (or its UTF-8 bytes). */
export function json(text: string | Buffer): Answer {
  return { json: text };
}

/** The JSON text of an answer (for the web pages that call API handlers and read what they answered). */
export function jsonText(answer: { json: string | Buffer }): string {
  return typeof answer.json === 'string' ? answer.json : answer.json.toString('utf8');
}
