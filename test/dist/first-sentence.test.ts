/**
 * The bundle manifest lists each tool with the first sentence of its description
 * (scripts/build-mcpb.mjs). Issue 36.9: list_tasks was cut mid-quote, after `"1.` of its examples.
 * Every tool's first sentence must be whole: quotes and brackets closed, ending a sentence.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { firstSentence } from '../../scripts/first-sentence.mjs';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let v: TestVault;
beforeAll(async () => {
  v = await openTestVault();
});
afterAll(async () => {
  await v.close();
});

const cut = firstSentence as (text: string) => string;

it('every tool description gives a whole first sentence: quotes and brackets closed', async () => {
  const { tools } = await v.client.listTools();
  for (const tool of tools) {
    const sentence = cut(tool.description ?? '');
    expect(sentence.length, tool.name).toBeGreaterThan(20);
    expect((sentence.match(/"/g) ?? []).length % 2, `${tool.name}: ${sentence}`).toBe(0);
    for (const [a, b] of [
      ['(', ')'],
      ['[', ']'],
    ] as const)
      expect(sentence.split(a).length, `${tool.name}: ${sentence}`).toBe(sentence.split(b).length);
    expect(sentence, tool.name).toMatch(/[.!?]$/);
  }
  const tasks = cut(tools.find((t) => t.name === 'list_tasks')?.description ?? '');
  expect(tasks).toMatch(
    /^Lists checkbox tasks \("- \[ \] …", "\* \[x\] …", "1\. \[ \] …"\) across the vault .*undated last\.$/,
  );
});

it('a sentence ends at a full stop before a capital, not inside quotes or at "e.g."', () => {
  expect(cut('Reads a note (e.g. "a.md"). More here.')).toBe('Reads a note (e.g. "a.md").');
  expect(cut('Lists items, e.g. a list. Then more.')).toBe('Lists items, e.g. a list.');
  expect(cut('No end at all')).toBe('No end at all');
});
