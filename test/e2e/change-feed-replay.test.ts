/**
 * The change feed's promise (SPEC 12.1, issue 22): an agent that keeps a copy of the vault as it was
 * at a cursor and replays the feed from there ends with exactly the visible vault, while two servers
 * on the vault and an editor change it at the same time (writes, renames of notes and folders,
 * deletions, moves in and out of a hidden folder).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type Connection, connect, makeVault, type Structured, within } from '../helpers/vault.js';

let open: Connection[] = [];
let base: string | undefined;
afterEach(async () => {
  for (const c of open) await c.close();
  open = [];
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** The notes agents may see, by name, with their text (everything but `.noted/` and `private/`). */
function visibleNotes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.name.startsWith('.') || child === 'private') continue;
      if (e.isDirectory()) visit(child);
      else if (e.name.endsWith('.md')) out.set(child, fs.readFileSync(path.join(dir, child), 'utf8'));
    }
  };
  visit('');
  return out;
}

function notesIn(dir: string, folder: string): string[] {
  const abs = path.join(dir, folder);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${folder}/${f.split(path.sep).join('/')}`);
}

async function agentWork(c: Connection, dir: string, rnd: () => number, tag: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const existing = [...notesIn(dir, 'a'), ...notesIn(dir, 'b')];
    const pick = existing[Math.floor(rnd() * existing.length)];
    const op = rnd();
    if (op < 0.3 || pick === undefined) {
      await c.call('create_note', {
        name: `${rnd() < 0.5 ? 'a' : 'b'}/${tag}-${i}`,
        content: `${tag} ${i}\n`,
      });
    } else if (op < 0.65) {
      await c.call('update_note', { name: pick, content: `${tag} rewrote ${i}\n`, append: rnd() < 0.5 });
    } else if (op < 0.8) {
      await c.call('move_note', { name: pick, new_name: `${rnd() < 0.5 ? 'a' : 'b/sub'}/${tag}-m${i}` });
    } else {
      await c.call('delete_note', { name: pick });
    }
  }
}

async function editorWork(dir: string, rnd: () => number): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setImmediate(r));
    const existing = [...notesIn(dir, 'a'), ...notesIn(dir, 'b'), ...notesIn(dir, 'private')];
    const pick = existing[Math.floor(rnd() * existing.length)];
    const op = rnd();
    try {
      if (op < 0.3 || pick === undefined) {
        fs.writeFileSync(path.join(dir, rnd() < 0.7 ? 'a' : 'private', `ed-${i}.md`), `editor ${i}\n`);
      } else if (op < 0.6) {
        fs.appendFileSync(path.join(dir, pick), `editor line ${i}\n`);
      } else if (op < 0.85) {
        const to = rnd() < 0.3 ? 'private' : rnd() < 0.5 ? 'a' : 'b';
        fs.mkdirSync(path.join(dir, to), { recursive: true });
        fs.renameSync(path.join(dir, pick), path.join(dir, to, `ed-mv-${i}.md`));
      } else {
        fs.unlinkSync(path.join(dir, pick));
      }
    } catch {
      // A note an agent moved or deleted a moment ago: the editor's change misses, as it would.
    }
  }
  // A folder renamed as a whole, as an editor's file tree does it.
  if (fs.existsSync(path.join(dir, 'b/sub')))
    fs.renameSync(path.join(dir, 'b/sub'), path.join(dir, 'b/renamed'));
}

/** Replays changes onto `copy`: names whose text must be read again end up in `stale`. */
function replay(copy: Map<string, string | null>, changes: readonly Structured[]): void {
  for (const c of changes) {
    if (c.kind === 'deleted') copy.delete(c.name);
    else {
      if (c.kind === 'moved') copy.delete(c.from);
      copy.set(c.name, null);
    }
  }
}

it('replaying the feed from an old cursor onto a copy ends with exactly the visible vault', async () => {
  const files: Record<string, string> = { '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n' };
  for (let i = 0; i < 8; i++) {
    files[`a/n${i}.md`] = `a ${i}\n`;
    files[`b/sub/n${i}.md`] = `b ${i}\n`;
    files[`private/p${i}.md`] = `secret ${i}\n`;
  }
  const made = makeVault(files);
  base = made.base;
  const dir = made.dir;
  const one = await connect(dir, { watch: true });
  open.push(one);
  const two = await connect(dir, { watch: true });
  open.push(two);
  const reader = await connect(dir, { watch: true });
  open.push(reader);

  const start = await reader.call('list_changes', {});
  let cursor: string = start.structured.nextCursor;
  const copy = new Map<string, string | null>(visibleNotes(dir));

  await Promise.all([
    agentWork(one, dir, random(1), 'one'),
    agentWork(two, dir, random(2), 'two'),
    editorWork(dir, random(3)),
  ]);

  const seen: Structured[] = [];
  let last = '';
  const converged = await within(90_000, async () => {
    for (;;) {
      const r = await reader.call('list_changes', { cursor, limit: 1000 });
      expect(r.isError, r.text).toBe(false);
      expect(r.structured.reset).toBeUndefined();
      seen.push(...r.structured.changes);
      replay(copy, r.structured.changes);
      cursor = r.structured.nextCursor;
      if (!r.structured.more) break;
    }
    for (const [name, text] of copy) {
      if (text !== null) continue;
      const read = await reader.call('read_note', { name });
      if (read.isError) copy.set(name, `<${read.structured.code}>`);
      else copy.set(name, read.structured.frontmatterRaw + read.structured.body);
    }
    const vault = visibleNotes(dir);
    const missing = [...vault.keys()].filter((k) => !copy.has(k));
    const extra = [...copy.keys()].filter((k) => !vault.has(k));
    // With what the feed said of each, to tell a change never recorded from one misread.
    const said = [...missing, ...extra].map((name) => [
      name,
      seen.filter((c) => c.name === name || c.from === name).map((c) => [c.seq, c.kind, c.name, c.from]),
    ]);
    last = JSON.stringify({ missing, extra, said });
    const same = vault.size === copy.size && [...vault].every(([k, v]) => copy.get(k) === v);
    // Texts read while changes were still arriving are read again on the next round.
    if (!same) for (const k of copy.keys()) if (copy.get(k) !== vault.get(k)) copy.set(k, null);
    return same;
  });
  expect(converged, last).not.toBeNull();
  const summary = JSON.stringify(seen.map((c) => [c.seq, c.kind, c.name, c.from, c.by]));
  expect(seen.length, summary).toBeGreaterThan(50);
  expect(JSON.stringify(seen)).not.toContain('private/');
  const kinds = new Set(seen.map((c) => c.kind));
  expect([...kinds].sort(), summary).toEqual(['created', 'deleted', 'modified', 'moved']);
  // Both servers' agents are named as such; every change by either came through a tool.
  const agentSessions = new Set(seen.filter((c) => c.by === 'agent').map((c) => c.session));
  expect(agentSessions.size, summary).toBe(2);
  expect(
    seen.some((c) => c.by === 'outside'),
    summary,
  ).toBe(true);
  // The last etag the feed gives each surviving note is the note's etag now.
  const lastEtag = new Map<string, string | null>();
  for (const c of seen) lastEtag.set(c.name, c.etag);
  for (const [name, etag] of lastEtag) {
    if (etag === null || !copy.has(name)) continue;
    const now = await reader.call('read_note', { name });
    expect(now.structured.etag, `${name} in ${summary}`).toBe(etag);
  }
  // A hang detector, not a speed test: 120 notes written by three writers on a busy machine.
}, 180_000);
