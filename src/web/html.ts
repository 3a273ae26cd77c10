// HTML for the web pages: htm templates over Preact's h(), rendered to strings by preact-render-to-string (escaping included).
import { createRequire } from 'node:module';

// Preact's type declarations pull the DOM library into every file of the program (they reference lib "dom"), which
// would retype the server's own fetch and Buffer uses; the server only renders to strings, so it loads Preact
// untyped and describes the little it uses here.
const require = createRequire(import.meta.url);

/** A rendered element (Preact's VNode, opaque here). */
export interface VNode {
  readonly type: unknown;
  readonly props: unknown;
}

/** Whatever a template or a component returns. */
export type Html = VNode | string | number | null | undefined | false | Html[];

type H = (type: unknown, props: Record<string, unknown> | null, ...children: unknown[]) => VNode;
const { h } = require('preact') as { h: H };
const htm = require('htm') as { bind(h: H): (strings: TemplateStringsArray, ...values: unknown[]) => VNode | VNode[] };
const { render } = require('preact-render-to-string') as { render(node: unknown): string };

const bound = htm.bind(h);

/** Tagged-template HTML: interpolated values are escaped; nested templates and arrays compose. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): VNode {
  return bound(strings, ...values) as VNode;
}

/** A whole document. */
export function renderDocument(node: Html): string {
  return `<!doctype html>${render(node)}`;
}

/** A part of a page (the editor's script swaps it in). */
export function renderFragment(node: Html): string {
  return render(node);
}
