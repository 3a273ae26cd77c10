// What each JSON variant considers a translatable entry (Translate Toolkit's units): ids, forms, notes and where they live.
import { FormatParseError } from '../../domain/errors.js';
import { CLDR_CATEGORIES, isPluralCategory } from '../plural-tags.js';
import { lineColumn } from '../text.js';
import type { Step } from './patch.js';
import { type ScalarType, displayScalar, scalarType } from './scalars.js';
import { type JsonArray, type JsonContainer, type JsonMember, type JsonNode, type JsonObject, findMember, uniqueMembers } from './syntax.js';

export type Variant = 'json' | 'json-nested' | 'i18next' | 'i18nextv4' | 'go-i18n-json' | 'go-i18n-json-v2' | 'webextension' | 'arb';

/** Where an entry's text lives in the parsed file, per variant. */
export type Store =
  /** A scalar leaf (string, number, bool, null) at `slot` of `container`; ARB keeps its `@key` metadata. */
  | { kind: 'scalar'; node: JsonNode; type: ScalarType; container: JsonContainer; slot: string | number; meta?: JsonObject }
  /** i18next v3 plural: `k`+`k_plural` or `k_0`…`k_n` members of `parent`, in form order. */
  | { kind: 'v3'; parent: JsonObject; members: JsonMember[] }
  /** i18next v4 plural: `base_<category>` members of `parent`, by category (all present ones). */
  | { kind: 'v4'; parent: JsonObject; base: string; members: Map<string, JsonMember> }
  /** go-i18n v1 array item; `plural` maps categories to members of the translation object. */
  | { kind: 'go1'; root: JsonArray; item: JsonObject; name: string; translation?: JsonMember; plural?: Map<string, JsonMember> }
  /** go-i18n v2 message: a string, or an object with description and categories. */
  | { kind: 'go2'; parent: JsonObject; member: JsonMember; plural?: Map<string, JsonMember> }
  /** WebExtension `{message, description?, placeholders?}`. */
  | { kind: 'webext'; member: JsonMember; value: JsonObject; message?: JsonMember; placeholders?: JsonObject };

export interface Entry {
  /** Translate Toolkit's id: `.app.name`, `.list[1]`, `.d_days`, `extensionName`. */
  id: string;
  /** Weblate's monolingual context: the id without one leading dot. */
  context: string;
  /** Weblate's bilingual source: the id without any leading dots. */
  key: string;
  /** Path of the value (plurals: parent path plus base name). */
  steps: Step[];
  forms: string[];
  /** Stored as plural forms (i18next groups, go-i18n category objects). */
  plural: boolean;
  note: string;
  /** Placeholder names (WebExtension and ARB), as written. */
  placeholders: string[];
  /** Null only for template entries rebuilt from units of a store parsed elsewhere. */
  store: Store | null;
}

/** Language facts the variants need while reading. */
export interface ReadLanguage {
  /** CLDR tags of the file's language (i18next v4 and go-i18n forms). */
  tags: readonly string[];
}

function makeEntry(id: string, steps: Step[], forms: string[], store: Store, extra: Partial<Entry> = {}): Entry {
  return {
    id,
    context: id.startsWith('.') ? id.slice(1) : id,
    key: id.replace(/^\.+/, ''),
    steps,
    forms,
    plural: false,
    note: '',
    placeholders: [],
    store,
    ...extra,
  };
}

/** The shown text of a scalar node; containers show as "". */
function scalarText(node: JsonNode): string {
  return node.type === 'object' || node.type === 'array' ? '' : displayScalar(node);
}

type ObjectHook = (object: JsonObject, id: string, steps: Step[], out: Entry[]) => void;

class Reader {
  readonly out: Entry[] = [];
  constructor(
    readonly text: string,
    readonly filename: string,
    readonly lang: ReadLanguage,
  ) {}

  fail(node: { start: number }, reason: string): never {
    const { line, column } = lineColumn(this.text, node.start);
    throw new FormatParseError(this.filename, line, column, reason);
  }

  /** Every scalar leaf below `node`, objects handed to `hook` when given (i18next plural grouping). */
  walk(node: JsonNode, id: string, steps: Step[], container: JsonContainer, slot: string | number, hook?: ObjectHook): void {
    if (node.type === 'object') {
      if (hook) {
        hook(node, id, steps, this.out);
      } else {
        for (const m of uniqueMembers(node)) this.walk(m.value, `${id}.${m.key}`, [...steps, m.key], node, m.key);
      }
    } else if (node.type === 'array') {
      node.items.forEach((item, i) => {
        this.walk(item, `${id}[${i}]`, [...steps, i], node, i, hook);
      });
    } else {
      this.out.push(this.scalar(node, id, steps, container, slot));
    }
  }

  scalar(node: JsonNode, id: string, steps: Step[], container: JsonContainer, slot: string | number): Entry {
    return makeEntry(id, steps, [displayScalar(node)], { kind: 'scalar', node, type: scalarType(node)!, container, slot });
  }

  /** Category → member for an object's CLDR keys, and the forms they give in the file's language. */
  categories(object: JsonObject): { members: Map<string, JsonMember>; forms: string[]; plural: boolean } {
    const members = new Map<string, JsonMember>();
    for (const m of uniqueMembers(object)) if (isPluralCategory(m.key)) members.set(m.key, m);
    const text = (m: JsonMember | undefined) => (m ? scalarText(m.value) : '');
    // an object with only `other` is a single string (one form), as Weblate shows it
    if (members.size === 0 || (members.size === 1 && members.has('other'))) {
      return { members, forms: [text(members.get('other'))], plural: false };
    }
    return { members, forms: this.lang.tags.map((t) => text(members.get(t))), plural: true };
  }
}

// ---- i18next plural grouping ---------------------------------------------------------------

const V3_INDEX = /^(.+)_(\d+)$/;

function i18nextV3Hook(reader: Reader): ObjectHook {
  const hook: ObjectHook = (object, id, steps, out) => {
    const unique = uniqueMembers(object);
    const byKey = new Map(unique.map((m) => [m.key, m]));
    const isString = (k: string) => byKey.get(k)?.value.type === 'string';
    const consumed = new Set<string>();
    for (const m of unique) {
      if (consumed.has(m.key)) continue;
      let base: string | null = null;
      let keys: string[] = [];
      if (isString(m.key) && isString(`${m.key}_plural`)) {
        base = m.key;
        keys = [m.key, `${m.key}_plural`];
      } else if (m.key.endsWith('_plural') && isString(m.key) && isString(m.key.slice(0, -7))) {
        base = m.key.slice(0, -7);
        keys = [base, m.key];
      } else {
        const match = V3_INDEX.exec(m.key);
        if (match && isString(m.key) && isString(`${match[1]}_0`)) {
          const candidate = match[1]!;
          const run: string[] = [];
          for (let n = 0; n < 10 && isString(`${candidate}_${n}`); n++) run.push(`${candidate}_${n}`);
          if (run.includes(m.key)) {
            base = candidate;
            keys = run;
          }
        }
      }
      if (base === null) {
        reader.walk(m.value, `${id}.${m.key}`, [...steps, m.key], object, m.key, hook);
        continue;
      }
      for (const k of keys) consumed.add(k);
      const members = keys.map((k) => byKey.get(k)!);
      const forms = members.map((x) => (x.value.type === 'string' ? x.value.value : ''));
      out.push(makeEntry(`${id}.${base}`, [...steps, base], forms, { kind: 'v3', parent: object, members }, { plural: true }));
    }
  };
  return hook;
}

const V4_SUFFIX = /^(.+)_(zero|one|two|few|many|other)$/;

function i18nextV4Hook(reader: Reader): ObjectHook {
  const hook: ObjectHook = (object, id, steps, out) => {
    const unique = uniqueMembers(object);
    const groups = new Map<string, Map<string, JsonMember> | null>();
    for (const m of unique) {
      const match = V4_SUFFIX.exec(m.key);
      if (!match) continue;
      const [, base, tag] = match;
      let group = groups.get(base!);
      if (group === null) continue;
      if (m.value.type !== 'string') {
        // a non-string sibling means `base` is not a plural
        groups.set(base!, null);
        continue;
      }
      if (!group) groups.set(base!, (group = new Map()));
      group.set(tag!, m);
    }
    const emitted = new Set<string>();
    for (const m of unique) {
      const match = V4_SUFFIX.exec(m.key);
      const group = match ? groups.get(match[1]!) : null;
      if (!match || !group) {
        reader.walk(m.value, `${id}.${m.key}`, [...steps, m.key], object, m.key, hook);
        continue;
      }
      const base = match[1]!;
      if (emitted.has(base)) continue;
      emitted.add(base);
      const forms = reader.lang.tags.map((t) => {
        const member = group.get(t);
        return member && member.value.type === 'string' ? member.value.value : '';
      });
      out.push(makeEntry(`${id}.${base}`, [...steps, base], forms, { kind: 'v4', parent: object, base, members: group }, { plural: true }));
    }
  };
  return hook;
}

// ---- go-i18n ------------------------------------------------------------------------------------

const GO_RESERVED = new Set(['id', 'description', 'hash', 'leftdelim', 'rightdelim', ...CLDR_CATEGORIES]);

function isGoMessage(object: JsonObject): boolean {
  return object.members.some((m) => GO_RESERVED.has(m.key.toLowerCase()));
}

function stringOf(member: JsonMember | undefined): string {
  return member && member.value.type === 'string' ? member.value.value : '';
}

function readGoV1(reader: Reader, root: JsonNode): void {
  if (root.type !== 'array') reader.fail(root, `a go-i18n v1 file must be a JSON array, found ${root.type}`);
  root.items.forEach((item, i) => {
    if (item.type !== 'object') reader.fail(item, `go-i18n v1 item ${i + 1} must be an object, found ${item.type}`);
    const idMember = findMember(item, 'id');
    if (idMember?.value.type !== 'string') reader.fail(item, `go-i18n v1 item ${i + 1} has no string "id"`);
    const name = idMember.value.value;
    const translation = findMember(item, 'translation');
    let forms = [''];
    let plural = false;
    let members: Map<string, JsonMember> | undefined;
    if (translation?.value.type === 'object') {
      const c = reader.categories(translation.value);
      ({ forms, plural, members } = c);
    } else if (translation) {
      forms = [scalarText(translation.value)];
    }
    const store: Store = { kind: 'go1', root, item, name, translation, plural: members };
    reader.out.push(makeEntry(`.${name}`, [i], forms, store, { plural, note: stringOf(findMember(item, 'description')) }));
  });
}

function readGoV2(reader: Reader, object: JsonObject, id: string, steps: Step[]): void {
  for (const m of uniqueMembers(object)) {
    const childId = `${id}.${m.key}`;
    const childSteps = [...steps, m.key];
    const v = m.value;
    if (v.type === 'object' && isGoMessage(v)) {
      const c = reader.categories(v);
      const store: Store = { kind: 'go2', parent: object, member: m, plural: c.members };
      reader.out.push(makeEntry(childId, childSteps, c.forms, store, { plural: c.plural, note: stringOf(findMember(v, 'description')) }));
    } else if (v.type === 'object') {
      readGoV2(reader, v, childId, childSteps);
    } else if (v.type === 'string') {
      reader.out.push(makeEntry(childId, childSteps, [v.value], { kind: 'go2', parent: object, member: m }));
    } else {
      reader.walk(v, childId, childSteps, object, m.key);
    }
  }
}

// ---- WebExtension and ARB ---------------------------------------------------------------------

function placeholderNames(node: JsonMember | undefined): { names: string[]; object?: JsonObject } {
  if (node?.value.type !== 'object') return { names: [] };
  return { names: uniqueMembers(node.value).map((m) => m.key), object: node.value };
}

function readWebExtension(reader: Reader, root: JsonObject): void {
  for (const m of uniqueMembers(root)) {
    const v = m.value;
    if (v.type !== 'object') reader.fail(v, `WebExtension message "${m.key}" must be an object, found ${v.type}`);
    const message = findMember(v, 'message');
    const forms = [message ? scalarText(message.value) : ''];
    const ph = placeholderNames(findMember(v, 'placeholders'));
    const store: Store = { kind: 'webext', member: m, value: v, message, placeholders: ph.object };
    reader.out.push(makeEntry(m.key, [m.key], forms, store, { note: stringOf(findMember(v, 'description')), placeholders: ph.names }));
  }
}

function readArb(reader: Reader, root: JsonObject): void {
  for (const m of uniqueMembers(root)) {
    if (m.key.startsWith('@')) continue;
    const first = reader.out.length;
    reader.walk(m.value, `.${m.key}`, [m.key], root, m.key);
    const metaMember = findMember(root, `@${m.key}`);
    const meta = metaMember?.value.type === 'object' ? metaMember.value : undefined;
    const entry = reader.out[first];
    if (!meta || !entry || reader.out.length !== first + 1 || entry.store?.kind !== 'scalar') continue;
    entry.store.meta = meta;
    entry.note = stringOf(findMember(meta, 'description'));
    entry.placeholders = placeholderNames(findMember(meta, 'placeholders')).names;
  }
}

/** Reads a parsed file's entries in document order, checking the variant's top-level shape. */
export function readEntries(variant: Variant, root: JsonNode, text: string, filename: string, lang: ReadLanguage): Entry[] {
  const reader: Reader = new Reader(text, filename, lang);
  switch (variant) {
    case 'go-i18n-json':
      readGoV1(reader, root);
      return reader.out;
    case 'go-i18n-json-v2':
    case 'webextension':
    case 'arb':
      if (root.type !== 'object') reader.fail(root, `a ${variant} file must be a JSON object, found ${root.type}`);
      if (variant === 'go-i18n-json-v2') readGoV2(reader, root, '', []);
      else if (variant === 'webextension') readWebExtension(reader, root);
      else readArb(reader, root);
      return reader.out;
    default: {
      if (root.type !== 'object' && root.type !== 'array') {
        reader.fail(root, `a ${variant} file must be a JSON object or array, found ${root.type}`);
      }
      const hook = variant === 'i18next' ? i18nextV3Hook(reader) : variant === 'i18nextv4' ? i18nextV4Hook(reader) : undefined;
      reader.walk(root, '', [], root, '', hook);
      return reader.out;
    }
  }
}

/**
 * A key typed by a user (Weblate "add string") as a path: `json` keeps it whole,
 * the other variants split on `.` and read `name[0]` as an array index.
 */
export function keyToSteps(variant: Variant, key: string): Step[] {
  if (variant !== 'json-nested' && variant !== 'i18next' && variant !== 'i18nextv4') return [key];
  const steps: Step[] = [];
  for (const part of key.split('.')) {
    const match = /^(.*?)((?:\[\d+\])+)$/.exec(part);
    if (!match) {
      steps.push(part);
      continue;
    }
    if (match[1] !== '') steps.push(match[1]!);
    for (const index of match[2]!.matchAll(/\[(\d+)\]/g)) steps.push(Number(index[1]));
  }
  return steps;
}
