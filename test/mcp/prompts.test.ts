import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildPrompts, promptNameOf } from '../../src/mcp/prompt-notes.js';
import { openTestVault, type TestVault, within } from '../helpers/vault.js';

/** The ready-made prompts (SPEC 17.6), listed after the vault's own. */
const BUILT_IN = ['find-note', 'weekly-review', 'new-meeting-note', 'tidy-links'];

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

/** A fixed clock: 1 May 2026, noon local time. */
const NOON = new Date(2026, 4, 1, 12, 0, 0);

async function open(files: Record<string, string>): Promise<TestVault> {
  const v = await openTestVault(files, { now: () => NOON });
  vaults.push(v);
  return v;
}

/** A rejected protocol request, as the client sees it. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await request;
  } catch (err) {
    const e = err as { code: number; message: string; data?: unknown };
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('expected the request to fail');
}

const PROMPTS = {
  'prompts/Fix Grammar.md':
    '---\ntitle: Fix grammar\ndescription: Correct grammar and spelling, nothing else.\nscope: selection\n---\nFix the grammar of:\n\n{{selection}}\n\n(from {{note}}, {{date}})\n',
  'prompts/Summarize.md': '---\nscope: text\n---\nSummarize this:\n{{selection}}\n',
  'prompts/Review Note.md': '---\nscope: note\n---\nReview {{note}} — ignore "{{selection}}".\n',
  'prompts/plain.md': 'No frontmatter at all: {{ selection }}\n',
  'inbox/idea.md': '# Idea\n\nA pangolin café.\n',
};

describe('notes in prompts/ are prompts (SPEC 9.1)', () => {
  it('names come from file names: lower-cased, words joined by dashes; repeats get -2, -3 in path order', () => {
    expect(promptNameOf('Fix Grammar (short)')).toBe('fix-grammar-short');
    expect(promptNameOf('Été  à_Paris')).toBe('été-à-paris');
    expect(promptNameOf('!!!')).toBe('prompt');
    const notes = ['prompts/a/Plan.md', 'prompts/b/plan.md', 'prompts/c/PLAN.md', 'prompts/plan 2.md'].map(
      (name) => ({
        name,
        text: 'x',
        fileTitle: name.slice(name.lastIndexOf('/') + 1, -'.md'.length),
      }),
    );
    expect(buildPrompts(notes).map((p) => [p.source, p.name])).toEqual([
      ['prompts/a/Plan.md', 'plan'],
      ['prompts/b/plan.md', 'plan-3'],
      ['prompts/c/PLAN.md', 'plan-4'],
      // A note literally named "plan 2" keeps its own name.
      ['prompts/plan 2.md', 'plan-2'],
    ]);
  });

  it('prompts/list shows title, description and the arguments of each scope; other notes are not prompts', async () => {
    const v = await open({ ...PROMPTS, 'prompts/deeper/Summarize.md': 'Again: {{selection}}\n' });
    const { prompts } = await v.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'fix-grammar',
      'review-note',
      'summarize',
      'summarize-2',
      'plain',
      ...BUILT_IN,
    ]);
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    expect(byName['fix-grammar']).toMatchObject({
      title: 'Fix grammar',
      description: 'Correct grammar and spelling, nothing else.',
      arguments: [
        { name: 'selection', required: true },
        { name: 'note', required: false },
      ],
    });
    expect(byName.summarize?.arguments).toMatchObject([
      { name: 'selection', required: false },
      { name: 'note', required: false },
    ]);
    expect(byName['review-note']?.arguments).toMatchObject([{ name: 'note', required: true }]);
    expect(byName.plain).toMatchObject({
      title: 'plain',
      description: 'The prompt in the note prompts/plain.md.',
    });
  });

  it('prompts/get fills {{selection}}, {{note}} (read through the gate) and {{date}} into one user message', async () => {
    const v = await open(PROMPTS);
    const got = await v.client.getPrompt({
      name: 'fix-grammar',
      arguments: { selection: 'teh cat {{date}}', note: 'idea' },
    });
    expect(got.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text: 'Fix the grammar of:\n\nteh cat {{date}}\n\n(from # Idea\n\nA pangolin café.\n, 2026-05-01)',
        },
      },
    ]);
  });

  it('a text-scope prompt uses the selection if given, else the note; a note-scope prompt ignores the selection', async () => {
    const v = await open(PROMPTS);
    const text = async (name: string, args: Record<string, string>) => {
      const got = await v.client.getPrompt({ name, arguments: args });
      const content = got.messages[0]?.content as { text: string };
      return content.text;
    };
    expect(await text('summarize', { selection: 'just this', note: 'inbox/idea' })).toBe(
      'Summarize this:\njust this',
    );
    expect(await text('summarize', { note: 'inbox/idea' })).toBe(
      'Summarize this:\n# Idea\n\nA pangolin café.\n',
    );
    expect(await text('review-note', { note: 'inbox/idea.md', selection: 'ignored' })).toBe(
      'Review # Idea\n\nA pangolin café.\n — ignore "".',
    );
    expect(await text('plain', { selection: 'spaced' })).toBe('No frontmatter at all: spaced');
  });

  it('a missing required argument, an unknown prompt, or a missing note is a clear protocol error', async () => {
    const v = await open(PROMPTS);
    const noSelection = await failure(
      v.client.getPrompt({ name: 'fix-grammar', arguments: { note: 'idea' } }),
    );
    expect(noSelection.code).toBe(-32602);
    expect(noSelection.message).toMatch(/works on a selection: pass the argument selection/);
    const nothing = await failure(v.client.getPrompt({ name: 'summarize', arguments: {} }));
    expect(nothing.message).toMatch(/pass the argument selection, or note/);
    const noNote = await failure(v.client.getPrompt({ name: 'review-note', arguments: { selection: 'x' } }));
    expect(noNote.message).toMatch(/works on a note: pass the argument note/);
    const unknown = await failure(v.client.getPrompt({ name: 'nope', arguments: {} }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.message).toMatch(
      /No prompt named "nope"\. The prompts: fix-grammar, review-note, summarize, plain, find-note, weekly-review, new-meeting-note, tidy-links\./,
    );
    const missing = await failure(
      v.client.getPrompt({ name: 'review-note', arguments: { note: 'inbox/gone' } }),
    );
    expect(missing.message).toMatch(/No note named "inbox\/gone\.md" exists/);
    expect(missing.data).toMatchObject({ code: 'not_found' });
  });

  it('prompts in folders hidden by the policy are neither listed nor gettable, and hidden notes are not filled in', async () => {
    const v = await open({
      ...PROMPTS,
      'prompts/private/Leak.md': 'secret prompt {{selection}}\n',
      'private/diary.md': 'secret diary\n',
      '.noted/mcp-policy.yaml': 'folders:\n  prompts/private: hidden\n  private: hidden\n',
    });
    const { prompts } = await v.client.listPrompts();
    expect(prompts.map((p) => p.name)).not.toContain('leak');
    const hidden = await failure(v.client.getPrompt({ name: 'leak', arguments: { selection: 'x' } }));
    const unknown = await failure(v.client.getPrompt({ name: 'nope', arguments: { selection: 'x' } }));
    expect(hidden.message.replace('"leak"', '"nope"')).toBe(unknown.message);
    const hiddenNote = await failure(
      v.client.getPrompt({ name: 'review-note', arguments: { note: 'private/diary' } }),
    );
    const missingNote = await failure(
      v.client.getPrompt({ name: 'review-note', arguments: { note: 'private/gone' } }),
    );
    expect(hiddenNote.message.replace('diary', 'gone')).toBe(missingNote.message);
  });

  it('a broken policy closes prompts too, with the policy_error code in the error data', async () => {
    const v = await open({ ...PROMPTS, '.noted/mcp-policy.yaml': 'folders:\n  prompts: hiden\n' });
    const err = await failure(v.client.listPrompts());
    expect(err.message).toMatch(/hiden/);
    expect(err.data).toMatchObject({ code: 'policy_error' });
  });
});

describe('prompt changes show up without a restart and send notifications/prompts/list_changed', () => {
  it('on adding, changing and removing a prompt note, through a tool or outside the server, and on a policy change', async () => {
    const v = await open({ 'prompts/One.md': 'one {{selection}}\n' });
    let notified = 0;
    v.client.setNotificationHandler('notifications/prompts/list_changed', () => {
      notified++;
    });
    // The vault's own prompts (the built-in ones follow them, SPEC 17.6).
    const names = async () =>
      (await v.client.listPrompts()).prompts.map((p) => p.name).filter((n) => !BUILT_IN.includes(n));
    expect(await names()).toEqual(['one']);

    const expectNotified = async (what: string, change: () => unknown | Promise<unknown>) => {
      const before = notified;
      await change();
      expect(await within(4000, () => notified > before), what).not.toBeNull();
    };
    await expectNotified('added outside', () =>
      fs.writeFileSync(path.join(v.dir, 'prompts', 'Two.md'), 'two\n'),
    );
    expect(await names()).toEqual(['one', 'two']);
    await expectNotified('changed', () =>
      fs.writeFileSync(path.join(v.dir, 'prompts', 'Two.md'), '---\ntitle: Second\n---\ntwo, longer\n'),
    );
    expect((await v.client.listPrompts()).prompts[1]?.title).toBe('Second');
    await expectNotified('removed', () => fs.rmSync(path.join(v.dir, 'prompts', 'One.md')));
    expect(await names()).toEqual(['two']);
    await expectNotified('created by a tool', () =>
      v.call('create_note', { name: 'prompts/Three', content: 'three {{note}}\n' }),
    );
    expect(await names()).toEqual(['three', 'two']);
    await expectNotified('hidden by the policy', () =>
      fs.writeFileSync(path.join(v.dir, '.noted', 'mcp-policy.yaml'), 'folders:\n  prompts: hidden\n'),
    );
    expect(await names()).toEqual([]);

    // Nothing changes, nothing is sent.
    const settled = notified;
    await new Promise((r) => setTimeout(r, 1500));
    expect(notified).toBe(settled);
  });
});

describe('ready-made prompts and arguments that follow the text (SPEC 17.6, issue 32)', () => {
  it('a vault without prompts/ offers find-note, weekly-review, new-meeting-note and tidy-links', async () => {
    const v = await open({ 'inbox/idea.md': 'idea\n', 'Templates/Meeting.md': '## Attendees\n' });
    const { prompts } = await v.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(BUILT_IN);
    expect(prompts.find((p) => p.name === 'find-note')?.arguments).toMatchObject([
      { name: 'query', required: true },
    ]);
    const text = async (name: string, args: Record<string, string> = {}) =>
      (
        (await v.client.getPrompt({ name, arguments: args })).messages[0]?.content as
          | { text: string }
          | undefined
      )?.text;
    expect(await text('find-note', { query: 'pangolins' })).toContain('"pangolins"');
    const weekly = await text('weekly-review');
    expect(weekly).toContain('Today is 2026-05-01');
    expect(weekly).toContain('since "2026-04-24T00:00:00"');
    expect(weekly).toContain('due_to "2026-05-08"');
    expect(await text('new-meeting-note', { title: 'Design review' })).toContain(
      'template: "Templates/Meeting.md"',
    );
    expect(await text('tidy-links', { folder: 'inbox' })).toContain('kind: "unresolved", folder: "inbox"');
    const missing = await failure(v.client.getPrompt({ name: 'find-note', arguments: {} }));
    expect(missing.message).toMatch(/needs the argument query/);
  });

  it('a prompt note of the same name replaces a ready-made one', async () => {
    const v = await open({ 'prompts/Find Note.md': 'My own: {{selection}}\n' });
    const { prompts } = await v.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'find-note',
      'weekly-review',
      'new-meeting-note',
      'tidy-links',
    ]);
    const got = await v.client.getPrompt({ name: 'find-note', arguments: { selection: 'x' } });
    expect((got.messages[0]?.content as { text: string } | undefined)?.text).toBe('My own: x');
  });

  it('a prompt offers the arguments its text uses: a selection prompt without {{note}} offers no note', async () => {
    const v = await open({
      'prompts/Fix Grammar.md': '---\nscope: selection\n---\nFix the grammar of:\n\n{{selection}}\n',
      'prompts/Standup.md': '---\nscope: note\n---\nWrite my standup for {{date}}.\n',
    });
    const { prompts } = await v.client.listPrompts();
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]));
    expect(byName['fix-grammar']?.arguments).toEqual([
      { name: 'selection', required: true, description: 'The selected text the prompt works on' },
    ]);
    expect(byName.standup?.arguments).toEqual([]);
    const got = await v.client.getPrompt({ name: 'standup', arguments: {} });
    expect((got.messages[0]?.content as { text: string } | undefined)?.text).toBe(
      'Write my standup for 2026-05-01.',
    );
  });
});
