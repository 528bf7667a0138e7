// Runs the MCP conformance suite (@modelcontextprotocol/conformance, server mode) against the built
// server's Streamable HTTP endpoint, and compares CHECK BY CHECK with the baselines (issue 36.10):
// each scenario's checks.json is read, and the run fails on a check that fails without being in
// the baseline, and on a baseline check that passes now or was not run (a stale entry: remove it).
// A scenario whose other checks pass therefore still guards them. Run `npm run build:mcp` first.
//
// The suite has no way to send an auth header, and the server never runs without its token. So the
// suite talks to a small proxy here that adds `Authorization: Bearer <token>` to each request and
// forwards it unchanged otherwise. The proxy maps only the port in a local Host header (the suite
// sees the proxy's port, the server checks its own); a foreign Host or Origin passes through as
// sent, so the suite's DNS-rebinding scenario still reaches the server's own checks.
//
// Each scenario gets a fresh server, so one scenario's sessions and notes never meet another's.
//
// Every scenario of both suite releases: 0.1.16 (the 2025 era: sessions, initialize), pending ones
// included, and 0.2.0-alpha.12, each scenario at the newest revision it applies to (2026-07-28, else
// 2025-11-25, which brings server-session-lifecycle). Left out: the suite's [extension] scenarios
// (tasks, skills), protocol extensions this server does not offer. Each suite has its baseline file.
//
// Suite versions after 0.1.13 need Node 22; npx fetches one just for the suite:
//   npx -y -p node@22 -p @modelcontextprotocol/conformance@VERSION -- conformance server --url …
// Usage: node scripts/conformance.mjs [--era 2025|2026-07-28] [--write-baseline] [SCENARIO...]
//   (default: both suites, every scenario; --write-baseline writes the failing checks found as the
//   baseline, for a person to annotate)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(REPO, 'dist-mcp', 'index.cjs');
const ERAS = [
  {
    name: '2025',
    suite: '0.1.16',
    baseline: path.join(REPO, 'scripts', 'conformance-baseline.yml'),
    // Every scenario as the suite runs it (pending ones too: --suite all).
    argsFor: () => ['--suite', 'all'],
  },
  {
    name: '2026-07-28',
    suite: '0.2.0-alpha.12',
    baseline: path.join(REPO, 'scripts', 'conformance-baseline-2026.yml'),
    // The newest revision the scenario applies to; an [extension] scenario is left out (null).
    argsFor: (versions) =>
      versions.includes('2026-07-28')
        ? ['--spec-version', '2026-07-28']
        : versions.includes('2025-11-25')
          ? ['--spec-version', '2025-11-25']
          : versions.some((v) => /^\d{4}-\d{2}-\d{2}$/.test(v))
            ? [
                '--spec-version',
                versions
                  .filter((v) => /^\d/.test(v))
                  .sort()
                  .at(-1),
              ]
            : null,
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

/** The failing checks of a baseline file: scenario → check ids. */
function readBaseline(file) {
  if (!fs.existsSync(file)) return new Map();
  const data = parseYaml(fs.readFileSync(file, 'utf8')) ?? {};
  return new Map(Object.entries(data).map(([scenario, checks]) => [scenario, new Set(checks ?? [])]));
}

/** Each check id of a scenario's results, failed when any check of that id failed. */
function readChecks(dir) {
  const results = new Map();
  if (!fs.existsSync(dir)) return results;
  for (const sub of fs.readdirSync(dir)) {
    const file = path.join(dir, sub, 'checks.json');
    if (!fs.existsSync(file)) continue;
    for (const check of JSON.parse(fs.readFileSync(file, 'utf8'))) {
      const failed = check.status === 'FAILURE';
      results.set(check.id, (results.get(check.id) ?? false) || failed);
    }
  }
  return results;
}

/** Scenarios run at once (CONFORMANCE_JOBS, default 4). */
const JOBS = Math.max(1, Number(process.env.CONFORMANCE_JOBS ?? 4) || 4);
const writeBaseline = argv[0] === '--write-baseline' ? argv.shift() !== undefined : false;
const problems = [];
let scenarioCount = 0;
let checkCount = 0;
for (const era of ERAS.filter((e) => onlyEra === undefined || e.name === onlyEra)) {
  const baseline = readBaseline(era.baseline);
  const found = new Map();
  const listed = await suite(era.suite, ['list', '--server'], { capture: true });
  const all = [...listed.out.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?/gm)].map((m) => ({
    name: m[1],
    args: era.argsFor((m[2] ?? '').split(',')),
  }));
  if (listed.code !== 0 || all.length === 0) {
    console.error(`conformance: could not list the suite's scenarios:\n${listed.out}`);
    process.exit(1);
  }
  const scenarios = all.filter((s) => s.args !== null && (argv.length === 0 || argv.includes(s.name)));
  const runOne = async (scenario) => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-conformance-'));
    const server = await startServer(base);
    const resultsDir = path.join(base, 'results');
    const run = await suite(
      era.suite,
      [
        'server',
        '--url',
        server.url,
        '--scenario',
        scenario.name,
        ...scenario.args,
        ...(process.env.CONFORMANCE_VERBOSE ? ['--verbose'] : []),
        '--output-dir',
        resultsDir,
      ],
      { cwd: base, capture: true },
    );
    await server.stop();
    const checks = readChecks(resultsDir);
    fs.rmSync(base, { recursive: true, force: true });
    const where = `${era.name}: ${scenario.name}`;
    const mine = [];
    if (checks.size === 0) mine.push(`${where}: no checks were reported (the scenario did not run)`);
    const expected = baseline.get(scenario.name) ?? new Set();
    const failing = [...checks].filter(([, failed]) => failed).map(([id]) => id);
    found.set(scenario.name, failing);
    for (const id of failing)
      if (!expected.has(id)) mine.push(`${where}: ${id} fails (not in ${path.basename(era.baseline)})`);
    for (const id of expected) {
      if (!checks.has(id)) mine.push(`${where}: ${id} is in the baseline but was not run: remove it`);
      else if (!checks.get(id)) mine.push(`${where}: ${id} passes now: remove it from the baseline`);
    }
    scenarioCount++;
    checkCount += checks.size;
    console.error(
      `conformance: ${where} (suite ${era.suite} ${scenario.args.join(' ')}): ${checks.size} checks, ${failing.length} failing${mine.length > 0 ? ', NOT AS EXPECTED' : ''}`,
    );
    // The suite's own report, only where it says something the baselines did not expect.
    if (mine.length > 0 || process.env.CONFORMANCE_VERBOSE) console.error(run.out);
    problems.push(...mine);
  };
  // Scenarios run a few at a time, each with its own server and vault: most of a scenario's time is
  // npx and two Node processes starting, not the server's work.
  const queue = [...scenarios];
  await Promise.all(
    Array.from({ length: JOBS }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await runOne(next);
    }),
  );
  for (const name of baseline.keys())
    if (!scenarios.some((s) => s.name === name) && argv.length === 0)
      problems.push(`${era.name}: the baseline names ${name}, which the suite no longer has`);
  if (writeBaseline) {
    const lines = [...found]
      .filter(([, ids]) => ids.length > 0)
      .flatMap(([name, ids]) => [`${name}:`, ...ids.map((id) => `  - ${id}`)]);
    fs.writeFileSync(`${era.baseline}.new`, `${lines.join('\n')}\n`);
    console.error(`conformance: wrote ${era.baseline}.new`);
  }
}

console.error(
  `\nconformance: ${scenarioCount} scenarios, ${checkCount} distinct checks against the server; ${
    problems.length === 0
      ? 'every check as the baselines expect.'
      : `not as expected:\n  ${problems.join('\n  ')}`
  }`,
);
process.exit(problems.length > 0 ? 1 : 0);
