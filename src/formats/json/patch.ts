// Minimal-diff editing of JSON text: value replacements, member insertions and removals, laid out like the file.
import { FormatWriteError } from '../../domain/errors.js';
import { type StringStyle, detectStyle, encodeString } from './scalars.js';
import { type JsonContainer, type JsonMember, type JsonNode, type JsonObject, findMember } from './syntax.js';

/** A value not yet in the file: ready-made JSON text, or a container whose members are still to be laid out. */
export type Pending = { kind: 'raw'; text: string } | PendingObject | PendingArray;
export interface PendingObject {
  kind: 'object';
  members: Map<string, Pending>;
}
export interface PendingArray {
  kind: 'array';
  items: Map<number, Pending>;
}
export type Step = string | number;

/** A pending value that is ready-made JSON text: `raw('"x"')`. */
export const raw = (text: string): Pending => ({ kind: 'raw', text });
/** A pending object with members in the given order. */
export const pendingObject = (entries: Array<[string, Pending]> = []): PendingObject => ({ kind: 'object', members: new Map(entries) });

interface Edit {
  start: number;
  end: number;
  text: string;
  seq: number;
}

interface Layout {
  eol: string;
  indentUnit: string;
  colon: string;
  multiline: boolean;
  inlineSep: string;
}

const DEFAULT_INDENT = '    ';

/** Collects edits against one parsed text and applies them at once; untouched bytes stay as they are. */
export class Patch {
  private readonly edits: Edit[] = [];
  private readonly removed = new Map<JsonContainer, Set<number>>();
  private readonly appended = new Map<JsonContainer, PendingObject | PendingArray>();
  private parents: Map<JsonNode, { parent: JsonContainer; index: number }> | null = null;
  private seq = 0;
  readonly style: StringStyle;
  private readonly layout: Layout;

  constructor(
    readonly text: string,
    readonly root: JsonNode,
    readonly filename: string,
  ) {
    this.style = detectStyle(text);
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    this.layout = { eol, indentUnit: DEFAULT_INDENT, colon: ': ', multiline: true, inlineSep: ' ' };
    this.detectLayout();
  }

  /** A JSON string literal in the file's escaping style. */
  str(value: string): string {
    return encodeString(value, this.style);
  }

  /** Replaces a node's text with ready-made JSON text. */
  replace(node: JsonNode, text: string): void {
    this.edits.push({ start: node.start, end: node.end, text, seq: this.seq++ });
  }

  /** Replaces a node with a value laid out for where it sits (one line inside a one-line parent). */
  replaceWith(node: JsonNode, value: Pending): void {
    const up = this.parentOf(node);
    const inline = up ? !this.separatorBefore(up.parent, up.index).sep.includes('\n') : !this.layout.multiline;
    this.replace(node, this.render(value, this.lineIndent(node.start), inline));
  }

  /** Replaces one member (key and value) with the given members, laid out like their neighbours. */
  replaceMember(object: JsonObject, member: JsonMember, members: ReadonlyArray<[string, Pending]>): void {
    const { sep, indent } = this.separatorBefore(object, object.members.indexOf(member));
    const inline = !sep.includes('\n');
    const text = members.map(([k, v]) => this.renderMember(k, v, indent, inline)).join(`,${sep}`);
    this.edits.push({ start: member.keyStart, end: member.value.end, text, seq: this.seq++ });
  }

  /** Removes an object member or array item (by index); a parent left empty by removals goes too. */
  remove(container: JsonContainer, index: number): void {
    let set = this.removed.get(container);
    if (!set) this.removed.set(container, (set = new Set()));
    set.add(index);
  }

  /** Removes one member of an object (other members with the same key stay). */
  removeMember(object: JsonObject, member: JsonMember): void {
    const index = object.members.indexOf(member);
    if (index >= 0) this.remove(object, index);
  }

  /** Inserts a new member right before an existing one, on its own line when the file is multi-line. */
  insertBefore(object: JsonObject, member: JsonMember, key: string, value: Pending): void {
    const index = object.members.indexOf(member);
    const { sep, indent } = this.separatorBefore(object, index);
    const text = this.renderMember(key, value, indent, !sep.includes('\n'));
    this.edits.push({ start: member.keyStart, end: member.keyStart, text: `${text},${sep}`, seq: this.seq++ });
  }

  /** Inserts a new member right after an existing one. */
  insertAfter(object: JsonObject, member: JsonMember, key: string, value: Pending): void {
    const index = object.members.indexOf(member);
    const { sep, indent } = this.separatorBefore(object, index);
    const text = this.renderMember(key, value, indent, !sep.includes('\n'));
    this.edits.push({ start: member.value.end, end: member.value.end, text: `,${sep}${text}`, seq: this.seq++ });
  }

  /** Appends a member (objects) or item (arrays, `key` null) at the end of an existing container. */
  append(container: JsonContainer, key: string | null, value: Pending): void {
    const pending = this.pendingFor(container);
    if (pending.kind === 'object') {
      pending.members.set(key ?? '', value);
    } else {
      const n = container.type === 'array' ? container.items.length : 0;
      pending.items.set(Math.max(n - 1, ...pending.items.keys()) + 1, value);
    }
  }

  /**
   * Puts a value at a path below the root: existing objects and arrays are entered, missing
   * ones are created at the end of their parent (arrays padded with null), the value replaces
   * an existing node at the full path.
   */
  setAt(steps: readonly Step[], value: Pending): void {
    let node: JsonNode = this.root;
    let i = 0;
    for (; i < steps.length; i++) {
      const step = steps[i];
      let next: JsonNode | undefined;
      if (typeof step === 'string') {
        if (node.type !== 'object') this.conflict(steps, i);
        next = findMember(node, step)?.value;
      } else {
        if (node.type !== 'array') this.conflict(steps, i);
        next = node.items[step!];
      }
      if (!next) break;
      node = next;
    }
    if (i === steps.length) {
      this.replaceWith(node, value);
      return;
    }
    let pending: PendingObject | PendingArray = this.pendingFor(node as JsonContainer);
    for (let j = i; j < steps.length; j++) {
      const step = steps[j];
      if (j === steps.length - 1) {
        setPending(pending, step!, value);
        break;
      }
      let child = getPending(pending, step!);
      if (!child) {
        child = typeof steps[j + 1] === 'string' ? pendingObject() : { kind: 'array', items: new Map() };
        setPending(pending, step!, child);
      }
      if (child.kind === 'raw' || (child.kind === 'object') !== (typeof steps[j + 1] === 'string')) this.conflict(steps, j + 1);
      pending = child;
    }
  }

  /** The new text with every edit applied. */
  apply(): string {
    this.resolveContainers();
    // insertions at an offset go before a replacement starting there; equal kinds keep their order
    const edits = this.edits.sort((a, b) => a.start - b.start || Number(a.end > a.start) - Number(b.end > b.start) || a.seq - b.seq);
    const kept: Edit[] = [];
    let cursor = 0;
    let lastSpan: Edit | null = null;
    for (const e of edits) {
      if (e.start < cursor) {
        // inside a span already replaced or removed: moot, except a later write of the very same span
        if (e.end <= cursor) {
          if (lastSpan && e.start === lastSpan.start && e.end === lastSpan.end) lastSpan.text = e.text;
          continue;
        }
        throw new FormatWriteError(this.filename, 'overlapping edits in one write');
      }
      kept.push(e);
      if (e.end > e.start) {
        cursor = e.end;
        lastSpan = e;
      }
    }
    let out = '';
    let at = 0;
    for (const e of kept) {
      out += this.text.slice(at, e.start) + e.text;
      at = e.end;
    }
    return out + this.text.slice(at);
  }

  // ---- layout ------------------------------------------------------------------------------

  /** Leading whitespace of the line that holds `offset`. */
  lineIndent(offset: number): string {
    const lineStart = this.text.lastIndexOf('\n', offset - 1) + 1;
    let i = lineStart;
    while (i < offset && (this.text[i] === ' ' || this.text[i] === '\t')) i++;
    return this.text.slice(lineStart, i);
  }

  /** Fills `layout` from the file: indentation unit, colon spacing, one-line or multi-line. */
  private detectLayout(): void {
    const layout = this.layout;
    const root = this.root;
    if (root.type !== 'object' && root.type !== 'array') return;
    const empty = root.type === 'object' ? root.members.length === 0 : root.items.length === 0;
    layout.multiline = empty || this.text.slice(root.start, root.end).includes('\n');
    let colonFound = false;
    let indentFound = false;
    const stack: JsonNode[] = [root];
    let visited = 0;
    while (stack.length > 0 && (!colonFound || !indentFound) && visited++ < 10_000) {
      const node = stack.shift()!;
      if (node.type !== 'object' && node.type !== 'array') continue;
      const count = node.type === 'object' ? node.members.length : node.items.length;
      if (count === 0) continue;
      if (node.type === 'object' && !colonFound) {
        const m = node.members[0];
        const between = this.text.slice(m!.keyEnd, m!.value.start);
        if (/^[ \t]*:[ \t]*$/.test(between)) {
          layout.colon = between;
          colonFound = true;
        }
      }
      if (!indentFound) {
        const { sep, indent } = this.separatorBefore(node, 0);
        if (sep.includes('\n')) {
          const outer = this.lineIndent(node.start);
          if (indent.startsWith(outer) && indent.length > outer.length) {
            layout.indentUnit = indent.slice(outer.length);
            indentFound = true;
          }
        } else if (node === root) {
          layout.inlineSep = sep;
        }
      }
      if (node.type === 'object') for (const m of node.members) stack.push(m.value);
      else stack.push(...node.items);
    }
  }

  /** The separator before entry `index` of a container ("\n" + indentation, or inline spacing) and that indentation. */
  private separatorBefore(container: JsonContainer, index: number): { sep: string; indent: string } {
    const count = container.type === 'object' ? container.members.length : container.items.length;
    if (count === 0 || index < 0) {
      if (!this.layout.multiline) return { sep: this.layout.inlineSep, indent: '' };
      const indent = this.lineIndent(container.start) + this.layout.indentUnit;
      return { sep: this.layout.eol + indent, indent };
    }
    const start = entryStart(container, index);
    const before = index === 0 ? container.start + 1 : entryEnd(container, index - 1);
    const between = this.text.slice(before, start);
    if (between.includes('\n')) {
      const indent = this.lineIndent(start);
      return { sep: this.layout.eol + indent, indent };
    }
    const afterComma = between.slice(between.lastIndexOf(',') + 1);
    const spacing = index > 0 && /^[ \t]*$/.test(afterComma) ? afterComma : this.layout.inlineSep;
    return { sep: spacing, indent: '' };
  }

  private renderMember(key: string, value: Pending, indent: string, inline = false): string {
    return `${this.str(key)}${this.layout.colon}${this.render(value, indent, inline)}`;
  }

  /** JSON text for a pending value whose first line sits at `indent` (`inline`: all on one line). */
  render(value: Pending, indent: string, inline = !this.layout.multiline): string {
    if (value.kind === 'raw') return value.text;
    const [open, close] = value.kind === 'object' ? ['{', '}'] : ['[', ']'];
    const inner = indent + this.layout.indentUnit;
    const parts = this.renderEntries(value, inner, inline, 0);
    if (parts.length === 0) return open + close;
    if (inline) return open + parts.join(`,${this.layout.inlineSep}`) + close;
    const eol = this.layout.eol;
    return `${open}${eol}${inner}${parts.join(`,${eol}${inner}`)}${eol}${indent}${close}`;
  }

  /** Rendered members of a pending container; arrays from index `from` on, gaps filled with null. */
  private renderEntries(value: PendingObject | PendingArray, indent: string, inline: boolean, from: number): string[] {
    if (value.kind === 'object') return [...value.members].map(([k, v]) => this.renderMember(k, v, indent, inline));
    if (value.items.size === 0) return [];
    const max = Math.max(...value.items.keys());
    const parts: string[] = [];
    for (let i = from; i <= max; i++) {
      const item = value.items.get(i);
      parts.push(item ? this.render(item, indent, inline) : 'null');
    }
    return parts;
  }

  // ---- containers ----------------------------------------------------------------------------

  private pendingFor(container: JsonContainer): PendingObject | PendingArray {
    let pending = this.appended.get(container);
    if (!pending) {
      pending = container.type === 'object' ? pendingObject() : { kind: 'array', items: new Map() };
      this.appended.set(container, pending);
    }
    return pending;
  }

  private conflict(steps: readonly Step[], at: number): never {
    const path = stepsToText(steps.slice(0, at)) || '(root)';
    const want = typeof steps[at] === 'number' ? 'an array' : 'an object';
    throw new FormatWriteError(this.filename, `cannot write ${stepsToText(steps)}: ${path} is not ${want} in the file`);
  }

  private parentOf(node: JsonNode): { parent: JsonContainer; index: number } | undefined {
    if (!this.parents) {
      this.parents = new Map();
      const walk = (n: JsonNode): void => {
        if (n.type === 'object') {
          n.members.forEach((m, index) => {
            this.parents!.set(m.value, { parent: n, index });
            walk(m.value);
          });
        } else if (n.type === 'array') {
          n.items.forEach((item, index) => {
            this.parents!.set(item, { parent: n, index });
            walk(item);
          });
        }
      };
      walk(this.root);
    }
    return this.parents.get(node);
  }

  /** Turns container-level removals and appends into text edits. */
  private resolveContainers(): void {
    // an object member whose value lost every member (and gains none) is removed as well
    const work = [...this.removed.keys()];
    while (work.length > 0) {
      const c = work.pop()!;
      const count = c.type === 'object' ? c.members.length : c.items.length;
      if (c === this.root || this.appended.has(c) || (this.removed.get(c)?.size ?? 0) < count) continue;
      const up = this.parentOf(c);
      if (up?.parent.type !== 'object') continue;
      const before = this.removed.get(up.parent)?.size ?? 0;
      this.remove(up.parent, up.index);
      if ((this.removed.get(up.parent)?.size ?? 0) > before) work.push(up.parent);
    }
    const containers = new Set<JsonContainer>([...this.removed.keys(), ...this.appended.keys()]);
    for (const c of containers) this.resolveContainer(c);
  }

  private resolveContainer(c: JsonContainer): void {
    const count = c.type === 'object' ? c.members.length : c.items.length;
    const gone = this.removed.get(c) ?? new Set<number>();
    const pending = this.appended.get(c);
    const kept: number[] = [];
    for (let i = 0; i < count; i++) if (!gone.has(i)) kept.push(i);
    const { sep, indent } = this.separatorBefore(c, count - 1);
    const inline = !sep.includes('\n');
    const parts = pending ? this.renderEntries(pending, indent, inline, count) : [];
    const joined = parts.join(`,${sep}`);
    if (count === 0) {
      if (parts.length === 0) return;
      const text = inline ? joined : `${sep}${joined}${this.layout.eol}${this.lineIndent(c.start)}`;
      this.edits.push({ start: c.start + 1, end: c.end - 1, text, seq: this.seq++ });
      return;
    }
    if (kept.length === 0) {
      if (parts.length === 0) this.edits.push({ start: c.start + 1, end: c.end - 1, text: '', seq: this.seq++ });
      else this.edits.push({ start: entryStart(c, 0), end: entryEnd(c, count - 1), text: joined, seq: this.seq++ });
      return;
    }
    for (let i = 0; i < count; i++) {
      if (!gone.has(i)) continue;
      let j = i;
      while (j + 1 < count && gone.has(j + 1)) j++;
      if (j + 1 < count) {
        this.edits.push({ start: entryStart(c, i), end: entryStart(c, j + 1), text: '', seq: this.seq++ });
      } else {
        this.edits.push({ start: entryEnd(c, i - 1), end: entryEnd(c, j), text: '', seq: this.seq++ });
      }
      i = j;
    }
    if (parts.length > 0) {
      const at = entryEnd(c, kept[kept.length - 1]!);
      this.edits.push({ start: at, end: at, text: `,${sep}${joined}`, seq: this.seq++ });
    }
  }
}

function entryStart(c: JsonContainer, i: number): number {
  return c.type === 'object' ? c.members[i]!.keyStart : c.items[i]!.start;
}

function entryEnd(c: JsonContainer, i: number): number {
  return c.type === 'object' ? c.members[i]!.value.end : c.items[i]!.end;
}

function getPending(p: PendingObject | PendingArray, step: Step): Pending | undefined {
  return p.kind === 'object' ? p.members.get(String(step)) : p.items.get(Number(step));
}

function setPending(p: PendingObject | PendingArray, step: Step, value: Pending): void {
  if (p.kind === 'object') p.members.set(String(step), value);
  else p.items.set(Number(step), value);
}

/** A path as Weblate renders ids: `.app.name`, `.list[1]`. */
export function stepsToText(steps: readonly Step[]): string {
  return steps.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
}
