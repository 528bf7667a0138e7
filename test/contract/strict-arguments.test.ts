import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resemblance } from '../../src/mcp/strict-arguments.js';
import { openTestVault, snapshot, type TestVault } from '../helpers/vault.js';

/**
 * SPEC 3.4, issue 18: an argument a tool does not declare is refused with validation_error, naming
 * it and the declared argument it resembles, and nothing is written. The walk below takes every
 * tool of the contract file (test/contract/tools.contract.json), so a tool added later is covered
 * without touching this test.
 */

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  minItems?: number;
  minLength?: number;
  minimum?: number;
  additionalProperties?: unknown;
}

interface ContractTool {
  name: string;
  inputSchema: JsonSchema;
}

const contract = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'tools.contract.json'), 'utf8'),
) as ContractTool[];

/** Values that name things present in the vault below, so that a call is about something real. */
const MEANINGFUL: Record<string, unknown> = {
  name: 'inbox/a',
  folder: 'inbox',
  new_name: 'moved/a',
  new_folder: 'moved',
  content: 'replaced text',
  query: 'apple',
  tag: 'fruit',
  title: 'Plan',
};

/** A value the schema accepts: the required properties only, the simplest of each type. */
function sample(schema: JsonSchema, key = ''): unknown {
  if (schema.anyOf) return sample(schema.anyOf[0] as JsonSchema, key);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const required of schema.required ?? []) {
        out[required] = sample(schema.properties?.[required] ?? {}, required);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, (_, i) => sample(schema.items ?? {}, `${key}${i}`));
    case 'string':
      return typeof MEANINGFUL[key] === 'string' ? MEANINGFUL[key] : 'x'.repeat(schema.minLength ?? 1);
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return 'x';
  }
}

/** A misspelling of one declared argument, and the argument the refusal should point to. */
function misspelling(declared: readonly string[]): { wrong: string; meant: string | null } {
  if (declared.includes('expected_etag')) return { wrong: 'expectedEtag', meant: 'expected_etag' };
  const snake = declared.find((k) => k.includes('_'));
  if (snake) return { wrong: snake.replace(/_(.)/g, (_, c: string) => c.toUpperCase()), meant: snake };
  const first = declared[0];
  if (first !== undefined && first.length >= 3) {
    return { wrong: `${first.slice(0, -2)}${first.at(-1)}${first.at(-2)}`, meant: first };
  }
  return { wrong: 'limit', meant: null };
}

let v: TestVault;
const files = {
  'inbox/a.md': '---\ntags: [fruit]\n---\n# A\n\napple pie\n\n- [ ] buy apples\n',
  'inbox/b.md': 'links to [[a]]\n',
};

/** The vault's files and the server's state that a write would change (journal, trash, pending). */
function state(): Map<string, string> {
  const all = snapshot(v.dir, { includeState: true });
  for (const key of [...all.keys()]) if (/^\.noted\/(index\.sqlite|locks)/.test(key)) all.delete(key);
  return all;
}

beforeAll(async () => {
  v = await openTestVault(files);
});

afterAll(async () => {
  await v.close();
});

describe('strict arguments (SPEC 3.4)', () => {
  it('the contract file lists exactly the tools the server serves', async () => {
    const served = (await v.client.listTools()).tools.map((t) => t.name);
    expect(contract.map((t) => t.name)).toEqual(served);
  });

  it('every declared input schema is closed: no object in any tool admits undeclared keys', () => {
    const open: string[] = [];
    const visit = (s: JsonSchema, where: string) => {
      if (s.type === 'object' && s.properties && s.additionalProperties !== false) {
        // query_notes' filter and sort items are open on purpose: its engine names what it cannot read.
        if (s.additionalProperties === undefined) open.push(where);
      }
      for (const [k, p] of Object.entries(s.properties ?? {})) visit(p, `${where}.${k}`);
      if (s.items) visit(s.items, `${where}[]`);
      for (const [i, o] of (s.anyOf ?? []).entries()) visit(o, `${where}|${i}`);
    };
    for (const t of contract) visit(t.inputSchema, t.name);
    expect(open).toEqual([]);
  });

  for (const tool of contract) {
    it(`${tool.name}: an extra misspelt argument is refused, naming it, and nothing is written`, async () => {
      const declared = Object.keys(tool.inputSchema.properties ?? {});
      const { wrong, meant } = misspelling(declared);
      const args = { ...(sample(tool.inputSchema) as Record<string, unknown>), [wrong]: 'sha256:0' };
      const before = state();
      const r = await v.call(tool.name, args);
      expect(r.isError).toBe(true);
      expect(r.structured.code).toBe('validation_error');
      // The only problem reported is the unknown argument: the rest of the call was valid.
      const takes =
        declared.length === 0
          ? `${tool.name} takes no arguments`
          : `${tool.name} takes: ${declared.join(', ')}`;
      const hint = meant === null ? '' : `: did you mean ${meant}?`;
      expect(r.structured.message).toContain(
        `Invalid arguments for tool ${tool.name}: unknown argument "${wrong}"${hint} (${takes}).`,
      );
      expect(state()).toEqual(before);
    });
  }
});

describe('the refusal in the cases issue 18 found', () => {
  it('update_note with expectedEtag (a stale guard, misspelt) does not overwrite the note', async () => {
    const r = await v.call('update_note', {
      name: 'inbox/a',
      content: 'lost?',
      expectedEtag: 'sha256:stale',
    });
    expect(r.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(r.text).toContain('did you mean expected_etag?');
    expect(r.text).toContain('Nothing was written.');
    expect(fs.readFileSync(path.join(v.dir, 'inbox/a.md'), 'utf8')).toBe(files['inbox/a.md']);
  });

  it('delete_note with expected_tag points to expected_etag and trashes nothing', async () => {
    const r = await v.call('delete_note', { name: 'inbox/a', expected_tag: 'sha256:stale' });
    expect(r.structured.code).toBe('validation_error');
    expect(r.text).toContain('unknown argument "expected_tag": did you mean expected_etag?');
    expect(fs.existsSync(path.join(v.dir, 'inbox/a.md'))).toBe(true);
  });

  it('an item of a batch is held to the same rule: a misspelt guard inside items is refused', async () => {
    const r = await v.call('move_notes', {
      items: [{ name: 'inbox/a', new_name: 'moved/a', expectedEtag: 'sha256:stale' }],
    });
    expect(r.structured.code).toBe('validation_error');
    expect(r.text).toContain('items.0: unknown argument "expectedEtag": did you mean expected_etag?');
    expect(r.text).toContain('each item of "items" takes: name, id, new_name, expected_etag');
    expect(fs.existsSync(path.join(v.dir, 'inbox/a.md'))).toBe(true);
  });

  it('a read tool says so too, without committed', async () => {
    const r = await v.call('list_notes', { fodler: 'inbox' });
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.committed).toBeUndefined();
    expect(r.text).toContain('unknown argument "fodler": did you mean folder?');
  });

  it('an argument like none declared is named without a guess', async () => {
    const r = await v.call('read_note', { name: 'inbox/a', zzzzzz: true });
    expect(r.text).toContain(
      'unknown argument "zzzzzz" (read_note takes: name, id, offset, max_chars, section, occurrence, block)',
    );
  });

  it('a hostile call with thousands of long unknown keys gets a short answer', async () => {
    const args: Record<string, unknown> = { name: 'inbox/a' };
    for (let i = 0; i < 5000; i++) args[`${'k'.repeat(500)}${i}`] = i;
    const r = await v.call('read_note', args);
    expect(r.structured.code).toBe('validation_error');
    expect(r.text).toContain('and 4995 more unknown arguments');
    expect(r.text.length).toBeLessThan(2000);
  });
});

describe('resemblance', () => {
  const etagged = ['name', 'content', 'append', 'expected_etag'];
  it.each([
    ['expectedEtag', etagged, 'expected_etag'],
    ['expected_tag', etagged, 'expected_etag'],
    ['Expected-ETag', etagged, 'expected_etag'],
    ['etag', etagged, 'expected_etag'],
    ['contents', etagged, 'content'],
    ['nmae', etagged, 'name'],
    ['limt', ['folder', 'limit', 'cursor'], 'limit'],
    ['maxResults', ['query', 'max_results'], 'max_results'],
    ['body', etagged, null],
    ['x', etagged, null],
    ['', etagged, null],
  ])('%s among %j → %s', (key, declared, meant) => {
    expect(resemblance(key, declared)).toBe(meant);
  });
});
