import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenedVault, openVault } from '../../src/access/open.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { testJournalKey } from '../helpers/vault.js';
import { EFFECTS, hintsOf } from './annotations.js';

/**
 * The contract every client relies on: each tool's name, parameters, annotations and output schema.
 * A change here is a change for every client; update the snapshot only on purpose
 * (`npx vitest run test/contract -u`) and say so in the commit.
 */
let dir: string;
let opened: OpenedVault;
let tools: Awaited<ReturnType<Client['listTools']>>['tools'];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-contract-'));
  opened = await openVault({
    vaultDir: dir,
    trashRetentionDays: 30,
    watch: false,
    journalKey: testJournalKey(),
  });
  const server = createMcpServer(opened.access, { name: 'noted-mcp', version: 'contract' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'contract-test', version: '1' });
  await client.connect(b);
  tools = (await client.listTools()).tools;
  await client.close();
});

afterAll(async () => {
  await opened.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('tool contract', () => {
  it('pins every tool name, input schema, annotations and output schema', async () => {
    const contract = tools.map((t) => ({
      name: t.name,
      title: t.title,
      annotations: t.annotations,
      // Why the annotations say what they say (annotations.ts); pinned with them.
      effects: EFFECTS[t.name],
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
    }));
    await expect(`${JSON.stringify(contract, null, 2)}\n`).toMatchFileSnapshot('./tools.contract.json');
  });

  it('names are snake_case verb_noun', () => {
    for (const t of tools) expect(t.name).toMatch(/^[a-z]+(_[a-z]+)+$/);
  });

  it('every tool declares all annotations honestly, and none reaches outside the vault', () => {
    for (const t of tools) {
      const a = t.annotations ?? {};
      expect(typeof a.title, t.name).toBe('string');
      expect(typeof a.readOnlyHint, t.name).toBe('boolean');
      expect(typeof a.destructiveHint, t.name).toBe('boolean');
      expect(typeof a.idempotentHint, t.name).toBe('boolean');
      expect(a.openWorldHint, t.name).toBe(false);
      if (a.readOnlyHint) expect(a.destructiveHint, t.name).toBe(false);
    }
  });

  it('every tool that writes, moves or deletes takes in_folder (SPEC 12.5)', () => {
    const writers = tools.filter((t) => t.annotations?.readOnlyHint === false);
    expect(writers.length).toBeGreaterThan(10);
    for (const t of writers) {
      const props = (t.inputSchema.properties ?? {}) as Record<string, unknown>;
      expect(props.in_folder, `${t.name} declares in_folder`).toBeDefined();
    }
  });

  it('every tool says what it really does: its annotations match annotations.ts, with a reason for each mark', () => {
    const missing = tools.map((t) => t.name).filter((n) => EFFECTS[n] === undefined);
    expect(missing, 'say in test/contract/annotations.ts what these tools do').toEqual([]);
    const gone = Object.keys(EFFECTS).filter((n) => !tools.some((t) => t.name === n));
    expect(gone, 'entries of annotations.ts for tools no longer served').toEqual([]);
    for (const t of tools) {
      const effects = EFFECTS[t.name];
      if (effects === undefined) continue;
      const { title: _, openWorldHint: __, ...hints } = t.annotations ?? {};
      expect(hints, t.name).toEqual(hintsOf(effects));
      const reasons = 'reads' in effects ? [effects.reads] : [effects.writes];
      if (!('reads' in effects)) {
        reasons.push(effects.destroys === false ? (effects.additive ?? '') : effects.destroys);
        if (effects.repeats !== false) reasons.push(effects.repeats);
      }
      for (const reason of reasons)
        expect(reason.length, `${t.name}: a reason for each mark`).toBeGreaterThan(10);
    }
  });

  it('every parameter is described for the model', () => {
    for (const t of tools) {
      const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      for (const [key, schema] of Object.entries(props)) {
        expect(schema.description, `${t.name}.${key}`).toBeTruthy();
      }
    }
  });

  it('every output schema accepts the error shape, so v1 clients can validate error results', () => {
    for (const t of tools) {
      const variants = (t.outputSchema as { anyOf?: { required?: string[] }[] }).anyOf ?? [];
      expect(
        variants.some((v) => v.required?.includes('code') && v.required.includes('message')),
        t.name,
      ).toBe(true);
    }
  });

  it('descriptions say what the tool is for', () => {
    for (const t of tools) expect((t.description ?? '').length, t.name).toBeGreaterThan(80);
  });
});
