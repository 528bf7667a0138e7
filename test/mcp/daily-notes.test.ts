/**
 * get_daily_note and create_note's template through a real client (SPEC 13.3), reading Obsidian's
 * own settings files with their defaults. The clock is the server's, in local time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import {
  openTestVault,
  readBytes,
  type TestVault,
  testJournalKey,
  type VaultFiles,
} from '../helpers/vault.js';

/** 09:30 local time on Friday 1 May 2026, whatever the time zone of the machine. */
const NOW = new Date(2026, 4, 1, 9, 30, 0);

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

async function open(files: VaultFiles = {}): Promise<TestVault> {
  vault = await openTestVault(files, { now: () => NOW });
  return vault;
}

function stored(v: TestVault, rel: string): string | undefined {
  return readBytes(v.dir, rel)?.toString('utf8');
}

describe('get_daily_note with Obsidian’s defaults (vault root, YYYY-MM-DD, no template)', () => {
  it('says where today’s note would be, creates it when asked, then reads it', async () => {
    const v = await open();
    const missing = await v.call('get_daily_note');
    expect(missing.structured).toEqual({
      date: '2026-05-01',
      name: '2026-05-01.md',
      exists: false,
      created: false,
    });
    expect(missing.text).toMatch(/create: true/);
    expect(stored(v, '2026-05-01.md')).toBeUndefined();

    const created = await v.call('get_daily_note', { create: true });
    expect(created.structured).toMatchObject({
      date: '2026-05-01',
      exists: true,
      created: true,
      name: '2026-05-01.md',
      body: '',
    });
    expect(stored(v, '2026-05-01.md')).toBe('');

    const again = await v.call('get_daily_note', { create: true });
    expect(again.structured).toMatchObject({ exists: true, created: false, etag: created.structured.etag });
    const journal = new Journal(v.opened.vault, { now: () => NOW, key: testJournalKey() });
    expect(journal.list().map((e) => [e.tool, e.kind, e.note])).toEqual([
      ['get_daily_note', 'create', '2026-05-01.md'],
    ]);
  });

  it('takes a day, yesterday or tomorrow, and refuses anything else', async () => {
    const v = await open({ '2026-04-30.md': 'yesterday’s\n' });
    expect((await v.call('get_daily_note', { date: 'yesterday' })).structured).toMatchObject({
      date: '2026-04-30',
      exists: true,
      body: 'yesterday’s\n',
    });
    expect((await v.call('get_daily_note', { date: 'Tomorrow' })).structured.name).toBe('2026-05-02.md');
    expect((await v.call('get_daily_note', { date: '2024-02-29' })).structured.name).toBe('2024-02-29.md');
    for (const date of ['2026-02-30', '1 May', '2026-5-1']) {
      const r = await v.call('get_daily_note', { date });
      expect(r.structured.code, date).toBe('validation_error');
      expect(r.structured.message).toMatch(/YYYY-MM-DD/);
    }
  });
});

describe('get_daily_note with the vault’s Daily notes settings', () => {
  const SETTINGS = {
    '.obsidian/daily-notes.json': JSON.stringify({
      folder: 'Journal/',
      format: 'YYYY/MM/YYYY-MM-DD dddd',
      template: 'Templates/Daily',
    }),
    'Templates/Daily.md': [
      '---',
      'tags: [daily]',
      '---',
      '# {{date:dddd, MMMM Do YYYY}}',
      '',
      '← [[{{yesterday}}]] · [[{{tomorrow}}]] · made at {{time}}',
      '',
      '## Log',
      '',
    ].join('\n'),
  };

  it('puts the note in the folder, named by the format (sub-folders included), filled from the template', async () => {
    const v = await open(SETTINGS);
    const r = await v.call('get_daily_note', { create: true });
    expect(r.structured).toMatchObject({ created: true, name: 'Journal/2026/05/2026-05-01 Friday.md' });
    expect(stored(v, 'Journal/2026/05/2026-05-01 Friday.md')).toBe(
      [
        '---',
        'tags: [daily]',
        '---',
        '# Friday, May 1st 2026',
        '',
        '← [[2026/04/2026-04-30 Thursday]] · [[2026/05/2026-05-02 Saturday]] · made at 09:30',
        '',
        '## Log',
        '',
      ].join('\n'),
    );
    expect(r.structured.frontmatter).toEqual({ tags: ['daily'] });
    // The note is an ordinary note now: an agent adds to it with edit_note.
    const add = await v.call('edit_note', {
      name: r.structured.name,
      operation: 'append_to_section',
      heading: 'Log',
      content: '- 09:31 started',
      expected_etag: r.structured.etag,
    });
    expect(add.isError).toBe(false);
  });

  it('a template the settings name but the vault lacks leaves the note empty, and says so', async () => {
    const v = await open({ '.obsidian/daily-notes.json': '{"template": "Missing/Daily"}' });
    const r = await v.call('get_daily_note', { create: true });
    expect(r.structured).toMatchObject({ created: true, templateMissing: 'Missing/Daily', body: '' });
    expect(r.text).toMatch(/template "Missing\/Daily" .* was not found/);
  });

  it('unreadable or odd settings files fall back to Obsidian’s defaults', async () => {
    for (const settings of ['not json', '[1, 2]', '{"folder": 3, "format": ""}', '']) {
      const v = await open({ '.obsidian/daily-notes.json': settings });
      expect((await v.call('get_daily_note')).structured.name, settings).toBe('2026-05-01.md');
      await v.close();
      vault = undefined;
    }
  });

  it('a format that cannot name a note is refused with what to change', async () => {
    const v = await open({ '.obsidian/daily-notes.json': '{"format": "[..]/YYYY"}' });
    const r = await v.call('get_daily_note');
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toMatch(/Daily notes settings/);
  });

  it('follows the policy: staged creation waits for review, read-only refuses, hidden reads as missing', async () => {
    const policy = (access: string) => `folders:\n  Journal: ${access}\n`;
    const base = { '.obsidian/daily-notes.json': '{"folder": "Journal"}', 'Journal/2026-04-30.md': 'old\n' };

    let v = await open({ ...base, '.noted/mcp-policy.yaml': policy('staged') });
    const staged = await v.call('get_daily_note', { create: true });
    expect(staged.structured).toMatchObject({ staged: true, kind: 'create', note: 'Journal/2026-05-01.md' });
    expect(stored(v, 'Journal/2026-05-01.md')).toBeUndefined();
    // Asked again before the owner decides: the same pending creation, not a second one.
    const again = await v.call('get_daily_note', { create: true });
    expect(again.structured.pendingId).toBe(staged.structured.pendingId);
    expect(v.opened.access.ctx.pending.list()).toHaveLength(1);
    await v.close();

    v = await open({ ...base, '.noted/mcp-policy.yaml': policy('read-only') });
    expect((await v.call('get_daily_note', { create: true })).structured.code).toBe('read_only');
    expect((await v.call('get_daily_note', { date: 'yesterday' })).structured.body).toBe('old\n');
    await v.close();

    v = await open({ ...base, '.noted/mcp-policy.yaml': policy('hidden') });
    expect((await v.call('get_daily_note', { date: 'yesterday' })).structured).toEqual({
      date: '2026-04-30',
      name: 'Journal/2026-04-30.md',
      exists: false,
      created: false,
    });
    const refused = await v.call('get_daily_note', { create: true });
    expect(refused.structured).toMatchObject({ code: 'read_only', committed: false });
  });
});

describe('create_note with a template (SPEC 13.3)', () => {
  const TEMPLATES = {
    '.obsidian/templates.json': JSON.stringify({
      folder: 'Templates',
      dateFormat: 'DD.MM.YYYY',
      timeFormat: 'HH:mm',
    }),
    'Templates/Meeting.md':
      '---\ntype: meeting\n---\n# {{title}}\n\nOn {{date}} at {{time}} ({{date:dddd}}).\n',
    'Projects/Meeting.md': 'not the template\n',
  };

  it('finds the template by bare name in the templates folder and fills the core variables', async () => {
    const v = await open(TEMPLATES);
    const r = await v.call('create_note', { name: 'notes/Kickoff', template: 'Meeting' });
    expect(r.isError).toBe(false);
    expect(stored(v, 'notes/Kickoff.md')).toBe(
      '---\ntype: meeting\n---\n# Kickoff\n\nOn 01.05.2026 at 09:30 (Friday).\n',
    );
  });

  it('puts content after the template, and merges title and tags into its frontmatter', async () => {
    const v = await open(TEMPLATES);
    await v.call('create_note', {
      title: 'Q3 review: plans',
      template: 'Templates/Meeting.md',
      content: 'Agenda here.',
      tags: ['work'],
    });
    expect(stored(v, 'Q3 review plans.md')).toBe(
      '---\ntype: meeting\ntitle: "Q3 review: plans"\ntags:\n  - work\n---\n# Q3 review: plans\n\nOn 01.05.2026 at 09:30 (Friday).\n\nAgenda here.',
    );
  });

  it('refuses: no content and no template, a template found nowhere, content with its own frontmatter', async () => {
    const v = await open(TEMPLATES);
    const none = await v.call('create_note', { name: 'a' });
    expect(none.structured.message).toMatch(/needs content .* or a template/);
    const missing = await v.call('create_note', { name: 'a', template: 'Nope' });
    expect(missing.structured.code).toBe('not_found');
    expect(missing.structured.message).toMatch(/templates folder "Templates"/);
    const twice = await v.call('create_note', {
      name: 'a',
      template: 'Meeting',
      content: '---\nx: 1\n---\nbody',
    });
    expect(twice.structured.code).toBe('validation_error');
    expect(stored(v, 'a.md')).toBeUndefined();
  });

  it('without Templates settings, the template is any note name; a hidden one is not found', async () => {
    const v = await open({
      'Tpl/Idea.md': 'Idea: {{title}} on {{date}}\n',
      'private/Secret.md': 'secret {{title}}\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    await v.call('create_note', { name: 'x', template: 'Idea' });
    expect(stored(v, 'x.md')).toBe('Idea: x on 2026-05-01\n');
    const hidden = await v.call('create_note', { name: 'y', template: 'Secret' });
    const absent = await v.call('create_note', { name: 'y', template: 'Absent' });
    expect(hidden.structured.code).toBe('not_found');
    expect(hidden.structured.message).toBe(absent.structured.message.replace('Absent', 'Secret'));
  });
});
