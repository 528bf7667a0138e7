import fs from 'node:fs';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/server.js';
import { connect, makeVault, type Structured } from '../helpers/vault.js';

/**
 * Issue 36.1: the most common client library, `@modelcontextprotocol/sdk` 1.x, validates every
 * structured result against the tool's outputSchema with Ajv in draft-07 mode. A schema only 2020-12
 * reads right (a z.tuple's `prefixItems` + `items: false`) made it refuse real results of read_note
 * (section, block), get_note_outline and get_outgoing_links. Here a v1 Client lists the tools and calls
 * every one of them with arguments that give a real success result, and each result is also checked
 * against its outputSchema by Ajv draft-07 (as the v1 SDK sets it up) and by Ajv 2020.
 */

// ajv-formats is CommonJS; its default export is the function under either import interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv | Ajv2020,
) => void;

const PLAN = [
  '---',
  'tags: [project]',
  'status: active',
  '---',
  '# Plan',
  '',
  'Intro, see [[Notes]].',
  '',
  '## Risks',
  '',
  'A risk worth naming ^risk1',
  '',
  '- [ ] check the risk 📅 2026-01-01',
  '- [x] wrote it down',
  '',
  '![[pic.png]]',
  '',
].join('\n');

const FILES = {
  'projects/Plan.md': PLAN,
  'Notes.md': 'See [[Plan#Risks]] and [[Plan#^risk1]]. #idea\n',
  'pic.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'Reading.base': [
    'formulas:',
    '  age: "(now() - file.ctime) / 86400000"',
    'views:',
    '  - type: table',
    '    name: All',
    '    order: [file.name, formula.age]',
    '    groupBy: { property: file.folder, direction: ASC }',
    '    summaries: { formula.age: Average }',
    '',
  ].join('\n'),
};

/** Keywords draft-07 does not know (so a v1 client ignores them, or reads `items` otherwise). */
const DRAFT_2019_ON = new Set([
  'prefixItems',
  '$defs',
  'dependentSchemas',
  'dependentRequired',
  'unevaluatedItems',
  'unevaluatedProperties',
  '$dynamicRef',
  '$anchor',
  'minContains',
  'maxContains',
]);

let base: string;
let client: ClientV1;
let close: () => Promise<void>;
let outputSchemas: Map<string, Record<string, unknown>>;

beforeAll(async () => {
  const made = makeVault(FILES);
  base = made.base;
  // The server over the vault as every test serves it; the v2 client of connect() is closed again.
  const v2 = await connect(made.dir);
  await v2.client.close();
  const server = createMcpServer(v2.opened.access, { name: 'noted-mcp', version: 'test' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new ClientV1({ name: 'sdk-v1-contract', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  outputSchemas = new Map(
    tools.flatMap((t) => (t.outputSchema === undefined ? [] : [[t.name, t.outputSchema]])),
  );
  close = async () => {
    await client.close();
    await server.close();
    await v2.close();
  };
});

afterAll(async () => {
  await close?.();
  fs.rmSync(base, { recursive: true, force: true });
});

/** Ajv set up as the v1 SDK sets it up (draft-07), and Ajv for 2020-12. */
function validators(): { name: string; ajv: Ajv | Ajv2020 }[] {
  const draft07 = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
  addFormats(draft07);
  const v2020 = new Ajv2020({ strict: false, allErrors: true });
  addFormats(v2020);
  return [
    { name: 'Ajv draft-07', ajv: draft07 },
    { name: 'Ajv 2020-12', ajv: v2020 },
  ];
}

describe('an SDK v1 client (issue 36.1)', () => {
  it('accepts a real structured result of every tool, and so do Ajv draft-07 and Ajv 2020', async () => {
    const checked = new Set<string>();
    const ajvs = validators();
    const call = async (name: string, args: Record<string, unknown> = {}): Promise<Structured> => {
      // The v1 client itself throws -32602 when structuredContent does not match the outputSchema.
      const result = await client.callTool({ name, arguments: args });
      const structured = result.structuredContent as Structured;
      expect(result.isError, `${name}: ${JSON.stringify(structured)}`).toBeFalsy();
      const schema = outputSchemas.get(name);
      expect(schema, name).toBeDefined();
      for (const { name: by, ajv } of ajvs) {
        const validate = ajv.compile(schema as object);
        expect(validate(structured), `${name} by ${by}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
      checked.add(name);
      return structured;
    };

    await call('get_vault_info');
    await call('list_notes');
    await call('list_changes');
    await call('export_notes', { format: 'json' });
    await call('read_note', { name: 'projects/Plan' });
    const section = await call('read_note', { name: 'projects/Plan', section: 'Risks' });
    expect(section.lines).toEqual([9, 16]);
    const block = await call('read_note', { name: 'projects/Plan', block: 'risk1' });
    expect(block.lines).toEqual([11, 11]);
    const outline = await call('get_note_outline', { name: 'projects/Plan' });
    expect(outline.blocks[0].lines).toEqual([11, 11]);
    const outgoing = await call('get_outgoing_links', { name: 'Notes' });
    expect(outgoing.links.map((l: Structured) => l.lines)).toEqual([
      [9, 16],
      [11, 11],
    ]);
    await call('search_notes', { query: 'risk' });
    const tasks = await call('list_tasks', { status: 'open' });
    await call('get_backlinks', { name: 'projects/Plan' });
    await call('list_tags');
    await call('list_by_tag', { tag: 'idea' });
    await call('get_properties', { name: 'projects/Plan' });
    await call('query_notes', { filters: [{ property: 'status', op: 'equals', value: 'active' }] });
    await call('list_attachments');
    await call('read_attachment', { path: 'pic.png' });
    await call('list_folders');
    await call('list_bases');
    await call('query_base', { base: 'Reading.base' });
    await call('list_links', { kind: 'unresolved' });
    await call('list_links', { kind: 'orphans' });

    const task = tasks.tasks[0];
    await call('update_task', { name: task.note, line: task.line, expected_etag: task.etag, done: true });
    const created = await call('create_note', { name: 'inbox/New', content: 'hello\n' });
    const updated = await call('update_note', {
      name: 'inbox/New',
      content: 'more\n',
      append: true,
      expected_etag: created.etag,
    });
    await call('edit_note', {
      name: 'inbox/New',
      operation: 'replace',
      old_text: 'hello',
      new_text: 'hi',
      expected_etag: updated.etag,
    });
    await call('create_folder', { folder: 'archive' });
    await call('move_note', { name: 'inbox/New', new_name: 'archive/New' });
    await call('move_notes', { items: [{ name: 'archive/New', new_name: 'inbox/Newer' }] });
    await call('move_folder', { folder: 'archive', new_folder: 'old' });
    const dry = await call('delete_folder', { folder: 'old', dry_run: true });
    await call('delete_folder', { folder: 'old', revision: dry.revision });
    await call('delete_note', { name: 'inbox/Newer' });
    await call('list_trash');
    await call('restore_note', { name: 'inbox/Newer' });
    await call('delete_notes', { items: [{ name: 'inbox/Newer' }] });
    await call('get_daily_note', { date: '2026-01-02', create: true });

    let flow = await call('create_agent_workflow', {
      title: 'Release',
      states: ['draft', 'approved', 'released'],
      gates: ['approved'],
    });
    flow = await call('append_agent_event', { name: flow.name, expected_etag: flow.etag, message: 'begun' });
    flow = await call('reject_agent_gate', {
      name: flow.name,
      expected_etag: flow.etag,
      state: 'approved',
      reason: 'not yet',
    });
    flow = await call('approve_agent_gate', {
      name: flow.name,
      expected_etag: flow.etag,
      state: 'approved',
      reason: 'now',
    });
    await call('advance_agent_state', { name: flow.name, expected_etag: flow.etag, message: 'go' });

    expect([...outputSchemas.keys()].filter((n) => !checked.has(n))).toEqual([]);
  });

  it('no outputSchema uses a keyword draft-07 reads otherwise than 2020-12', () => {
    const found: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (DRAFT_2019_ON.has(key) || (key === 'items' && typeof value === 'boolean'))
          found.push(`${where}.${key}`);
        walk(value, `${where}.${key}`);
      }
    };
    for (const [name, schema] of outputSchemas) walk(schema, name);
    expect(found).toEqual([]);
  });

  it('accepts an error result too (every outputSchema allows the error shape)', async () => {
    const result = await client.callTool({ name: 'read_note', arguments: { name: 'missing' } });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as Structured).code).toBe('not_found');
  });
});
