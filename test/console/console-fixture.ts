/**
 * @module
 * A console on a real temporary vault, over real HTTP on 127.0.0.1, next to a real MCP client (the
 * agent) on the same vault. `request` speaks raw HTTP so tests can set Host and Origin as an attacker
 * would; `signIn` follows the one-time link and fetches the CSRF token as the page does.
 */
import http from 'node:http';
import { journalApprovedWrites, journalDecisions } from '../../src/cli/review-journal.js';
import type { InstallOutcome } from '../../src/console/context.js';
import { type ConsoleHandle, startConsole } from '../../src/console/server.js';
import { openTestVault, type TestVault, testJournalKey, type VaultFiles } from '../helpers/vault.js';

export const TOKEN = 'console-test-token-0123456789abcdef';

export interface Reply {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked field by field
  readonly json: any;
}

export interface RequestOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
  readonly cookie?: string;
  readonly csrf?: string;
}

export interface ConsoleFixture {
  readonly vault: TestVault;
  readonly ui: ConsoleHandle;
  readonly port: number;
  readonly installs: number[];
  /** Moves the console's clock forward (login codes, sessions). */
  advance(ms: number): void;
  request(path: string, options?: RequestOptions): Promise<Reply>;
  /** Signs in with a fresh one-time link; returns the cookie and the CSRF token. */
  signIn(): Promise<{ cookie: string; csrf: string }>;
  /** The agent rewrites a note of a staged folder with `edit` of its text; returns the pending id. */
  stage(name: string, edit: (text: string) => string): Promise<string>;
  close(): Promise<void>;
}

export async function startFixture(files: VaultFiles = {}): Promise<ConsoleFixture> {
  const vault = await openTestVault(files);
  let offset = 0;
  const installs: number[] = [];
  const ui = await startConsole({
    vault: vault.opened.vault,
    token: TOKEN,
    port: 0,
    clock: () => Date.now() + offset,
    journalKey: testJournalKey(),
    recordApprovedWrite: journalApprovedWrites(testJournalKey),
    recordDecision: journalDecisions(testJournalKey),
    clients: () => [
      { client: 'claude-code', text: 'claude mcp add noted -- node x.cjs\n', notes: 'Run it.' },
    ],
    installClaudeDesktop: async (): Promise<InstallOutcome> => {
      installs.push(Date.now());
      return { ok: true, message: 'Added "noted".' };
    },
  });
  const request = (path: string, options: RequestOptions = {}) => rawRequest(ui.port, path, options);
  return {
    vault,
    ui,
    port: ui.port,
    installs,
    advance: (ms) => {
      offset += ms;
    },
    request,
    signIn: async () => {
      const link = new URL(ui.loginUrl());
      const login = await request(`${link.pathname}${link.search}`);
      const setCookie = login.headers['set-cookie']?.[0] ?? '';
      const cookie = setCookie.split(';')[0] as string;
      const session = await request('/api/session', { cookie });
      return { cookie, csrf: session.json.csrf as string };
    },
    stage: async (name, edit) => {
      const read = await vault.call('read_note', { name });
      const staged = await vault.call('update_note', {
        name,
        content: edit(`${read.structured.frontmatterRaw ?? ''}${read.structured.body}`),
        expected_etag: read.structured.etag,
      });
      if (staged.structured.staged !== true) throw new Error(`${name} was not staged: ${staged.text}`);
      return staged.structured.pendingId as string;
    },
    close: async () => {
      await ui.close();
      await vault.close();
    },
  };
}

export function rawRequest(port: number, path: string, options: RequestOptions = {}): Promise<Reply> {
  const method = options.method ?? 'GET';
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { Host: `127.0.0.1:${port}`, ...options.headers };
  if (options.cookie !== undefined) headers.Cookie = options.cookie;
  if (options.csrf !== undefined) headers['X-CSRF-Token'] = options.csrf;
  if (body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // not JSON: an HTML page or an empty redirect
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
