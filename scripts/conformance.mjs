// Runs the MCP conformance suite (@modelcontextprotocol/conformance, server mode) against the built
// server's Streamable HTTP endpoint, with the scenarios in scripts/conformance-baseline.yml allowed
// to fail. Run `npm run build:mcp` first.
//
// The suite has no way to send an auth header, and the server never runs without its token. So the
// suite talks to a small proxy here that adds `Authorization: Bearer <token>` to each request and
// forwards it unchanged otherwise. The proxy maps only the port in a local Host header (the suite
// sees the proxy's port, the server checks its own); a foreign Host or Origin passes through as
// sent, so the suite's DNS-rebinding scenario still reaches the server's own checks.
//
// Each scenario gets a fresh server: the suite's clients never end their sessions (no DELETE), and
// the server keeps at most 20, so one server for all ~30 scenarios would turn the later ones away.
//
// Both protocol eras, each with the suite release that tests it: the 2025 era (sessions, initialize)
// with 0.1.16, the 2026-07-28 era (stateless, per-request envelope) with 0.2.0-alpha.12 limited to
// that revision's scenarios (`--spec-version 2026-07-28`). Each era has its own baseline file.
//
// Suite versions after 0.1.13 need Node 22; npx fetches one just for the suite:
//   npx -y -p node@22 -p @modelcontextprotocol/conformance@VERSION -- conformance server --url …
// Usage: node scripts/conformance.mjs [--era 2025|2026-07-28] [SCENARIO...]
//   (default: both eras, every server scenario of each)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(REPO, 'dist-mcp', 'index.cjs');
const ERAS = [
  {
    name: '2025',
    suite: '0.1.16',
    baseline: path.join(REPO, 'scripts', 'conformance-baseline.yml'),
    args: [],
    // Pending scenarios, which the suite's default (`--suite active`) run leaves out too; `list` does
    // not mark them, so they are named here (0.1.16: both need fixture tools of the suite's own).
    pending: new Set(['json-schema-2020-12', 'server-sse-polling']),
    applies: () => true,
  },
  {
    name: '2026-07-28',
    suite: '0.2.0-alpha.12',
    baseline: path.join(REPO, 'scripts', 'conformance-baseline-2026.yml'),
    args: ['--spec-version', '2026-07-28'],
    pending: new Set(),
    applies: (versions) => versions.includes('2026-07-28'),
  },
];

if (!fs.existsSync(DIST)) {
  console.error(`conformance: ${DIST} is missing; run npm run build:mcp first.`);
  process.exit(1);
}

/** Runs `npx … conformance ARGS` of one suite version; resolves with the exit code and its stdout. */
function suite(version, args, { capture = false, cwd = os.tmpdir() } = {}) {
  const npx = [
    '--loglevel=error',
    '-y',
    '-p',
    'node@22',
    '-p',
    `@modelcontextprotocol/conformance@${version}`,
    '--',
  ];
  const child = spawn('npx', [...npx, 'conformance', ...args], {
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    cwd,
  });
  let out = '';
  child.stdout?.on('data', (c) => {
    out += c.toString('utf8');
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? 1, out })));
}

/** The built server on a fresh vault, with a known token, behind the token-adding proxy. */
async function startServer(base) {
  const vault = path.join(base, 'vault');
  fs.mkdirSync(vault, { recursive: true });
  fs.writeFileSync(path.join(vault, 'welcome.md'), '# Welcome\n\nA note for the conformance suite.\n');
  const token = randomBytes(32).toString('base64url');
  const server = spawn(process.execPath, [DIST, '--transport', 'http', '--port', '0', '--notes-dir', vault], {
    env: { ...process.env, NOTED_MCP_AUTH_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const serverUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${log}`)), 30_000);
    server.stderr.on('data', (chunk) => {
      log += chunk.toString('utf8');
      const m = /Endpoint: (http:\/\/\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(new URL(m[1]));
      }
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
  });

  let proxyPort = 0;
  const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const local = /^(127\.0\.0\.1|localhost|\[::1\]):(\d+)$/.exec(req.headers.host ?? '');
    if (local && Number(local[2]) === proxyPort) headers.host = `${local[1]}:${serverUrl.port}`;
    const upstream = http.request(
      { host: serverUrl.hostname, port: serverUrl.port, method: req.method, path: req.url, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = proxy.address().port;
  return {
    url: `http://127.0.0.1:${proxyPort}/mcp`,
    async stop() {
      proxy.close();
      proxy.closeAllConnections();
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

const argv = process.argv.slice(2);
let onlyEra;
if (argv[0] === '--era') {
  onlyEra = argv[1];
  argv.splice(0, 2);
  if (!ERAS.some((e) => e.name === onlyEra)) {
    console.error(`conformance: --era takes ${ERAS.map((e) => e.name).join(' or ')}`);
    process.exit(2);
  }
}

const outcomes = [];
for (const era of ERAS.filter((e) => onlyEra === undefined || e.name === onlyEra)) {
  let scenarios = argv;
  if (scenarios.length === 0) {
    const listed = await suite(era.suite, ['list', '--server'], { capture: true });
    scenarios = [...listed.out.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?/gm)]
      .filter((m) => !era.pending.has(m[1]) && era.applies((m[2] ?? '').split(',')))
      .map((m) => m[1]);
    if (listed.code !== 0 || scenarios.length === 0) {
      console.error(`conformance: could not list the suite's scenarios:\n${listed.out}`);
      process.exit(1);
    }
  }
  for (const scenario of scenarios) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-conformance-'));
    const server = await startServer(base);
    console.error(`\nconformance: ${scenario} (era ${era.name}, suite ${era.suite} → ${server.url})`);
    const run = await suite(
      era.suite,
      [
        'server',
        '--url',
        server.url,
        '--scenario',
        scenario,
        ...era.args,
        ...(process.env.CONFORMANCE_VERBOSE ? ['--verbose'] : []),
        '--expected-failures',
        era.baseline,
        '--output-dir',
        path.join(base, 'results'),
      ],
      { cwd: base },
    );
    await server.stop();
    fs.rmSync(base, { recursive: true, force: true });
    outcomes.push({ scenario: `${era.name}: ${scenario}`, code: run.code });
  }
}

const bad = outcomes.filter((o) => o.code !== 0);
console.error(
  `\nconformance: ${outcomes.length} scenarios against the server, ${outcomes.length - bad.length} as the baselines expect${
    bad.length > 0 ? `; not as expected: ${bad.map((o) => o.scenario).join(', ')}` : ''
  }.`,
);
process.exit(bad.length > 0 ? 1 : 0);
