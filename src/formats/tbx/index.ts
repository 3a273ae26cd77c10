// Placeholder until the tbx format lands.
import type { Format } from '../format.js';
export const tbxFormat = { id: 'tbx', name: 'tbx', monolingual: null, extension: 'tbx', mimeType: 'application/octet-stream',
  parse() { throw new Error('tbx: not yet available'); }, write() { throw new Error('tbx: not yet available'); }, create() { throw new Error('tbx: not yet available'); } } as unknown as Format;
