// Declarative serializers: one ordered field list per record drives both the JSON text and the OpenAPI schema.
import { jsonString, toJson } from './json.js';

/** The type of one field, as the JSON shows it and the OpenAPI schema describes it. */
export type FieldType =
  | { kind: 'string' }
  | { kind: 'integer' }
  /** Signed 64-bit integer written exactly from a BigInt. */
  | { kind: 'int64' }
  | { kind: 'boolean' }
  /** A percentage with one decimal (`100.0`). */
  | { kind: 'percent' }
  | { kind: 'url' }
  | { kind: 'timestamp' }
  /** A free-form JSON object. */
  | { kind: 'object' }
  | { kind: 'array'; items: FieldType }
  // biome-ignore lint/suspicious/noExplicitAny: a nested serializer of any row type
  | { kind: 'record'; serializer: Serializer<any, any> }
  | { kind: 'nullable'; inner: FieldType };

/** Field type constructors: `t.string`, `t.nullable(t.url)`, `t.record(languageSerializer)`. */
export const t = {
  string: { kind: 'string' } as FieldType,
  integer: { kind: 'integer' } as FieldType,
  int64: { kind: 'int64' } as FieldType,
  boolean: { kind: 'boolean' } as FieldType,
  percent: { kind: 'percent' } as FieldType,
  url: { kind: 'url' } as FieldType,
  timestamp: { kind: 'timestamp' } as FieldType,
  object: { kind: 'object' } as FieldType,
  array: (items: FieldType): FieldType => ({ kind: 'array', items }),
  // biome-ignore lint/suspicious/noExplicitAny: a nested serializer of any row type
  record: (serializer: Serializer<any, any>): FieldType => ({ kind: 'record', serializer }),
  nullable: (inner: FieldType): FieldType => ({ kind: 'nullable', inner }),
};

/** One output field: its name, type and how to read it from the row. */
export interface Field<R, C> {
  name: string;
  type: FieldType;
  get: (row: R, ctx: C) => unknown;
}

/** What every serializer context offers: a per-answer memo of records already written. */
export interface MemoContext {
  memo: Map<string, string>;
}

type Emit<C> = (value: unknown, ctx: C) => string;

function percent(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(1) : 'null';
}

function emitter<C extends MemoContext>(type: FieldType): Emit<C> {
  switch (type.kind) {
    case 'percent':
      return percent;
    case 'record': {
      const nested = type.serializer;
      return (value, ctx) => nested.write(value, ctx);
    }
    case 'nullable': {
      const inner = emitter<C>(type.inner);
      return (value, ctx) => (value === null || value === undefined ? 'null' : inner(value, ctx));
    }
    case 'array': {
      if (type.items.kind === 'record' || type.items.kind === 'percent') {
        const item = emitter<C>(type.items);
        return (value, ctx) => `[${(value as unknown[]).map((v) => item(v, ctx)).join(',')}]`;
      }
      return toJson;
    }
    default:
      return toJson;
  }
}

/** A JSON schema (OpenAPI 3.1 dialect) for a field type; nested records are `$ref`s. */
export function fieldSchema(type: FieldType): Record<string, unknown> {
  switch (type.kind) {
    case 'string':
      return { type: 'string' };
    case 'integer':
      return { type: 'integer' };
    case 'int64':
      return { type: 'integer', format: 'int64' };
    case 'boolean':
      return { type: 'boolean' };
    case 'percent':
      return { type: 'number', minimum: 0, maximum: 100, description: 'percentage with one decimal' };
    case 'url':
      return { type: 'string', format: 'uri' };
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'object':
      return { type: 'object' };
    case 'array':
      return { type: 'array', items: fieldSchema(type.items) };
    case 'record':
      return { $ref: `#/components/schemas/${type.serializer.name}` };
    case 'nullable': {
      const inner = fieldSchema(type.inner);
      if (typeof inner.type === 'string') return { ...inner, type: [inner.type, 'null'] };
      return { anyOf: [inner, { type: 'null' }] };
    }
  }
}

/**
 * Writes rows of one kind as JSON objects with the fields in declaration order.
 * A serializer with a `key` writes each record once per answer and reuses the text
 * (a component nested in fifty translations is serialized once).
 */
export class Serializer<R, C extends MemoContext> {
  private readonly compiled: { prefix: string; get: (row: R, ctx: C) => unknown; emit: Emit<C> }[];

  constructor(
    /** The schema name in the OpenAPI document. */
    readonly name: string,
    readonly fields: readonly Field<R, C>[],
    readonly options: { key?: (row: R) => string | number; description?: string } = {},
  ) {
    this.compiled = fields.map((field, i) => ({
      prefix: `${i === 0 ? '' : ','}${jsonString(field.name)}:`,
      get: field.get,
      emit: emitter<C>(field.type),
    }));
  }

  /** The record's JSON text. */
  write(row: R, ctx: C): string {
    const key = this.options.key;
    if (key) {
      const memoKey = `${this.name}:${key(row)}`;
      const cached = ctx.memo.get(memoKey);
      if (cached !== undefined) return cached;
      const text = this.writeFields(row, ctx);
      ctx.memo.set(memoKey, text);
      return text;
    }
    return this.writeFields(row, ctx);
  }

  private writeFields(row: R, ctx: C): string {
    let out = '{';
    for (const field of this.compiled) out += field.prefix + field.emit(field.get(row, ctx), ctx);
    return out + '}';
  }

  /** The same record without some fields, under another schema name (`component` inside a component's translations). */
  without(name: string, ...omit: string[]): Serializer<R, C> {
    return new Serializer(
      name,
      this.fields.filter((f) => !omit.includes(f.name)),
      this.options,
    );
  }

  /** The OpenAPI schema of the record: every field required, nothing else allowed. */
  schema(): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (const field of this.fields) properties[field.name] = fieldSchema(field.type);
    return {
      type: 'object',
      ...(this.options.description ? { description: this.options.description } : {}),
      properties,
      required: this.fields.map((f) => f.name),
      additionalProperties: false,
    };
  }

  /** Serializers nested in this one (for the OpenAPI components), this one first. */
  // biome-ignore lint/suspicious/noExplicitAny: serializers of any row type
  collect(into: Map<string, Serializer<any, any>> = new Map()): Map<string, Serializer<any, any>> {
    if (into.has(this.name)) return into;
    into.set(this.name, this);
    const visit = (type: FieldType): void => {
      if (type.kind === 'record') type.serializer.collect(into);
      else if (type.kind === 'nullable') visit(type.inner);
      else if (type.kind === 'array') visit(type.items);
    };
    for (const field of this.fields) visit(field.type);
    return into;
  }
}
