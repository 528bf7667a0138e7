#!/usr/bin/env node
/**
 * @module bench/generate-vault
 * Deterministic vault generator for benchmarks: the same `--notes` and `--seed` always give a
 * byte-identical vault. Writes `<out>/.bench-vault.json` (a hidden manifest naming the
 * most-linked notes and a sample of notes, for bench/run.mjs).
 *
 *   node bench/generate-vault.mjs --notes 10000 --out /tmp/vault [--seed 1]
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createNoteWriter } from './lib/note-writer.mjs';
import { deriveSeed, mulberry32 } from './lib/random.mjs';
import { planVault } from './lib/vault-plan.mjs';

/** Bumped whenever the generated text changes, so a reused vault can be recognised. */
export const GENERATOR_VERSION = 1;

/** Name of the manifest file written at the vault root. */
export const MANIFEST_NAME = '.bench-vault.json';

/**
 * Writes a vault of `notes` notes into `out` (created if missing; existing files with the same
 * names are overwritten, nothing is deleted).
 * @returns {{ notes: number, bytes: number, seconds: number, manifest: object }}
 */
export function generateVault({ notes, out, seed = 1 }) {
  const started = performance.now();
  const plan = planVault({ notes, seed });
  const writer = createNoteWriter(plan);
  const root = resolve(out);
  mkdirSync(root, { recursive: true });
  for (const f of plan.folders) if (f.path !== '') mkdirSync(join(root, f.path), { recursive: true });

  let bytes = 0;
  for (let i = 0; i < notes; i++) {
    // One PRNG per note: a note's text depends only on (seed, i), never on write order.
    const rand = mulberry32(deriveSeed(seed, `note:${i}`));
    const buf = Buffer.from(writer.render(i, rand), 'utf8');
    writeFileSync(join(root, plan.paths[i]), buf);
    bytes += buf.length;
  }

  const pickRand = mulberry32(deriveSeed(seed, 'sample'));
  const sample = [];
  for (let k = 0; k < Math.min(20, notes); k++) sample.push(plan.paths[Math.floor(pickRand() * notes)]);
  const manifest = {
    generatorVersion: GENERATOR_VERSION,
    notes,
    seed,
    bytes,
    folders: plan.folders.length,
    mostLinked: Array.from(plan.popularity.slice(0, 5), (i) => plan.paths[i]),
    sample,
  };
  writeFileSync(join(root, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
  return { notes, bytes, seconds: (performance.now() - started) / 1000, manifest };
}

function main() {
  const usage = 'usage: node bench/generate-vault.mjs --notes N --out DIR [--seed S]';
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        notes: { type: 'string' },
        out: { type: 'string' },
        seed: { type: 'string', default: '1' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    console.error(`${err.message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const notes = Number(values.notes);
  const seed = Number(values.seed);
  const problems = [];
  if (!Number.isInteger(notes) || notes < 1) problems.push('--notes must be a positive integer');
  if (!values.out) problems.push('--out is required');
  if (!Number.isInteger(seed)) problems.push('--seed must be an integer');
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\n${usage}`);
    process.exit(2);
  }
  const r = generateVault({ notes, out: values.out, seed });
  console.log(
    `notes written: ${r.notes}  folders: ${r.manifest.folders}  size: ${(r.bytes / 1048576).toFixed(1)} MB  ` +
      `time: ${r.seconds.toFixed(1)} s  (${Math.round(r.notes / r.seconds)} notes/s) → ${resolve(values.out)}`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
