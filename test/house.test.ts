// The shape of the house: no import loop between files of src/ and no two top-level folders of src/ that import each other.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..', 'src');
// static imports and re-exports (type-only included) and import() with a literal specifier
const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'data' ? [] : sourceFiles(full);
    return /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [full] : [];
  });
}

/** The import graph of src/: file → the files of src/ it imports (`.js` specifiers name the `.ts` sources). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2])!;
      targets.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each as paths relative to src/. */
function loops(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(path.relative(SRC, w));
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

describe('the house', () => {
  const graph = importGraph();

  it('reads the imports it checks', () => {
    expect(graph.size).toBeGreaterThan(100);
    const server = graph.get(path.join(SRC, 'server', 'server.ts'));
    expect(server).toContain(path.join(SRC, 'web', 'app.ts'));
  });

  it('has no import loop between files of src/', () => {
    expect(loops(graph)).toEqual([]);
  });

  it('has no two top-level folders of src/ importing each other', () => {
    const arrows = new Set<string>();
    for (const [file, targets] of graph) {
      for (const t of targets) if (folderOf(file) !== folderOf(t)) arrows.add(`${folderOf(file)} -> ${folderOf(t)}`);
    }
    const mutual = [...arrows].filter((a) => {
      const [from, to] = a.split(' -> ');
      return from! < to! && arrows.has(`${to} -> ${from}`);
    });
    expect(mutual).toEqual([]);
  });

  it('opens every module with a line on what it owns (a comment on line 1, not pushed below the imports)', () => {
    const without = [...graph.keys()].filter((file) => !/^(\/\/|\/\*)/.test(readFileSync(file, 'utf8'))).map((file) => path.relative(SRC, file));
    expect(without).toEqual([]);
  });

  it('keeps SQL in the store: no statement text outside src/store/', () => {
    const statement = /[`'"]\s*(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\s/;
    const outside = [...graph.keys()]
      .filter((file) => folderOf(file) !== 'store' && statement.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC, file));
    expect(outside).toEqual([]);
  });

  it('finds a loop where there is one', () => {
    const a = path.join(SRC, 'a.ts');
    const b = path.join(SRC, 'b.ts');
    expect(
      loops(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
  });
});
