// Turns target edits on JSON entries into minimal text edits, per variant (plural key sets, go-i18n objects, WebExtension messages).
import { FormatWriteError } from '../../domain/errors.js';
import { CLDR_CATEGORIES } from '../plural-tags.js';
import { type Entry, type Variant, keyToSteps } from './entries.js';
import { type Patch, type Pending, type Step, pendingObject, raw, stepsToText } from './patch.js';
import { type ScalarType, encodeScalar } from './scalars.js';
import { type JsonArray, type JsonMember, type JsonNode, type JsonObject, findMember, uniqueMembers } from './syntax.js';

const PLURAL_VARIANTS: ReadonlySet<Variant> = new Set(['i18next', 'i18nextv4', 'go-i18n-json', 'go-i18n-json-v2']);
const CATEGORY_INDEX = new Map<string, number>(CLDR_CATEGORIES.map((c, i) => [c, i]));

/** i18next v3 plural keys: `k`/`k_plural` for two forms, `k_0`…`k_{n-1}` otherwise (one form too, as i18next reads it). */
export function v3Keys(base: string, count: number): string[] {
  if (count === 2) return [base, `${base}_plural`];
  return Array.from({ length: Math.max(count, 1) }, (_, i) => `${base}_${i}`);
}

/** Applies target edits for one file through a Patch. */
export class EntryWriter {
  constructor(
    readonly variant: Variant,
    readonly patch: Patch,
    /** CLDR tags of the file's language: i18next v4 and go-i18n form order. */
    readonly tags: readonly string[],
  ) {}

  private get filename(): string {
    return this.patch.filename;
  }

  private str(value: string): Pending {
    return raw(this.patch.str(value));
  }

  private checkForms(forms: readonly string[], plural: boolean): void {
    if (forms.length > 1 && !(plural && PLURAL_VARIANTS.has(this.variant))) {
      throw new FormatWriteError(this.filename, `${this.variant} has no plurals, but ${forms.length} forms were given`);
    }
  }

  /** `{one: …, other: …}` for the file's language tags; missing forms are "". */
  private categoryObject(forms: readonly string[]): Pending {
    return pendingObject(this.tags.map((t, i) => [t, this.str(forms[i] ?? '')]));
  }

  private wantsPlural(entry: Entry | null, template: Entry | null, forms: readonly string[]): boolean {
    return PLURAL_VARIANTS.has(this.variant) && (forms.length > 1 || !!entry?.plural || !!template?.plural);
  }

  /** Sets the target of an entry that exists in the file. */
  set(entry: Entry, forms: readonly string[], template: Entry | null): void {
    const plural = this.wantsPlural(entry, template, forms);
    this.checkForms(forms, plural);
    const store = entry.store;
    if (!store) return;
    switch (store.kind) {
      case 'scalar': {
        if (plural && (this.variant === 'i18next' || this.variant === 'i18nextv4') && store.container.type === 'object') {
          const member = findMember(store.container, String(store.slot))!;
          this.patch.replaceMember(store.container, member, this.groupMembers(String(store.slot), forms));
          return;
        }
        this.patch.replace(store.node, encodeScalar(store.type, forms[0] ?? '', this.patch.style));
        return;
      }
      case 'v3': {
        if (forms.length === store.members.length) {
          store.members.forEach((m, i) => {
            this.patch.replace(m.value, this.patch.str(forms[i]!));
          });
          return;
        }
        const base = String(entry.steps[entry.steps.length - 1]);
        this.patch.replaceMember(store.parent, store.members[0]!, this.groupMembers(base, forms));
        for (const m of store.members.slice(1)) this.patch.removeMember(store.parent, m);
        return;
      }
      case 'v4':
        this.setCategories(store.parent, store.members, forms, (tag) => `${store.base}_${tag}`);
        return;
      case 'go1': {
        const t = store.translation;
        if (!t) this.patch.append(store.item, 'translation', plural ? this.categoryObject(forms) : this.str(forms[0]!));
        else this.setGoValue(t.value, store.plural, forms, plural);
        return;
      }
      case 'go2':
        this.setGoValue(store.member.value, store.plural, forms, plural);
        return;
      case 'webext':
        if (store.message) this.patch.replace(store.message.value, this.patch.str(forms[0]!));
        else this.patch.append(store.value, 'message', this.str(forms[0]!));
        return;
    }
  }

  /** go-i18n message value: a string, or an object of categories (a single form goes to `other`). */
  private setGoValue(node: JsonNode, members: Map<string, JsonMember> | undefined, forms: readonly string[], plural: boolean): void {
    if (node.type === 'object') {
      if (plural) this.setCategories(node, members ?? new Map(), forms, (t) => t);
      else this.setCategories(node, members ?? new Map(), forms, (t) => t, ['other']);
    } else if (plural) {
      this.patch.replaceWith(node, this.categoryObject(forms));
    } else {
      this.patch.replace(node, this.patch.str(forms[0]!));
    }
  }

  /**
   * Writes forms into category members of `object` (the file language's tags, or `only`):
   * present members get new values, missing ones are inserted beside their CLDR neighbours.
   * Members of categories the language does not use are left as they are.
   */
  private setCategories(
    object: JsonObject,
    present: Map<string, JsonMember>,
    forms: readonly string[],
    keyOf: (tag: string) => string,
    only?: readonly string[],
  ): void {
    const tags = only ?? this.tags;
    tags.forEach((tag, i) => {
      const text = this.patch.str(forms[i] ?? '');
      const member = present.get(tag);
      if (member) {
        this.patch.replace(member.value, text);
        return;
      }
      const index = CATEGORY_INDEX.get(tag)!;
      let before: [number, JsonMember] | undefined;
      let after: [number, JsonMember] | undefined;
      for (const [t, m] of present) {
        const k = CATEGORY_INDEX.get(t)!;
        if (k < index && (!before || k > before[0])) before = [k, m];
        if (k > index && (!after || k < after[0])) after = [k, m];
      }
      if (before) this.patch.insertAfter(object, before[1], keyOf(tag), raw(text));
      else if (after) this.patch.insertBefore(object, after[1], keyOf(tag), raw(text));
      else this.patch.append(object, keyOf(tag), raw(text));
    });
  }

  /** Empties the plural members of categories the file's language does not use (new files only). */
  clearUnusedCategories(entry: Entry): void {
    const store = entry.store;
    const members = store?.kind === 'v4' ? store.members : store?.kind === 'go1' || store?.kind === 'go2' ? store.plural : undefined;
    for (const [tag, m] of members ?? []) {
      if (!this.tags.includes(tag) && !(m.value.type === 'string' && m.value.value === '')) this.patch.replace(m.value, '""');
    }
  }

  /** The members of a new i18next plural group. */
  private groupMembers(base: string, forms: readonly string[]): Array<[string, Pending]> {
    if (this.variant === 'i18nextv4') return this.tags.map((t, i) => [`${base}_${t}`, this.str(forms[i] ?? '')]);
    return v3Keys(base, forms.length).map((k, i) => [k, this.str(forms[i] ?? '')]);
  }

  private addGroup(steps: readonly Step[], forms: readonly string[]): void {
    const base = steps[steps.length - 1];
    if (typeof base !== 'string') {
      throw new FormatWriteError(this.filename, `cannot write plural ${stepsToText(steps)}: its last step is an array index`);
    }
    const parent = steps.slice(0, -1);
    for (const [key, value] of this.groupMembers(base, forms)) this.patch.setAt([...parent, key], value);
  }

  private goItem(name: string, forms: readonly string[], plural: boolean): Pending {
    return pendingObject([
      ['id', this.str(name)],
      ['translation', plural ? this.categoryObject(forms) : this.str(forms[0]!)],
    ]);
  }

  private appendGoItem(name: string, forms: readonly string[], plural: boolean): void {
    const root = this.patch.root;
    if (root.type !== 'array') throw new FormatWriteError(this.filename, 'a go-i18n v1 file must be a JSON array');
    this.patch.append(root as JsonArray, null, this.goItem(name, forms, plural));
  }

  /**
   * Adds an entry the file lacks: cloned from the template entry (monolingual; its path, type,
   * placeholders, but not its notes), or from a typed key. New keys go to the end of their
   * parent object, with missing parents created, as Weblate adds them.
   */
  add(template: Entry | null, key: string, forms: readonly string[]): void {
    const plural = this.wantsPlural(null, template, forms);
    this.checkForms(forms, plural);
    const first = forms[0] ?? '';
    const store = template?.store;
    const steps = template ? template.steps : keyToSteps(this.variant, key);
    if (this.variant === 'go-i18n-json') {
      this.appendGoItem(store?.kind === 'go1' ? store.name : key, forms, plural);
      return;
    }
    if (this.variant === 'webextension') {
      const members: Array<[string, Pending]> = [['message', this.str(first)]];
      if (store?.kind === 'webext' && store.placeholders) members.push(['placeholders', this.clone(store.placeholders)]);
      this.patch.setAt(steps, pendingObject(members));
      return;
    }
    if (plural && (this.variant === 'i18next' || this.variant === 'i18nextv4')) {
      this.addGroup(steps, forms);
      return;
    }
    if (plural) {
      this.patch.setAt(steps, this.categoryObject(forms));
      return;
    }
    const type: ScalarType = store?.kind === 'scalar' ? store.type : 'string';
    this.patch.setAt(steps, raw(encodeScalar(type, first, this.patch.style)));
    if (this.variant === 'arb' && store?.kind === 'scalar' && store.meta && steps.length === 1) {
      const metaKey = `@${steps[0]}`;
      const root = this.patch.root;
      const kept = uniqueMembers(store.meta).filter((m) => m.key !== 'description');
      if (root.type === 'object' && !findMember(root, metaKey) && kept.length > 0) {
        this.patch.setAt([metaKey], pendingObject(kept.map((m) => [m.key, this.clone(m.value)])));
      }
    }
  }

  /** Removes an entry's keys (every duplicate of them); ARB metadata of the key goes too. */
  remove(entry: Entry): void {
    const store = entry.store;
    if (!store) return;
    const removeKeys = (object: JsonObject, keys: ReadonlySet<string>) => {
      object.members.forEach((m, i) => {
        if (keys.has(m.key)) this.patch.remove(object, i);
      });
    };
    switch (store.kind) {
      case 'scalar':
        if (store.container.type === 'array') {
          this.patch.remove(store.container, Number(store.slot));
        } else {
          const keys = new Set([String(store.slot)]);
          if (this.variant === 'arb' && store.container === this.patch.root) keys.add(`@${store.slot}`);
          removeKeys(store.container, keys);
        }
        return;
      case 'v3':
        removeKeys(store.parent, new Set(store.members.map((m) => m.key)));
        return;
      case 'v4':
        removeKeys(store.parent, new Set(CLDR_CATEGORIES.map((c) => `${store.base}_${c}`)));
        return;
      case 'go1':
        this.patch.remove(store.root, store.root.items.indexOf(store.item));
        return;
      case 'go2':
        removeKeys(store.parent, new Set([store.member.key]));
        return;
      case 'webext':
        removeKeys(this.patch.root as JsonObject, new Set([store.member.key]));
        return;
    }
  }

  /** A template node as a pending value, strings re-escaped in this file's style. */
  private clone(node: JsonNode): Pending {
    switch (node.type) {
      case 'object':
        return pendingObject(uniqueMembers(node).map((m) => [m.key, this.clone(m.value)]));
      case 'array':
        return { kind: 'array', items: new Map(node.items.map((item, i) => [i, this.clone(item)])) };
      case 'string':
        return this.str(node.value);
      case 'number':
        return raw(node.raw);
      default:
        return raw(node.type);
    }
  }
}
