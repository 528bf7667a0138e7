/**
 * The README is the front door (SPEC 15.4), and a front door must not lie: every command in its
 * fenced shell blocks is run here, in README order, as a person would run it — in a copy of this
 * checkout (so builds do not race the other test files), with HOME a temporary folder (so `~/notes`
 * is a temporary vault) and stand-ins first on the PATH for programs this machine lacks (`claude`,
 * `cloudflared`). `noted-mcp` on the PATH is a link to the built bundle, as `npm install -g` makes it.
 *
 * Each command is checked for what it claims: a server answers a real MCP client and serves
 * `~/notes`; a printed configuration is in the format its comment names; `claude mcp add` is given
 * a server command that, run, answers a client. Three kinds are proven elsewhere, and checked to
 * be: `npm ci` and `npm test` are what CI (.ci/run) runs verbatim; `npm pack` and installs of the
 * package (`npx -y … noted-mcp`, `npm install -g … noted-mcp`, or the tarball `./noted-mcp-X.tgz`
 * in its place until it is published) are the forms that scripts/check-package.mjs runs against the
 * packed tarball in CI. A command of any other kind
 * fails this test until it is taught how to check it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module shared with the CI scripts
import { INSTALL_GLOBAL, RUN_WITH_NPX, withPackage } from '../../scripts/package-commands.mjs';
import { checkServes, REPO } from '../helpers/server-process.js';
import { CLOUDFLARED_OUTPUT, recordedArgs, standIn, TUNNEL_HOST } from '../helpers/stand-ins.js';

const README = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};
const CI = fs.readFileSync(path.join(REPO, '.ci', 'run'), 'utf8').split('\n');

interface Command {
  /** As written, without its trailing comment. */
  readonly text: string;
  /** The comment after it (`# …`), which says what it does. */
  readonly comment: string;
  readonly line: number;
}

/** The commands of the README's sh/bash/shell blocks, with their line numbers and comments. */
function readmeCommands(markdown: string): Command[] {
  const commands: Command[] = [];
  const lines = markdown.split('\n');
  let inShell = false;
  let inFence = false;
  lines.forEach((raw, i) => {
    const fence = /^```\s*(\S*)/.exec(raw);
    if (fence) {
      inShell = !inFence && ['sh', 'bash', 'shell'].includes(fence[1] as string);
      inFence = !inFence;
      return;
    }
    if (!inShell || raw.trim() === '' || raw.trim().startsWith('#')) return;
    const m = /^(.*?)(?:\s+#\s(.*))?$/.exec(raw) as RegExpExecArray;
    commands.push({ text: (m[1] as string).trim(), comment: (m[2] ?? '').trim(), line: i + 1 });
  });
  return commands;
}

const commands = readmeCommands(README);
let base: string;
let checkout: string;
let home: string;
let bin: string;
let env: NodeJS.ProcessEnv;
let claude: { record: string };

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-readme-')));
  checkout = path.join(base, 'noted-mcp');
  for (const entry of ['package.json', 'package-lock.json', 'README.md', 'tsconfig.json', 'scripts', 'src'])
    fs.cpSync(path.join(REPO, entry), path.join(checkout, entry), { recursive: true });
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(checkout, 'node_modules'));
  home = path.join(base, 'home');
  fs.mkdirSync(home);
  bin = path.join(base, 'bin');
  claude = standIn(bin, 'claude', { stdout: 'Added stdio MCP server noted to local config', after: 0 });
  standIn(bin, 'cloudflared', { stderr: CLOUDFLARED_OUTPUT, after: 'wait' });
  fs.symlinkSync(path.join(checkout, 'dist-mcp', 'index.cjs'), path.join(bin, 'noted-mcp'));
  // The person's environment: none of this test run's npm or Noted settings.
  env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|NOTED_|NOTES_VAULT$)/i.test(k)),
  );
  // (npm's update check, which the empty HOME would turn back on, is left off: it only adds noise.)
  Object.assign(env, {
    HOME: home,
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    npm_config_update_notifier: 'false',
  });
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

const vault = () => path.join(home, 'notes');

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

function ciRuns(line: string): void {
  expect(
    CI.map((l) => l.trim()),
    `.ci/run should run "${line}" verbatim`,
  ).toContain(line);
}

/** Runs a command to completion in the checkout copy with the person's environment. */
function runToEnd(text: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', text], { cwd: checkout, env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A stdio server command (`npm start`, a client's command line) answers and serves ~/notes. */
async function servesOverStdio(command: string, args: string[], tolerateNpmBanner = false): Promise<void> {
  await checkServes(
    new StdioClientTransport({
      command,
      args,
      cwd: checkout,
      env: env as Record<string, string>,
      stderr: 'ignore',
    }),
    vault(),
    // npm prints "> noted-mcp@0.1.0 start" and the script line on stdout before the server starts;
    // a person sees it in the terminal. Clients are given `node dist-mcp/index.cjs` instead.
    tolerateNpmBanner ? { tolerate: (message) => /> noted-mcp@|> npm run build/.test(message) } : {},
  );
}

/** A long-running HTTP server command: started (waiting while port 3000 is taken), checked, stopped. */
async function servesOverHttp(text: string): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const child = spawn('bash', ['-c', `exec ${text}`], {
      cwd: checkout,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const started = await new Promise<boolean>((resolve) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        if (stderr.includes('Press Ctrl+C to stop.')) resolve(true);
      });
      void exited.then(() => resolve(false));
    });
    if (!started) {
      if (/already in use/.test(stderr) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1000));
        continue;
      }
      throw new Error(`"${text}" exited before serving:\n${stderr}`);
    }
    try {
      const url = /Endpoint: (\S+)/.exec(stderr)?.[1] as string;
      const token = fs.readFileSync(path.join(vault(), '.noted', 'mcp-http-token'), 'utf8').trim();
      await checkServes(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
        vault(),
      );
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited, stderr).toBe(0);
    return stderr;
  }
}

describe('the README', () => {
  it('stays under 300 lines, and every page it links to exists', () => {
    expect(README.split('\n').length).toBeLessThan(300);
    const links = [...README.matchAll(/\]\(((?:docs|test)\/[^)#]+)(?:#[^)]*)?\)/g)].map(
      (m) => m[1] as string,
    );
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect(fs.existsSync(path.join(REPO, link)), link).toBe(true);
    // SPEC 15.4's pages (HTML vaults gets its page with the HTML-vault work).
    for (const page of [
      'tools',
      'search',
      'policy-and-review',
      'journal',
      'http',
      'console',
      'reorganizing',
      'performance',
      'reliability',
    ])
      expect(links, page).toContain(`docs/${page}.md`);
  });

  it('says npm test needs Chromium, and how .ci/run installs it (issue 36.9)', () => {
    const install = CI.map((l) => l.trim()).find((l) => l.startsWith('apt-get install'));
    expect(install).toBeDefined();
    expect(README).toContain('Chromium');
    expect(README).toContain(`\`${install}\``);
  });

  it('shows commands, each of a kind this test knows how to check', () => {
    expect(commands.length).toBeGreaterThan(10);
    for (const c of commands) expect(kindOf(c.text), `README line ${c.line}: ${c.text}`).not.toBe('unknown');
  });

  it.each(commands.map((c) => [c.line, c.text, c] as const))(
    'line %i: %s',
    async (_line, _text, command) => {
      for (const step of command.text.split(' && ')) await check(step.trim(), command.comment);
    },
    180_000,
  );
});

type Kind =
  | 'ci'
  | 'registry'
  | 'pack'
  | 'stdio-server'
  | 'http-server'
  | 'build'
  | 'claude'
  | 'config'
  | 'install'
  | 'unknown';

function kindOf(text: string): Kind {
  return text
    .split(' && ')
    .map((s) => kindOfStep(s.trim()))
    .reduce((a, b) => (a === 'unknown' ? a : b === 'unknown' ? b : a));
}

function kindOfStep(step: string): Kind {
  const w = words(step);
  if (step === 'npm ci' || step === 'npm test') return 'ci';
  if (step === 'npm pack') return 'pack';
  if (w[0] === 'npx' || (w[0] === 'npm' && w[1] === 'install')) return 'registry';
  if (step === 'npm start' || step.startsWith('npm start -- ')) return 'stdio-server';
  if (step === 'npm run build:mcp') return 'build';
  if (w[0] === 'claude') return 'claude';
  if (w[0] === 'noted-mcp' && w[1] === 'config') return 'config';
  if (w[0] === 'noted-mcp' && w[1] === 'install') return 'install';
  if (w[0] === 'noted-mcp' && w.includes('--transport') && w[w.indexOf('--transport') + 1] === 'http')
    return 'http-server';
  return 'unknown';
}

async function check(step: string, comment: string): Promise<void> {
  const w = words(step);
  switch (kindOfStep(step)) {
    case 'ci':
      // `npm ci` would replace the node_modules this very run uses; `npm test` is this run.
      return ciRuns(step);
    case 'registry': {
      // The package by name, or (until it is on the npm registry, issue 36.7) the tarball npm pack
      // makes in the checkout; CI installs the packed tarball in exactly this form.
      const form = w[0] === 'npx' ? RUN_WITH_NPX : INSTALL_GLOBAL;
      const tarball = `./${PKG.name}-${PKG.version}.tgz`;
      expect([form, withPackage(form, tarball)]).toContainEqual(w.slice(0, form.length));
      return ciRuns('node scripts/check-package.mjs');
    }
    case 'pack':
      // What npm pack makes is named in its comment; scripts/check-package.mjs packs in CI.
      expect(comment).toContain(`${PKG.name}-${PKG.version}.tgz`);
      return ciRuns('node scripts/check-package.mjs');
    case 'stdio-server':
      return servesOverStdio('bash', ['-c', step], true);
    case 'build': {
      const r = runToEnd(step);
      expect(r.status, r.stderr).toBe(0);
      expect(fs.existsSync(path.join(checkout, 'dist-mcp', 'index.cjs'))).toBe(true);
      return;
    }
    case 'claude': {
      const r = runToEnd(step);
      expect(r.status, r.stderr).toBe(0);
      const args = recordedArgs(claude.record);
      expect(args.slice(0, 2)).toEqual(['mcp', 'add']);
      const [command, ...rest] = args.slice(args.indexOf('--') + 1);
      return servesOverStdio(command as string, rest);
    }
    case 'config': {
      const r = runToEnd(step);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).not.toBe('');
      // What the comment says it prints is what it prints.
      for (const shown of comment.match(/"[\w]+"|\[[\w.]+\]|claude mcp add/g) ?? [])
        expect(r.stdout).toContain(shown);
      if (r.stdout.trimStart().startsWith('{')) expect(() => JSON.parse(r.stdout)).not.toThrow();
      return;
    }
    case 'install': {
      const r = runToEnd(step);
      expect(r.status, r.stderr).toBe(0);
      const file = path.join(home, '.config', 'Claude', 'claude_desktop_config.json');
      const entry = JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers.noted;
      return servesOverStdio(entry.command, entry.args);
    }
    case 'http-server': {
      const stderr = await servesOverHttp(step);
      if (w.includes('--tunnel')) {
        expect(stderr).toContain(`Public URL (Cloudflare quick tunnel): https://${TUNNEL_HOST}/mcp`);
        expect(comment).toContain('trycloudflare.com/mcp');
      }
      return;
    }
    case 'unknown':
      throw new Error(`no check for "${step}": teach test/docs/readme-commands.test.ts how to run it`);
  }
}
