import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/vault/format-name.js';
import { FORMATS, openTestVaultIn } from '../helpers/formats.js';
import { IdLabels } from '../helpers/note-ids.js';
import type { Structured, TestVault } from '../helpers/vault.js';

/**
 * SPEC 4 (hidden: as if absent), issue 18: every tool that lists or counts answers on a vault with
 * hidden folders exactly as on the same vault with those folders deleted — names, order, counts,
 * totals, display casings, link targets, cursors. Generated vaults put hidden notes where they could
 * leak: the same names as visible notes (link resolution, ties), the same tags in other casings
 * (the casing a tag is shown in), links both ways, tasks, properties, prompts and trash.
 * search_notes has its own such test (the search engineer's).
 */

const POLICY = 'default: read-write\nfolders:\n  h: hidden\n  a/h: hidden\n  prompts/h: hidden\n';
const VISIBLE_FOLDERS = ['', 'a', 'a/b', 'c', 'prompts'];
const HIDDEN_FOLDERS = ['h', 'a/h', 'prompts/h'];
const NAMES = ['x', 'y', 'Plan', 'plan', 'z'];
const TAGS = ['t', 'T', 't/sub', 'T/Sub', 'u'];
const DAYS = ['2026-05-01', '2026-05-02', '2026-06-01'];

interface NoteSpec {
  folder: string;
  name: string;
  tags: string[];
  tasks: { done: boolean; due: string | null }[];
  links: string[];
  status: string | null;
  rank: number | null;
}

const noteSpec: fc.Arbitrary<NoteSpec> = fc.record({
  folder: fc.constantFrom(...VISIBLE_FOLDERS, ...HIDDEN_FOLDERS),
  name: fc.constantFrom(...NAMES),
  tags: fc.subarray(TAGS, { maxLength: 3 }),
  tasks: fc.array(fc.record({ done: fc.boolean(), due: fc.option(fc.constantFrom(...DAYS)) }), {
    maxLength: 3,
  }),
  links: fc.array(fc.constantFrom(...NAMES, 'a/x', 'h/x', 'c/Plan', 'missing'), { maxLength: 3 }),
  status: fc.option(fc.constantFrom('open', 'Open', 'done')),
  rank: fc.option(fc.integer({ min: 0, max: 3 })),
});

const vaultSpec = fc.record({
  /** A folder link in a visible folder pointing into a hidden one: hidden by where it leads. */
  linkIntoHidden: fc.boolean(),
  notes: fc.array(noteSpec, { minLength: 1, maxLength: 14 }),
  trashed: fc.array(
    fc.record({
      folder: fc.constantFrom(...VISIBLE_FOLDERS, ...HIDDEN_FOLDERS),
      name: fc.constantFrom(...NAMES),
    }),
    {
      maxLength: 3,
    },
  ),
});

function isHidden(rel: string): boolean {
  return HIDDEN_FOLDERS.some((h) => rel === h || rel.startsWith(`${h}/`));
}

function textOf(note: NoteSpec, i: number): string {
  const fm = [
    note.tags.length > 0 ? `tags: [${note.tags.join(', ')}]` : null,
    note.status === null ? null : `status: ${note.status}`,
    note.rank === null ? null : `rank: ${note.rank}`,
  ].filter((l) => l !== null);
  const head = fm.length > 0 ? `---\n${fm.join('\n')}\n---\n` : '';
  const tasks = note.tasks.map(
    (t, j) => `- [${t.done ? 'x' : ' '}] task ${i}.${j}${t.due ? ` 📅 ${t.due}` : ''}`,
  );
  const inline = note.tags.map((t) => `#${t}`).join(' ');
  return `${head}# Note ${i}\n\n${note.links.map((l) => `[[${l}]]`).join(' ')} ${inline}\n\n${tasks.join('\n')}\n`;
}

/** The vault's files (the hidden folders only when `withHidden`), with equal times in both. */
function filesOf(
  spec: { notes: NoteSpec[]; trashed: { folder: string; name: string }[] },
  withHidden: boolean,
) {
  const files: Record<string, string> = { '.noted/mcp-policy.yaml': POLICY };
  const seen = new Set<string>();
  spec.notes.forEach((note, i) => {
    const rel = `${note.folder === '' ? '' : `${note.folder}/`}${note.name}.md`;
    if (seen.has(rel.toLowerCase())) return;
    seen.add(rel.toLowerCase());
    if (withHidden || !isHidden(rel)) files[rel] = textOf(note, i);
  });
  spec.trashed.forEach((t, i) => {
    const rel = `${t.folder === '' ? '' : `${t.folder}/`}${t.name}.md`;
    if (withHidden || !isHidden(rel))
      files[`.noted/trash/2026-05-0${i + 1}T00-00-00-000Z/${rel}`] = `gone ${i}`;
  });
  return files;
}

/**
 * Opens the vault, in `format`; `order` gives every file of the full vault its time, equal in both
 * vaults.
 */
async function open(
  format: FormatName,
  files: Record<string, string>,
  order: readonly string[],
  linkIntoHidden: boolean,
): Promise<TestVault> {
  return openTestVaultIn(format, files, {
    now: () => new Date('2026-05-10T12:00:00Z'),
    prepare: (dir) => {
      // Distinct times per file, so "newest first" has an order to keep.
      for (const rel of Object.keys(files)) {
        if (rel.startsWith('.noted/')) continue;
        const t = new Date(Date.UTC(2026, 0, 1, 0, order.indexOf(rel)));
        fs.utimesSync(path.join(dir, rel), t, t);
      }
      // Hidden folders exist (empty) in both, so the vaults differ only by the hidden notes.
      for (const h of HIDDEN_FOLDERS) fs.mkdirSync(path.join(dir, h), { recursive: true });
      if (linkIntoHidden) {
        fs.mkdirSync(path.join(dir, 'c'), { recursive: true });
        fs.symlinkSync(path.join('..', 'h'), path.join(dir, 'c', 'door'));
      }
    },
  });
}

/** Every page of a tool's list, put together. */
async function allPages(v: TestVault, tool: string, args: Record<string, unknown>): Promise<Structured[]> {
  const pages: Structured[] = [];
  let cursor: string | undefined;
  do {
    const r = await v.call(tool, { ...args, limit: 3, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(r.structured);
    cursor = r.structured.nextCursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

/** Everything an agent can count or list, asked the same way of a vault. */
async function answers(v: TestVault): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  out.list_notes = await allPages(v, 'list_notes', {});
  out.list_tags = await allPages(v, 'list_tags', {});
  for (const tag of TAGS) out[`list_by_tag ${tag}`] = await allPages(v, 'list_by_tag', { tag });
  out.list_tasks = await allPages(v, 'list_tasks', { status: 'all' });
  out['list_tasks overdue'] = (await v.call('list_tasks', { overdue: true })).structured;
  out['list_tasks tag'] = (await v.call('list_tasks', { tag: 't', status: 'all' })).structured;
  out.list_folders = await allPages(v, 'list_folders', {});
  out['list_folders a'] = (await v.call('list_folders', { folder: 'a' })).structured;
  out['list_folders c/door'] = (await v.call('list_folders', { folder: 'c/door' })).structured;
  out['list_notes c/door'] = (await v.call('list_notes', { folder: 'c/door' })).structured;
  out.list_trash = await allPages(v, 'list_trash', {});
  out.query = await allPages(v, 'query_notes', {
    sort: [{ property: 'status' }, { property: 'rank', direction: 'desc' }],
    columns: ['status', '$tags'],
  });
  out['query has_tag'] = (
    await v.call('query_notes', { filters: [{ op: 'has_tag', value: 't/sub' }] })
  ).structured;
  for (const name of NAMES) {
    out[`query has_link ${name}`] = (
      await v.call('query_notes', { filters: [{ op: 'has_link', value: name }] })
    ).structured;
  }
  const visible = (out.list_notes as Structured[]).flatMap((p) =>
    p.notes.map((n: Structured) => n.name as string),
  );
  for (const name of [...visible, ...NAMES, 'h/x', 'a/h/x', 'c/door/x']) {
    out[`get_backlinks ${name}`] = (await v.call('get_backlinks', { name })).structured;
    out[`get_outgoing_links ${name}`] = (await v.call('get_outgoing_links', { name })).structured;
    out[`get_properties ${name}`] = (await v.call('get_properties', { name })).structured;
  }
  const resources: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = await v.client.listResources(cursor === undefined ? {} : { cursor });
    resources.push(page.resources);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  out['resources/list'] = resources;
  out['prompts/list'] = (await v.client.listPrompts()).prompts;
  return out;
}

// Both formats: an HTML vault's hidden notes must leave no trace either (SPEC 11.1).
describe.each(FORMATS)(
  'hidden folders leave no trace in any count or list (SPEC 4, issue 18; %s vault)',
  (format) => {
    it('answers with hidden notes equal answers with the hidden folders deleted', async () => {
      await fc.assert(
        fc.asyncProperty(vaultSpec, async (spec) => {
          const full = filesOf(spec, true);
          const order = Object.keys(full).sort();
          const withHidden = await open(format, full, order, spec.linkIntoHidden);
          const without = await open(format, filesOf(spec, false), order, spec.linkIntoHidden);
          try {
            // Each index file makes its own ids (SPEC 17.3): compared by where they stand, not by value.
            const a = new IdLabels().relabel(await answers(withHidden));
            const b = new IdLabels().relabel(await answers(without));
            for (const key of Object.keys(b)) expect(a[key], key).toEqual(b[key]);
          } finally {
            await withHidden.close();
            await without.close();
          }
        }),
        { seed: Number(process.env.SEED ?? 18), numRuns: Number(process.env.RUNS ?? 25) },
      );
    }, 240_000);
  },
);
