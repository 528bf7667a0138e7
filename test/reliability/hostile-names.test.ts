/**
 * Hostile note and folder names on every tool that takes one, symbolic links that lead out of the
 * vault, and arguments of the wrong type at the protocol level (issue 10, "Hostile input"). Every
 * call goes through a real MCP client, which checks the SPEC 3.1/3.2 result invariants, within
 * HOSTILE.callLimitMs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { normalizeFolderName, normalizeNoteName } from '../../src/vault/names.js';
import { type CallResult, checkResult, openTestVault, type TestVault } from '../helpers/vault.js';
import { nastyText, PROPERTY_OPTIONS, show, timedCall, treeOf } from './hostile-shared.js';
import { HOSTILE } from './limits.js';

/** In every file outside the vault: an answer that contains it read outside the vault. */
const OUTSIDE_MARK = 'OUTSIDEMARK7f3a';

const FILES = {
  'inbox/idea.md': '# Idea\n\nSee [[Plan]] and [[notes/a]].\n- [ ] task one\n',
  'Plan.md': '---\ntags: [p]\nstatus: open\n---\n# Plan\n\n## Steps\n\nfirst step\n',
  'projects/Plan.md': 'another plan, linking [[idea]]\n',
  'notes/a.md': 'links [[idea]] [[missing]] #tag\n',
};

/** Links from inside the vault to outside it (and one that stays inside). */
function makeLinks(dir: string, base: string): void {
  fs.mkdirSync(path.join(base, 'outside'));
  fs.writeFileSync(path.join(base, 'outside', 'secret.md'), `# Secret\n\n${OUTSIDE_MARK}\n`);
  fs.mkdirSync(path.join(base, 'vault-evil'));
  fs.writeFileSync(path.join(base, 'vault-evil', 'x.md'), `${OUTSIDE_MARK}\n`);
  const link = (target: string, name: string) => fs.symlinkSync(target, path.join(dir, name));
  link('../outside', 'out');
  link('../outside/secret.md', 'out-note.md');
  link('../nowhere', 'dangling');
  link('../nowhere.md', 'dangling-note.md');
  link('loop', 'loop');
  link('../vault-evil', 'evil');
  link(path.join(base, 'outside'), 'abs');
  link('inbox', 'inlink');
}

/** Names that lead through those links. */
const LINK_NAMES = [
  'out/secret',
  'out/new',
  'out-note',
  'dangling/x',
  'dangling-note',
  'loop/x',
  'evil/x',
  'abs/secret',
  'abs/new',
  'out/../out/secret',
];

type Oracle = 'validation_error' | 'too_large' | 'invalid_name' | null;

/** The error a note name must get whatever it names: the schema's, or the name rules' (SPEC 1.3). */
function noteNameError(name: string): Oracle {
  if (name.length === 0) return 'validation_error';
  if (name.length > 4096) return 'too_large';
  try {
    normalizeNoteName(name, '.md');
    return null;
  } catch (err) {
    if (isNotedError(err) && err.code === 'invalid_name') return 'invalid_name';
    throw err;
  }
}

function folderNameError(folder: string): Oracle {
  if (folder.length > 4096) return 'too_large';
  try {
    normalizeFolderName(folder);
    return null;
  } catch (err) {
    if (isNotedError(err) && err.code === 'invalid_name') return 'invalid_name';
    throw err;
  }
}

let vault: TestVault;
let outsideBefore: Map<string, string>;
let tmpBefore: Set<string>;

/** Entries of the temporary folder and the root a path escape could write to. */
function escapeTargets(): Set<string> {
  const out = new Set<string>();
  for (const dir of [os.tmpdir(), '/']) {
    for (const name of fs.readdirSync(dir)) out.add(path.join(dir, name));
  }
  return out;
}

/** Each test gets a vault of its own, since the hostile calls rename, delete and create freely. */
beforeEach(async () => {
  vault = await openTestVault(FILES, { prepare: makeLinks });
  outsideBefore = treeOf(vault.base, ['vault']);
});
afterEach(async () => {
  await vault?.close();
});
beforeAll(() => {
  tmpBefore = escapeTargets();
});
afterAll(() => {
  const escaped = [...escapeTargets()].filter(
    (p) => !tmpBefore.has(p) && /\.md$|outside|secret|idea|Plan|New Note|v1\.2/i.test(p),
  );
  expect(escaped, 'files created outside the vault').toEqual([]);
});

/**
 * One call with the checks every hostile call gets: an answer within the limit (timedCall), never a
 * read of a file outside the vault, nothing outside the vault changed, and on an error nothing inside
 * it either.
 */
async function hostileCall(tool: string, args: Record<string, unknown>): Promise<CallResult> {
  const before = treeOf(vault.dir, ['.noted']);
  const result = await timedCall(vault, tool, args);
  const answer = `${result.text}\n${JSON.stringify(result.structured)}`;
  // (An answer may repeat the arguments, so the mark only counts when they do not hold it.)
  const echoed = JSON.stringify(args).includes(OUTSIDE_MARK);
  expect(
    !echoed && answer.includes(OUTSIDE_MARK),
    `${tool} ${show(args)} answered with a file outside the vault`,
  ).toBe(false);
  expect(treeOf(vault.base, ['vault']), `${tool} ${show(args)} changed something outside the vault`).toEqual(
    outsideBefore,
  );
  if (result.isError) {
    expect(treeOf(vault.dir, ['.noted']), `${tool} ${show(args)} failed but changed the vault`).toEqual(
      before,
    );
  }
  return result;
}

function expectCode(result: CallResult, code: Oracle, what: string): void {
  if (code === null) return;
  expect(result.isError, `${what}: expected ${code}, got ${show(result.structured)}`).toBe(true);
  expect(result.structured.code, `${what}: ${show(result.structured)}`).toBe(code);
}

/** For a tool with two names: when either is bad the call fails with one of their errors. */
function expectEitherCode(result: CallResult, codes: readonly Oracle[], what: string): void {
  const wanted = codes.filter((c) => c !== null);
  if (wanted.length === 0) return;
  expect(result.isError, `${what}: expected ${wanted.join(' or ')}, got ${show(result.structured)}`).toBe(
    true,
  );
  expect(wanted, `${what}: ${show(result.structured)}`).toContain(result.structured.code);
}

/** Everything with `name` on disk, through realpath, must be inside the vault. */
function expectInside(name: string): void {
  const abs = path.join(vault.dir, ...name.split('/'));
  const real = fs.realpathSync(abs);
  const root = fs.realpathSync(vault.dir);
  expect(real.startsWith(root + path.sep), `${name} resolves to ${real}, outside ${root}`).toBe(true);
}

describe('hostile note names on every tool that takes one', () => {
  it(
    'answer with a result, refuse bad names with invalid_name, and touch nothing outside the vault',
    async () => {
      const piece = fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constantFrom(
            'inbox',
            'idea',
            'Plan',
            'projects',
            'notes',
            'a',
            'New Note',
            'v1.2 notes',
          ),
        },
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            'out',
            'out-note',
            'dangling',
            'dangling-note',
            'loop',
            'evil',
            'abs',
            'inlink',
            'outside',
            'secret',
            'vault-evil',
            vault.base,
            path.join(vault.base, 'outside'),
            '/etc/passwd',
            'file:///etc/passwd',
          ),
        },
        { weight: 5, arbitrary: fc.constantFrom('/', '/', '\\', '..', '../', '/..') },
        { weight: 4, arbitrary: nastyText(2) },
      );
      const name = fc.oneof(
        { weight: 9, arbitrary: fc.array(piece, { minLength: 1, maxLength: 8 }).map((p) => p.join('')) },
        { weight: 1, arbitrary: fc.constantFrom(...LINK_NAMES) },
      );
      let run = 0;
      await fc.assert(
        fc.asyncProperty(name, name, fc.boolean(), async (first, second, dryRun) => {
          run++;
          const oracle = noteNameError(first);
          const content = `created in run ${run}\n`;

          // create_note, and when it worked, the whole life of that note under its canonical name.
          const created = await hostileCall('create_note', { name: first, content });
          if (first.trim() !== '') expectCode(created, oracle, `create_note ${show(first)}`);
          if (!created.isError) {
            const canonical = created.structured.name as string;
            expect(canonical).toBe(normalizeNoteName(first, '.md'));
            expectInside(canonical);
            expect(fs.readFileSync(path.join(vault.dir, canonical), 'utf8')).toBe(content);
            const read = await hostileCall('read_note', { name: canonical });
            expect(read.isError, show(read.structured)).toBe(false);
            expect(read.structured.body).toBe(content);
            const updated = await hostileCall('update_note', {
              name: canonical,
              content: 'second\n',
              expected_etag: read.structured.etag,
            });
            expect(updated.isError, show(updated.structured)).toBe(false);
            const edited = await hostileCall('edit_note', {
              name: canonical,
              operation: 'replace',
              old_text: 'second',
              new_text: 'third',
              expected_etag: updated.structured.etag,
            });
            expect(edited.isError, show(edited.structured)).toBe(false);
            let current = canonical;
            const moved = await hostileCall('move_note', { name: canonical, new_name: second });
            expectEitherCode(moved, [noteNameError(second)], `move_note to ${show(second)}`);
            if (!moved.isError) {
              current = moved.structured.newName as string;
              expectInside(current);
              expect(fs.existsSync(path.join(vault.dir, canonical))).toBe(current === canonical);
            }
            const deleted = await hostileCall('delete_note', { name: current });
            expect(deleted.isError, show(deleted.structured)).toBe(false);
            const restored = await hostileCall('restore_note', { name: current });
            expect(restored.isError, show(restored.structured)).toBe(false);
            expect(fs.readFileSync(path.join(vault.dir, current), 'utf8')).toBe('third\n');
            const again = await hostileCall('delete_note', { name: current });
            expect(again.isError, show(again.structured)).toBe(false);
            expect(fs.existsSync(path.join(vault.dir, current))).toBe(false);
          }

          // Every other tool that takes a note name, with the raw name.
          const calls: [string, Record<string, unknown>][] = [
            ['read_note', { name: first }],
            ['get_backlinks', { name: first }],
            ['get_outgoing_links', { name: first }],
            ['get_properties', { name: first }],
            ['update_note', { name: first, content: 'overwritten\n', expected_etag: 'sha256:0' }],
            [
              'edit_note',
              {
                name: first,
                operation: 'append_to_section',
                heading: 'Plan',
                content: 'x',
                expected_etag: 'sha256:0',
              },
            ],
            ['delete_note', { name: first, expected_etag: 'sha256:0' }],
            ['restore_note', { name: first }],
            ['append_agent_event', { name: first, expected_etag: 'sha256:0', message: 'm' }],
            ['advance_agent_state', { name: first, expected_etag: 'sha256:0' }],
            ['approve_agent_gate', { name: first, expected_etag: 'sha256:0', state: 'b', reason: 'r' }],
            ['reject_agent_gate', { name: first, expected_etag: 'sha256:0', state: 'b', reason: 'r' }],
          ];
          for (const [tool, args] of calls) {
            expectCode(await hostileCall(tool, args), oracle, `${tool} ${show(first)}`);
          }
          const move = await hostileCall('move_note', { name: first, new_name: second, dry_run: dryRun });
          expectEitherCode(move, [oracle, noteNameError(second)], `move_note ${show([first, second])}`);
          // Batches report per item; they must still answer and touch nothing outside.
          await hostileCall('move_notes', { items: [{ name: first, new_name: second }], dry_run: true });
          await hostileCall('delete_notes', { items: [{ name: first, expected_etag: 'sha256:0' }] });
          const flow = await hostileCall('create_agent_workflow', {
            title: 'T',
            states: ['a', 'b'],
            name: first,
          });
          if (first.trim() !== '') expectCode(flow, oracle, `create_agent_workflow ${show(first)}`);
          if (!flow.isError) {
            expectInside(flow.structured.name as string);
            expect((await hostileCall('delete_note', { name: flow.structured.name })).isError).toBe(false);
          }
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );

  it(
    'hostile folder names on every tool that takes a folder',
    async () => {
      const piece = fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom('inbox', 'projects', 'notes', 'new', 'deep/er', '') },
        {
          weight: 3,
          arbitrary: fc.constantFrom('out', 'dangling', 'loop', 'evil', 'abs', 'inlink', vault.base),
        },
        { weight: 5, arbitrary: fc.constantFrom('/', '\\', '..', '../', '.', '.noted') },
        { weight: 4, arbitrary: nastyText(2) },
      );
      const folder = fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
      await fc.assert(
        fc.asyncProperty(folder, folder, fc.boolean(), async (first, second, dryRun) => {
          const oracle = folderNameError(first);
          const calls: [string, Record<string, unknown>][] = [
            ['list_notes', { folder: first }],
            ['list_folders', { folder: first }],
            ['search_notes', { query: 'idea', folder: first }],
            ['query_notes', { folder: first }],
            ['list_tasks', { folder: first }],
          ];
          for (const [tool, args] of calls) {
            expectCode(await hostileCall(tool, args), oracle, `${tool} ${show(first)}`);
          }
          if (first === '') return; // the root: the write tools' schemas want a folder
          const made = await hostileCall('create_folder', { folder: first });
          expectCode(made, oracle, `create_folder ${show(first)}`);
          if (!made.isError) expectInside(normalizeFolderName(first));
          const moved = await hostileCall('move_folder', {
            folder: first,
            new_folder: second,
            dry_run: dryRun,
          });
          const secondError = second === '' ? 'validation_error' : folderNameError(second);
          expectEitherCode(moved, [oracle, secondError], `move_folder ${show([first, second])}`);
          const plan = await hostileCall('delete_folder', { folder: first, dry_run: true });
          expectCode(plan, oracle, `delete_folder ${show(first)}`);
          if (!plan.isError && typeof plan.structured.revision === 'string') {
            await hostileCall('delete_folder', { folder: first, revision: plan.structured.revision });
          }
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );
});

describe('symbolic links out of the vault', () => {
  it('every tool refuses to read or write through them, and the target is untouched', async () => {
    for (const name of LINK_NAMES) {
      for (const [tool, args] of [
        ['read_note', { name }],
        ['get_properties', { name }],
        ['get_outgoing_links', { name }],
        ['get_backlinks', { name }],
        ['create_note', { name, content: 'through the link' }],
        ['update_note', { name, content: 'through the link' }],
        [
          'edit_note',
          { name, operation: 'replace', old_text: OUTSIDE_MARK, new_text: 'x', expected_etag: 'x' },
        ],
        ['delete_note', { name }],
        ['move_note', { name: 'notes/a', new_name: name }],
        ['move_note', { name, new_name: 'inbox/moved' }],
        ['create_agent_workflow', { title: 'T', states: ['a', 'b'], name }],
      ] as const) {
        const result = await hostileCall(tool, args);
        expect(result.isError, `${tool} ${show(args)} through a link out: ${show(result.structured)}`).toBe(
          true,
        );
        expect(['invalid_name', 'not_found'], `${tool} ${show(args)}`).toContain(result.structured.code);
      }
    }
    for (const folder of ['out/sub', 'dangling/sub', 'loop/sub', 'evil/sub', 'abs/sub', 'out']) {
      for (const [tool, args] of [
        ['create_folder', { folder }],
        ['move_folder', { folder: 'projects', new_folder: folder }],
        ['move_folder', { folder, new_folder: 'projects/inner' }],
        ['delete_folder', { folder, dry_run: true }],
      ] as const) {
        const result = await hostileCall(tool, args);
        expect(result.isError, `${tool} ${show(args)} through a link out: ${show(result.structured)}`).toBe(
          true,
        );
        expect(['invalid_name', 'not_found'], `${tool} ${show(args)}`).toContain(result.structured.code);
      }
      // A listing is answered from the index, which holds nothing from out there.
      const listed = await hostileCall('list_notes', { folder });
      if (!listed.isError) expect(listed.structured.notes).toEqual([]);
    }
    for (const name of ['out-note', 'out/secret', 'abs/secret']) {
      const created = await hostileCall('create_note', { name, content: 'x' });
      expect(created.structured.code, name).toBe('invalid_name');
    }
    // The link that stays inside works like the folder it points to.
    const inside = await hostileCall('read_note', { name: 'inlink/idea' });
    expect(inside.isError, show(inside.structured)).toBe(false);
    // Nothing outside was indexed: a search for the mark finds nothing, a listing names nothing there.
    const found = await hostileCall('search_notes', { query: OUTSIDE_MARK });
    expect(found.structured.total).toBe(0);
    const listed = await hostileCall('list_notes', { limit: 500 });
    const names = (listed.structured.notes as { name: string }[]).map((n) => n.name);
    expect(names.filter((n) => /^(out|abs|evil|dangling|loop)\b/.test(n))).toEqual([]);
  });
});

describe('arguments of the wrong type at the protocol level', () => {
  it(
    'any JSON value for any argument of any tool is a result, and the server answers the next call',
    async () => {
      const { tools } = await vault.client.listTools();
      const json = fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constantFrom(
          null,
          -1,
          0,
          1.5,
          1e308,
          Number.MAX_SAFE_INTEGER + 2,
          '',
          [],
          {},
          true,
          'x'.repeat(5000),
        ),
      );
      const call = fc.record({
        tool: fc.constantFrom(...tools),
        // Which declared arguments to send, and with what; plus one the schema does not know.
        values: fc.array(json, { minLength: 8, maxLength: 8 }),
        mask: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        extra: fc.option(fc.tuple(fc.constantFrom('nme', '__proto__', 'constructor', ''), json)),
      });
      await fc.assert(
        fc.asyncProperty(call, async ({ tool, values, mask, extra }) => {
          const declared = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>);
          const args: Record<string, unknown> = {};
          declared.slice(0, 8).forEach((key, i) => {
            if (mask[i]) args[key] = values[i];
          });
          if (extra) Object.defineProperty(args, extra[0], { value: extra[1], enumerable: true });
          const result = await hostileCall(tool.name, args);
          if (result.isError) expect(result.structured.message.length).toBeGreaterThan(0);
          const next = await hostileCall('list_trash', {});
          expect(next.isError).toBe(false);
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );

  it('a missing or mistyped required argument is a validation_error naming it, every time', async () => {
    const cases: [string, Record<string, unknown> | undefined, string][] = [
      ['read_note', undefined, 'name'],
      ['read_note', { name: 42 }, 'name'],
      ['read_note', { name: ['a'] }, 'name'],
      ['read_note', { name: { toString: 'x' } }, 'name'],
      ['search_notes', { query: null }, 'query'],
      ['search_notes', { query: 'x', max_results: '5' }, 'max_results'],
      ['search_notes', { query: 'x', max_results: 1.5 }, 'max_results'],
      ['create_note', { content: 7 }, 'content'],
      ['update_note', { name: 'Plan', content: { text: 'x' } }, 'content'],
      ['edit_note', { name: 'Plan', operation: 'replace', expected_etag: 1 }, 'expected_etag'],
      ['query_notes', { filters: 'status = done' }, 'filters'],
      ['query_notes', { filter: [] }, 'filter'],
      ['list_tasks', { overdue: 'true' }, 'overdue'],
      ['move_notes', { items: 'a' }, 'items'],
      ['delete_notes', { items: [{ name: 1 }] }, 'name'],
      ['create_agent_workflow', { title: 'T', states: 'a,b' }, 'states'],
    ];
    for (const [tool, args, argument] of cases) {
      const raw = await vault.client.callTool({
        name: tool,
        ...(args === undefined ? {} : { arguments: args }),
      });
      const result = checkResult(raw);
      expect(result.isError, `${tool} ${show(args)}`).toBe(true);
      expect(result.structured.code, `${tool} ${show(args)}`).toBe('validation_error');
      expect(result.structured.message, `${tool} ${show(args)}`).toContain(argument);
      expect((await timedCall(vault, 'read_note', { name: 'notes/a' })).isError).toBe(false);
    }
  });
});
