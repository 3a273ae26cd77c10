// The JSON family of formats (plain, nested, i18next v3/v4, go-i18n v1/v2, WebExtension, ARB), named as Weblate names them.
import type { Format } from '../format.js';
import { makeJsonFormat } from './json-format.js';

/** One Format per Weblate JSON format id. */
export const jsonFormats: Format[] = [
  makeJsonFormat({ id: 'json', name: 'JSON file', monolingual: null, extension: 'json', skeleton: '{}\n' }),
  makeJsonFormat({ id: 'json-nested', name: 'JSON nested structure file', monolingual: null, extension: 'json', skeleton: '{}\n' }),
  makeJsonFormat({ id: 'i18next', name: 'i18next JSON file v3', monolingual: null, extension: 'json', skeleton: '{}\n', languageCodeStyle: 'bcp' }),
  makeJsonFormat({ id: 'i18nextv4', name: 'i18next JSON file v4', monolingual: null, extension: 'json', skeleton: '{}\n', languageCodeStyle: 'bcp' }),
  makeJsonFormat({ id: 'go-i18n-json', name: 'go-i18n v1 JSON file', monolingual: null, extension: 'json', skeleton: '[]\n' }),
  makeJsonFormat({ id: 'go-i18n-json-v2', name: 'go-i18n v2 JSON file', monolingual: null, extension: 'json', skeleton: '{}\n' }),
  makeJsonFormat({ id: 'webextension', name: 'WebExtension JSON file', monolingual: true, extension: 'json', skeleton: '{}\n' }),
  makeJsonFormat({ id: 'arb', name: 'ARB file', monolingual: null, extension: 'arb', skeleton: '{}\n' }),
];
