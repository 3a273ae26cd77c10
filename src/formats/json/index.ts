// Placeholder until the JSON family lands.
import type { Format } from '../format.js';
export const jsonFormats: Format[] = [];
