import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { writeConversionMarker } from '../../src/vault/conversion-marker.js';
import { AN_ID } from '../helpers/note-ids.js';
import {
  openTestVault,
  readBytes,
  type TestVault,
  testJournalKey,
  type VaultFiles,
} from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

async function open(
  files: VaultFiles,
  options: Parameters<typeof openTestVault>[1] = {},
): Promise<TestVault> {
  vault = await openTestVault(files, options);
  return vault;
}

const PLAN = `<!DOCTYPE html>
<html><head><title>Q3 Plan</title></head><body>
<h1>Plan</h1>
<p>Ship the <b>importer</b> with <a href="Goals.html#Q3">the goals</a> and [[Risks]]. #work</p>
<ul>
<li><input type="checkbox" checked> write spec 📅 2024-05-01</li>
<li data-checked="false">review with Ana #review</li>
</ul>
</body></html>
`;

const VAULT: VaultFiles = {
  'projects/Plan.html': PLAN,
  'Goals.html': '<h1>Goals</h1>\n<p>Grow. #work</p>\n',
  'Risks.html': '<p>Nothing yet.</p>\n',
  'img/chart.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
};

describe('an HTML vault is detected and every tool works on it (SPEC 11)', () => {
  it('is detected from its files: notes are .html, names and lookups use .html', async () => {
    const v = await open(VAULT);
    expect(v.opened.vault.format).toBe('html');
    const list = await v.call('list_notes');
    expect(list.structured.notes.map((n: { name: string; title: string }) => [n.name, n.title])).toEqual(
      expect.arrayContaining([
        ['projects/Plan.html', 'Q3 Plan'],
        ['Goals.html', 'Goals'],
        ['Risks.html', 'Risks'],
      ]),
    );
    expect(list.structured.notes).toHaveLength(3);
    // `.html` is optional in names, and a bare name finds the note anywhere (SPEC 1.3, 1.4).
    expect((await v.call('read_note', { name: 'Plan' })).structured.name).toBe('projects/Plan.html');
    expect((await v.call('read_note', { name: 'projects/Plan.html' })).structured.name).toBe(
      'projects/Plan.html',
    );
  });

  it('read_note: plain text, then the raw HTML; structuredContent v2 with format html (SPEC 11.2)', async () => {
    const v = await open(VAULT);
    const r = await v.call('read_note', { name: 'projects/Plan' });
    expect(r.isError).toBe(false);
    expect(r.structured).toMatchObject({
      schemaVersion: 2,
      name: 'projects/Plan.html',
      format: 'html',
      frontmatter: null,
      frontmatterRaw: '',
      body: PLAN,
      sizeBytes: Buffer.byteLength(PLAN),
    });
    expect(r.structured.plainText).toBeUndefined();
    expect(r.text).toContain(
      'Text:\nPlan\nShip the importer with the goals and [[Risks]]. #work\n- [x] write spec 📅 2024-05-01\n- [ ] review with Ana #review\n\nHTML:\n<!DOCTYPE html>',
    );
    expect(r.text.endsWith(PLAN)).toBe(true);
  });

  it('search reads the text (not the markup), with excerpts and titles (SPEC 11.4)', async () => {
    const v = await open(VAULT);
    const hit = await v.call('search_notes', { query: 'importer' });
    expect(hit.structured.results).toHaveLength(1);
    expect(hit.structured.results[0]).toMatchObject({ name: 'projects/Plan.html', title: 'Q3 Plan' });
    expect(hit.structured.results[0].excerpt).toContain('importer');
    expect(hit.structured.results[0].excerpt).not.toContain('<b>');
    expect((await v.call('search_notes', { query: 'href' })).structured.total).toBe(0);
    expect((await v.call('search_notes', { query: 'tag:#review' })).structured.results[0].name).toBe(
      'projects/Plan.html',
    );
  });

  it("search operators read an HTML note's structure: sections, lines, tasks, regexes; never the markup", async () => {
    const v = await open({
      ...VAULT,
      'Log.html':
        '<h1>Log</h1>\n<h2>Monday</h2>\n<p>met Ana about the budget</p>\n<h2>Tuesday</h2>\n<p>wrote the budget</p>\n<p>Ana called</p>\n<ul><li><input type="checkbox"> pay the invoice</li></ul>\n',
    });
    const names = async (query: string) =>
      (await v.call('search_notes', { query })).structured.results.map((r: { name: string }) => r.name);
    // section: between two headings of the note, as Obsidian reads the same note in Markdown.
    expect(await names('section:(Ana budget)')).toEqual(['Log.html']);
    expect(await names('section:(met wrote)')).toEqual([]);
    expect(await names('line:(Ana called)')).toEqual(['Log.html']);
    expect(await names('line:(Ana budget wrote)')).toEqual([]);
    expect(await names('content:budget')).toEqual(['Log.html']);
    // The markup is not text: no tag names, attributes or element names match.
    expect(await names('content:checkbox')).toEqual([]);
    expect(await names('/h2|href|input/')).toEqual([]);
    expect(await names('/bud.et/')).toEqual(['Log.html']);
    // Task lines are the stored note's (as list_tasks gives them); other lines are not given, since
    // they would count lines of a rendition the agent never sees.
    const task = await v.call('search_notes', { query: 'task-todo:invoice' });
    expect(task.structured.results).toHaveLength(1);
    const listed = await v.call('list_tasks', { status: 'all' });
    const line = listed.structured.tasks.find((t: { note: string }) => t.note === 'Log.html').line;
    expect(line).toBe(7);
    expect(task.structured.results[0].lines).toEqual([{ scope: 'task', from: line, to: line }]);
    const section = await v.call('search_notes', { query: 'section:(Ana budget)' });
    expect(section.structured.results[0].lines).toBeUndefined();
    expect(section.structured.results[0].excerpt).not.toMatch(/<|##/);
  });

  it('links: <a href> and [[wikilinks]] resolve to .html notes, both ways', async () => {
    const v = await open(VAULT);
    const out = await v.call('get_outgoing_links', { name: 'Plan' });
    expect(
      out.structured.links.map((l: { kind: string; target: string; heading: string | null }) => [
        l.kind,
        l.target,
        l.heading,
      ]),
    ).toEqual([
      ['html', 'Goals.html', 'Q3'],
      ['wikilink', 'Risks.html', null],
    ]);
    const back = await v.call('get_backlinks', { name: 'Goals' });
    expect(back.structured.backlinks).toEqual([{ name: 'projects/Plan.html', id: AN_ID, count: 1 }]);
  });

  it('tags, notes by tag and tasks come from the text and checkbox list items', async () => {
    const v = await open(VAULT);
    expect((await v.call('list_tags')).structured.tags).toEqual([
      { tag: 'work', count: 2 },
      { tag: 'review', count: 1 },
    ]);
    expect(
      (await v.call('list_by_tag', { tag: 'work' })).structured.notes
        .map((n: { name: string }) => n.name)
        .sort(),
    ).toEqual(['Goals.html', 'projects/Plan.html']);
    const tasks = await v.call('list_tasks', { status: 'all' });
    expect(
      tasks.structured.tasks.map((t: { note: string; line: number; done: boolean; due: string | null }) => [
        t.note,
        t.line,
        t.done,
        t.due,
      ]),
    ).toEqual([
      ['projects/Plan.html', 6, true, '2024-05-01'],
      ['projects/Plan.html', 7, false, null],
    ]);
  });

  it('properties: none; query_notes sees $name, $folder, $modified, $tags', async () => {
    const v = await open(VAULT);
    expect((await v.call('get_properties', { name: 'Plan' })).structured).toMatchObject({
      properties: {},
      types: {},
    });
    const q = await v.call('query_notes', {
      filters: [{ property: '$tags', op: 'contains', value: 'work' }],
      columns: ['$folder'],
    });
    expect(q.isError, JSON.stringify(q.structured)).toBe(false);
    expect(q.structured.rows.map((r: { name: string }) => r.name).sort()).toEqual([
      'Goals.html',
      'projects/Plan.html',
    ]);
    const linked = await v.call('query_notes', {
      filters: [{ op: 'has_link', value: 'Risks' }],
    });
    expect(linked.structured.rows.map((r: { name: string }) => r.name)).toEqual(['projects/Plan.html']);
  });

  it('create_note stores HTML: Markdown rendered, HTML sanitized, title and tags in the text (SPEC 11.3)', async () => {
    const v = await open(VAULT);
    const md = await v.call('create_note', {
      name: 'inbox/idea',
      title: 'Big idea',
      tags: ['idea'],
      content: '- [ ] try it\n\nSee [[Goals]]\n',
    });
    expect(md.structured).toMatchObject({ name: 'inbox/idea.html', created: true });
    expect(readBytes(v.dir, 'inbox/idea.html')?.toString()).toBe(
      '<h1>Big idea</h1>\n<p>#idea</p>\n<ul>\n<li><input type="checkbox" disabled /> try it</li>\n</ul>\n<p>See [[Goals]]</p>\n',
    );
    const html = await v.call('create_note', {
      title: 'Clip',
      content:
        '<p onmouseover="steal()">clip <a href="javascript:alert(1)">here</a></p><script>alert(2)</script>',
    });
    expect(html.structured.name).toBe('Clip.html');
    expect(readBytes(v.dir, 'Clip.html')?.toString()).toBe('<p>clip <a>here</a></p>');
    expect((await v.call('list_tasks')).structured.tasks.map((t: { note: string }) => t.note)).toContain(
      'inbox/idea.html',
    );
    expect((await v.call('list_by_tag', { tag: 'idea' })).structured.notes[0].name).toBe('inbox/idea.html');
  });

  it('update_note overwrites with sanitized HTML; append adds <hr> and leaves the stored text as it was', async () => {
    const v = await open(VAULT);
    const etag = (await v.call('read_note', { name: 'Risks' })).structured.etag;
    const appended = await v.call('update_note', {
      name: 'Risks',
      content: 'One **new** risk',
      append: true,
      expected_etag: etag,
    });
    expect(appended.isError).toBe(false);
    expect(readBytes(v.dir, 'Risks.html')?.toString()).toBe(
      '<p>Nothing yet.</p>\n<hr>\n<p>One <strong>new</strong> risk</p>\n',
    );
    await v.call('update_note', { name: 'Risks', content: '<p>Replaced <iframe src="x"></iframe></p>' });
    expect(readBytes(v.dir, 'Risks.html')?.toString()).toBe('<p>Replaced </p>');
  });

  it('edit_note: replace edits the stored HTML; section operations answer not_supported; an edit may not add a script', async () => {
    const v = await open(VAULT);
    let etag = (await v.call('read_note', { name: 'Goals' })).structured.etag;
    const ok = await v.call('edit_note', {
      name: 'Goals',
      operation: 'replace',
      old_text: 'Grow.',
      new_text: 'Grow <em>fast</em>.',
      expected_etag: etag,
    });
    expect(ok.isError).toBe(false);
    expect(readBytes(v.dir, 'Goals.html')?.toString()).toBe(
      '<h1>Goals</h1>\n<p>Grow <em>fast</em>. #work</p>\n',
    );
    etag = ok.structured.etag;
    const section = await v.call('edit_note', {
      name: 'Goals',
      operation: 'append_to_section',
      heading: 'Goals',
      content: 'x',
      expected_etag: etag,
    });
    expect(section.isError).toBe(true);
    expect(section.structured).toMatchObject({ code: 'not_supported', committed: false });
    expect(section.structured.message).toContain('section operations need a Markdown vault');
    const script = await v.call('edit_note', {
      name: 'Goals',
      operation: 'replace',
      old_text: 'fast',
      new_text: 'fast<img src=x onerror="alert(1)">',
      expected_etag: etag,
    });
    expect(script.isError).toBe(true);
    expect(script.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(script.structured.message).toContain('onerror on <img>');
    expect(readBytes(v.dir, 'Goals.html')?.toString()).toBe(
      '<h1>Goals</h1>\n<p>Grow <em>fast</em>. #work</p>\n',
    );
  });

  it('delete_note trashes a .html note; list_trash and restore_note bring it back', async () => {
    const v = await open(VAULT);
    const del = await v.call('delete_note', { name: 'Risks' });
    expect(del.structured.name).toBe('Risks.html');
    expect(fs.existsSync(path.join(v.dir, 'Risks.html'))).toBe(false);
    expect((await v.call('list_trash')).structured.items.map((i: { name: string }) => i.name)).toEqual([
      'Risks.html',
    ]);
    const restored = await v.call('restore_note', { name: 'Risks' });
    expect(restored.structured.name).toBe('Risks.html');
    expect(readBytes(v.dir, 'Risks.html')?.toString()).toBe('<p>Nothing yet.</p>\n');
  });

  it('move_note rewrites <a href> and [[wikilinks]] to the moved note', async () => {
    const v = await open(VAULT);
    const moved = await v.call('move_note', { name: 'Goals', new_name: 'archive/Old Goals' });
    expect(moved.isError).toBe(false);
    expect(moved.structured).toMatchObject({ name: 'Goals.html', newName: 'archive/Old Goals.html' });
    const plan = readBytes(v.dir, 'projects/Plan.html')?.toString() ?? '';
    expect(plan).toContain('<a href="../archive/Old%20Goals.html#Q3">the goals</a>');
    const back = await v.call('get_backlinks', { name: 'archive/Old Goals' });
    expect(back.structured.backlinks).toEqual([{ name: 'projects/Plan.html', id: AN_ID, count: 1 }]);
    // A bare [[wikilink]] that still finds the note stays as it is (OBSIDIAN.md LNK-28).
    await v.call('move_note', { name: 'Risks', new_name: 'archive/Risks' });
    expect(readBytes(v.dir, 'projects/Plan.html')?.toString()).toContain('[[Risks]]');
    expect((await v.call('get_backlinks', { name: 'archive/Risks' })).structured.backlinks).toEqual([
      { name: 'projects/Plan.html', id: AN_ID, count: 1 },
    ]);
  });

  it('policy: a hidden .html note is absent everywhere; a staged folder keeps the change for review', async () => {
    const v = await open({
      ...VAULT,
      'private/Secret.html': '<p>secret plan #work</p>',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n  projects: staged\n',
    });
    expect((await v.call('search_notes', { query: 'secret' })).structured.total).toBe(0);
    expect((await v.call('read_note', { name: 'private/Secret' })).structured.code).toBe('not_found');
    expect((await v.call('list_tags')).structured.tags).toContainEqual({ tag: 'work', count: 2 });
    const etag = (await v.call('read_note', { name: 'Plan' })).structured.etag;
    const staged = await v.call('edit_note', {
      name: 'Plan',
      operation: 'replace',
      old_text: 'importer',
      new_text: 'exporter',
      expected_etag: etag,
    });
    expect(staged.structured).toMatchObject({ staged: true, note: 'projects/Plan.html', kind: 'update' });
    expect(readBytes(v.dir, 'projects/Plan.html')?.toString()).toBe(PLAN);
    const [pending] = new PendingStore(v.opened.vault).list();
    expect(pending?.note).toBe('projects/Plan.html');
  });

  it('the journal records HTML writes and undo puts the note back', async () => {
    const v = await open(VAULT);
    await v.call('update_note', { name: 'Risks', content: '<p>changed</p>' });
    const journal = new Journal(v.opened.vault, { now: () => new Date(), key: testJournalKey() });
    const [entry] = journal.list();
    expect(entry).toMatchObject({ note: 'Risks.html', kind: 'update', tool: 'update_note' });
    const undone = await journal.undo({ entry: entry?.id as string }, { session: 'cli', client: 'owner' });
    expect(undone.outcomes[0]?.outcome).toBe('undone');
    expect(readBytes(v.dir, 'Risks.html')?.toString()).toBe('<p>Nothing yet.</p>\n');
  });

  it('resources are text/html', async () => {
    const v = await open(VAULT);
    const { resources } = await v.client.listResources();
    const plan = resources.find((r) => r.name === 'projects/Plan.html');
    expect(plan?.mimeType).toBe('text/html');
    const read = await v.client.readResource({ uri: 'noted://note/projects/Plan.html' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/html', text: PLAN });
  });

  it('workflow notes keep their metadata in a <pre><code class="language-json"> block', async () => {
    const v = await open(VAULT);
    const created = await v.call('create_agent_workflow', {
      title: 'Release',
      states: ['draft', 'review', 'done'],
    });
    expect(created.isError).toBe(false);
    const name = created.structured.name as string;
    expect(name).toBe('workflows/Release.html');
    const text = readBytes(v.dir, name)?.toString() ?? '';
    expect(text).toContain('<pre><code class="language-json">{');
    expect(text).toContain('#agent-workflow');
    const advanced = await v.call('advance_agent_state', { name, expected_etag: created.structured.etag });
    expect(advanced.isError).toBe(false);
    expect(advanced.structured.workflow.current).toBe('review');
    expect((await v.call('list_by_tag', { tag: 'agent-workflow' })).structured.notes[0].name).toBe(name);
  });

  it('prompts come from an HTML note: its title and its text', async () => {
    const v = await open({
      ...VAULT,
      'prompts/Shorten.html': '<title>Shorten it</title><p>Shorten: {{selection}}</p>',
    });
    const { prompts } = await v.client.listPrompts();
    // The vault's prompt first; the ready-made ones (SPEC 17.6) follow.
    expect(prompts.map((p) => [p.name, p.title])[0]).toEqual(['shorten', 'Shorten']);
    expect(prompts).toHaveLength(5);
    const got = await v.client.getPrompt({ name: 'shorten', arguments: { selection: 'long text' } });
    expect(got.messages[0]?.content).toMatchObject({ type: 'text', text: 'Shorten: long text' });
  });
});

describe('the newer tools on an HTML vault', () => {
  it('get_vault_info says html; export_notes gives HTML bodies, Markdown when asked, sanitized HTML', async () => {
    const v = await open({ ...VAULT, 'Risks.html': '<p onclick="x()">Nothing yet.</p>\n' });
    expect((await v.call('get_vault_info')).structured.vault).toMatchObject({ format: 'html' });
    const json = await v.call('export_notes', { format: 'json' });
    const goals = json.structured.notes.find((n: { name: string }) => n.name === 'Goals.html');
    expect(goals).toMatchObject({ frontmatter: null, body: '<h1>Goals</h1>\n<p>Grow. #work</p>\n' });
    const md = await v.call('export_notes', { format: 'markdown' });
    expect(md.structured.document).toContain('<!-- note: Goals.html');
    expect(md.structured.document).toContain('# Goals\n\nGrow. #work\n');
    const html = await v.call('export_notes', { format: 'html' });
    expect(html.structured.document).toContain('<p>Nothing yet.</p>');
    expect(html.structured.document).not.toContain('onclick');
  });

  it('outlines, parts and task edits need Markdown: not_supported, saying why; daily notes are .html', async () => {
    const v = await open(VAULT);
    const outline = await v.call('get_note_outline', { name: 'Plan' });
    expect(outline.structured).toMatchObject({ code: 'not_supported' });
    expect(outline.structured.message).toContain('need a Markdown vault');
    expect((await v.call('read_note', { name: 'Plan', section: 'Plan' })).structured.code).toBe(
      'not_supported',
    );
    const etag = (await v.call('read_note', { name: 'Plan' })).structured.etag;
    const task = await v.call('update_task', { name: 'Plan', line: 7, done: true, expected_etag: etag });
    expect(task.structured).toMatchObject({ code: 'not_supported', committed: false });
    expect(readBytes(v.dir, 'projects/Plan.html')?.toString()).toBe(PLAN);
    const daily = await v.call('get_daily_note', { date: '2026-01-05', create: true });
    expect(daily.isError, JSON.stringify(daily.structured)).toBe(false);
    expect(daily.structured).toMatchObject({ name: '2026-01-05.html', format: 'html', created: true });
    expect(daily.structured.plainText).toBeUndefined();
  });
});

describe('while a conversion runs (SPEC 11.5)', () => {
  it('every write answers busy, reads go on; afterwards writes work again', async () => {
    const v = await open(VAULT);
    writeConversionMarker(v.opened.vault.stateDir, {
      to: 'markdown',
      group: 'g',
      pid: process.pid,
      started: 'now',
    });
    const update = await v.call('update_note', { name: 'Risks', content: 'x' });
    expect(update.structured).toMatchObject({ code: 'busy', committed: false });
    expect(update.structured.message).toContain('being converted');
    for (const [tool, args] of [
      ['create_note', { name: 'new', content: 'x' }],
      ['delete_note', { name: 'Risks' }],
      ['move_note', { name: 'Risks', new_name: 'r2' }],
      ['create_folder', { folder: 'f' }],
    ] as const) {
      expect((await v.call(tool, args)).structured.code, tool).toBe('busy');
    }
    expect((await v.call('read_note', { name: 'Risks' })).isError).toBe(false);
    expect((await v.call('search_notes', { query: 'nothing' })).structured.total).toBe(1);
    expect(readBytes(v.dir, 'Risks.html')?.toString()).toBe('<p>Nothing yet.</p>\n');
    fs.rmSync(path.join(v.opened.vault.stateDir, 'converting'));
    expect((await v.call('update_note', { name: 'Risks', content: 'x' })).isError).toBe(false);
  });

  it('a server whose vault was converted under it says so instead of serving a vanished vault', async () => {
    const v = await open(VAULT);
    fs.writeFileSync(path.join(v.opened.vault.stateDir, 'config.json'), '{"format": "markdown"}\n');
    const r = await v.call('list_notes');
    expect(r.structured).toMatchObject({ code: 'busy' });
    expect(r.structured.message).toMatch(/converted to Markdown notes after this server started.*Restart/);
  });
});

describe('choosing the format (SPEC 11.1)', () => {
  it('config.json "format" wins over the files; a vault with .md and .html notes is Markdown', async () => {
    const mixed = await open({ 'a.md': '# A\n', 'b.html': '<p>b</p>' });
    expect(mixed.opened.vault.format).toBe('markdown');
    expect((await mixed.call('list_notes')).structured.notes.map((n: { name: string }) => n.name)).toEqual([
      'a.md',
    ]);
    await mixed.close();
    const configured = await open({
      '.noted/config.json': '{"format":"html"}',
      'a.md': '# A\n',
      'b.html': '<p>b</p>',
    });
    expect(configured.opened.vault.format).toBe('html');
    expect(
      (await configured.call('list_notes')).structured.notes.map((n: { name: string }) => n.name),
    ).toEqual(['b.html']);
  });

  it('an empty vault is Markdown unless config.json says html', async () => {
    const empty = await open({});
    expect(empty.opened.vault.format).toBe('markdown');
    await empty.close();
    const html = await open({ '.noted/config.json': '{"format":"html"}' });
    const created = await html.call('create_note', { name: 'first', content: 'hello' });
    expect(created.structured.name).toBe('first.html');
    expect(readBytes(html.dir, 'first.html')?.toString()).toBe('<p>hello</p>\n');
  });
});
