/**
 * Issue 35 finding 8: a server SIGKILLed in the middle of move_folder left it half done (some notes
 * moved, links in others rewritten or not) and the restart said nothing. Now the half-done operation is
 * said at every start (stderr), by get_vault_info and by `noted-mcp doctor`, each with the command that
 * repairs it, until `noted-mcp undo --group` has put it back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, runCli, type ServerProcess, spawnServer } from '../helpers/server-process.js';
import { makeVault, type VaultFiles, within } from '../helpers/vault.js';

const NOTES = 400;
let made: { base: string; dir: string };
const servers: ServerProcess[] = [];

beforeAll(async () => {
  await ensureBuilt();
}, 180_000);
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
  if (made !== undefined) fs.rmSync(made.base, { recursive: true, force: true });
});

it('a move_folder killed half done is reported at the next start, in get_vault_info and by doctor, until undone', async () => {
  const files: VaultFiles = {};
  for (let i = 0; i < NOTES; i++) {
    files[`old/n${i}.md`] = `# Note ${i}\n`;
    files[`links/l${i}.md`] = `see [note ${i}](../old/n${i}.md) and [[n${i}]]\n`;
  }
  made = makeVault(files);
  const env = { ...process.env, NOTED_MCP_CONFIG_DIR: process.env.NOTED_MCP_CONFIG_DIR ?? '' };
  const first = await spawnServer(made.dir);
  servers.push(first);
  const records = path.join(made.dir, '.noted', 'operations');
  const moving = first.call('move_folder', { folder: 'old', new_folder: 'new' }).catch(() => undefined);
  // The record exists while the move writes: kill the server then, in the middle of it.
  let underWay = false;
  const deadline = Date.now() + 60_000;
  while (!underWay && Date.now() < deadline) {
    underWay =
      entries(records).some((n) => n.endsWith('.json')) && entries(path.join(made.dir, 'new')).length > 0;
    if (!underWay) await new Promise((r) => setImmediate(r));
  }
  expect(underWay, 'the move records itself while it writes').toBe(true);
  const pid = first.transport.pid as number;
  process.kill(pid, 'SIGKILL');
  await moving;
  const moved = fs.existsSync(path.join(made.dir, 'new'))
    ? fs.readdirSync(path.join(made.dir, 'new')).length
    : 0;
  const left = fs.readdirSync(path.join(made.dir, 'old')).length;
  expect(moved, 'half done').toBeGreaterThan(0);
  expect(left, 'half done').toBeGreaterThan(0);

  const second = await spawnServer(made.dir);
  servers.push(second);
  const said =
    /move_folder \(journal group (g-[0-9TZ-]+[0-9a-f]{8}), started .*\) was interrupted .* Put it back with: noted-mcp undo --group \1/;
  expect(await within(20_000, () => said.test(second.stderr()))).not.toBeNull();
  const group = (said.exec(second.stderr()) as RegExpExecArray)[1] as string;
  const info = await second.call('get_vault_info');
  expect(info.structured.interrupted).toEqual([
    { tool: 'move_folder', group, started: expect.any(String), repair: `noted-mcp undo --group ${group}` },
  ]);
  expect(info.text).toContain(`Ask the vault owner to run: noted-mcp undo --group ${group}`);
  await second.close();

  const doctor = runCli(['doctor', '--notes-dir', made.dir], undefined, env);
  expect(doctor.status).toBe(1);
  expect(doctor.stdout + doctor.stderr).toMatch(
    new RegExp(`interrupted operations[\\s\\S]*noted-mcp undo --group ${group}`),
  );

  const undo = runCli(['undo', '--group', group, '--notes-dir', made.dir], undefined, env);
  expect(undo.status, undo.stdout + undo.stderr).toBe(0);
  for (let i = 0; i < NOTES; i++) {
    expect(fs.readFileSync(path.join(made.dir, 'old', `n${i}.md`), 'utf8')).toBe(files[`old/n${i}.md`]);
    expect(fs.readFileSync(path.join(made.dir, 'links', `l${i}.md`), 'utf8')).toBe(files[`links/l${i}.md`]);
  }
  const after = runCli(['doctor', '--notes-dir', made.dir], undefined, env);
  expect(after.stdout + after.stderr).toMatch(/interrupted operations\W+none/);
  const third = await spawnServer(made.dir);
  servers.push(third);
  expect((await third.call('get_vault_info')).structured.interrupted).toEqual([]);
  expect(third.stderr()).not.toMatch(/was interrupted/);
}, 240_000);

function entries(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
