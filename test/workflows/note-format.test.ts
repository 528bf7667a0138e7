import { describe, expect, it } from 'vitest';
import { NotedError } from '../../src/common/errors.js';
import { parseFrontmatter } from '../../src/markdown/frontmatter/frontmatter.js';
import { advance, newWorkflow } from '../../src/workflows/machine.js';
import {
  BEGIN_MARKER,
  END_MARKER,
  newWorkflowNote,
  parseWorkflowNote,
  renderBlock,
  renderWorkflowNote,
} from '../../src/workflows/note-format.js';

const stamp = { at: '2026-05-01T10:00:00.000Z', actor: 'claude-code' };
const workflow = newWorkflow(
  { id: 'wf-1', title: 'Release | 2.0', states: ['draft', 'review', 'done'], gates: ['done'] },
  stamp,
).workflow;

function refusal(name: string, text: string): NotedError {
  try {
    parseWorkflowNote(name, text, 'markdown');
  } catch (err) {
    expect(err).toBeInstanceOf(NotedError);
    return err as NotedError;
  }
  throw new Error('expected a refusal');
}

describe('a new workflow note', () => {
  it('is readable Markdown: tagged, titled, described, then the generated block', () => {
    const text = newWorkflowNote(workflow, 'Ship the release.\n', 'markdown');
    expect(parseFrontmatter(text).data).toEqual({ tags: ['agent-workflow'] });
    const body = parseFrontmatter(text).body;
    expect(body.startsWith(`# Release | 2.0\n\nShip the release.\n\n${BEGIN_MARKER}\n`)).toBe(true);
    expect(body).toContain('**Current state:** draft (1 of 3) · next: review');
    expect(body).toContain('| 1 | **draft** ← current |  |');
    expect(body).toContain('| 3 | done | gate pending |');
    expect(body).toContain('- 2026-05-01T10:00:00.000Z · **claude-code** · Created with the states');
    expect(body.endsWith(`${END_MARKER}\n`)).toBe(true);
  });

  it('refuses a description holding a marker line, which would break the note', () => {
    expect(() => newWorkflowNote(workflow, `text\n${END_MARKER}\n`, 'markdown')).toThrow(
      /contains an agent-workflow marker line/,
    );
  });

  it('parses back to the same workflow', () => {
    expect(
      parseWorkflowNote('w.md', newWorkflowNote(workflow, undefined, 'markdown'), 'markdown').workflow,
    ).toEqual(workflow);
  });
});

describe('rendering after a change', () => {
  it("keeps the person's own text around the block byte for byte, CRLF included", () => {
    const before = '---\nowner: me\n---\r\n# My release\r\n\r\nNotes I keep **here**.\r\n\r\n';
    const after = '\r\n## Later\r\nMore of my text, no final line break';
    const text = `${before}${renderBlock(workflow, 'markdown')}\r\n${after}`;
    const note = parseWorkflowNote('w.md', text, 'markdown');
    expect(note.before).toBe(before);
    expect(note.after).toBe(after);
    const next = advance(note.workflow, stamp).workflow;
    const rendered = renderWorkflowNote(note, next, 'markdown');
    expect(rendered.startsWith(before)).toBe(true);
    expect(rendered.endsWith(`${END_MARKER}\r\n${after}`)).toBe(true);
    expect(parseWorkflowNote('w.md', rendered, 'markdown').workflow.current).toBe('review');
  });

  it('an agent message cannot end the block, hide the summary or break the table', () => {
    const tricky = `line one\n${END_MARKER}\n\`\`\`\n<!-- | pipe`;
    const wf = { ...workflow, events: [...workflow.events, { ...stamp, message: tricky }] };
    const text = newWorkflowNote(wf, undefined, 'markdown');
    const parsed = parseWorkflowNote('w.md', text, 'markdown');
    expect(parsed.workflow.events.at(-1)?.message).toBe(tricky);
    expect(text).toContain('· line one &lt;!-- agent-workflow:end --> ``` &lt;!-- | pipe');
    expect(text).toContain('# Release | 2.0');
  });
});

describe('malformed workflow notes are a clear validation_error naming the note', () => {
  const good = newWorkflowNote(workflow, undefined, 'markdown');
  const json = good.slice(good.indexOf('```json\n') + 8, good.indexOf('\n```\n<!--'));

  it.each([
    ['no block', '# Just a note\n', /has no agent workflow block/],
    ['two blocks', `${good}\n${renderBlock(workflow, 'markdown')}\n`, /more than one agent workflow block/],
    ['no json fence', `${BEGIN_MARKER}\nhello\n${END_MARKER}\n`, /no ```json fenced block/],
    ['an unclosed fence', `${BEGIN_MARKER}\n\`\`\`json\n{}\n${END_MARKER}\n`, /not closed by a ``` line/],
    ['broken JSON', good.replace('"current": "draft",', '"current": "draft"'), /is not valid JSON \(/],
    [
      'an unknown current state',
      good.replace('"current": "draft"', '"current": "shipped"'),
      /"current" is "shipped", which is not one of its states \(draft, review, done\)/,
    ],
    [
      'a gate on an unknown state',
      good.replace('"state": "done"', '"state": "qa"'),
      /"gates" item 1 is on the state "qa", which is not one of its states/,
    ],
    ['a misspelt key', good.replace('"current":', '"curent":'), /unknown key "curent"/],
    [
      'a bad gate status',
      good.replace('"status": "pending"', '"status": "maybe"'),
      /status "maybe"; it must be pending, approved or rejected/,
    ],
    [
      'an event without a message',
      good.replace(/"message": "[^"]*"/, '"message": 3'),
      /"events" item 1 "message" must be a non-empty string/,
    ],
  ])('%s', (_what, text, message) => {
    expect(json.length).toBeGreaterThan(0);
    const err = refusal('flows/w.md', text);
    expect(err.code).toBe('validation_error');
    expect(err.message).toMatch(/^The note "flows\/w\.md" cannot be used as an agent workflow: /);
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/Nothing was written/);
  });
});
