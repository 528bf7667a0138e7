/**
 * @module
 * Shapes tool results (SPEC 3.1, 3.2): text for the model, structuredContent for the client, and a
 * last text block repeating the structured data as one JSON line for clients that pass only text.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type FileSystemFailure,
  fileSystemFailure,
  isNotedError,
  type NotedError,
} from '../common/errors.js';
import { jsonPrefixWithin, MESSAGE_LIMIT } from '../common/json-size.js';

/** Above this the JSON line is shortened: fields the text already shows are replaced, then big ones left out. */
export const LINE_LIMIT = 16 * 1024;
const BIG_FIELD = 1024;
export const SHOWN_ABOVE = '[shown in full above]';
/** A result stays under 8 MB, text and structuredContent together (stdio clients drop larger messages). */
export const RESULT_LIMIT = MESSAGE_LIMIT;

type Data = Record<string, unknown>;

/**
 * The JSON line for `data` (SPEC 3.1). `shown` names the top-level fields whose content the text
 * above gives in full. A text value among them that ends `text` verbatim (a note's body, a section,
 * the current text of a conflict: tools put such a value last) is never sent twice: it always reads
 * SHOWN_ABOVE, unless the marker would be longer than the value; so is a shown text value of at most
 * 64K characters that the text holds anywhere (a note's frontmatter block). `derived` names fields
 * parsed from another (`frontmatter` from `frontmatterRaw`): they read SHOWN_ABOVE when their source
 * does. Other shown fields (lists the text renders line by line) are kept, and replaced only when the
 * line would pass 16 KB; then fields over 1 KB are left out.
 */
export function structuredLine(
  data: Data,
  shown: readonly string[] = [],
  text = '',
  derived: Readonly<Record<string, string>> = {},
): string {
  const out: Data = { ...data };
  for (const key of shown)
    if (isVerbatim(out[key], text) || isShownSmall(out[key], text)) out[key] = SHOWN_ABOVE;
  // A field parsed from another that the text shows (frontmatter from frontmatterRaw) is not sent again.
  for (const [key, source] of Object.entries(derived)) {
    if (out[source] === SHOWN_ABOVE && out[key] !== null && out[key] !== undefined) out[key] = SHOWN_ABOVE;
  }
  let json = JSON.stringify(out);
  if (bytes(json) <= LINE_LIMIT) return json;
  for (const key of shown) {
    if (key in out && bytes(JSON.stringify(out[key])) > BIG_FIELD) out[key] = SHOWN_ABOVE;
  }
  json = JSON.stringify(out);
  if (bytes(json) <= LINE_LIMIT) return json;
  const omitted: string[] = [];
  const bySize = Object.keys(out)
    .filter((k) => out[k] !== SHOWN_ABOVE)
    .map((k) => [k, bytes(JSON.stringify(out[k]))] as const)
    .filter(([, size]) => size > BIG_FIELD)
    .sort((a, b) => b[1] - a[1]);
  for (const [key] of bySize) {
    delete out[key];
    omitted.push(key);
    json = JSON.stringify({ ...out, _omitted: omitted });
    if (bytes(json) <= LINE_LIMIT) break;
  }
  return JSON.stringify({ ...out, _omitted: omitted });
}

/**
 * A string that ends the text above as it is, and is longer (as JSON) than the marker replacing it.
 * Checked at the end only: a search anywhere in a 5 MB text for a 5 MB value of one repeated letter
 * costs their lengths multiplied.
 */
function isVerbatim(value: unknown, text: string): value is string {
  return (
    typeof value === 'string' &&
    JSON.stringify(value).length > SHOWN_ABOVE_JSON_LENGTH &&
    text.endsWith(value)
  );
}

const SHOWN_ABOVE_JSON_LENGTH = JSON.stringify(SHOWN_ABOVE).length;

/** Values up to this many characters are looked for anywhere in the text (bigger ones only at its end). */
export const SHOWN_SEARCH_CHARS = 64 * 1024;

/** A string the text above holds verbatim somewhere (a note's frontmatter block), small enough to search for. */
function isShownSmall(value: unknown, text: string): value is string {
  return (
    typeof value === 'string' &&
    value.length <= SHOWN_SEARCH_CHARS &&
    JSON.stringify(value).length > SHOWN_ABOVE_JSON_LENGTH &&
    text.includes(value)
  );
}

/**
 * Limits are in UTF-8 bytes, as the message travels: a CJK character is one UTF-16 unit but three
 * bytes, so counting characters let a line of CJK text reach three times the limit.
 */
function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * A successful result: `text` for the model, `extra` blocks after it (an image, a resource link), then
 * the JSON line of `data` last (SPEC 3.1).
 */
export function toolResult(
  text: string,
  data: Data,
  shown: readonly string[] = [],
  extra: CallToolResult['content'] = [],
  derived: Readonly<Record<string, string>> = {},
): CallToolResult {
  const result: CallToolResult = {
    content: [
      { type: 'text', text },
      ...extra,
      { type: 'text', text: `structuredContent: ${structuredLine(data, shown, text, derived)}` },
    ],
    structuredContent: data,
  };
  // Measured as serialized, escapes included: a control character in a note is one character but
  // six bytes on the wire (\u0001), in the text and in structuredContent alike.
  const size = bytes(JSON.stringify(result.content)) + bytes(JSON.stringify(data));
  if (size > RESULT_LIMIT) {
    return errorResult({
      code: 'too_large',
      message:
        'The answer would exceed the 8 MB a result may carry. Ask for less: a smaller limit, a folder, or (for read_note) max_chars with offset.',
      committed: false,
    });
  }
  return result;
}

export interface ErrorData extends Data {
  code: string;
  message: string;
  committed?: boolean;
}

/**
 * An error result. The 8 MB cap holds for errors too (issue 35: a conflict carrying a long note's text
 * unpaged made stdio clients drop the connection): an error that would pass it keeps its code, its
 * message and its small fields, and names the others in `_omitted`.
 */
export function errorResult(data: ErrorData, extraText = '', shown: readonly string[] = []): CallToolResult {
  const result = errorOf(data, extraText, shown);
  if (serializedSize(result) <= RESULT_LIMIT) return result;
  const kept: ErrorData = { code: data.code, message: cut(data.message, BIG_FIELD * 16) };
  const omitted: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'code' || key === 'message') continue;
    if (bytes(JSON.stringify(value) ?? '') <= BIG_FIELD) kept[key] = value;
    else omitted.push(key);
  }
  return errorOf({ ...kept, _omitted: omitted });
}

function errorOf(data: ErrorData, extraText = '', shown: readonly string[] = []): CallToolResult {
  const text = extraText === '' ? data.message : `${data.message}\n\n${extraText}`;
  return {
    content: [
      { type: 'text', text },
      { type: 'text', text: `structuredContent: ${structuredLine(data, shown, text)}` },
    ],
    structuredContent: data,
    isError: true,
  };
}

function serializedSize(result: CallToolResult): number {
  return bytes(JSON.stringify(result.content)) + bytes(JSON.stringify(result.structuredContent ?? null));
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * The most of a conflict's current text one answer carries, in bytes as serialized: the text shows it
 * and structuredContent holds it, so two copies and the rest stay well under RESULT_LIMIT.
 */
export const CURRENT_TEXT_BYTES = 3 * 1024 * 1024;

/**
 * A typed error as a tool result; the conflict's current text is shown so text-only clients get it too,
 * paged: a text too long for one answer comes as its first part, saying so (`currentTextTruncated`,
 * `currentTextTotalChars`) and how to read the rest.
 */
export function notedErrorResult(err: NotedError, writes: boolean): CallToolResult {
  const data: ErrorData = { code: err.code, message: err.message, ...err.details };
  // An outcome the server cannot know is never reported as not committed (SPEC 17.2).
  if (writes && data.committed === undefined && data.indeterminate !== true) data.committed = false;
  const full = err.details.currentText;
  if (typeof full === 'string') {
    const end = jsonPrefixWithin(full, CURRENT_TEXT_BYTES);
    let heading = `Current text (etag ${String(err.details.currentEtag)})`;
    if (end < full.length) {
      data.currentText = full.slice(0, end);
      data.currentTextTruncated = true;
      data.currentTextTotalChars = full.length;
      data.message = `${data.message} The current text is too long for one answer: currentText holds its first ${end} of ${full.length} characters (currentTextTruncated); read the whole note with read_note (it comes in pages: follow nextOffset) before redoing your change.`;
      heading += `, its first ${end} of ${full.length} characters`;
    }
    return errorResult(data, `${heading}:\n${data.currentText as string}`, ['currentText']);
  }
  return errorResult(data);
}

/**
 * Runs a tool body: typed errors become results, and so do failures of the file system (a full disk,
 * an I/O error), which are the machine's trouble and not bugs; anything else is a bug and propagates.
 */
export async function runTool(writes: boolean, body: () => Promise<CallToolResult> | CallToolResult) {
  try {
    return await body();
  } catch (err) {
    if (isNotedError(err)) return notedErrorResult(err, writes);
    const failure = fileSystemFailure(err);
    if (failure !== null) return fileSystemErrorResult(failure, writes);
    throw err;
  }
}

/**
 * A file system failure that no layer below turned into a typed error. Whether part of a change was
 * made is not known here, so `committed` is left out and the agent is told to look before retrying.
 */
function fileSystemErrorResult(failure: FileSystemFailure, writes: boolean): CallToolResult {
  const then = writes
    ? 'Part of the change may have been made: read the notes involved to see where they stand before trying again.'
    : 'Try again later.';
  return errorResult({
    code: 'not_supported',
    message: `The vault's files could not be ${writes ? 'changed' : 'read'}: ${failure.why} (${failure.errno}). ${then} Tell the vault owner: ${failure.fix}`,
    errno: failure.errno,
  });
}
