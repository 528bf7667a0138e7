/**
 * @module bench/lib/crash-vault
 * The crash harness's view of a vault, from outside the server: the starting vault, note texts with
 * one unique word each, what is on disk (notes and left-over temporary files), the journal read
 * straight from its files, and the check that the journal agrees with the files.
 */

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { randInt } from './random.mjs';

/** Read-write note slots: each lives at `inbox/nK.md` or `archive/nK.md` (moves go between them). */
export const SLOTS = 8;
/** Notes in the staged folder, changed only by the owner's approval. */
export const STAGED = 4;
export const POLICY = 'default: read-write\nfolders:\n  staged: staged\n';

const FILLER = (
  'the river notes a quiet morning with bread and paper lamps over the old bridge while ' +
  'seven gardeners count apples beside green windows and write letters about rain'
).split(' ');

export function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** The etag the server gives a note's bytes. */
export function etagOf(text) {
  return `sha256:${sha256(Buffer.from(text, 'utf8'))}`;
}

/**
 * Makes note texts: each version carries the line `token <word>` with a word no other version has,
 * so a search finds exactly the notes holding that version. Sizes vary from a few hundred bytes to
 * ~400 KB (a larger write keeps the window between journal entry and rename open longer).
 */
export function textMaker(rand) {
  let version = 0;
  // `kv7x7`, `kv12x12`: no word is the start of another, so a search finds exactly its version.
  const token = () => {
    const n = version++;
    return `kv${n}x${n}`;
  };
  const body = () => {
    const r = rand();
    const size =
      r < 0.7
        ? randInt(rand, 200, 2_000)
        : r < 0.95
          ? randInt(rand, 10_000, 60_000)
          : randInt(rand, 200_000, 400_000);
    const words = [];
    let length = 0;
    while (length < size) {
      const w = FILLER[Math.floor(rand() * FILLER.length)];
      words.push(w);
      length += w.length + 1;
    }
    return words.join(' ');
  };
  return {
    token,
    /** A whole new text for a note titled `title`. */
    text: (title) => `# ${title}\n\ntoken ${token()}\n\n${body()}\n`,
  };
}

/** The unique word of a text. */
export function tokenOf(text) {
  return /^token (\S+)$/m.exec(text)?.[1] ?? null;
}

/** Writes the starting vault: every slot in `inbox/`, every staged note, the policy. */
export function makeVault(dir, texts) {
  fs.mkdirSync(path.join(dir, '.noted'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.noted', 'mcp-policy.yaml'), POLICY);
  const files = new Map();
  for (let k = 0; k < SLOTS; k++) files.set(`inbox/n${k}.md`, texts.text(`n${k}`));
  for (let k = 0; k < STAGED; k++) files.set(`staged/s${k}.md`, texts.text(`s${k}`));
  for (const [name, text] of files) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return files;
}

/**
 * Every file under the vault except `.noted/`: `notes` maps each `.md` note (not a dot-file) to its
 * text; `temps` lists temporary files of atomic writes (`*.noted-tmp`); `other` anything else.
 */
export function readDisk(dir) {
  const notes = new Map();
  const temps = [];
  const other = [];
  const visit = (abs, rel) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (childRel === '.noted') continue;
      const childAbs = path.join(abs, e.name);
      if (e.isDirectory()) visit(childAbs, childRel);
      else if (e.name.endsWith('.noted-tmp')) temps.push(childRel);
      else if (e.name.endsWith('.md') && !e.name.startsWith('.'))
        notes.set(childRel, fs.readFileSync(childAbs, 'utf8'));
      else other.push(childRel);
    }
  };
  visit(dir, '');
  return { notes, temps, other };
}

/** Every note in the trash (`.noted/trash/<deletion>/<path>`): name → the paths of its copies. */
export function trashListing(dir) {
  const root = path.join(dir, '.noted', 'trash');
  const out = new Map();
  let ids = [];
  try {
    ids = fs.readdirSync(root);
  } catch {
    return out;
  }
  for (const id of ids) {
    const visit = (abs, rel) => {
      for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
        const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) visit(path.join(abs, e.name), childRel);
        else if (e.name.endsWith('.md') && !e.name.startsWith('.')) {
          out.set(childRel, [...(out.get(childRel) ?? []), path.join(abs, e.name)]);
        }
      }
    };
    visit(path.join(root, id), '');
  }
  return out;
}

/** Temporary files of atomic writes and lock files left anywhere under `.noted/`. */
export function stateTemps(dir) {
  let count = 0;
  const visit = (abs) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      if (e.isDirectory()) visit(path.join(abs, e.name));
      else if (e.name.endsWith('.noted-tmp') || e.name.endsWith('.tmp')) count++;
    }
  };
  visit(path.join(dir, '.noted'));
  return count;
}

const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.jsonl$/;

/**
 * Reads the journal's day files as they grow, complete lines only (a torn last line is left for the
 * next read, which is also what the server does with it).
 */
export class JournalReader {
  constructor(vaultDir) {
    this.dir = path.join(vaultDir, '.noted', 'journal');
    this.offsets = new Map();
    this.entries = [];
  }

  /** Reads what was appended since the last call; returns the new entries. */
  update() {
    let names = [];
    try {
      names = fs
        .readdirSync(this.dir)
        .filter((n) => DAY_FILE.test(n))
        .sort();
    } catch {
      return [];
    }
    const fresh = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      const offset = this.offsets.get(name) ?? 0;
      const bytes = fs.readFileSync(file);
      const end = bytes.lastIndexOf(0x0a) + 1;
      if (end <= offset) continue;
      for (const line of bytes.subarray(offset, end).toString('utf8').split('\n')) {
        if (line !== '') fresh.push(JSON.parse(line));
      }
      this.offsets.set(name, end);
    }
    this.entries.push(...fresh);
    return fresh;
  }

  /** The last complete entry's seq (0 for an empty journal). */
  lastSeq() {
    this.update();
    return this.entries.at(-1)?.seq ?? 0;
  }
}

/**
 * The journal against the files: for every note, its latest entry (not counting `not_applied`
 * notes) must match the file — its after-text when it was applied, its before-text when a
 * `not_applied` entry says it never was. A change recorded, not written and not noted as such is
 * exactly what this catches. Also: each `not_applied` names an earlier entry of the same note, and
 * none is noted twice. Returns the problems found.
 */
export function checkJournalAgainstFiles(entries, notes) {
  const problems = [];
  const byId = new Map();
  const voidedBy = new Map();
  const latest = new Map();
  for (const e of entries) {
    if (e.kind === 'not_applied') {
      const target = byId.get(e.voids);
      if (target === undefined)
        problems.push(`not_applied ${e.id} voids ${e.voids}, which is not an earlier entry`);
      else if (target.note !== e.note)
        problems.push(`not_applied ${e.id} is about "${e.note}" but voids an entry of "${target.note}"`);
      if (voidedBy.has(e.voids))
        problems.push(`entry ${e.voids} was noted as not applied twice (${voidedBy.get(e.voids)}, ${e.id})`);
      voidedBy.set(e.voids, e.id);
    } else {
      latest.set(e.note, e);
    }
    byId.set(e.id, e);
  }
  for (const [note, e] of latest) {
    const text = notes.get(note);
    const hash = text === undefined ? null : sha256(Buffer.from(text, 'utf8'));
    const voided = voidedBy.has(e.id);
    const expected = voided ? e.beforeSha256 : e.afterSha256;
    if (hash !== expected) {
      problems.push(
        voided
          ? `"${note}": entry ${e.id} (${e.tool}) is noted as not applied, but the file is not its before-text`
          : hash === e.beforeSha256
            ? `"${note}": entry ${e.id} (${e.tool} ${e.kind}) was recorded but never written, and no not_applied entry says so`
            : `"${note}": the file matches neither side of its latest entry ${e.id} (${e.tool} ${e.kind})`,
      );
    }
  }
  return { problems, voidedBy };
}
