// Path matching for the route table: a segment trie over `/api/…/{param}/` templates; static segments win over parameters.

interface Node<T> {
  static: Map<string, Node<T>>;
  param?: { name: string; node: Node<T> };
  route?: T;
}

export interface Match<T> {
  route: T;
  params: Record<string, string>;
}

function node<T>(): Node<T> {
  return { static: new Map() };
}

/** Splits `/api/units/42/` into `['api', 'units', '42']`; null when it does not end in `/`. */
function segments(path: string): string[] | null {
  if (!path.startsWith('/') || !path.endsWith('/')) return null;
  return path === '/' ? [] : path.slice(1, -1).split('/');
}

/**
 * A router over path templates such as `/api/translations/{project}/{component}/{language}/`.
 * @example const r = createRouter([{ path: '/api/units/{id}/' }]); r.match('/api/units/7/')?.params.id === '7'
 */
export function createRouter<T extends { path: string }>(routes: readonly T[]) {
  const root = node<T>();
  for (const route of routes) {
    const parts = segments(route.path);
    if (!parts) throw new Error(`route ${route.path} must start and end with /`);
    let at = root;
    for (const part of parts) {
      const param = /^\{(\w+)\}$/.exec(part);
      if (param) {
        if (at.param && at.param.name !== param[1]) throw new Error(`route ${route.path}: conflicting parameter names`);
        at.param ??= { name: param[1]!, node: node<T>() };
        at = at.param.node;
      } else {
        let next = at.static.get(part);
        if (!next) at.static.set(part, (next = node<T>()));
        at = next;
      }
    }
    if (at.route) throw new Error(`route ${route.path} defined twice`);
    at.route = route;
  }

  function walk(at: Node<T>, parts: string[], i: number, params: Record<string, string>): T | undefined {
    if (i === parts.length) return at.route;
    const part = parts[i];
    const exact = at.static.get(part!);
    if (exact) {
      const found = walk(exact, parts, i + 1, params);
      if (found) return found;
    }
    if (at.param && part !== '') {
      let value: string;
      try {
        value = decodeURIComponent(part!);
      } catch {
        return undefined;
      }
      const found = walk(at.param.node, parts, i + 1, params);
      if (found) {
        params[at.param.name] = value;
        return found;
      }
    }
    return undefined;
  }

  return {
    /** The route for a raw (still percent-encoded) path, with its decoded parameters. */
    match(path: string): Match<T> | undefined {
      const parts = segments(path);
      if (!parts) return undefined;
      const params: Record<string, string> = {};
      const route = walk(root, parts, 0, params);
      return route ? { route, params } : undefined;
    },
  };
}
