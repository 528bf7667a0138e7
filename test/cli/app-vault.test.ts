/**
 * Without --notes-dir (and no $NOTED_VAULT/$NOTES_VAULT), the Noted app's own vault comes before
 * ~/notes (SPEC 17.7, issue 32): a user of the app who adds the server serves the notes they have.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import { notedAppVaultLocations, vaultDirFrom } from '../../src/cli/config.js';
import { checkServes, DIST, ensureBuilt } from '../helpers/server-process.js';

let homes: string[] = [];
afterEach(() => {
  for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
  homes = [];
});
const newHome = () => {
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-home-')));
  homes.push(home);
  return home;
};

beforeAll(() => ensureBuilt(), 120_000);

describe("the Noted app's vault", () => {
  it('is served when it exists and no folder is named, saying where it came from', () => {
    const home = newHome();
    const env = { HOME: home };
    expect(vaultDirFrom(parseArgs([]), env)).toEqual({
      dir: path.join(home, 'notes'),
      source: 'default (~/notes)',
      named: false,
    });
    fs.mkdirSync(path.join(home, 'Documents', 'Noted'), { recursive: true });
    expect(vaultDirFrom(parseArgs([]), env)).toEqual({
      dir: path.join(home, 'Documents', 'Noted'),
      source: "the Noted app's vault (~/Documents/Noted)",
      named: false,
    });
    // A named folder still wins.
    expect(vaultDirFrom(parseArgs([]), { ...env, NOTED_VAULT: '/elsewhere' }).dir).toBe('/elsewhere');
    expect(vaultDirFrom(parseArgs(['--notes-dir', '/there']), env).dir).toBe('/there');
    // On macOS the iCloud Drive folder is looked at next.
    expect(notedAppVaultLocations(env, 'darwin')).toEqual([
      path.join(home, 'Documents', 'Noted'),
      path.join(home, 'Library', 'Mobile Documents', 'com~apple~CloudDocs', 'Noted'),
    ]);
  });

  it('a server started without --notes-dir serves the app vault, not a new ~/notes', async () => {
    const home = newHome();
    const vault = path.join(home, 'Documents', 'Noted');
    fs.mkdirSync(vault, { recursive: true });
    fs.writeFileSync(path.join(vault, 'welcome.md'), '# Welcome\n');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [DIST],
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stderr: 'ignore',
    });
    await checkServes(transport, vault, { name: 'from the app vault' });
    expect(fs.existsSync(path.join(home, 'notes'))).toBe(false);
  });
});
