/**
 * @module
 * Strict arguments for every tool (SPEC 3.4): an argument a tool does not declare is refused, naming
 * it and the declared argument it most resembles, instead of being dropped. Dropping is what turned
 * `update_note {expectedEtag: …}` into an unguarded overwrite: a misspelt guard must never make a
 * guarded write unguarded.
 *
 * Applied once, where the server registers its tools (server.ts), so a tool added later is covered
 * without doing anything. Objects nested in the arguments (the items of a batch) are held to the
 * same rule; an object a tool declares open on purpose (`.loose()`, as query_notes' filters are,
 * whose engine names what it cannot understand) is left as it is.
 */
import * as z from 'zod';
import type * as core from 'zod/v4/core';

/** At most this many unknown keys are named in one message; a hostile call may send thousands. */
const NAMED_KEYS = 5;
/** Keys longer than this are shown cut and get no suggestion: comparing them costs their length squared. */
const KEY_SHOWN = 64;

/**
 * `schema` with every object in it closed: an undeclared key fails validation with a message naming
 * it and, when one is close, the declared key it resembles. Descriptions and checks are kept.
 *
 * @example
 * strictArguments('update_note', z.object({ expected_etag: z.string() }))
 * // {expectedEtag: "x"} fails with: unknown argument "expectedEtag": did you mean expected_etag? …
 */
export function strictArguments<T>(tool: string, schema: T): T {
  // The SDK also takes a bare shape ({key: zod schema}), which it wraps in an object itself.
  if (isZod(schema)) return closedOnce(tool, schema) as T;
  if (typeof schema === 'object' && schema !== null && Object.values(schema).every(isZod)) {
    return close(z.object(schema as Record<string, z.ZodType>), `${tool} takes`) as T;
  }
  // Another schema library: nothing to close here. Every tool of this server is written with zod.
  return schema;
}

/**
 * A tool's schema is a module constant, and a server is made per connection (per request, for
 * stateless HTTP): closing it takes milliseconds, so each schema is closed once per tool name.
 */
const closed = new WeakMap<core.$ZodType, Map<string, core.$ZodType>>();

function closedOnce(tool: string, schema: core.$ZodType): core.$ZodType {
  let byTool = closed.get(schema);
  if (byTool === undefined) {
    byTool = new Map();
    closed.set(schema, byTool);
  }
  let done = byTool.get(tool);
  if (done === undefined) {
    done = close(schema, `${tool} takes`);
    byTool.set(tool, done);
  }
  return done;
}

function isZod(value: unknown): value is core.$ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** `what` starts the sentence listing the declared keys: "update_note takes", "each item takes". */
function close(schema: core.$ZodType, what: string): core.$ZodType {
  const def = (schema as core.$ZodTypes)._zod.def;
  switch (def.type) {
    case 'object': {
      const shape: Record<string, core.$ZodType> = {};
      for (const [key, value] of Object.entries(def.shape)) shape[key] = close(value, `"${key}" takes`);
      // An open catchall set by the tool (loose, or typed) is a deliberate choice: kept.
      if (def.catchall !== undefined && def.catchall._zod.def.type !== 'never')
        return rebuild(schema, { shape });
      const declared = Object.keys(shape);
      return rebuild(schema, {
        shape,
        catchall: z.never(),
        error: unknownKeyMessage(declared, what, def.error as ErrorMap | undefined),
      });
    }
    case 'array':
      return rebuild(schema, { element: close(def.element, itemsTake(what)) });
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return rebuild(schema, { innerType: close(def.innerType, what) });
    case 'union':
      return rebuild(schema, { options: def.options.map((o) => close(o, what)) });
    case 'pipe':
      return rebuild(schema, { in: close(def.in, what) });
    default:
      return schema;
  }
}

function itemsTake(what: string): string {
  return what.endsWith(' takes') ? `each item of ${what.slice(0, -' takes'.length)} takes` : what;
}

/**
 * A copy of `schema` with parts of its definition replaced. zod keeps descriptions in its global
 * registry, keyed by the instance, so the copy is registered with the original's metadata.
 */
function rebuild(schema: core.$ZodType, patch: Record<string, unknown>): core.$ZodType {
  const copy = (schema as unknown as { clone(def: unknown): core.$ZodType }).clone({
    ...schema._zod.def,
    ...patch,
  });
  const meta = z.globalRegistry.get(schema);
  if (meta !== undefined) z.globalRegistry.add(copy, meta);
  return copy;
}

type ErrorMap = core.$ZodErrorMap;

function unknownKeyMessage(
  declared: readonly string[],
  what: string,
  previous: ErrorMap | undefined,
): ErrorMap {
  return (issue) => {
    if (issue.code !== 'unrecognized_keys') return previous?.(issue);
    const keys = issue.keys;
    const named = keys.slice(0, NAMED_KEYS).map((key) => {
      const close = resemblance(key, declared);
      return `unknown argument ${show(key)}${close === null ? '' : `: did you mean ${close}?`}`;
    });
    if (keys.length > NAMED_KEYS) named.push(`and ${keys.length - NAMED_KEYS} more unknown arguments`);
    const takes = declared.length === 0 ? `${what} no arguments` : `${what}: ${declared.join(', ')}`;
    return `${named.join('; ')} (${takes})`;
  };
}

function show(key: string): string {
  return JSON.stringify(key.length > KEY_SHOWN ? `${key.slice(0, KEY_SHOWN)}…` : key);
}

/**
 * The declared key `key` most likely stands for: the same letters in another spelling
 * (`expectedEtag`, `Expected-Etag`), a slip of a letter or two (`expected_tag`, `limt`), or a part of
 * it (`etag`). null when none is close.
 */
export function resemblance(key: string, declared: readonly string[]): string | null {
  if (key.length > KEY_SHOWN) return null;
  const k = fold(key);
  if (k === '') return null;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of declared) {
    const c = fold(candidate);
    let distance = editDistance(k, c);
    const allowed = Math.max(1, Math.floor(Math.max(k.length, c.length) / 4));
    if (distance > allowed) {
      const part = k.length >= 3 && (c.startsWith(k) || c.endsWith(k) || k.startsWith(c) || k.endsWith(c));
      if (!part) continue;
      distance = allowed + Math.abs(c.length - k.length);
    }
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Case and separators do not count: expectedEtag, expected_etag and EXPECTED-ETAG are one word. */
function fold(key: string): string {
  return key.toLowerCase().replace(/[\s_\-.]/g, '');
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (d[(i - 1) * cols + j] as number) + 1,
        (d[i * cols + j - 1] as number) + 1,
        (d[(i - 1) * cols + j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (d[(i - 2) * cols + j - 2] as number) + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1] as number;
}
