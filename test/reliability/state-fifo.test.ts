/**
 * A hostile local process puts a FIFO where the server reads a small file of `.noted/` (the policy,
 * config.json, the conversion marker, the journal's usage count and vault id). A plain read of a
 * FIFO waits for a writer forever, and the server reads these synchronously, so one FIFO used to
 * stall every request. Each case runs the built server and expects an answer before a generous
 * deadline: the policy fails closed (policy_error), the others refuse the write or serve it, and the
 * server answers the next call.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, type ServerProcess, spawnServer } from '../helpers/server-process.js';
import { makeVault } from '../helpers/vault.js';

/** How long an answer may take on a loaded machine before the server counts as stalled. */
const ANSWER_WITHIN_MS = 20_000;

let server: ServerProcess | undefined;
let base: string | undefined;
beforeAll(ensureBuilt, 120_000);
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

function fifoAt(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { force: true });
  execFileSync('mkfifo', [file]);
}

async function answered<T>(what: string, call: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer in ${ANSWER_WITHIN_MS} ms`)),
      ANSWER_WITHIN_MS,
    );
  });
  try {
    return await Promise.race([call, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/** A vault whose server has written once, so the journal's files exist. */
async function servedVault(): Promise<{ dir: string; s: ServerProcess }> {
  const made = makeVault({ 'a.md': '# A\n' });
  base = made.base;
  server = await spawnServer(made.dir);
  expect((await server.call('update_note', { name: 'a', content: '# A\n\nonce\n' })).isError).toBe(false);
  return { dir: made.dir, s: server };
}

/** The same, then a FIFO put at `relative` in `.noted/`. */
async function serverWithFifo(relative: string): Promise<{ dir: string; s: ServerProcess }> {
  const served = await servedVault();
  fifoAt(path.join(served.dir, '.noted', relative));
  return served;
}

it('a FIFO as the policy file closes the vault (policy_error) instead of stalling it', async () => {
  const { s } = await serverWithFifo('mcp-policy.yaml');
  const read = await answered('read_note', s.call('read_note', { name: 'a' }));
  expect(read.isError).toBe(true);
  expect(read.structured).toMatchObject({ code: 'policy_error' });
  expect(read.text).toContain('not a regular file');
  const again = await answered('list_notes', s.call('list_notes'));
  expect(again.structured).toMatchObject({ code: 'policy_error' });
}, 120_000);

for (const relative of ['config.json', 'converting', 'journal/usage.json', 'journal/vault-id']) {
  it(`a FIFO as .noted/${relative} leaves the server answering`, async () => {
    const { dir, s } = await serverWithFifo(relative);
    const write = await answered(
      'update_note',
      s.call('update_note', { name: 'a', content: '# A\n\ntwice\n' }),
    );
    // Either refused with a clear code or written; never a wait.
    if (write.isError) {
      expect(typeof write.structured.code).toBe('string');
      expect(write.text.length).toBeGreaterThan(20);
      expect(fs.readFileSync(path.join(dir, 'a.md'), 'utf8')).toBe('# A\n\nonce\n');
    } else {
      expect(fs.readFileSync(path.join(dir, 'a.md'), 'utf8')).toBe('# A\n\ntwice\n');
    }
    const read = await answered('read_note', s.call('read_note', { name: 'a' }));
    expect(read.isError).toBe(false);
  }, 120_000);
}

it("a FIFO as Obsidian's daily-notes settings leaves get_daily_note answering, with the defaults", async () => {
  const made = makeVault({ 'a.md': '# A\n' });
  base = made.base;
  fifoAt(path.join(made.dir, '.obsidian', 'daily-notes.json'));
  server = await spawnServer(made.dir);
  const daily = await answered('get_daily_note', server.call('get_daily_note', {}));
  expect(daily.isError).toBe(false);
  const again = await answered('read_note', server.call('read_note', { name: 'a' }));
  expect(again.isError).toBe(false);
}, 120_000);

it('a policy file past 4 MB closes the vault with policy_error instead of being read whole', async () => {
  const { dir, s } = await servedVault();
  fs.writeFileSync(
    path.join(dir, '.noted', 'mcp-policy.yaml'),
    `# ${'x'.repeat(4 * 1024 * 1024)}\ndefault: read-write\n`,
  );
  const read = await answered('read_note', s.call('read_note', { name: 'a' }));
  expect(read.structured).toMatchObject({ code: 'policy_error' });
  expect(read.text).toContain('larger than');
}, 120_000);
