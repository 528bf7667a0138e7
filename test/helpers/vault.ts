/**
 * @module
 * Test vaults: a real temporary folder with given files, opened with `openVault` and served by a real
 * `McpServer` to a real `Client` over `InMemoryTransport.createLinkedPair()`. `call` checks the result
 * invariants of SPEC 3.1 and 3.2 on every answer, so each test gets them for free.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, expect } from 'vitest';
import { type OpenedVault, type OpenOptions, openVault } from '../../src/access/open.js';
import { ERROR_CODES } from '../../src/common/errors.js';
import { type JournalKeyState, openJournalKey } from '../../src/journal/journal-key.js';
import { createMcpServer } from '../../src/mcp/server.js';

/** Files to put in a new vault: vault-relative path → text or bytes. */
export type VaultFiles = Record<string, string | Uint8Array>;

// biome-ignore lint/suspicious/noExplicitAny: structured results are checked field by field in tests
export type Structured = Record<string, any>;

export interface CallResult {
  readonly structured: Structured;
  /** Every text block but the last (the `structuredContent:` line), joined by a line break. */
  readonly text: string;
  readonly isError: boolean;
  /** The JSON after `structuredContent: ` in the last block, parsed. */
  readonly line: Structured;
}

/** The shape of tool results, without depending on the SDK's result types. */
interface RawResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

export interface Connection {
  readonly client: Client;
  readonly opened: OpenedVault;
  /** Calls a tool, checks SPEC 3.1/3.2 on the result, and returns its parts. */
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

export interface TestVault extends Connection {
  /** The vault folder (`<base>/vault`). */
  readonly dir: string;
  /** The temporary folder holding the vault; neighbours of the vault may be made here. */
  readonly base: string;
  /** Closes the client, the server and the vault, and removes `base`. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Watch files for outside changes (default false: tests that need it say so). */
  readonly watch?: boolean;
  readonly trashRetentionDays?: number;
  readonly now?: () => Date;
  /** How often expired trash is purged while serving (default: the server's hourly timer). */
  readonly purgeEveryMs?: number;
  /** Default: the run's key (testJournalKey). */
  readonly journalKey?: JournalKeyState;
  /** The journal's limit on stored texts (default: openVault's). */
  readonly journalMaxBytes?: number | null;
  /** Watches with this instead of the real watcher (with `watch: true`; see manual-watcher.ts). */
  readonly watcher?: OpenOptions['watcher'];
}

/** The structured line is shortened above this many bytes (SPEC 3.1). */
export const LINE_LIMIT_BYTES = 16 * 1024;
const LINE_PREFIX = 'structuredContent: ';
const SHOWN_ABOVE = '[shown in full above]';

/**
 * The run's journal key, in the configuration folder the global setup made (global-config.ts): shared
 * by in-process servers and spawned ones, as the user's key is on a real machine.
 */
export function testJournalKey(): JournalKeyState {
  const dir = process.env.NOTED_MCP_CONFIG_DIR;
  if (dir === undefined)
    throw new Error('NOTED_MCP_CONFIG_DIR is not set: run the tests through vitest.config.ts');
  return openJournalKey(dir);
}

/** Makes `<tmp>/noted-XXXX/vault` holding `files`. */
export function makeVault(files: VaultFiles = {}): { base: string; dir: string } {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-'));
  const dir = path.join(base, 'vault');
  fs.mkdirSync(dir);
  writeFiles(dir, files);
  return { base, dir };
}

/**
 * Called at the top level of a test file: a makeVault whose vaults are removed after each test.
 *
 * @example
 * const tempVault = vaultsRemovedAfterEach();
 * const { dir } = tempVault({ 'a.md': 'a' });
 */
export function vaultsRemovedAfterEach(): (files?: VaultFiles) => { base: string; dir: string } {
  const bases: string[] = [];
  afterEach(() => {
    for (const base of bases.splice(0)) fs.rmSync(base, { recursive: true, force: true });
  });
  return (files = {}) => {
    const made = makeVault(files);
    bases.push(made.base);
    return made;
  };
}

export function writeFiles(dir: string, files: VaultFiles): void {
  for (const [rel, data] of Object.entries(files)) {
    const abs = path.join(dir, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, data);
  }
}

/** Opens the vault in `dir` and connects a client to a server over it. */
export async function connect(dir: string, options: ConnectOptions = {}): Promise<Connection> {
  const opened = await openVault({
    vaultDir: dir,
    trashRetentionDays: options.trashRetentionDays ?? 30,
    watch: options.watch ?? false,
    log: { warn: () => undefined },
    journalKey: options.journalKey ?? testJournalKey(),
    ...(options.journalMaxBytes === undefined ? {} : { journalMaxBytes: options.journalMaxBytes }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.purgeEveryMs === undefined ? {} : { purgeEveryMs: options.purgeEveryMs }),
    ...(options.watcher === undefined ? {} : { watcher: options.watcher }),
  });
  const server = createMcpServer(opened.access, { name: 'noted-mcp', version: 'test' });
  const client = new Client({ name: 'noted-test', version: '0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  let closed = false;
  return {
    client,
    opened,
    call: async (name, args = {}) => checkResult(await client.callTool({ name, arguments: args })),
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
      await server.close();
      await opened.close();
    },
  };
}

/**
 * A new temporary vault with `files`, served to a connected client. `prepare` runs on the folder
 * before the server opens it (to set file times, make links, …).
 */
export async function openTestVault(
  files: VaultFiles = {},
  options: ConnectOptions & { prepare?: (dir: string, base: string) => void } = {},
): Promise<TestVault> {
  const { base, dir } = makeVault(files);
  let connection: Connection;
  try {
    options.prepare?.(dir, base);
    connection = await connect(dir, options);
  } catch (err) {
    fs.rmSync(base, { recursive: true, force: true });
    throw err;
  }
  return {
    ...connection,
    dir,
    base,
    close: async () => {
      await connection.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * Checks one tool result against SPEC 3.1 and 3.2 and splits it into its parts:
 * - it has structuredContent, and its last content block is `structuredContent: <one JSON line>`;
 * - that line parses to the structuredContent, except that a text value the text above ends with
 *   reads `"[shown in full above]"`; over 16 KB, to a shortened form whose fields are equal,
 *   `"[shown in full above]"` for a field over 1 KB, or left out and named in `_omitted`;
 * - an error has a known `code` and a `message`.
 */
export function checkResult(raw: RawResult): CallResult {
  const content = raw.content as { type: string; text?: string }[];
  expect(
    Array.isArray(content) && content.length >= 2,
    `at least a text block and the JSON line, in ${JSON.stringify(raw).slice(0, 2000)}`,
  ).toBe(true);
  for (const block of content) expect(block.type).toBe('text');
  const structured = raw.structuredContent as Structured | undefined;
  expect(structured, 'every result carries structuredContent').toBeTypeOf('object');
  const last = content[content.length - 1]?.text ?? '';
  expect(last.startsWith(LINE_PREFIX), `last block starts with "${LINE_PREFIX}"`).toBe(true);
  const json = last.slice(LINE_PREFIX.length);
  expect(json.includes('\n'), 'the structured line is one line').toBe(false);
  const line = JSON.parse(json) as Structured;
  const data = structured as Structured;
  const shownText = content
    .slice(0, -1)
    .map((b) => b.text ?? '')
    .join('\n');
  if (Buffer.byteLength(JSON.stringify(data), 'utf8') <= LINE_LIMIT_BYTES) {
    // A text value the text above ends with (a body), or holds anywhere when it is at most 64K
    // characters (a frontmatter block), is never sent twice; nor is the frontmatter parsed from a
    // frontmatterRaw shown above (SPEC 17.7); everything else is equal.
    const expected = { ...data };
    for (const [key, value] of Object.entries(line)) {
      if (value === SHOWN_ABOVE && isShown(data[key], shownText)) expected[key] = SHOWN_ABOVE;
    }
    if (line.frontmatter === SHOWN_ABOVE && line.frontmatterRaw === SHOWN_ABOVE) {
      expected.frontmatter = SHOWN_ABOVE;
    }
    expect(line).toEqual(expected);
  } else {
    expect(Buffer.byteLength(json, 'utf8'), 'a shortened line stays within 16 KB').toBeLessThanOrEqual(
      LINE_LIMIT_BYTES,
    );
    const omitted: unknown = line._omitted ?? [];
    expect(Array.isArray(omitted)).toBe(true);
    for (const key of omitted as string[]) {
      expect(key in data, `omitted field ${key} exists in structuredContent`).toBe(true);
      expect(key in line).toBe(false);
    }
    for (const [key, value] of Object.entries(line)) {
      if (key === '_omitted') continue;
      expect(key in data, `line field ${key} exists in structuredContent`).toBe(true);
      if (value === SHOWN_ABOVE) {
        const verbatim =
          isShown(data[key], shownText) || (key === 'frontmatter' && line.frontmatterRaw === SHOWN_ABOVE);
        expect(verbatim || JSON.stringify(data[key]).length > 1024, `${key} is shown above`).toBe(true);
      } else {
        expect(value).toEqual(data[key]);
      }
    }
    for (const key of Object.keys(data)) {
      const accounted = key in line || (omitted as string[]).includes(key);
      expect(accounted, `field ${key} is in the line or named in _omitted`).toBe(true);
    }
  }
  const isError = raw.isError === true;
  if (isError) {
    expect(ERROR_CODES as readonly string[]).toContain(data.code);
    expect(typeof data.message === 'string' && data.message.length > 0, 'an error has a message').toBe(true);
  }
  return { structured: data, text: shownText, isError, line };
}

/** A text value the text above shows verbatim: at its end, or anywhere when at most 64K characters. */
function isShown(value: unknown, shownText: string): boolean {
  return (
    typeof value === 'string' &&
    (shownText.endsWith(value) || (value.length <= 64 * 1024 && shownText.includes(value)))
  );
}

/** The exact bytes of a vault file, or null when it does not exist. */
export function readBytes(dir: string, rel: string): Buffer | null {
  try {
    return fs.readFileSync(path.join(dir, ...rel.split('/')));
  } catch {
    return null;
  }
}

/**
 * Every file and link below `dir` (outside `.noted/` unless asked; never the index's `-shm` file), with
 * its bytes or link target.
 */
export function snapshot(dir: string, options: { includeState?: boolean } = {}): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const childAbs = path.join(abs, entry.name);
      if (!options.includeState && childRel.split('/').includes('.noted')) continue;
      // SQLite's shared-memory file of the index: every read marks its place there, so it is no record
      // of a write (each request reads the index's visibility rules).
      if (childRel === '.noted/index.sqlite-shm') continue;
      if (entry.isSymbolicLink()) out.set(childRel, `link -> ${fs.readlinkSync(childAbs)}`);
      else if (entry.isDirectory()) {
        out.set(`${childRel}/`, 'dir');
        visit(childAbs, childRel);
      } else out.set(childRel, fs.readFileSync(childAbs).toString('base64'));
    }
  };
  visit(dir, '');
  return out;
}

/** Polls `check` every 50 ms for up to `timeoutMs`; returns the delay when it passed, or null. */
export async function within(
  timeoutMs: number,
  check: () => Promise<boolean> | boolean,
): Promise<number | null> {
  const started = performance.now();
  for (;;) {
    if (await check()) return Math.round(performance.now() - started);
    if (performance.now() - started >= timeoutMs) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}
