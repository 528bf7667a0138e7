/**
 * The rule of every move: each link that resolved to a moved note resolves to it at its new place,
 * and no other link in the vault changes its target — checked by resolving every link of generated
 * vaults (name collisions, nested folders, relative, rooted and Markdown links, aliases) before and
 * after each move, through get_outgoing_links.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

/** mulberry32: a small seeded generator, so every failure can be replayed by its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  return { next, pick };
}

const FOLDERS = ['', 'a', 'a/b', 'c', 'c/a', 'a/b/deep'];
const NAMES = ['Note', 'Plan', 'My.Note', 'x', 'Road Map', 'note'];

function linkForms(rng: ReturnType<typeof random>, files: string[], self: string): string {
  const target = rng.pick(files);
  const stem = target.replace(/\.md$/, '');
  const base = stem.slice(stem.lastIndexOf('/') + 1);
  const folder = self.includes('/') ? self.slice(0, self.lastIndexOf('/')) : '';
  const up = folder === '' ? '' : '../'.repeat(folder.split('/').length);
  const enc = (s: string) => s.replace(/ /g, '%20');
  const forms = [
    `[[${base}]]`,
    `[[${base.toLowerCase()}|shown]]`,
    `[[${stem}#Head]]`,
    `![[${base}#^blk]]`,
    `[[${stem.split('/').slice(-2).join('/')}]]`,
    `[[./${base}]]`,
    `[[${up}${stem}]]`,
    `[[/${stem}]]`,
    `[t](${enc(stem)}.md)`,
    `[t](<${up}${stem}.md#Head>)`,
    `[[${rng.pick(NAMES)}]]`,
    `[[Ghost ${rng.pick(NAMES)}]]`,
    `[[AKA]]`,
    '![[img.png]]',
    `![i](${up}a/img.png)`,
  ];
  return rng.pick(forms);
}

function generate(seed: number): Record<string, string> {
  const rng = random(seed);
  const files = new Set<string>();
  const taken = new Set<string>();
  while (files.size < 14) {
    const folder = rng.pick(FOLDERS);
    const name = `${folder === '' ? '' : `${folder}/`}${rng.pick(NAMES)}.md`;
    if (taken.has(name.toLowerCase())) continue;
    taken.add(name.toLowerCase());
    files.add(name);
  }
  const list = [...files];
  const out: Record<string, string> = {};
  for (const name of list) {
    const links = Array.from({ length: 6 }, () => linkForms(rng, list, name));
    const fm =
      rng.next() < 0.4
        ? `---\nup: "${linkForms(rng, list, name).replace(/^!/, '')}"\n${rng.next() < 0.2 ? 'aliases: [AKA]\n' : ''}---\n`
        : '';
    out[name] = `${fm}# ${name}\n\n${links.slice(0, 3).join(' and ')}\n- item ${links.slice(3).join(', ')}\n`;
  }
  out['a/img.png'] = 'png';
  return out;
}

type LinkRow = { raw: string; target: string | null };

async function allLinks(v: TestVault): Promise<Map<string, LinkRow[]>> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await v.call('list_notes', { limit: 500, ...(cursor ? { cursor } : {}) });
    names.push(...page.structured.notes.map((n: { name: string }) => n.name));
    cursor = page.structured.nextCursor;
  } while (cursor);
  const out = new Map<string, LinkRow[]>();
  for (const name of names) {
    const r = await v.call('get_outgoing_links', { name });
    out.set(
      name,
      r.structured.links.map((l: LinkRow) => ({ raw: l.raw, target: l.target })),
    );
  }
  return out;
}

describe('a move changes no link target but those of the moved note (generated vaults)', () => {
  for (const seed of Array.from({ length: 30 }, (_, i) => i + 1)) {
    it(`seed ${seed}`, async () => {
      const files = generate(seed);
      const v = await openTestVault(files);
      vaults.push(v);
      const rng = random(seed * 7919);
      for (let step = 0; step < 4; step++) {
        const before = await allLinks(v);
        const notes = [...before.keys()];
        const from = rng.pick(notes);
        let to = '';
        for (;;) {
          const folder = rng.pick([...FOLDERS, 'new', 'new/sub']);
          to = `${folder === '' ? '' : `${folder}/`}${rng.pick([...NAMES, 'Fresh', 'Other'])}.md`;
          if (!notes.some((n) => n.toLowerCase() === to.toLowerCase())) break;
        }
        const r = await v.call('move_note', { name: from, new_name: to });
        expect(r.isError, `${from} → ${to}: ${r.text}`).toBe(false);
        const after = await allLinks(v);
        const nowResolved = new Set(
          r.structured.nowResolved.map(
            (p: { note: string; raw: string; target: string }) => `${p.note}\0${p.raw}\0${p.target}`,
          ),
        );
        const mapName = (n: string | null) => (n === from ? to : n);
        for (const [note, links] of before) {
          const moved = mapName(note) as string;
          const now = after.get(moved);
          expect(now, `${moved} exists after the move`).toBeDefined();
          expect(now?.length, `${moved} keeps its number of links`).toBe(links.length);
          links.forEach((link, i) => {
            const got = now?.[i]?.target ?? null;
            const want = mapName(link.target);
            if (link.target === null && got !== null) {
              const key = `${note}\0${link.raw}\0${got}`;
              expect(nowResolved.has(key), `${link.raw} in ${note} is reported`).toBe(true);
              return;
            }
            expect({ seed, from, to, note, raw: link.raw, now: now?.[i]?.raw, target: got }).toEqual({
              seed,
              from,
              to,
              note,
              raw: link.raw,
              now: now?.[i]?.raw,
              target: want,
            });
          });
        }
        expect(after.size).toBe(before.size);
      }
    });
  }
});

describe('a folder move changes no link target but those of what it moves (generated vaults)', () => {
  for (const seed of Array.from({ length: 12 }, (_, i) => i + 101)) {
    it(`seed ${seed}`, async () => {
      const v = await openTestVault(generate(seed));
      vaults.push(v);
      const rng = random(seed * 31);
      for (let step = 0; step < 2; step++) {
        const before = await allLinks(v);
        const folders = (await v.call('list_folders', {})).structured.folders.map(
          (f: { path: string }) => f.path,
        );
        const from = rng.pick(folders) as string;
        const to = rng.pick(['moved', 'c/moved', `${from.split('/')[0] === 'c' ? 'a' : 'c'}/x${step}`]);
        if (folders.includes(to) || to.startsWith(`${from}/`)) continue;
        const r = await v.call('move_folder', { folder: from, new_folder: to });
        expect(r.isError, `${from} → ${to}: ${r.text}`).toBe(false);
        const mapName = (n: string | null) => (n?.startsWith(`${from}/`) ? to + n.slice(from.length) : n);
        const nowResolved = new Set(
          r.structured.nowResolved.map(
            (p: { note: string; raw: string; target: string }) => `${p.note}\0${p.raw}\0${p.target}`,
          ),
        );
        const after = await allLinks(v);
        expect(after.size).toBe(before.size);
        for (const [note, links] of before) {
          const now = after.get(mapName(note) as string);
          expect(now?.length, `${note} keeps its links`).toBe(links.length);
          links.forEach((link, i) => {
            const got = now?.[i]?.target ?? null;
            if (link.target === null && got !== null) {
              expect(nowResolved.has(`${note}\0${link.raw}\0${got}`), `${link.raw} in ${note}`).toBe(true);
              return;
            }
            expect({ seed, from, to, note, raw: link.raw, target: got }).toEqual({
              seed,
              from,
              to,
              note,
              raw: link.raw,
              target: mapName(link.target),
            });
          });
        }
      }
    });
  }
});
