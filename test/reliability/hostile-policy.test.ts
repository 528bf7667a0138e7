/**
 * Hostile policy files and frontmatter (issue 10, "Hostile input"), through a real MCP client within
 * HOSTILE.callLimitMs per call.
 *
 * Policy: random policies, valid and broken, are written to `.noted/mcp-policy.yaml` while the server
 * runs (it reads the file on every request). A broken one closes the vault: every tool answers
 * `policy_error` (SPEC 4). A valid one is checked against a model of SPEC 4 written here (most
 * specific folder wins, folders compared ignoring case, `\` and Unicode form, judged at a note's real
 * location): no hidden note is listed, found, counted, read or linked, and every other note is.
 *
 * Frontmatter: random YAML blocks (invalid YAML, tabs, duplicate keys, huge numbers, odd dates,
 * nested lists, tags) in a note: every read tool answers, and read_note gives the stored text back
 * byte for byte.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { parseFrontmatter } from '../../src/markdown/frontmatter/frontmatter.js';
import { type Access, parsePolicy } from '../../src/policy/policy.js';
import { type CallResult, openTestVault, type TestVault } from '../helpers/vault.js';
import { nastyText, PROPERTY_OPTIONS, show, timedCall } from './hostile-shared.js';
import { HOSTILE } from './limits.js';

const ACCESS: readonly Access[] = ['hidden', 'read-only', 'read-write', 'staged'];

/** The notes, each with a mark of its own that must never appear in an answer while it is hidden. */
const NOTES = [
  'r.md',
  'open/a.md',
  'open/sub/b.md',
  'Private/secret.md',
  'private2/c.md',
  'drafts/d.md',
  'archive/old/e.md',
  'café/f.md',
];
const LINK = 'open/peek.md';
/** Where the link really is: SPEC 4 judges it there. */
const LINK_TARGET = 'Private/secret.md';

function markOf(name: string): string {
  return `mk${name.replace(/[^a-z0-9]/gi, '')}zz`;
}

function noteText(name: string): string {
  return `---\nstatus: active\n---\n# ${path.basename(name, '.md')}\n\nzeppelin ${markOf(name)} [[r]] #shared\n- [ ] task ${markOf(name)}\n`;
}

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault(Object.fromEntries(NOTES.map((n) => [n, noteText(n)])), {
    prepare: (dir) => fs.symlinkSync('../Private/secret.md', path.join(dir, ...LINK.split('/'))),
  });
});
afterAll(async () => {
  await vault?.close();
});

const POLICY_PATH = () => path.join(vault.dir, '.noted', 'mcp-policy.yaml');

/** A call whose answer must not hold the mark of any note in `hidden` (unless the call asked for it). */
async function call(
  tool: string,
  args: Record<string, unknown>,
  hidden: readonly string[] = [],
): Promise<CallResult> {
  const result = await timedCall(vault, tool, args);
  const answer = `${result.text}\n${JSON.stringify(result.structured)}`;
  const asked = show(args, Number.POSITIVE_INFINITY);
  for (const name of hidden) {
    const mark = markOf(name);
    expect(
      !asked.includes(mark) && answer.includes(mark),
      `${tool} ${show(args)} leaked hidden ${name}`,
    ).toBe(false);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The model of SPEC 4

function fold(p: string): string {
  let key = p.replaceAll('\\', '/');
  while (key.endsWith('/')) key = key.slice(0, -1);
  return key.normalize('NFC').toLowerCase().normalize('NFC');
}

interface PolicyModel {
  readonly default: Access | null;
  readonly rules: readonly { readonly folder: string; readonly access: Access }[];
}

function accessOf(model: PolicyModel, note: string): Access {
  const real = fold(note === LINK ? LINK_TARGET : note);
  let best: { depth: number; access: Access } | null = null;
  for (const rule of model.rules) {
    const key = fold(rule.folder);
    if (real === key || real.startsWith(`${key}/`)) {
      const depth = key.split('/').length;
      if (best === null || depth > best.depth) best = { depth, access: rule.access };
    }
  }
  return best?.access ?? model.default ?? 'read-write';
}

/** Folder spellings: the same folders in other cases, with `\`, a trailing `/`, or decomposed. */
const FOLDERS = [
  'private',
  'Private',
  'PRIVATE/',
  'private\\',
  'private2',
  'open',
  'open/sub',
  'Open\\Sub/',
  'drafts',
  'archive',
  'archive/old',
  'café',
  'cafe\u0301',
  'nowhere',
];

type Corruption =
  | 'none'
  | 'typo'
  | 'unknown-key'
  | 'list-value'
  | 'alias'
  | 'tab-indent'
  | 'dot-folder'
  | 'dotdot'
  | 'absolute'
  | 'two-documents'
  | 'unclosed-quote'
  | 'garbage';

interface PolicyCase {
  readonly model: PolicyModel;
  readonly style: 'block' | 'flow';
  readonly quote: boolean;
  readonly comments: boolean;
  readonly crlf: boolean;
  readonly bom: boolean;
  readonly indent: 2 | 4;
  readonly corruption: Corruption;
  readonly garbage: string;
  readonly garbageAt: number;
}

const policyCase: fc.Arbitrary<PolicyCase> = fc.record({
  model: fc.record({
    default: fc.option(fc.constantFrom(...ACCESS)),
    rules: fc.array(fc.record({ folder: fc.constantFrom(...FOLDERS), access: fc.constantFrom(...ACCESS) }), {
      maxLength: 5,
    }),
  }),
  style: fc.constantFrom('block', 'block', 'flow'),
  quote: fc.boolean(),
  comments: fc.boolean(),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  indent: fc.constantFrom(2, 4),
  corruption: fc.oneof(
    { weight: 8, arbitrary: fc.constant('none' as const) },
    {
      weight: 4,
      arbitrary: fc.constantFrom<Corruption>(
        'typo',
        'unknown-key',
        'list-value',
        'alias',
        'tab-indent',
        'dot-folder',
        'dotdot',
        'absolute',
        'two-documents',
        'unclosed-quote',
        'garbage',
      ),
    },
  ),
  garbage: fc.oneof(
    nastyText(3),
    fc.constantFrom(': :', '- - -', '{{', ']]', '&x *x', '!!binary', '%YAML 1.1', '? x'),
  ),
  garbageAt: fc.nat(),
});

function q(text: string, quote: boolean): string {
  return quote ? JSON.stringify(text) : text;
}

/** The policy file's text for a case; a key in a flow mapping is always quoted (`\` and `/` in it). */
function render(c: PolicyCase): string {
  const pad = ' '.repeat(c.indent);
  const note = c.comments ? '  # a comment' : '';
  const lines: string[] = [];
  if (c.comments) lines.push('# Access for agents');
  if (c.model.default !== null) lines.push(`default: ${q(c.model.default, c.quote)}${note}`);
  if (c.style === 'flow') {
    const items = c.model.rules.map((r) => `${JSON.stringify(r.folder)}: ${q(r.access, c.quote)}`);
    lines.push(`folders: {${items.join(', ')}}${note}`);
  } else {
    lines.push(`folders:${note}`);
    for (const r of c.model.rules)
      lines.push(`${pad}${q(r.folder, c.quote || r.folder.includes('\\'))}: ${q(r.access, c.quote)}${note}`);
  }
  switch (c.corruption) {
    case 'typo':
      lines.splice(0, lines.length, ...lines.filter((l) => !l.startsWith('default')));
      lines.push('default: hiden');
      break;
    case 'unknown-key':
      lines.push('defaults: hidden');
      break;
    case 'list-value':
      lines.splice(0, lines.length, ...lines.filter((l) => !l.startsWith('default')));
      lines.push('default: [hidden, read-only]');
      break;
    case 'alias':
      lines.splice(0, lines.length, ...lines.filter((l) => !l.startsWith('default')));
      lines.unshift('default: &level hidden');
      if (c.style === 'flow') lines.push('extra: *level');
      else
        lines.splice(
          lines.indexOf(lines.find((l) => l.startsWith('folders:'))!) + 1,
          0,
          `${pad}aliased: *level`,
        );
      break;
    case 'tab-indent':
      if (c.style === 'flow') lines.push('folders2:\n\tx: hidden');
      else
        lines.splice(lines.indexOf(lines.find((l) => l.startsWith('folders:'))!) + 1, 0, '\ttabbed: hidden');
      break;
    case 'dot-folder':
    case 'dotdot':
    case 'absolute': {
      const folder =
        c.corruption === 'dot-folder'
          ? '.obsidian'
          : c.corruption === 'dotdot'
            ? 'open/../private'
            : '/private';
      if (c.style === 'flow') lines.push(`more: {${JSON.stringify(folder)}: read-write}`);
      else
        lines.splice(
          lines.indexOf(lines.find((l) => l.startsWith('folders:'))!) + 1,
          0,
          `${pad}${JSON.stringify(folder)}: read-write`,
        );
      break;
    }
    case 'two-documents':
      lines.push('---', 'default: read-write');
      break;
    case 'unclosed-quote':
      lines.push('default: "read-write');
      break;
    case 'garbage':
      lines.splice(c.garbageAt % (lines.length + 1), 0, c.garbage);
      break;
    case 'none':
      break;
  }
  const text = lines.join(c.crlf ? '\r\n' : '\n') + (c.crlf ? '\r\n' : '\n');
  return c.bom ? `\uFEFF${text}` : text;
}

/** True when the rules name one folder twice (SPEC 4 compares them folded): the file is refused. */
function hasDuplicateFolder(model: PolicyModel): boolean {
  const keys = model.rules.map((r) => fold(r.folder));
  return new Set(keys).size !== keys.length;
}

/** The parser's verdict, for texts the model cannot judge (garbage inserted). */
function parses(text: string): boolean {
  try {
    parsePolicy(text);
    return true;
  } catch (err) {
    if (isNotedError(err) && err.code === 'policy_error') return false;
    throw err;
  }
}

const ALL = [...NOTES, LINK];

async function expectClosed(why: string): Promise<void> {
  const before = fs.readdirSync(path.join(vault.dir, 'open'));
  for (const [tool, args] of [
    ['list_notes', {}],
    ['search_notes', { query: 'zeppelin' }],
    ['read_note', { name: 'r' }],
    ['list_tags', {}],
    ['list_tasks', {}],
    ['query_notes', {}],
    ['get_backlinks', { name: 'r' }],
    ['create_note', { name: 'open/new-note', content: 'x' }],
  ] as const) {
    const result = await call(tool, args, ALL);
    expect(result.structured.code, `${tool} under ${why}: ${show(result.structured)}`).toBe('policy_error');
  }
  expect(fs.readdirSync(path.join(vault.dir, 'open'))).toEqual(before);
}

async function expectOpen(model: PolicyModel, why: string, write: number): Promise<void> {
  const hidden = ALL.filter((n) => accessOf(model, n) === 'hidden');
  const visible = ALL.filter((n) => accessOf(model, n) !== 'hidden').sort();
  const names = (list: { name?: string; note?: string }[]) =>
    [...new Set(list.map((x) => x.name ?? x.note))].sort();

  const listed = await call('list_notes', { limit: 500 }, hidden);
  expect(listed.isError, `${why}: ${show(listed.structured)}`).toBe(false);
  expect(names(listed.structured.notes), `list_notes under ${why}`).toEqual(visible);

  const found = await call('search_notes', { query: 'zeppelin', max_results: 50 }, hidden);
  expect(names(found.structured.results), `search_notes under ${why}`).toEqual(visible);
  expect(found.structured.total).toBe(visible.length);

  const table = await call(
    'query_notes',
    { filters: [{ property: 'status', op: 'equals', value: 'active' }] },
    hidden,
  );
  expect(names(table.structured.rows), `query_notes under ${why}`).toEqual(visible);

  const tasks = await call('list_tasks', {}, hidden);
  expect(names(tasks.structured.tasks), `list_tasks under ${why}`).toEqual(visible);

  const tags = await call('list_tags', {}, hidden);
  const shared = (tags.structured.tags as { tag: string; count: number }[]).find((t) => t.tag === 'shared');
  expect(shared?.count ?? 0, `list_tags under ${why}`).toBe(visible.length);

  const missing = await call('read_note', { name: 'no/such/note' }, hidden);
  for (const name of ALL) {
    const read = await call('read_note', { name }, hidden);
    if (accessOf(model, name) === 'hidden') {
      // A link in a visible folder into a hidden one answers as a dangling link does (issue 35 finding
      // 10); a note, or a link itself in a hidden folder, as a missing one.
      const danglingLink = name === LINK && accessOf(model, 'open/a.md') !== 'hidden';
      const expected = danglingLink ? 'invalid_name' : missing.structured.code;
      expect(read.structured.code, `read_note ${name} under ${why}`).toBe(expected);
    } else {
      expect(read.isError, `read_note ${name} under ${why}: ${show(read.structured)}`).toBe(false);
    }
  }
  if (accessOf(model, 'r.md') !== 'hidden') {
    const back = await call('get_backlinks', { name: 'r' }, hidden);
    expect(names(back.structured.backlinks), `get_backlinks under ${why}`).toEqual(
      visible.filter((n) => n !== 'r.md'),
    );
  }

  // One write, in a folder picked by the run: what the folder's access says, and nothing more.
  const folder = ['open', 'Private', 'private2', 'drafts', 'archive/old', 'café', 'open/sub'][write % 7]!;
  const name = `${folder}/made-${write}.md`;
  const access = accessOf(model, name);
  const made = await call('create_note', { name, content: 'made here' }, hidden);
  const onDisk = fs.existsSync(path.join(vault.dir, ...name.split('/')));
  if (access === 'read-write') {
    expect(made.isError, `create ${name} under ${why}: ${show(made.structured)}`).toBe(false);
    expect(onDisk).toBe(true);
    const removed = await call('delete_note', { name }, hidden);
    expect(removed.isError, show(removed.structured)).toBe(false);
  } else {
    expect(onDisk, `create ${name} (${access}) under ${why} wrote the note`).toBe(false);
    if (access === 'staged') expect(made.structured.staged, show(made.structured)).toBe(true);
    else expect(made.structured.code, `create ${name} (${access}) under ${why}`).toBe('read_only');
  }
}

describe('policy files', () => {
  it(
    'a broken policy closes the vault; a valid one hides exactly what it says, everywhere',
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(policyCase, async (c) => {
          run++;
          const text = render(c);
          fs.writeFileSync(POLICY_PATH(), text);
          const why = show(text, 500);
          const broken = c.corruption !== 'none' || hasDuplicateFolder(c.model);
          if (c.corruption !== 'garbage') {
            // The model's verdict and the parser's agree: a file the model calls broken is refused.
            expect(parses(text), `parsePolicy on ${why}`).toBe(!broken);
          }
          if (c.corruption === 'garbage' ? !parses(text) : broken) {
            await expectClosed(why);
          } else if (c.corruption === 'none') {
            await expectOpen(c.model, why, run);
          }
        }),
        PROPERTY_OPTIONS,
      );
      fs.rmSync(POLICY_PATH(), { force: true });
    },
    HOSTILE.timeLimitMs,
  );

  it(
    'free-form YAML text never crashes the server, and answers policy_error exactly when it cannot be parsed',
    async () => {
      const yamlish = fc
        .array(
          fc.oneof(
            fc.constantFrom(
              'default',
              'folders',
              ':',
              ' ',
              '  ',
              '\n',
              '\t',
              '-',
              'hidden',
              'read-only',
              'staged',
              'private',
              '{',
              '}',
              '[',
              ']',
              ',',
              '"',
              "'",
              '&a',
              '*a',
              '!!str',
              '#',
              '---',
              '...',
              '?',
              '|',
              '>',
              '%TAG',
            ),
            nastyText(1),
          ),
          { maxLength: 30 },
        )
        .map((parts) => parts.join(''));
      await fc.assert(
        fc.asyncProperty(yamlish, async (text) => {
          fs.writeFileSync(POLICY_PATH(), text);
          const ok = parses(text);
          const result = await call('search_notes', { query: 'zeppelin' });
          if (!ok) {
            expect(result.structured.code, show(text)).toBe('policy_error');
            expect(result.structured.message).toContain('mcp-policy.yaml');
          } else {
            expect(result.isError, `${show(text)}: ${show(result.structured)}`).toBe(false);
          }
          const listed = await call('list_notes', {});
          expect(listed.isError).toBe(!ok);
        }),
        PROPERTY_OPTIONS,
      );
      fs.rmSync(POLICY_PATH(), { force: true });
    },
    HOSTILE.timeLimitMs,
  );
});

// ---------------------------------------------------------------------------------------------
// Frontmatter

const KEYS = [
  'title',
  'tags',
  'aliases',
  'status',
  'due',
  'n',
  '__proto__',
  'constructor',
  'toString',
  'Title',
  'ключ',
  '東京',
  'a b',
  '"quoted key"',
  "'single'",
  '? complex',
  'dup',
  'dup',
  '$name',
  'name',
];

const VALUES = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '0x1F',
  '0o17',
  '.inf',
  '-.inf',
  '.nan',
  '2026-13-45',
  '2024-02-29T25:61:00',
  '2026-05-01',
  '2026-05-01T10:00:00Z',
  '~',
  'null',
  'yes',
  'true',
  'False',
  '[a, b, [c, [d, [e]]]]',
  '{a: 1, b: {c: [2, {d: 3}]}}',
  '"unterminated',
  "'it''s'",
  '&anchor value',
  '*anchor',
  '!!binary aGVsbG8=',
  '!!set {a, b}',
  '!!timestamp 2001-12-14',
  '!!str 123',
  '!!int "x"',
  '!custom tag',
  '|\n  block\n  text',
  '>-\n  folded\n  text',
  '\t',
  'value # comment',
  '[[r]]',
  '"[[r]]"',
  '- item',
  '',
  'x'.repeat(10_000),
];

const frontmatterLine = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...KEYS),
        fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...VALUES) },
          { weight: 1, arbitrary: nastyText(3) },
        ),
      )
      .map(([k, v]) => `${k}: ${v}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '  - item',
      '    - deeper',
      '  - [x, y]',
      '- top',
      '  key: nested',
      '\tkey: tabbed',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('---x', '...', '# comment', '', '   ', '%YAML 1.2', '\u0000', '\ufeff'),
  },
  { weight: 1, arbitrary: nastyText(4) },
);

/** Values that parse, of every type Obsidian knows and a few it does not. */
const PARSING_VALUES = VALUES.filter(
  (v) => !['"unterminated', '*anchor', '- item', '!!int "x"', '&anchor value'].includes(v),
);

/** Blocks that mostly parse: distinct keys with values of every kind. */
const tidyLines = fc
  .uniqueArray(fc.constantFrom(...KEYS.filter((k) => k !== '? complex')), { maxLength: 10 })
  .chain((keys) => fc.tuple(...keys.map((k) => fc.constantFrom(...PARSING_VALUES).map((v) => `${k}: ${v}`))));

const frontmatterNote = fc
  .tuple(fc.oneof(tidyLines, fc.array(frontmatterLine, { maxLength: 12 })), fc.boolean(), fc.boolean())
  .map(([lines, crlf, bom]) => {
    const eol = crlf ? '\r\n' : '\n';
    return { block: `${bom ? '\ufeff' : ''}---${eol}${lines.join(eol)}${eol}---${eol}`, eol };
  });

describe('frontmatter', () => {
  it(
    'random YAML frontmatter: read_note, get_properties, query_notes, search and lists all answer',
    async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(frontmatterNote, async ({ block, eol }) => {
          run++;
          const word = `quokka${run}x`;
          const rel = 'fm/note.md';
          fs.mkdirSync(path.join(vault.dir, 'fm'), { recursive: true });
          fs.writeFileSync(
            path.join(vault.dir, rel),
            `${block}# Heading${eol}${eol}${word} body [[r]] #fmtag${eol}`,
          );
          // As stored: UTF-8 keeps a lone surrogate as U+FFFD.
          const text = fs.readFileSync(path.join(vault.dir, rel), 'utf8');
          vault.opened.index.touched([rel]);
          const parsed = parseFrontmatter(text);

          const read = await call('read_note', { name: rel });
          expect(read.isError, `${show(block)}: ${show(read.structured)}`).toBe(false);
          expect(read.structured.frontmatterRaw + read.structured.body, show(block)).toBe(text);
          expect(read.structured.frontmatter, show(block)).toEqual(parsed.data);
          expect('frontmatterError' in read.structured, show(block)).toBe(parsed.error !== undefined);

          const props = await call('get_properties', { name: rel });
          expect(props.isError, `${show(block)}: ${show(props.structured)}`).toBe(false);
          expect(Object.keys(props.structured.properties).sort(), show(block)).toEqual(
            Object.keys(parsed.data ?? {}).sort(),
          );

          const keys = Object.keys(parsed.data ?? {}).filter(
            (k) => k !== 'name' && k.trim() !== '' && k.length <= 500 && !k.startsWith('$'),
          );
          const table = await call('query_notes', { folder: 'fm', columns: keys.slice(0, 50) });
          expect(table.isError, `${show(block)}: ${show(table.structured)}`).toBe(false);
          expect(table.structured.total).toBe(1);
          for (const key of keys.slice(0, 3)) {
            const filtered = await call('query_notes', {
              folder: 'fm',
              filters: [{ property: key, op: 'is_not_empty' }],
            });
            expect(filtered.isError, `${show(block)} ${key}: ${show(filtered.structured)}`).toBe(false);
          }

          const found = await call('search_notes', { query: word });
          expect(found.isError, `${show(block)}: ${show(found.structured)}`).toBe(false);
          expect(
            (found.structured.results as { name: string }[]).map((r) => r.name),
            show(block),
          ).toEqual([rel]);

          for (const [tool, args] of [
            ['list_notes', { folder: 'fm' }],
            ['list_tags', {}],
            ['list_tasks', { folder: 'fm' }],
            ['get_outgoing_links', { name: rel }],
            ['get_backlinks', { name: 'r' }],
            ['list_by_tag', { tag: 'fmtag' }],
          ] as const) {
            const result = await call(tool, args);
            expect(result.isError, `${tool} with ${show(block)}: ${show(result.structured)}`).toBe(false);
          }
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );
});
