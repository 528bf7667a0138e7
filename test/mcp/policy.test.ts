import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PendingStore } from '../../src/staging/pending-store.js';
import { newWorkflow } from '../../src/workflows/machine.js';
import { newWorkflowNote } from '../../src/workflows/note-format.js';
import { AN_ID, IdLabels } from '../helpers/note-ids.js';
import { openTestVault, readBytes, type TestVault } from '../helpers/vault.js';

/** A deletion id of an hour ago: recent enough that the 30-day retention keeps it. */
const RECENT_ID = new Date(Date.now() - 3_600_000).toISOString().replace(/[:.]/g, '-');

const POLICY = 'default: read-write\nfolders:\n  private: hidden\n  archive: read-only\n  drafts: staged\n';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

/** One clock for both vaults of a comparison, so that "today" is the same day in both. */
const NOW = new Date();

async function open(files: Record<string, string>, policy = POLICY): Promise<TestVault> {
  const v = await openTestVault(
    { ...files, '.noted/mcp-policy.yaml': policy },
    {
      now: () => NOW,
      prepare: (dir) => {
        // Equal times in both vaults, so answers can be compared byte for byte.
        const t = new Date('2026-01-02T03:04:05Z');
        for (const rel of Object.keys(files)) fs.utimesSync(path.join(dir, rel), t, t);
      },
    },
  );
  vaults.push(v);
  return v;
}

const OPEN_NOTES = {
  'open/a.md':
    '---\ntags: [shared]\nstatus: active\n---\n# A\n\nAbout the harbour. See [[secret]] and [[Plan]].\n- [ ] open task 📅 2026-02-01\n',
  'open/b.md': '# B\n\nharbour walk #shared, back to [[a]]\n',
  'open/sub/deeper/Plan.md': '---\nstatus: open plan\n---\nThe plan anyone may read.\n',
  'open/img.png': 'not really a png',
  'open/readme.txt': 'open text\n',
  '.obsidian/daily-notes.json': '{"folder": "private"}',
};
/** A valid workflow note in the hidden folder, and its etag: even the right etag must not reach it. */
const HIDDEN_FLOW = newWorkflowNote(
  newWorkflow(
    { id: 'wf-hidden', title: 'Hidden flow', states: ['a', 'b'], gates: ['b'] },
    { at: '2026-01-01T00:00:00.000Z', actor: 'someone' },
  ).workflow,
  undefined,
  'markdown',
);
const HIDDEN_FLOW_ETAG = `sha256:${createHash('sha256').update(HIDDEN_FLOW).digest('hex')}`;

const HIDDEN_DAILY_ETAG = `sha256:${createHash('sha256').update('- [ ] hidden daily task\n').digest('hex')}`;

const HIDDEN_NOTES = {
  'private/flow.md': HIDDEN_FLOW,
  'private/secret.md':
    '---\ntags: [shared, hush]\nstatus: active\nup: "[[b]]"\n---\n# Secret\n\nharbour kiwifruit [[a]] ![[a]] #hush\n- [ ] hidden task\n- [x] hidden done 📅 2026-01-01\n',
  'private/deep/more.md': 'kiwifruit again [[Plan]] #hush/deeper\n',
  // Shorter than open/sub/deeper/Plan.md: were it visible, [[Plan]] would resolve to it (rule 7).
  'private/Plan.md': '---\nstatus: secret plan\n---\n#hush\n',
  // A hidden daily note, a hidden attachment, and a hidden note embedding an open attachment.
  'private/2026-01-01.md': '- [ ] hidden daily task\n',
  'private/photo.png': 'hidden bytes',
  'private/embeds.md': '![[img.png]] ![[photo.png]]\n',
  'private/Hidden.base': 'views:\n  - type: table\n    name: Hidden\n',
};

/** An open base whose rows, counts, groups and backlinks would show the hidden notes (SPEC 16.5). */
const BASES = {
  'open/hush.base': [
    'filters:',
    '  or:',
    '    - file.hasTag("hush")',
    '    - file.hasTag("shared")',
    '    - status == "active"',
    'views:',
    '  - type: table',
    '    name: All',
    '    order: [file.name, status, file.backlinks, file.links]',
    '    groupBy:',
    '      property: status',
    '      direction: ASC',
    '    summaries:',
    '      status: Unique',
    '  - type: list',
    '    name: Linked to Plan',
    '    filters: file.hasLink("Plan")',
    '',
  ].join('\n'),
};

/** list_changes cursors carry their index's feed id, which differs between any two vaults. */
function withoutCursors(r: { text: string; structured: Record<string, unknown> }) {
  const cursor = r.structured.nextCursor;
  if (typeof cursor !== 'string' || r.structured.changes === undefined) return r;
  return {
    text: r.text.replaceAll(cursor, '<cursor>'),
    structured: { ...r.structured, nextCursor: '<cursor>' },
  };
}

describe('a hidden note answers exactly like a missing one (SPEC 4)', () => {
  it('every tool answers the same in a vault where the notes are hidden and one where they do not exist', async () => {
    const hidden = await open({ ...OPEN_NOTES, ...BASES, ...HIDDEN_NOTES });
    const absent = await open({ ...OPEN_NOTES, ...BASES });
    // A deletion of a hidden note lies in the trash of the first vault only.
    const trashed = path.join(hidden.dir, '.noted', 'trash', RECENT_ID, 'private', 'gone.md');
    fs.mkdirSync(path.dirname(trashed), { recursive: true });
    fs.writeFileSync(trashed, 'kiwifruit deleted\n');

    const calls: Record<string, Record<string, unknown>[]> = {
      list_notes: [{}, { folder: 'private' }, { folder: 'Private/deep' }],
      read_note: [
        { name: 'private/secret' },
        { name: 'secret' },
        { name: 'more' },
        { name: 'PRIVATE/SECRET.md' },
      ],
      search_notes: [
        { query: 'kiwifruit' },
        { query: 'harbour' },
        { query: 'tag:hush' },
        { query: 'tag:shared' },
        { query: 'path:private' },
        { query: 'harbour', folder: 'private' },
        { query: 'harbour', tag: 'hush' },
      ],
      create_note: [
        { name: 'private/new', content: 'x' },
        { name: 'open/from-template', template: 'secret' },
        { name: 'open/from-template', template: 'private/Plan' },
      ],
      update_task: [
        { name: 'private/2026-01-01', line: 1, expected_etag: HIDDEN_DAILY_ETAG, done: true },
        { name: '2026-01-01', line: 1, expected_etag: HIDDEN_DAILY_ETAG, done: true },
      ],
      get_daily_note: [{ date: '2026-01-01' }, { date: '2026-01-01', create: true }, { date: '2026-01-02' }],
      list_attachments: [{}, { unused: true }, { folder: 'private' }],
      list_links: [{ kind: 'unresolved' }, { kind: 'orphans' }, { kind: 'orphans', folder: 'private' }],
      read_attachment: [{ path: 'private/photo.png' }, { path: 'photo.png' }, { path: 'open/readme.txt' }],
      update_note: [
        { name: 'private/secret', content: 'x' },
        { name: 'secret', content: 'x', append: true },
      ],
      edit_note: [
        {
          name: 'private/secret',
          operation: 'replace',
          old_text: 'harbour',
          new_text: 'x',
          expected_etag: 'sha256:0',
        },
      ],
      delete_note: [{ name: 'private/secret' }, { name: 'more' }],
      list_trash: [{}],
      restore_note: [{ name: 'private/gone' }, { name: 'gone' }, { name: 'private/gone', id: RECENT_ID }],
      list_tasks: [
        {},
        { status: 'all' },
        { status: 'x' },
        { text: 'hidden', status: 'all' },
        { folder: 'private' },
        { tag: 'hush', status: 'all' },
        { overdue: true },
        { no_due: true },
        { due_to: '2026-12-31', status: 'all' },
      ],
      get_backlinks: [
        // open/a is linked from the hidden secret (a link and an embed): they must not count.
        { name: 'open/a' },
        { name: 'b' },
        { name: 'Plan' },
        { name: 'private/Plan' },
        { name: 'private/secret' },
        { name: 'secret' },
      ],
      get_outgoing_links: [
        // [[secret]] is unresolved (target null); [[Plan]] resolves to the open Plan, not the hidden one.
        { name: 'open/a' },
        { name: 'open/b' },
        { name: 'private/secret' },
        { name: 'secret' },
        { name: 'more' },
      ],
      list_tags: [{}, { limit: 1 }],
      list_by_tag: [{ tag: 'hush' }, { tag: 'hush/deeper' }, { tag: 'shared' }],
      get_properties: [{ name: 'private/secret' }, { name: 'secret' }, { name: 'Plan' }, { name: 'open/a' }],
      query_notes: [
        {},
        { folder: 'private' },
        { tag: 'hush' },
        { tag: 'shared', columns: ['status', 'tags', '$tags'] },
        { filters: [{ property: 'status', op: 'equals', value: 'active' }], columns: ['status'] },
        { filters: [{ property: 'status', op: 'contains', value: 'plan' }], sort: [{ property: 'status' }] },
        { filters: [{ op: 'has_tag', value: 'hush' }] },
        { filters: [{ property: '$tags', op: 'contains', value: 'hush' }] },
        { filters: [{ op: 'has_link', value: 'open/a' }] },
        { filters: [{ op: 'has_link', value: 'b' }] },
        { filters: [{ op: 'has_link', value: 'secret' }] },
        { filters: [{ op: 'has_link', value: 'private/secret' }] },
        { filters: [{ op: 'has_link', value: 'Plan' }] },
        {
          filters: [
            {
              any: [
                { op: 'has_tag', value: 'hush' },
                { property: 'up', op: 'is_not_empty' },
              ],
            },
          ],
        },
        { sort: [{ property: 'status', direction: 'desc' }], columns: ['status', '$folder'], limit: 2 },
        { where: 'file.hasTag("hush") || status == "active"', columns: ['status'] },
        { where: { or: ['file.hasLink("Plan")', 'file.backlinks.length > 0'] } },
      ],
      list_bases: [{}, { folder: 'private' }],
      query_base: [
        { base: 'open/hush.base' },
        { base: 'open/hush.base', view: 'Linked to Plan' },
        { base: 'open/hush.base', this: 'private/secret' },
        { base: 'private/Hidden.base' },
        { base: './private/Hidden.base' },
        { base: 'open/../private/Hidden.base' },
        { base: 'PRIVATE//Hidden.base' },
        { base: 'private/secret' },
      ],
      // A hidden note is not moved, not a destination, and links in hidden notes are neither
      // rewritten nor mentioned: every answer is what the vault without them gives.
      move_note: [
        { name: 'private/secret', new_name: 'open/moved' },
        { name: 'secret', new_name: 'open/moved', dry_run: true },
        { name: 'open/b', new_name: 'private/b' },
        { name: 'open/a', new_name: 'open/c', dry_run: true },
        { name: 'open/sub/deeper/Plan', new_name: 'open/Plan', dry_run: true },
        { name: 'open/b', new_name: 'open/secret', dry_run: true },
      ],
      move_notes: [
        {
          items: [
            { name: 'private/secret', new_name: 'open/x' },
            { name: 'more', new_name: 'open/y' },
            { name: 'open/a', new_name: 'open/more', expected_etag: 'sha256:0' },
          ],
        },
      ],
      delete_notes: [{ items: [{ name: 'private/secret' }, { name: 'more' }, { name: 'private/Plan' }] }],
      list_folders: [{}, { folder: 'private' }, { folder: 'private/deep' }, { folder: 'open' }],
      create_folder: [{ folder: 'private/new' }, { folder: 'Private' }],
      move_folder: [
        { folder: 'private', new_folder: 'open/p' },
        { folder: 'private/deep', new_folder: 'open/p' },
        { folder: 'open/sub', new_folder: 'private/sub' },
        { folder: 'open/sub', new_folder: 'open/sub2', dry_run: true },
      ],
      delete_folder: [
        { folder: 'private', dry_run: true },
        { folder: 'private/deep', revision: 'x' },
        { folder: 'open/sub', dry_run: true },
      ],
      // Creating in a hidden folder is refused before anything there is looked at; changing a hidden
      // workflow, even with its right etag, answers like a missing note.
      create_agent_workflow: [
        { title: 'Flow', states: ['a', 'b'], name: 'private/new-flow' },
        { title: 'Flow', states: ['a', 'b'], name: 'private/flow' },
        { title: 'Flow', states: ['a', 'b'], name: 'Private/Deep/flow' },
      ],
      append_agent_event: [
        { name: 'private/flow', expected_etag: HIDDEN_FLOW_ETAG, message: 'm' },
        { name: 'flow', expected_etag: HIDDEN_FLOW_ETAG, message: 'm' },
      ],
      advance_agent_state: [
        { name: 'private/flow', expected_etag: HIDDEN_FLOW_ETAG },
        { name: 'flow', expected_etag: HIDDEN_FLOW_ETAG, to: 'b' },
        { name: 'private/secret', expected_etag: 'sha256:0' },
      ],
      approve_agent_gate: [
        { name: 'private/flow', expected_etag: HIDDEN_FLOW_ETAG, state: 'b', reason: 'r' },
        { name: 'flow', expected_etag: HIDDEN_FLOW_ETAG, state: 'b', reason: 'r' },
      ],
      reject_agent_gate: [
        { name: 'private/flow', expected_etag: HIDDEN_FLOW_ETAG, state: 'b', reason: 'r' },
        { name: 'flow', expected_etag: HIDDEN_FLOW_ETAG, state: 'b', reason: 'r' },
      ],
      get_note_outline: [
        { name: 'private/secret' },
        { name: 'secret' },
        { name: 'open/a' },
        { name: 'open/b' },
      ],
      export_notes: [
        { format: 'json' },
        { format: 'markdown', folder: 'private' },
        { format: 'html' },
        { format: 'json', tag: 'hush' },
        { format: 'json', query: 'kiwifruit OR harbour' },
      ],
      get_vault_info: [{}],
      // Its cursors name each index's own feed, so only they differ (normalized below); the feed's
      // hidden notes are tested in list-changes.test.ts.
      list_changes: [{}],
    };
    const tools = (await hidden.client.listTools()).tools.map((t) => t.name).sort();
    // A tool added later must say how it treats hidden notes here.
    expect(Object.keys(calls).sort()).toEqual(tools);

    // The two vaults' index files make their own ids (SPEC 17.3): compared by where they stand.
    const ids = { hidden: new IdLabels(), absent: new IdLabels() };
    for (const [tool, argsList] of Object.entries(calls)) {
      for (const args of argsList) {
        // Scores too: the full-text index holds visible notes only (index/store/visibility.ts).
        const a = ids.hidden.relabel(withoutCursors(await hidden.call(tool, args)));
        const b = ids.absent.relabel(withoutCursors(await absent.call(tool, args)));
        expect({ tool, args, text: a.text, structured: a.structured }).toEqual({
          tool,
          args,
          text: b.text,
          structured: b.structured,
        });
      }
    }
    // The comparison above is not between two errors: the open answers say what they should.
    const attachments = await hidden.call('list_attachments');
    expect(
      attachments.structured.attachments.map((a: { path: string; embeddedBy: number }) => [
        a.path,
        a.embeddedBy,
      ]),
    ).toEqual([
      ['open/hush.base', 0],
      ['open/img.png', 0],
      ['open/readme.txt', 0],
    ]);
    const backlinksOfA = await hidden.call('get_backlinks', { name: 'open/a' });
    expect(backlinksOfA.structured.backlinks).toEqual([{ name: 'open/b.md', id: AN_ID, count: 1 }]);
    const linksOfA = await hidden.call('get_outgoing_links', { name: 'open/a' });
    expect(
      linksOfA.structured.links.map((l: { raw: string; target: string | null }) => [l.raw, l.target]),
    ).toEqual([
      ['[[secret]]', null],
      ['[[Plan]]', 'open/sub/deeper/Plan.md'],
    ]);
    expect((await hidden.call('list_tags')).structured.tags).toEqual([{ tag: 'shared', count: 2 }]);
    const tasks = await hidden.call('list_tasks', { status: 'all' });
    expect(tasks.structured.tasks.map((t: { note: string }) => t.note)).toEqual(['open/a.md']);
    const linkers = await hidden.call('query_notes', { filters: [{ op: 'has_link', value: 'secret' }] });
    expect(linkers.structured.rows).toEqual([{ name: 'open/a.md', $id: AN_ID }]);
    expect((await hidden.call('get_properties', { name: 'Plan' })).structured.properties).toEqual({
      status: 'open plan',
    });
    expect((await hidden.call('get_properties', { name: 'private/secret' })).structured.code).toBe(
      'not_found',
    );
    // Nothing was changed in the hidden folder by any of it.
    expect(readBytes(hidden.dir, 'private/secret.md')?.toString()).toBe(HIDDEN_NOTES['private/secret.md']);
    expect(readBytes(hidden.dir, 'private/flow.md')?.toString()).toBe(HIDDEN_FLOW);
    expect(fs.existsSync(path.join(hidden.dir, 'private', 'new.md'))).toBe(false);
    expect(fs.existsSync(path.join(hidden.dir, 'private', 'new-flow.md'))).toBe(false);
    expect(readBytes(hidden.dir, 'private/deep/more.md')?.toString()).toBe(
      HIDDEN_NOTES['private/deep/more.md'],
    );
    expect(fs.existsSync(path.join(hidden.dir, 'private', 'new'))).toBe(false);
  });

  it('a symbolic link in an open folder to a hidden note is hidden too', async () => {
    const v = await openTestVault(
      { ...OPEN_NOTES, ...HIDDEN_NOTES, '.noted/mcp-policy.yaml': POLICY },
      {
        prepare: (dir) =>
          fs.symlinkSync(path.join(dir, 'private', 'secret.md'), path.join(dir, 'open', 'link.md')),
      },
    );
    vaults.push(v);
    // As a dangling link answers (issue 35 finding 10): nothing tells that its hidden target exists.
    expect((await v.call('read_note', { name: 'open/link' })).structured).toMatchObject({
      code: 'invalid_name',
      reason: 'dangling_symlink',
    });
    expect((await v.call('search_notes', { query: 'kiwifruit' })).structured.total).toBe(0);
    const list = await v.call('list_notes', {});
    expect(list.structured.notes.map((n: { name: string }) => n.name).sort()).toEqual([
      'open/a.md',
      'open/b.md',
      'open/sub/deeper/Plan.md',
    ]);
    // Nor do its links, tags, tasks or properties show anywhere.
    expect((await v.call('get_properties', { name: 'open/link' })).structured.code).toBe('invalid_name');
    expect((await v.call('get_outgoing_links', { name: 'open/link' })).structured.code).toBe('invalid_name');
    expect((await v.call('get_backlinks', { name: 'open/link' })).structured.code).toBe('invalid_name');
    expect((await v.call('get_backlinks', { name: 'open/a' })).structured.backlinks).toEqual([
      { name: 'open/b.md', id: AN_ID, count: 1 },
    ]);
    expect((await v.call('list_by_tag', { tag: 'hush' })).structured.notes).toEqual([]);
    expect((await v.call('list_tasks', { text: 'hidden', status: 'all' })).structured.tasks).toEqual([]);
    expect((await v.call('query_notes', { tag: 'hush' })).structured.total).toBe(0);
    expect((await v.call('update_note', { name: 'open/link', content: 'x' })).structured.code).toBe(
      'invalid_name',
    );
    expect(readBytes(v.dir, 'private/secret.md')?.toString()).toBe(HIDDEN_NOTES['private/secret.md']);
  });
});

describe('read-only folders', () => {
  it('can be read and searched, and every write is refused naming the rule', async () => {
    const v = await open({ 'archive/old.md': 'ancient harbour\n' });
    expect((await v.call('read_note', { name: 'archive/old' })).isError).toBe(false);
    expect((await v.call('search_notes', { query: 'ancient' })).structured.total).toBe(1);
    const etag = (await v.call('read_note', { name: 'archive/old' })).structured.etag;
    const attempts: [string, Record<string, unknown>][] = [
      ['create_note', { name: 'archive/new', content: 'x' }],
      ['update_note', { name: 'archive/old', content: 'x', expected_etag: etag }],
      [
        'edit_note',
        {
          name: 'archive/old',
          operation: 'replace',
          old_text: 'ancient',
          new_text: 'x',
          expected_etag: etag,
        },
      ],
      ['delete_note', { name: 'archive/old' }],
    ];
    for (const [tool, args] of attempts) {
      const r = await v.call(tool, args);
      expect(r.structured.code, tool).toBe('read_only');
      expect(r.structured.committed, tool).toBe(false);
      expect(r.structured.message, tool).toMatch(/read-only for agents by vault policy/);
    }
    expect(readBytes(v.dir, 'archive/old.md')?.toString()).toBe('ancient harbour\n');
    expect(fs.existsSync(path.join(v.dir, 'archive', 'new.md'))).toBe(false);
  });
});

describe('staged folders (SPEC 5.1)', () => {
  it('writes are computed, kept for review and not applied', async () => {
    const v = await open({ 'drafts/plan.md': 'first line\n' });
    const etag = (await v.call('read_note', { name: 'drafts/plan' })).structured.etag;
    const edit = await v.call('edit_note', {
      name: 'drafts/plan',
      operation: 'replace',
      old_text: 'first',
      new_text: 'second',
      expected_etag: etag,
    });
    expect(edit.isError).toBe(false);
    expect(edit.structured).toMatchObject({ staged: true, note: 'drafts/plan.md', kind: 'update' });
    expect(edit.text).toMatch(/not applied/);
    expect(readBytes(v.dir, 'drafts/plan.md')?.toString()).toBe('first line\n');

    const created = await v.call('create_note', { name: 'drafts/new', content: 'fresh\n' });
    expect(created.structured).toMatchObject({ staged: true, kind: 'create', note: 'drafts/new.md' });
    expect(fs.existsSync(path.join(v.dir, 'drafts', 'new.md'))).toBe(false);
    const deleted = await v.call('delete_note', { name: 'drafts/plan' });
    expect(deleted.structured).toMatchObject({ staged: true, kind: 'delete' });
    expect(readBytes(v.dir, 'drafts/plan.md')?.toString()).toBe('first line\n');

    const store = new PendingStore(v.opened.vault);
    const pending = store.list();
    expect(pending.map((p) => [p.note, p.kind, p.client, p.tool])).toEqual([
      ['drafts/plan.md', 'update', 'noted-test', 'edit_note'],
      ['drafts/new.md', 'create', 'noted-test', 'create_note'],
      ['drafts/plan.md', 'delete', 'noted-test', 'delete_note'],
    ]);
    expect(store.get(edit.structured.pendingId).newText).toBe('second line\n');
    // Staged changes are not journaled: nothing was written yet.
    expect(fs.existsSync(path.join(v.dir, '.noted', 'journal'))).toBe(false);
  });

  it('a creation already waiting for review is not staged twice, in any letter case', async () => {
    const v = await open({});
    const first = await v.call('create_note', { name: 'drafts/idea', content: 'one\n' });
    expect(first.structured).toMatchObject({ staged: true, kind: 'create' });
    for (const name of ['drafts/idea', 'Drafts/IDEA.md']) {
      const again = await v.call('create_note', { name, content: 'two\n' });
      expect(again.structured.code, name).toBe('already_exists');
      expect(again.structured.pendingId).toBe(first.structured.pendingId);
      expect(again.structured.message).toContain(`pending change ${first.structured.pendingId}`);
    }
    const store = new PendingStore(v.opened.vault);
    expect(store.list().map((p) => p.note)).toEqual(['drafts/idea.md']);
    expect(store.get(first.structured.pendingId).newText).toBe('one\n');
    // Once the owner rejected it, the name is free to propose again.
    store.remove(first.structured.pendingId);
    const third = await v.call('create_note', { name: 'drafts/idea', content: 'three\n' });
    expect(third.structured).toMatchObject({ staged: true, kind: 'create' });
  });

  it('a stale etag in a staged folder is a conflict, not a staged change', async () => {
    const v = await open({ 'drafts/plan.md': 'first line\n' });
    const r = await v.call('update_note', {
      name: 'drafts/plan',
      content: 'x',
      expected_etag: 'sha256:stale',
    });
    expect(r.structured.code).toBe('conflict');
    expect(new PendingStore(v.opened.vault).list()).toEqual([]);
  });

  it('restore_note is refused in a staged folder', async () => {
    const v = await open({});
    const trashed = path.join(v.dir, '.noted', 'trash', RECENT_ID, 'drafts', 'gone.md');
    fs.mkdirSync(path.dirname(trashed), { recursive: true });
    fs.writeFileSync(trashed, 'gone\n');
    const r = await v.call('restore_note', { name: 'drafts/gone' });
    expect(r.structured.code).toBe('staged');
    expect(fs.existsSync(path.join(v.dir, 'drafts', 'gone.md'))).toBe(false);
  });
});

describe('the policy file', () => {
  it('is read on every request: a change applies to the very next call', async () => {
    const v = await open({ 'notes/x.md': 'visible words\n' }, 'default: read-write\n');
    expect((await v.call('search_notes', { query: 'visible' })).structured.total).toBe(1);
    fs.writeFileSync(path.join(v.dir, '.noted', 'mcp-policy.yaml'), 'folders:\n  notes: hidden\n');
    expect((await v.call('search_notes', { query: 'visible' })).structured.total).toBe(0);
    expect((await v.call('read_note', { name: 'notes/x' })).structured.code).toBe('not_found');
  });

  it('a broken file closes the vault: every tool answers policy_error saying what is wrong', async () => {
    const v = await open({ 'notes/x.md': 'words\n' }, 'folders:\n  notes: hiden\n');
    const tools = (await v.client.listTools()).tools.map((t) => t.name);
    for (const tool of tools) {
      const args: Record<string, unknown> = {
        list_notes: {},
        read_note: { name: 'notes/x' },
        search_notes: { query: 'words' },
        create_note: { name: 'y', content: 'y' },
        update_note: { name: 'notes/x', content: 'y' },
        edit_note: {
          name: 'notes/x',
          operation: 'replace',
          old_text: 'a',
          new_text: 'b',
          expected_etag: 'x',
        },
        delete_note: { name: 'notes/x' },
        list_trash: {},
        restore_note: { name: 'notes/x' },
        move_note: { name: 'notes/x', new_name: 'y' },
        move_notes: { items: [{ name: 'notes/x', new_name: 'y' }] },
        delete_notes: { items: [{ name: 'notes/x' }] },
        list_folders: {},
        create_folder: { folder: 'y' },
        move_folder: { folder: 'notes', new_folder: 'y' },
        delete_folder: { folder: 'notes', dry_run: true },
        list_tasks: {},
        get_backlinks: { name: 'notes/x' },
        get_outgoing_links: { name: 'notes/x' },
        get_note_outline: { name: 'notes/x' },
        get_vault_info: {},
        list_changes: {},
        export_notes: { format: 'json' },
        list_tags: {},
        list_by_tag: { tag: 'x' },
        get_properties: { name: 'notes/x' },
        query_notes: {},
        list_bases: {},
        query_base: { base: 'notes/x.base' },
        create_agent_workflow: { title: 'W', states: ['a', 'b'] },
        append_agent_event: { name: 'notes/x', expected_etag: 'x', message: 'm' },
        advance_agent_state: { name: 'notes/x', expected_etag: 'x' },
        approve_agent_gate: { name: 'notes/x', expected_etag: 'x', state: 'b', reason: 'r' },
        reject_agent_gate: { name: 'notes/x', expected_etag: 'x', state: 'b', reason: 'r' },
        update_task: { name: 'notes/x', line: 1, expected_etag: 'x', done: true },
        get_daily_note: {},
        list_attachments: {},
        list_links: { kind: 'orphans' },
        read_attachment: { path: 'notes/x.png' },
      }[tool] as Record<string, unknown>;
      expect(args, `${tool} has a call here`).toBeDefined();
      const r = await v.call(tool, args);
      expect(r.structured.code, tool).toBe('policy_error');
      expect(r.structured.message, tool).toMatch(/hiden/);
    }
    expect(fs.existsSync(path.join(v.dir, 'y.md'))).toBe(false);
    expect(fs.existsSync(path.join(v.dir, 'workflows'))).toBe(false);
    // Prompts, resources and completion are closed too: a protocol error carrying the code.
    const requests: [string, () => Promise<unknown>][] = [
      ['prompts/list', () => v.client.listPrompts()],
      ['resources/list', () => v.client.listResources()],
      ['resources/read', () => v.client.readResource({ uri: 'noted://note/notes/x.md' })],
      [
        'completion/complete',
        () =>
          v.client.complete({
            ref: { type: 'ref/resource', uri: 'noted://note/{path}' },
            argument: { name: 'path', value: 'n' },
          }),
      ],
    ];
    for (const [method, request] of requests) {
      const err = await request().then(
        () => null,
        (e: { message: string; data?: unknown }) => e,
      );
      expect(err?.message, method).toMatch(/hiden/);
      expect(err?.data, method).toMatchObject({ code: 'policy_error' });
    }
    // Fixing the file opens the vault again at once.
    fs.writeFileSync(path.join(v.dir, '.noted', 'mcp-policy.yaml'), 'folders:\n  notes: read-only\n');
    expect((await v.call('read_note', { name: 'notes/x' })).isError).toBe(false);
  });
});
