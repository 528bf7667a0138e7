import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  announceConsole,
  CONSOLE_FILE_NAME,
  findConsole,
  withdrawConsole,
} from '../../src/console/discovery.js';
import { Vault } from '../../src/vault/vault.js';
import { makeVault } from '../helpers/vault.js';

/**
 * `.noted/console.json`, where `noted-mcp ui --link` finds the running console: written and removed by
 * the console, never trusted beyond a small regular file (a FIFO in its place must not stall the
 * console's shutdown or --link).
 */
let base: string | undefined;
afterEach(() => {
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

function vault(): Vault {
  const made = makeVault({ 'a.md': 'a\n' });
  base = made.base;
  fs.mkdirSync(path.join(made.dir, '.noted'));
  return Vault.open(made.dir);
}

describe('console discovery', () => {
  it('records the console, finds it, and removes only its own record', () => {
    const v = vault();
    const mine = { port: 4321, pid: process.pid, startedAt: '2026-12-03T00:00:00.000Z' };
    announceConsole(v, mine);
    expect(findConsole(v)).toEqual(mine);
    const other = { ...mine, port: 4322, pid: process.pid + 1 };
    announceConsole(v, other);
    withdrawConsole(v, mine);
    expect(findConsole(v)).toEqual(other);
    withdrawConsole(v, other);
    expect(findConsole(v)).toBeNull();
  });

  it('reads nothing but a small regular file with a port in it', () => {
    const v = vault();
    const file = v.statePath(CONSOLE_FILE_NAME);
    for (const text of [
      '{"port":0,"pid":1,"startedAt":"x"}',
      '{"port":"80","pid":1,"startedAt":"x"}',
      'not json',
      `{"port":80,"pid":1,"startedAt":"${'x'.repeat(5000)}"}`,
    ]) {
      fs.writeFileSync(file, text);
      expect(findConsole(v), text.slice(0, 40)).toBeNull();
    }
    fs.rmSync(file);
    fs.writeFileSync(path.join(base as string, 'elsewhere.json'), '{"port":80,"pid":1,"startedAt":"x"}');
    fs.symlinkSync(path.join(base as string, 'elsewhere.json'), file);
    expect(findConsole(v)).toBeNull();
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    expect(findConsole(v)).toBeNull();
    withdrawConsole(v, { port: 80, pid: 1, startedAt: 'x' });
    expect(fs.existsSync(file)).toBe(false);
  });
});
