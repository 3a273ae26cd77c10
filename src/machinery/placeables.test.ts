// Placeables kept away from engines: protected as numbered tags and restored, an answer that broke one refused.
import { describe, expect, it } from 'vitest';
import { protect, restore } from './placeables.js';

describe('placeables', () => {
  it('replaces format strings, markup and entities by numbered tags and escapes the rest', () => {
    const p = protect('Delete %s & %1$d of %2 <b>{name}</b> %(count)s {{user}} &nbsp;?');
    expect(p.placeables).toEqual(['%s', '%1$d', '%2', '<b>', '{name}', '</b>', '%(count)s', '{{user}}', '&nbsp;']);
    expect(p.text).toBe('Delete <x id="0"/> &amp; <x id="1"/> of <x id="2"/> <x id="3"/><x id="4"/><x id="5"/> <x id="6"/> <x id="7"/> <x id="8"/>?');
  });

  it('puts them back wherever the engine moved them, and undoes the escapes', () => {
    const p = protect('Hello {name}, delete %s & more?');
    expect(restore('¿Borrar <x id="1"/> &amp; más, <x id = "0" />?', p.placeables)).toBe('¿Borrar %s & más, {name}?');
  });

  it('refuses an answer that lost, repeated or invented a placeable', () => {
    const p = protect('%1 of %2');
    expect(restore('<x id="0"/> de', p.placeables)).toBeNull();
    expect(restore('<x id="0"/> <x id="0"/> <x id="1"/>', p.placeables)).toBeNull();
    expect(restore('<x id="0"/> <x id="1"/> <x id="2"/>', p.placeables)).toBeNull();
  });

  it('leaves a text without placeables as it is', () => {
    const p = protect('Open the file');
    expect(p).toEqual({ text: 'Open the file', placeables: [] });
    expect(restore('Abrir el archivo', p.placeables)).toBe('Abrir el archivo');
  });
});
