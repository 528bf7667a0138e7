import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/vault/format-name.js';
import { FORMATS, openTestVaultIn } from '../helpers/formats.js';
import type { TestVault } from '../helpers/vault.js';

/**
 * SPEC 4 for prompts and resources: a hidden file answers exactly like a missing one. Two vaults
 * under the same policy — one holding hidden files, one without them — must give equal answers.
 */
const POLICY = 'default: read-write\nfolders:\n  private: hidden\n  prompts/secret: hidden\n';

/** The format of the vault each test runs on (the suite runs on both, SPEC 11). */
let format: FormatName = 'markdown';
let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

const NOW = new Date();

async function open(files: Record<string, string>): Promise<TestVault> {
  const v = await openTestVaultIn(
    format,
    { ...files, '.noted/mcp-policy.yaml': POLICY },
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

const OPEN_FILES = {
  'open/a.md': '# A\n\nAbout the harbour.\n',
  'open/sub/deeper/Plan.md': '---\nstatus: open plan\n---\nThe plan anyone may read.\n',
  'open/pic.png': 'png bytes',
  'prompts/summarize.md': '---\nscope: text\n---\nSummarize: {{selection}}\n',
  'prompts/Review.md': '---\nscope: note\n---\nReview {{note}}\n',
};
const HIDDEN_FILES = {
  'private/secret.md': '# Secret\n\nkiwifruit\n',
  // Shorter than open/sub/deeper/Plan.md: were it visible, "Plan" would mean it.
  'private/Plan.md': 'secret plan\n',
  'private/scan.png': 'hidden bytes',
  // Sorts before prompts/summarize.md: were it visible, the open prompt would be "summarize-2".
  'prompts/secret/Summarize.md': 'hidden prompt {{selection}}\n',
  'prompts/secret/Leak.md': 'leak {{selection}}\n',
};

describe.each(FORMATS)(
  'a hidden file answers exactly like a missing one, in prompts and resources (SPEC 4, 9) (%s vault)',
  (f) => {
    beforeEach(() => {
      format = f;
    });
    it('prompts, resources and completion answer the same in a vault where files are hidden and one where they do not exist', async () => {
      const hidden = await open({ ...OPEN_FILES, ...HIDDEN_FILES });
      const absent = await open(OPEN_FILES);
      const answer = (v: TestVault, request: (c: TestVault['client']) => Promise<unknown>) =>
        request(v.client).then(
          (ok) => ({ ok }),
          (e: { code?: number; message: string; data?: unknown }) => ({
            code: e.code,
            message: e.message,
            data: e.data,
          }),
        );
      const requests: [string, (c: TestVault['client']) => Promise<unknown>][] = [
        ['prompts/list', (c) => c.listPrompts()],
        ['get leak', (c) => c.getPrompt({ name: 'leak', arguments: { selection: 'x' } })],
        ['get summarize', (c) => c.getPrompt({ name: 'summarize', arguments: { selection: 'x' } })],
        ['get summarize-2', (c) => c.getPrompt({ name: 'summarize-2', arguments: { selection: 'x' } })],
        ['hidden note path', (c) => c.getPrompt({ name: 'review', arguments: { note: 'private/secret' } })],
        ['hidden note bare', (c) => c.getPrompt({ name: 'review', arguments: { note: 'secret' } })],
        ['text from hidden', (c) => c.getPrompt({ name: 'summarize', arguments: { note: 'Plan' } })],
        ['resources/list', (c) => c.listResources()],
        ['templates', (c) => c.listResourceTemplates()],
        ['read note', (c) => c.readResource({ uri: 'noted://note/private/secret.md' })],
        ['read bare', (c) => c.readResource({ uri: 'noted://note/private/secret' })],
        ['read attachment', (c) => c.readResource({ uri: 'noted://note/private/scan.png' })],
        ['read prompt note', (c) => c.readResource({ uri: 'noted://note/prompts/secret/Leak.md' })],
        [
          'complete path',
          (c) =>
            c.complete({
              ref: { type: 'ref/resource', uri: 'noted://note/{path}' },
              argument: { name: 'path', value: '' },
            }),
        ],
        [
          'complete priv',
          (c) =>
            c.complete({
              ref: { type: 'ref/resource', uri: 'noted://note/{path}' },
              argument: { name: 'path', value: 'priv' },
            }),
        ],
        [
          'complete note',
          (c) =>
            c.complete({
              ref: { type: 'ref/prompt', name: 'review' },
              argument: { name: 'note', value: 's' },
            }),
        ],
        [
          'complete leak',
          (c) =>
            c.complete({ ref: { type: 'ref/prompt', name: 'leak' }, argument: { name: 'note', value: '' } }),
        ],
      ];
      for (const [what, request] of requests) {
        expect({ what, ...(await answer(hidden, request)) }).toEqual({
          what,
          ...(await answer(absent, request)),
        });
      }
      // Not a comparison of two errors: the open answers say what they should.
      // The vault's visible prompts, then the ready-made ones (SPEC 17.6).
      expect((await hidden.client.listPrompts()).prompts.map((p) => p.name)).toEqual([
        'review',
        'summarize',
        'find-note',
        'weekly-review',
        'new-meeting-note',
        'tidy-links',
      ]);
      const listed = (await hidden.client.listResources()).resources.map((r) => r.name);
      expect(listed).toContain('open/pic.png');
      expect(listed.filter((n) => n.startsWith('private/') || n.startsWith('prompts/secret/'))).toEqual([]);
      const text = await hidden.client.getPrompt({ name: 'summarize', arguments: { note: 'Plan' } });
      expect(text.messages[0]?.content).toMatchObject({
        text: expect.stringContaining('The plan anyone may read.'),
      });
    });
  },
);
