/**
 * @module
 * The workflow note (SPEC 7): an ordinary Markdown note a person can read, whose generated block —
 * between `<!-- agent-workflow:begin … -->` and `<!-- agent-workflow:end -->` lines — holds a summary
 * (state, states, gates), the event log and the ```json block with the metadata. The json block is
 * the truth; the summary and log are rendered from it on every change. Everything outside the block
 * is the person's own text and is kept byte for byte.
 *
 * In an HTML vault (SPEC 11.3) the note is HTML: the same markers (HTML comments), the summary as
 * HTML, and the metadata in a `<pre><code class="language-json">` block.
 */
import { storedHtml } from '../format/html-format.js';
import { withFrontmatterFields } from '../markdown/frontmatter/edit.js';
import { escapeHtml } from '../markdown/html/render.js';
import type { FormatName } from '../vault/format-name.js';
import { checkWorkflow, type Gate, invalid, type Workflow } from './model.js';

export const BEGIN_MARKER =
  '<!-- agent-workflow:begin · generated from the json block below; change the workflow with the agent workflow tools or by editing the json, not the summary -->';
export const END_MARKER = '<!-- agent-workflow:end -->';

/** The tag a new workflow note carries, so agents can find workflows with list_by_tag. */
export const WORKFLOW_TAG = 'agent-workflow';

const BEGIN_LINE = /^<!--\s*agent-workflow:begin\b.*-->\s*$/;
const END_LINE = /^<!--\s*agent-workflow:end\s*-->\s*$/;
const JSON_FENCE = /^```json\s*$/i;
const CLOSING_FENCE = /^```\s*$/;
const HTML_JSON_OPEN = '<pre><code class="language-json">';
const HTML_JSON = /<pre><code class="language-json">([\s\S]*?)<\/code><\/pre>/g;

/** A workflow note split into the person's text around the generated block, and the workflow. */
export interface WorkflowNote {
  /** Everything before the begin marker line, exactly. */
  readonly before: string;
  /** Everything after the end marker line (its line break included), exactly. */
  readonly after: string;
  /** The line break that ended the end marker line ('' at the end of the file). */
  readonly endBreak: string;
  readonly workflow: Workflow;
}

/**
 * Reads the workflow out of a note's text. Throws `validation_error` naming the note and what is
 * wrong: no block, two blocks, no json block, JSON that does not parse, or a workflow that does not
 * hold together (an unknown state, a misspelled key…).
 */
export function parseWorkflowNote(name: string, text: string, format: FormatName): WorkflowNote {
  const lines = splitLines(text);
  const begins = lines.filter((l) => BEGIN_LINE.test(l.content));
  const ends = lines.filter((l) => END_LINE.test(l.content));
  if (begins.length === 0 || ends.length === 0) {
    throw unreadable(
      name,
      `it has no agent workflow block (a "${begins.length === 0 ? '<!-- agent-workflow:begin' : END_MARKER}" line is missing). Only notes made by create_agent_workflow can be used with the workflow tools`,
    );
  }
  if (begins.length > 1 || ends.length > 1) {
    throw unreadable(name, 'it has more than one agent workflow block; keep exactly one');
  }
  const begin = begins[0]!;
  const end = ends[0]!;
  if (end.start < begin.start) throw unreadable(name, 'its end marker comes before its begin marker');
  const inside = lines.filter((l) => l.start > begin.start && l.start < end.start);
  const json = format === 'html' ? htmlJson(name, inside) : fencedJson(name, inside);
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw unreadable(name, `its \`\`\`json block is not valid JSON (${(err as Error).message})`);
  }
  let workflow: Workflow;
  try {
    workflow = checkWorkflow(data);
  } catch (err) {
    throw unreadable(
      name,
      `its \`\`\`json block does not describe a valid workflow: ${(err as Error).message}`,
    );
  }
  return {
    before: text.slice(0, begin.start),
    after: text.slice(end.start + end.content.length + end.lineBreak.length),
    endBreak: end.lineBreak,
    workflow,
  };
}

function fencedJson(name: string, inside: readonly Line[]): string {
  const open = inside.findIndex((l) => JSON_FENCE.test(l.content));
  if (open < 0) throw unreadable(name, 'its block has no ```json fenced block with the workflow data');
  const close = inside.findIndex((l, i) => i > open && CLOSING_FENCE.test(l.content));
  if (close < 0) throw unreadable(name, 'its ```json block is not closed by a ``` line');
  return inside
    .slice(open + 1, close)
    .map((l) => l.content)
    .join('\n');
}

function htmlJson(name: string, inside: readonly Line[]): string {
  const html = inside.map((l) => l.content + l.lineBreak).join('');
  const blocks = [...html.matchAll(HTML_JSON)];
  if (blocks.length !== 1) {
    throw unreadable(
      name,
      blocks.length === 0
        ? `its block has no ${HTML_JSON_OPEN} block with the workflow data`
        : `its block has ${blocks.length} ${HTML_JSON_OPEN} blocks; keep exactly one`,
    );
  }
  return decodeEntities(blocks[0]?.[1] ?? '');
}

/** The entities escapeHtml writes, and the named ones an editor may write instead. */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The note's text with the generated block rendered afresh for `workflow`; the rest kept as it was. */
export function renderWorkflowNote(
  note: Omit<WorkflowNote, 'workflow'>,
  workflow: Workflow,
  format: FormatName,
): string {
  return `${note.before}${renderBlock(workflow, format)}${note.endBreak}${note.after}`;
}

/** A new workflow note: a title heading, the person-facing description, then the generated block. */
export function newWorkflowNote(
  workflow: Workflow,
  description: string | undefined,
  format: FormatName,
): string {
  if (
    description !== undefined &&
    splitLines(description).some((l) => BEGIN_LINE.test(l.content) || END_LINE.test(l.content))
  ) {
    throw invalid(
      'The workflow was not created: its description contains an agent-workflow marker line, which would make the note unreadable as a workflow. Nothing was written. Leave those lines out.',
    );
  }
  const described = description !== undefined && description.trim() !== '';
  if (format === 'html') {
    const intro = described ? storedHtml(description.trim()) : '';
    const title = escapeHtml(oneLine(workflow.title));
    return `<h1>${title}</h1>\n<p>#${WORKFLOW_TAG}</p>\n${intro}${renderBlock(workflow, format)}\n`;
  }
  const intro = described ? `${description.trim()}\n\n` : '';
  const text = `# ${oneLine(workflow.title)}\n\n${intro}${renderBlock(workflow, format)}\n`;
  return withFrontmatterFields(text, { tags: [WORKFLOW_TAG] });
}

/** The generated block, from the begin marker to the end marker (no line break after it). */
export function renderBlock(workflow: Workflow, format: FormatName): string {
  const summary = summaryLines(workflow);
  if (format === 'html') {
    // The summary is rendered like any Markdown written into an HTML note; the json is escaped.
    const html = storedHtml(summary.join('\n')).trimEnd();
    const json = escapeHtml(JSON.stringify(workflow, null, 2));
    return [BEGIN_MARKER, html, `${HTML_JSON_OPEN}${json}</code></pre>`, END_MARKER].join('\n');
  }
  return [BEGIN_MARKER, ...summary, '```json', JSON.stringify(workflow, null, 2), '```', END_MARKER].join(
    '\n',
  );
}

/** The summary and the event log, as Markdown lines. */
function summaryLines(workflow: Workflow): string[] {
  const position = workflow.states.indexOf(workflow.current) + 1;
  const next = workflow.states[position];
  return [
    '## Workflow',
    '',
    `**Current state:** ${inline(workflow.current)} (${position} of ${workflow.states.length}) · next: ${next === undefined ? 'none, this is the last state' : inline(next)}`,
    '',
    '| # | State | Gate |',
    '|---|---|---|',
    ...workflow.states.map((state, i) => {
      const name = state === workflow.current ? `**${cell(state)}** ← current` : cell(state);
      const gate = workflow.gates.find((g) => g.state === state);
      return `| ${i + 1} | ${name} | ${gate === undefined ? '' : cell(gateWords(gate))} |`;
    }),
    '',
    '### Events',
    '',
    ...workflow.events.map((e) => `- ${inline(e.at)} · **${inline(e.actor)}** · ${inline(e.message)}`),
    '',
  ];
}

function gateWords(gate: Gate): string {
  if (gate.status === 'pending') return 'gate pending';
  const by = gate.by === undefined ? '' : ` by ${gate.by}`;
  const at = gate.at === undefined ? '' : ` (${gate.at})`;
  const reason = gate.reason === undefined ? '' : `: ${gate.reason}`;
  return `gate ${gate.status}${by}${at}${reason}`;
}

/**
 * Text from agents on one summary line: line breaks become spaces and `<` is escaped, so no message
 * can end the block early, open an HTML comment that hides the rest, or start a fence. The json block
 * keeps the text exactly.
 */
function inline(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(/</g, '&lt;');
}

function cell(text: string): string {
  return inline(text).replace(/\|/g, '\\|');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

interface Line {
  /** Offset of the line's first character in the text. */
  readonly start: number;
  /** The line without its line break. */
  readonly content: string;
  readonly lineBreak: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    lines.push({ start, content: text.slice(start, m.index), lineBreak: m[0] });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ start, content: text.slice(start), lineBreak: '' });
  return lines;
}

function unreadable(name: string, problem: string) {
  return invalid(
    `The note "${name}" cannot be used as an agent workflow: ${problem}. Nothing was written. Read it with read_note; fix the block by hand or ask the vault's owner.`,
    { name },
  );
}
