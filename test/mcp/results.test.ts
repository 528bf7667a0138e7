import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResult, runTool } from '../../src/mcp/result.js';
import { checkResult, openTestVault, snapshot, type TestVault } from '../helpers/vault.js';

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault({ 'a.md': '# A\n\nalpha\n', 'b.md': 'beta\n' });
});
afterAll(async () => {
  await vault.close();
});

const TOOLS = [
  'get_vault_info',
  'list_notes',
  'list_changes',
  'export_notes',
  'read_note',
  'get_note_outline',
  'search_notes',
  'list_tasks',
  'get_backlinks',
  'get_outgoing_links',
  'list_tags',
  'list_by_tag',
  'get_properties',
  'query_notes',
  'list_bases',
  'query_base',
  'create_note',
  'update_note',
  'edit_note',
  'delete_note',
  'list_trash',
  'restore_note',
  'move_note',
  'move_notes',
  'delete_notes',
  'list_folders',
  'create_folder',
  'move_folder',
  'delete_folder',
  'update_task',
  'get_daily_note',
  'list_attachments',
  'list_links',
  'read_attachment',
  'create_agent_workflow',
  'append_agent_event',
  'advance_agent_state',
  'approve_agent_gate',
  'reject_agent_gate',
];

describe('tool list', () => {
  it('offers every tool with an input schema, an output schema and honest annotations', async () => {
    const { tools } = await vault.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
      expect(typeof tool.annotations?.title, tool.name).toBe('string');
      const readOnly = [
        'get_vault_info',
        'list_changes',
        'export_notes',
        'get_note_outline',
        'list_notes',
        'read_note',
        'search_notes',
        'list_tasks',
        'get_backlinks',
        'get_outgoing_links',
        'list_tags',
        'list_by_tag',
        'get_properties',
        'query_notes',
        'list_bases',
        'query_base',
        'list_trash',
        'list_folders',
        'list_attachments',
        'list_links',
        'read_attachment',
      ].includes(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(readOnly);
    }
  });
});

describe('input schema violations', () => {
  const cases: [tool: string, args: Record<string, unknown>, argument: string][] = [
    ['read_note', {}, 'name'],
    ['read_note', { name: 7 }, 'name'],
    ['read_note', { name: 'a', offset: -1 }, 'offset'],
    ['read_note', { name: 'a', max_chars: 1_000_001 }, 'max_chars'],
    ['list_notes', { limit: 'ten' }, 'limit'],
    ['list_notes', { folder: ['a'] }, 'folder'],
    ['search_notes', {}, 'query'],
    ['search_notes', { query: 42 }, 'query'],
    ['search_notes', { query: 'x', max_results: 0 }, 'max_results'],
    ['create_note', { name: 'x' }, 'content'],
    ['create_note', { name: 'x', content: 'y', tags: 'not-a-list' }, 'tags'],
    ['update_note', { name: 'a' }, 'content'],
    ['update_note', { name: 'a', content: 'x', append: 'yes' }, 'append'],
    ['edit_note', { name: 'a', operation: 'rewrite_everything', expected_etag: 'sha256:x' }, 'operation'],
    ['edit_note', { name: 'a', expected_etag: 'sha256:x' }, 'operation'],
    ['edit_note', { name: 'a', operation: 'replace_section', occurrence: 0 }, 'occurrence'],
    ['delete_note', { name: null }, 'name'],
    ['restore_note', { id: 'x' }, 'name'],
    ['move_note', { name: 'a' }, 'new_name'],
    ['move_notes', { items: [] }, 'items'],
    ['delete_notes', { items: [{}] }, 'name'],
    ['move_folder', { folder: 'a' }, 'new_folder'],
    ['delete_folder', { folder: 'a', dry_run: 'yes' }, 'dry_run'],
    ['create_folder', {}, 'folder'],
    ['list_folders', { limit: 0 }, 'limit'],
    ['create_agent_workflow', { title: 'T', states: ['only'] }, 'states'],
    ['create_agent_workflow', { states: ['a', 'b'] }, 'title'],
    ['append_agent_event', { name: 'w', message: 'm' }, 'expected_etag'],
    ['advance_agent_state', { name: 'w', expected_etag: 'x', to: 7 }, 'to'],
    ['approve_agent_gate', { name: 'w', expected_etag: 'x', state: 'b' }, 'reason'],
    ['reject_agent_gate', { name: 'w', expected_etag: 'x', reason: 'r' }, 'state'],
    ['edit_note', { name: 'a', operation: 'set_properties', properties: { a: { nested: 1 } } }, 'properties'],
    ['edit_note', { name: 'a', operation: 'add_tags', tags: [] }, 'tags'],
    ['update_task', { name: 'a', expected_etag: 'x', done: true }, 'line'],
    ['update_task', { name: 'a', line: 0, expected_etag: 'x' }, 'line'],
    ['update_task', { name: 'a', line: 1, done: true }, 'expected_etag'],
    ['update_task', { name: 'a', line: 1, expected_etag: 'x', done: 'yes' }, 'done'],
    ['get_daily_note', { create: 'yes' }, 'create'],
    ['list_attachments', { limit: 0 }, 'limit'],
    ['read_attachment', {}, 'path'],
    ['read_attachment', { path: 'x.txt', max_chars: 0 }, 'max_chars'],
  ];

  it.each(cases)(
    '%s %j is a validation_error naming %s, and nothing is written',
    async (tool, args, argument) => {
      const before = snapshot(vault.dir);
      const { structured, isError } = await vault.call(tool, args);
      expect(isError).toBe(true);
      expect(structured.code).toBe('validation_error');
      expect(structured.message).toContain(argument);
      expect(snapshot(vault.dir)).toEqual(before);
    },
  );
});

describe('arguments over a length limit (SPEC 3.3)', () => {
  let vault: TestVault;
  beforeAll(async () => {
    vault = await openTestVault({ 'a.md': 'alpha\n' });
  });
  afterAll(() => vault.close());

  it.each([
    ['search_notes', { query: 'word '.repeat(2000) }, 'query'],
    [
      'move_notes',
      { items: Array.from({ length: 201 }, (_, i) => ({ name: `n${i}`, new_name: `m${i}` })) },
      'items',
    ],
  ] as const)('%s with a too-long argument is too_large naming it', async (tool, args, argument) => {
    const { structured, isError } = await vault.call(tool, args);
    expect(isError).toBe(true);
    expect(structured.code).toBe('too_large');
    expect(structured.message).toContain(argument);
    expect(structured.message).toContain('shorter');
  });

  it('a too-long argument together with a wrong type is still validation_error', async () => {
    const { structured } = await vault.call('search_notes', {
      query: 'word '.repeat(2000),
      max_results: 'x',
    });
    expect(structured.code).toBe('validation_error');
  });

  it('a number over its maximum is validation_error, not too_large', async () => {
    const { structured } = await vault.call('list_folders', { limit: 100_000 });
    expect(structured.code).toBe('validation_error');
  });
});

describe('the structuredContent line (SPEC 3.1)', () => {
  it('a long list is shortened to fields the text already shows, under 16 KB', async () => {
    const many = await openTestVault(
      Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [`folder/a-rather-long-note-name-${i}.md`, `n${i}`]),
      ),
    );
    try {
      const { structured, line, text } = await many.call('list_notes', { limit: 300 });
      expect(structured.notes).toHaveLength(300);
      expect(line.notes).toBe('[shown in full above]');
      expect(text).toContain('a-rather-long-note-name-299.md');
    } finally {
      await many.close();
    }
  });

  it('read_note sends a body once: the line says "[shown in full above]" for a small note too (issue 18)', async () => {
    const body = `# Three KB\n\n${'A sentence of an ordinary note. '.repeat(100)}\n`;
    const small = await openTestVault({ 'small.md': `---\ntitle: Small\n---\n${body}` });
    try {
      const raw = await small.client.callTool({ name: 'read_note', arguments: { name: 'small' } });
      const { structured, line, text } = checkResult(raw);
      expect(structured.body).toBe(body);
      expect(line.body).toBe('[shown in full above]');
      expect(text.endsWith(body)).toBe(true);
      // The frontmatter too is shown once, as stored (issue 32); the rest is in the line as it is.
      expect(line.frontmatterRaw).toBe('[shown in full above]');
      expect(text).toContain('Frontmatter:\n---\ntitle: Small\n---\n');
      expect(line.etag).toBe(structured.etag);
      // Sent once: the whole text content is about the body's size, not twice it.
      const sent = (raw.content as { text: string }[]).map((c) => c.text).join('');
      expect(sent.length).toBeLessThan(body.length + 1000);
    } finally {
      await small.close();
    }
  });

  it('a value shorter than the marker stays as it is, and a conflict sends the current text once', async () => {
    const tiny = await openTestVault({ 't.md': 'hi\n' });
    try {
      const read = await tiny.call('read_note', { name: 't' });
      expect(read.line.body).toBe('hi\n');
      const current = `${'Someone else wrote this. '.repeat(20)}\n`;
      await tiny.call('update_note', { name: 't', content: current });
      const stale = await tiny.call('update_note', {
        name: 't',
        content: 'mine',
        expected_etag: read.structured.etag,
      });
      expect(stale.structured.code).toBe('conflict');
      expect(stale.structured.currentText).toBe(current);
      expect(stale.line.currentText).toBe('[shown in full above]');
      expect(stale.text.endsWith(current)).toBe(true);
    } finally {
      await tiny.close();
    }
  });

  it('is measured in bytes: a CJK note under 16,384 characters but over 16 KB is shortened too', async () => {
    const cjk = await openTestVault({ 'cjk.md': '東京'.repeat(3500) });
    try {
      // checkResult (run by call) requires a line over 16 KB in UTF-8 to be shortened.
      const { line, structured } = await cjk.call('read_note', { name: 'cjk' });
      expect(structured.body).toBe('東京'.repeat(3500));
      expect(Buffer.byteLength(JSON.stringify(line))).toBeLessThanOrEqual(16 * 1024);
    } finally {
      await cjk.close();
    }
  });

  it('pages are sized in bytes as sent: a note of a million U+0001 answers a page, not too_large (issue 32)', async () => {
    // One million control characters: one UTF-16 unit each, six bytes each once JSON-escaped (\u0001).
    const odd = await openTestVault({ 'odd.md': '\u0001'.repeat(1_000_000) });
    try {
      const raw = await odd.client.callTool({ name: 'read_note', arguments: { name: 'odd' } });
      const sent = Buffer.byteLength(JSON.stringify(raw));
      const { structured, isError, text } = checkResult(raw);
      expect(isError, text.slice(0, 300)).toBe(false);
      expect(sent).toBeLessThan(8 * 1024 * 1024);
      expect(structured.truncated).toBe(true);
      expect(structured.totalChars).toBe(1_000_000);
      expect(structured.nextOffset).toBe(structured.body.length);
      // Every page follows from the last, and together they are the note.
      let read = structured.body.length;
      let next: number | undefined = structured.nextOffset;
      while (next !== undefined) {
        const more = await odd.call('read_note', { name: 'odd', offset: next });
        expect(more.isError).toBe(false);
        read += more.structured.body.length;
        next = more.structured.nextOffset;
      }
      expect(read).toBe(1_000_000);
      const page = await odd.call('read_note', { name: 'odd', max_chars: 100_000 });
      expect(page.isError).toBe(false);
      expect(page.structured.body.length).toBe(100_000);
      expect(page.structured.nextOffset).toBe(100_000);
    } finally {
      await odd.close();
    }
  });

  it('issue 35 finding 7: a conflict over a long note of control characters stays under 8 MB, its current text paged', async () => {
    // 1.5 million control characters: 1.5 MB on disk, 9 MB once JSON-escaped, in the text and again in
    // structuredContent: 18 MB unpaged, which the SDK's stdio client refuses (and the server then exits).
    const full = '\u0001'.repeat(1_500_000);
    const odd = await openTestVault({
      'odd.md': full,
      'prompts/Review Note.md': '---\nscope: note\n---\nReview {{note}}\n',
    });
    try {
      const stale = 'sha256:0000000000000000000000000000000000000000000000000000000000000000';
      for (const [tool, args] of [
        ['update_note', { name: 'odd', content: 'mine', expected_etag: stale }],
        ['edit_note', { name: 'odd', operation: 'prepend', content: 'more', expected_etag: stale }],
        ['delete_note', { name: 'odd', expected_etag: stale }],
      ] as const) {
        const raw = await odd.client.callTool({ name: tool, arguments: args });
        expect(Buffer.byteLength(JSON.stringify(raw)), tool).toBeLessThan(8 * 1024 * 1024);
        const { structured, text, line } = checkResult(raw);
        expect(structured, tool).toMatchObject({
          code: 'conflict',
          committed: false,
          currentTextTruncated: true,
          currentTextTotalChars: full.length,
        });
        const shown = structured.currentText as string;
        expect(shown.length).toBeGreaterThan(100_000);
        expect(full.startsWith(shown)).toBe(true);
        expect(structured.message).toMatch(/first \d+ of 1500000 characters .* read_note/);
        expect(text.endsWith(shown)).toBe(true);
        expect(line.currentText).toBe('[shown in full above]');
      }
      // Siblings: the note as a resource, and in a prompt, would be 9 MB in one message too.
      await expect(odd.client.readResource({ uri: 'noted://note/odd.md' })).rejects.toThrow(
        /over 8 MB as sent .* read_note/,
      );
      await expect(odd.client.getPrompt({ name: 'review-note', arguments: { note: 'odd' } })).rejects.toThrow(
        /too large for one message/,
      );
    } finally {
      await odd.close();
    }
  });

  it('issue 35 finding 7: any error over 8 MB keeps its code and message and names the fields left out', () => {
    const result = errorResult({
      code: 'ambiguous',
      message: 'Several.',
      candidates: ['x'.repeat(9_000_000)],
    });
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(8 * 1024 * 1024);
    expect(result.structuredContent).toEqual({
      code: 'ambiguous',
      message: 'Several.',
      _omitted: ['candidates'],
    });
    expect(result.isError).toBe(true);
  });

  it('an unknown tool is a protocol-level error, not a crash of the server', async () => {
    const raw = await vault.client
      .callTool({ name: 'no_such_tool', arguments: {} })
      .catch((err: Error) => err);
    if (raw instanceof Error) expect(raw.message).toMatch(/no_such_tool|not found/i);
    else expect(raw.isError).toBe(true);
    // The server still answers.
    const after = checkResult(await vault.client.callTool({ name: 'list_notes', arguments: {} }));
    expect(after.isError).toBe(false);
  });
});

describe('a failure of the file system is a typed error, not a protocol failure (issue 10)', () => {
  it('runTool turns ENOSPC and EIO into not_supported with the errno, and a bug still throws', async () => {
    const fail = (code: string) => () => {
      throw Object.assign(new Error(`${code}: failed, write`), { code, syscall: 'write' });
    };
    const full = checkResult(await runTool(true, fail('ENOSPC')));
    expect(full.isError).toBe(true);
    expect(full.structured).toMatchObject({ code: 'not_supported', errno: 'ENOSPC' });
    expect(full.structured.message).toMatch(/the disk is full \(ENOSPC\).*read the notes involved/);
    // Where it failed is not known here, so it does not claim that nothing was written.
    expect(full.structured.committed).toBeUndefined();
    const io = checkResult(await runTool(false, fail('EIO')));
    expect(io.structured.message).toMatch(/could not be read: the disk reported an input\/output error/);
    await expect(
      runTool(false, () => {
        throw new TypeError('a bug');
      }),
    ).rejects.toThrow('a bug');
  });
});
