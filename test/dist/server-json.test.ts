/**
 * server.json for the MCP registry (SPEC 15.2), validated against the registry's published schema
 * (vendored in schemas/mcp-registry/, CI cannot reach the registry's site), and kept in step with
 * package.json: the registry matches `name` against the npm package's `mcpName`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { NATIVE_PACKAGES } from '../../src/cli/launcher.js';
import { checkServes, DIST, ensureBuilt, REPO } from '../helpers/server-process.js';

const SCHEMA_FILE = path.join(REPO, 'schemas', 'mcp-registry', 'server.schema.json');
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';
// ajv and ajv-formats are CommonJS; required as such, they are the same under tsc, vitest and node.
const require = createRequire(import.meta.url);
const Ajv = require('ajv').default as typeof import('ajv').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(REPO, file), 'utf8'));

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')));
}

describe('server.json', () => {
  it('the vendored schema is the published one, unedited', () => {
    const bytes = fs.readFileSync(SCHEMA_FILE);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(SCHEMA_SHA256);
  });

  it('is valid against the schema it names', () => {
    const server = read('server.json');
    const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8'));
    expect(server.$schema).toBe(schema.$id);
    const validate = validator();
    expect(validate(server), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('the validation refuses what the registry refuses', () => {
    const server = read('server.json');
    const validate = validator();
    for (const bad of [
      { ...server, name: 'noted-mcp' },
      { ...server, description: 'x'.repeat(101) },
      { ...server, packages: [{ ...server.packages[0], version: 'latest' }] },
      { ...server, packages: [{ ...server.packages[0], transport: { type: 'carrier-pigeon' } }] },
    ]) {
      expect(validate(bad)).toBe(false);
    }
  });

  it('names the npm package, its version and its mcpName, and the install scripts npm must run', () => {
    const server = read('server.json');
    const pkg = read('package.json');
    expect(server.name).toBe(pkg.mcpName);
    expect(server.repository).toEqual({ url: 'https://github.com/noted-mcp/noted-mcp', source: 'github' });
    expect(server.version).toBe(pkg.version);
    const [npm] = server.packages;
    expect(npm).toMatchObject({ registryType: 'npm', identifier: pkg.name, version: pkg.version });
    expect(npm.transport).toEqual({ type: 'stdio' });
    expect(npm.runtimeArguments).toEqual([
      expect.objectContaining({ name: '--allow-scripts', value: NATIVE_PACKAGES.join(',') }),
    ]);
    expect(npm.packageArguments).toEqual([
      expect.objectContaining({ name: '--notes-dir', isRequired: true }),
      expect.objectContaining({ type: 'positional', value: '--create' }),
    ]);
  });

  it('a first-time user who accepts the default ~/notes gets a server that makes the folder and serves it (issue 32)', async () => {
    await ensureBuilt();
    const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-server-json-')));
    try {
      // The command line a registry client builds: each named argument with its default, each
      // positional one verbatim.
      const args: string[] = [];
      for (const a of read('server.json').packages[0].packageArguments) {
        if (a.type === 'named') args.push(a.name, String(a.value ?? a.default).replace(/^~(?=\/)/, home));
        else args.push(String(a.value));
      }
      const vault = path.join(home, 'notes');
      expect(fs.existsSync(vault)).toBe(false);
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [DIST, ...args],
        cwd: home,
        env: { PATH: process.env.PATH ?? '', HOME: home },
        stderr: 'ignore',
      });
      await checkServes(transport, vault, { name: 'first note' });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
