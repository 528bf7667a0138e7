/**
 * SPEC 4, hidden, for search (issues 18 and 25): a vault with hidden notes answers every search exactly
 * as the same vault with the hidden notes deleted — names, order, scores, excerpts, total, and the
 * text. Generated vaults, generated policies and generated queries of every kind; then the same with
 * the policy changed while the servers run, and with two servers sharing one index.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { readAverages } from '../../src/index/store/fts-totals.js';
import { isVisible } from '../../src/policy/access.js';
import { parsePolicy } from '../../src/policy/policy.js';
import { IdLabels } from '../helpers/note-ids.js';
import { type CallResult, connect, openTestVault, type TestVault } from '../helpers/vault.js';

let open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const v of open.reverse()) await v.close();
  open = [];
});

/** Words with accents, CJK and repeats, so that queries hit and scores tie. */
const WORDS = [
  'harbour',
  'kiwi',
  'plan',
  'café',
  'cafe',
  'crème',
  'naïve',
  'zebra',
  '東京',
  '会議',
  'budget',
];
const TAGS = ['work', 'work/alpha', 'life', 'hush'];
const FOLDERS = ['', 'open', 'open/sub', 'open/secret', 'private', 'private/deep', 'private/shared', 'Notes'];
const ACCESS = ['hidden', 'read-only', 'read-write', 'staged'] as const;

/** Equal times in both vaults of a comparison, few of them so that ties are common. */
const TIMES = [1_700_000_000, 1_700_000_000, 1_700_086_400, 1_710_000_000].map((s) => new Date(s * 1000));

interface GeneratedNote {
  readonly folder: string;
  readonly file: string;
  readonly text: string;
  readonly time: number;
}

const word = fc.constantFrom(...WORDS);
/** Line breaks, blank lines, headings and tasks in a body, so that line:, block:, section: and task: find something. */
const BREAKS = ['\n', '\n\n', '\n## Part\n', '\n- [ ] ', '\n- [x] '];

const noteText = fc
  .record({
    title: fc.option(fc.array(word, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    tags: fc.subarray(TAGS),
    status: fc.option(fc.constantFrom('draft', 'done', 'Draft final', '3', ''), { nil: undefined }),
    heading: fc.option(word, { nil: undefined }),
    body: fc.array(
      fc.oneof(
        word,
        word,
        word,
        fc.constantFrom('the', 'and', '#work', '#hush/deep', '-', 'Kiwi', '2024-05-01'),
        fc.constantFrom(...BREAKS),
      ),
      { minLength: 4, maxLength: 40 },
    ),
  })
  .map(({ title, tags, status, heading, body }) => {
    const props = `${title ? `title: ${title.join(' ')}\n` : ''}${tags.length > 0 ? `tags: [${tags.join(', ')}]\n` : ''}${status === undefined ? '' : `status: ${status}\n`}`;
    const fm = props === '' ? '' : `---\n${props}---\n`;
    return `${fm}${heading ? `# ${heading}\n\n` : ''}${body.join(' ')}\n`;
  });

const note: fc.Arbitrary<GeneratedNote> = fc.record({
  folder: fc.constantFrom(...FOLDERS),
  file: fc.constantFrom('Plan', 'kiwi notes', 'café', 'n', '東京メモ', 'budget-2026'),
  text: noteText,
  time: fc.nat(TIMES.length - 1),
});

const policyText = fc
  .record({
    default: fc.constantFrom('read-write', 'read-only', 'hidden'),
    folders: fc.dictionary(
      fc.constantFrom(...FOLDERS.filter((f) => f !== '')),
      fc.constantFrom(...ACCESS, 'hidden', 'hidden'),
      { minKeys: 1, maxKeys: 4 },
    ),
  })
  .map(
    (p) =>
      `default: ${p.default}\nfolders:\n${Object.entries(p.folders)
        .map(([f, a]) => `  ${JSON.stringify(f)}: ${a}\n`)
        .join('')}`,
  );

type Q = string;
const term: fc.Arbitrary<Q> = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 2, arbitrary: fc.array(word, { minLength: 2, maxLength: 3 }).map((w) => `"${w.join(' ')}"`) },
  { weight: 1, arbitrary: fc.constantFrom(...TAGS, 'hush/deep', 'HUSH').map((t) => `tag:#${t}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('open', 'private', 'sub', 'secret', 'notes').map((t) => `path:${t}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('plan', 'kiwi', 'caf', '東京', 'n.md').map((t) => `file:${t}`) },
  // Issue 26's operators: scopes, tasks, properties, regexes, case.
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.constantFrom('line', 'block', 'section', 'task', 'task-todo', 'task-done'),
        word,
        fc.option(word, { nil: undefined }),
      )
      .map(([op, a, b]) => (b === undefined ? `${op}:${a}` : `${op}:(${a} ${b})`)),
  },
  { weight: 1, arbitrary: fc.constantFrom('task:""', 'task-done:""', 'task-todo:""') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '[status]',
      '[status:draft]',
      '[status:null]',
      '[status:>2]',
      '[status:draft OR done]',
      '[title]',
      '[/^sta/]',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/k.wi/', '/\\d{4}-\\d{2}/', 'content:/^## /', 'path:/sub/', 'file:/^n /'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('match-case:Kiwi', 'match-case:kiwi', 'ignore-case:KIWI', 'content:kiwi'),
  },
);
const query: fc.Arbitrary<Q> = fc.letrec<{ expr: Q; and: Q; unit: Q }>((tie) => ({
  unit: fc.oneof({ weight: 5, arbitrary: term }, { weight: 1, arbitrary: tie('expr').map((e) => `(${e})`) }),
  and: fc
    .tuple(tie('unit'), fc.array(fc.tuple(fc.boolean(), tie('unit')), { maxLength: 2 }), fc.boolean())
    .map(([first, rest, repeat]) => {
      const parts = [first, ...rest.map(([neg, u]) => (neg ? `-${u}` : u))];
      // A repeated term counts once: the answer must not change either way.
      if (repeat) parts.push(first);
      return parts.join(' ');
    }),
  expr: fc.oneof(
    { weight: 3, arbitrary: tie('and') },
    { weight: 1, arbitrary: fc.tuple(tie('and'), tie('and')).map(([a, b]) => `${a} OR ${b}`) },
  ),
})).expr;

/** Now and then with a folder or tag argument: most searches are over the whole vault. */
const searchArgs: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    query,
    fc.integer({ min: 1, max: 12 }),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(...FOLDERS.filter((f) => f !== ''), 'PRIVATE', 'open/') },
    ),
    fc.oneof(
      { weight: 5, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom(...TAGS, '#hush') },
    ),
  )
  .map(([q, max, folder, tag]) => ({
    query: q,
    max_results: max,
    ...(folder === undefined ? {} : { folder }),
    ...(tag === undefined ? {} : { tag }),
  }));

function filesOf(notes: readonly GeneratedNote[]): Map<string, GeneratedNote> {
  const files = new Map<string, GeneratedNote>();
  notes.forEach((n, i) => {
    files.set(`${n.folder === '' ? '' : `${n.folder}/`}${n.file} ${i % 3}.md`, n);
  });
  return files;
}

async function vaultOf(files: Map<string, GeneratedNote>, policy: string | null): Promise<TestVault> {
  const content: Record<string, string> = {};
  for (const [rel, n] of files) content[rel] = n.text;
  if (policy !== null) content['.noted/mcp-policy.yaml'] = policy;
  const v = await openTestVault(content, {
    prepare: (dir) => {
      for (const [rel, n] of files) {
        const t = TIMES[n.time] as Date;
        fs.utimesSync(path.join(dir, ...rel.split('/')), t, t);
      }
    },
  });
  open.push(v);
  return v;
}

function visibleOnly(files: Map<string, GeneratedNote>, policy: string): Map<string, GeneratedNote> {
  const parsed = parsePolicy(policy);
  return new Map([...files].filter(([rel]) => isVisible(parsed, rel)));
}

function answer(r: CallResult): unknown {
  return { text: r.text, structured: r.structured };
}

/** Issue 26's operators, to count the searches that used one and found something. */
const NEW_OPERATOR = /line:|block:|section:|task|\[|\/|match-case:|ignore-case:|content:/;
let operatorHits = 0;
let refusals = 0;

/** Runs each search on both servers and expects the same answer; returns how many hits there were. */
async function expectSameSearches(
  a: { call: TestVault['call'] },
  b: { call: TestVault['call'] },
  searches: readonly Record<string, unknown>[],
): Promise<number> {
  let hits = 0;
  // Two index files make their own ids (SPEC 17.3): compared by where they stand, not by value.
  const ids = { a: new IdLabels(), b: new IdLabels() };
  for (const args of searches) {
    const left = await a.call('search_notes', args);
    const right = await b.call('search_notes', args);
    expect({ args, ...(ids.a.relabel(answer(left)) as object) }).toEqual({
      args,
      ...(ids.b.relabel(answer(right)) as object),
    });
    if (!left.isError) hits += left.structured.results.length;
    if (!left.isError && left.structured.results.length > 0 && NEW_OPERATOR.test(String(args.query)))
      operatorHits++;
    if (left.isError) refusals++;
  }
  return hits;
}

describe('search with hidden notes answers as if they were deleted (SPEC 4, hidden)', () => {
  it('names, order, scores, excerpts and total are those of the vault without them, for every query kind', async () => {
    let hits = 0;
    let hiddenNotes = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(note, { minLength: 5, maxLength: 30 }),
        policyText,
        fc.array(searchArgs, { minLength: 12, maxLength: 20 }),
        async (notes, policy, searches) => {
          const files = filesOf(notes);
          const visible = visibleOnly(files, policy);
          hiddenNotes += files.size - visible.size;
          const withHidden = await vaultOf(files, policy);
          const without = await vaultOf(visible, policy);
          try {
            hits += await expectSameSearches(withHidden, without, searches);
          } finally {
            await withHidden.close();
            await without.close();
            open = open.filter((v) => v !== withHidden && v !== without);
          }
        },
      ),
      { numRuns: 30, seed: 1812, endOnFailure: true },
    );
    // The comparisons were not all between empty answers or refusals, and there was something to hide.
    expect(hits).toBeGreaterThan(300);
    expect(operatorHits).toBeGreaterThan(50);
    expect(refusals).toBeLessThan(20);
    expect(hiddenNotes).toBeGreaterThan(100);
  });

  it('a policy changed while the server runs applies to the very next search, both ways', async () => {
    const notes = fc.sample(fc.array(note, { minLength: 25, maxLength: 25 }), { numRuns: 1, seed: 25 })[0]!;
    const files = filesOf(notes);
    const policy =
      'default: read-write\nfolders:\n  private: hidden\n  open/secret: hidden\n  private/shared: read-only\n';
    const searches = fc.sample(searchArgs, { numRuns: 40, seed: 7 });
    const live = await vaultOf(files, null);
    const everything = await vaultOf(files, null);
    const reference = await vaultOf(visibleOnly(files, policy), policy);
    expect(visibleOnly(files, policy).size).toBeLessThan(files.size);
    expect(await expectSameSearches(live, everything, searches)).toBeGreaterThan(20);

    const policyFile = path.join(live.dir, '.noted', 'mcp-policy.yaml');
    fs.writeFileSync(policyFile, policy);
    await expectSameSearches(live, reference, searches);
    // A change that hides nothing more (read-only to read-write) keeps the same answers.
    fs.writeFileSync(policyFile, policy.replace('read-only', 'read-write'));
    await expectSameSearches(live, reference, searches);
    fs.rmSync(policyFile);
    await expectSameSearches(live, everything, searches);
    fs.writeFileSync(policyFile, policy);
    await expectSameSearches(live, reference, searches);
  });

  it('two servers sharing one index both answer by the policy in force, however it changes', async () => {
    const notes = fc.sample(fc.array(note, { minLength: 20, maxLength: 20 }), { numRuns: 1, seed: 3 })[0]!;
    const files = filesOf(notes);
    const policies = [
      'folders:\n  private: hidden\n',
      'default: hidden\nfolders:\n  open: read-only\n  Notes: read-write\n',
      'folders:\n  open/sub: hidden\n  private/deep: hidden\n',
    ];
    const searches = fc.sample(searchArgs, { numRuns: 15, seed: 11 });
    const first = await vaultOf(files, null);
    const second = await connect(first.dir);
    open.push(second);
    const policyFile = path.join(first.dir, '.noted', 'mcp-policy.yaml');
    for (const [i, policy] of [...policies, ...[...policies].reverse()].entries()) {
      fs.writeFileSync(policyFile, policy);
      const reference = await vaultOf(visibleOnly(files, policy), policy);
      // Alternate which server meets the new policy first.
      const [a, b] = i % 2 === 0 ? [first, second] : [second, first];
      await expectSameSearches(a, reference, searches);
      await expectSameSearches(b, reference, searches);
      await reference.close();
      open = open.filter((v) => v !== reference);
    }
  });
});

describe('a word only hidden notes hold leaves no trace where searches look (issue 25 item 3)', () => {
  it('is not in the full-text index, whose statistics count visible notes only, before and after policy changes', async () => {
    const files: Record<string, string> = { '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n' };
    for (let i = 0; i < 60; i++) files[`private/p${i}.md`] = `secretword ${'filler '.repeat(i)}\n`;
    for (let i = 0; i < 10; i++) files[`open/o${i}.md`] = `open words ${i}\n`;
    const v = await openTestVault(files);
    open.push(v);
    const db = v.opened.index.db;
    const inIndex = (word: string) =>
      (db.prepare('SELECT doc FROM notes_vocab WHERE term = ?').get(word) as { doc: number } | undefined)
        ?.doc ?? 0;
    const rows = () => readAverages(db)?.rows;
    const total = async (query: string) => (await v.call('search_notes', { query })).structured.total;

    expect(await total('secretword')).toBe(0);
    expect(inIndex('secretword')).toBe(0);
    expect(inIndex('filler')).toBe(0);
    expect(rows()).toBe(10);

    const policyFile = path.join(v.dir, '.noted', 'mcp-policy.yaml');
    fs.rmSync(policyFile);
    expect(await total('secretword')).toBe(60);
    expect(inIndex('secretword')).toBe(60);
    expect(rows()).toBe(70);

    fs.writeFileSync(policyFile, 'folders:\n  private: hidden\n');
    expect(await total('secretword')).toBe(0);
    expect(inIndex('secretword')).toBe(0);
    expect(rows()).toBe(10);
    expect(await total('open')).toBe(10);
  });
});
