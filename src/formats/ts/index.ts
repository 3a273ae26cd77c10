// Placeholder until the ts format lands.
import type { Format } from '../format.js';
export const tsFormat = { id: 'ts', name: 'ts', monolingual: null, extension: 'ts', mimeType: 'application/octet-stream',
  parse() { throw new Error('ts: not yet available'); }, write() { throw new Error('ts: not yet available'); }, create() { throw new Error('ts: not yet available'); } } as unknown as Format;
