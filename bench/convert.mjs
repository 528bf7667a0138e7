#!/usr/bin/env node
/**
 * @module bench/convert
 * Times `noted-mcp convert` (SPEC 11.5) on a copy of a vault: a dry run to HTML (reading and
 * converting only), the conversion to HTML, then back to Markdown, each through the built CLI as a
 * user runs it. Prints notes/s for each and how many notes came back byte for byte; asserts nothing
 * about time (ARCHITECTURE.md, "Tests").
 *
 *   npm run build:mcp
 *   node bench/convert.mjs [--base /work/vaults/v10k] [--notes 1000] [--server dist-mcp/index.cjs]
 *
 * With `--base DIR` the vault is copied (`cp -a`) into a temporary folder first and the base is
 * never written; without it, `--notes` notes are generated there (bench/generate-vault.mjs).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateVault } from './generate-vault.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    notes: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
  },
});

const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-convert-'));
const vault = join(tmp, 'vault');
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const t = performance.now();
if (values.base !== undefined) {
  execFileSync('cp', ['-a', resolve(values.base), vault]);
  rmSync(join(vault, '.noted'), { recursive: true, force: true });
  console.error(`copied ${values.base} in ${sec(t)} s`);
} else {
  generateVault({ notes: Number(values.notes), out: vault, seed: Number(values.seed) });
  console.error(`generated ${values.notes} notes in ${sec(t)} s`);
}
// The copy leaves data for the disk to write back; the conversion's own syncs would queue behind it.
execFileSync('sync');

const before = notesOf(vault, '.md');
console.log(`vault: ${before.size} Markdown notes, ${mb([...before.values()])} MB`);

const rows = [
  ['dry run to html', run(['--to', 'html', '--dry-run'])],
  ['convert to html', run(['--to', 'html'])],
  ['convert to markdown', run(['--to', 'markdown'])],
];
console.log('\n| step | notes | seconds | notes/s | exit |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [step, r] of rows) {
  console.log(
    `| ${step} | ${r.notes} | ${r.seconds.toFixed(2)} | ${Math.round(r.notes / r.seconds)} | ${r.status} |`,
  );
}

const after = notesOf(vault, '.md');
let same = 0;
for (const [name, text] of before) if (after.get(name)?.equals(text)) same++;
console.log(
  `\nround trip: ${after.size} of ${before.size} notes back as .md, ${same} byte for byte (the rest differ in Markdown spelling, SPEC 11.5; see docs/html-vaults.md)`,
);
if (rows.some(([, r]) => r.status !== 0)) process.exitCode = 1;

function run(args) {
  const started = performance.now();
  const out = spawnSync(process.execPath, [values.server, 'convert', ...args, '--notes-dir', vault], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const seconds = (performance.now() - started) / 1000;
  const match = /(?:Converted|Dry run:) (\d+) of/.exec(out.stdout);
  if (out.status !== 0) console.error(out.stdout.slice(-2000), out.stderr.slice(-2000));
  return { notes: match ? Number(match[1]) : 0, seconds, status: out.status };
}

function notesOf(root, ending) {
  const found = new Map();
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) visit(abs);
      else if (entry.name.endsWith(ending)) found.set(relative(root, abs), readFileSync(abs));
    }
  };
  visit(root);
  return found;
}

function mb(buffers) {
  return (buffers.reduce((n, b) => n + b.length, 0) / 1048576).toFixed(1);
}

function sec(from) {
  return ((performance.now() - from) / 1000).toFixed(1);
}
