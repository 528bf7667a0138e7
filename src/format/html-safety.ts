/**
 * @module
 * What in a piece of HTML the sanitizer of stored notes would not keep (SPEC 11.3): elements it
 * refuses (`<script>`, `<iframe>`, `<form>`…), attributes it refuses (`onclick`, `style`…) and
 * addresses with a scheme it refuses (`javascript:`, `data:`). An edit of a stored HTML note is
 * judged by what it adds to that list, so that `replace` can work on the stored text (which may hold
 * anything its owner wrote) without letting an agent add what a sanitized write could not.
 */
import { Parser } from 'htmlparser2';
import { boundNesting } from '../markdown/html/nesting.js';
import { STORED_NOTE_SANITIZE_OPTIONS } from '../markdown/html/render.js';

const options = STORED_NOTE_SANITIZE_OPTIONS;
const ALLOWED_TAGS = new Set(options.allowedTags as string[]);
const ATTRIBUTES = options.allowedAttributes as Record<string, string[]>;
const URL_ATTRIBUTES = new Set(options.allowedSchemesAppliedToAttributes ?? []);
const SCHEMES = new Set((options.allowedSchemes as string[]).map((s) => s.toLowerCase()));

/**
 * Each part of `html` the stored-note sanitizer would drop, described (`<script>`, `onclick on <p>`,
 * `javascript: in href`), in document order, repeats included.
 *
 * @example
 * unsafeParts('<p onclick="x()">hi <script>y()</script></p>') // ['onclick on <p>', '<script>']
 */
export function unsafeParts(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (!ALLOWED_TAGS.has(name)) {
          found.push(`<${name}>`);
          return;
        }
        const allowed = new Set([...(ATTRIBUTES[name] ?? []), ...(ATTRIBUTES['*'] ?? [])]);
        for (const [attribute, value] of Object.entries(attribs)) {
          if (!allowed.has(attribute)) found.push(`${attribute} on <${name}>`);
          else if (URL_ATTRIBUTES.has(attribute) && !schemeAllowed(value)) {
            found.push(`${schemeOf(value)}: in ${attribute}`);
          }
        }
        if (name === 'input' && (attribs.type ?? '').toLowerCase() !== 'checkbox') {
          found.push(`<input type="${attribs.type ?? ''}">`);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(boundNesting(html));
  parser.end();
  return found;
}

/**
 * What `after` holds that the sanitizer would drop and `before` did not hold (as many times): empty
 * when an edit added nothing unsafe.
 */
export function unsafeAdditions(before: string, after: string): string[] {
  const had = new Map<string, number>();
  for (const part of unsafeParts(before)) had.set(part, (had.get(part) ?? 0) + 1);
  const added: string[] = [];
  for (const part of unsafeParts(after)) {
    const left = had.get(part) ?? 0;
    if (left > 0) had.set(part, left - 1);
    else added.push(part);
  }
  return added;
}

// Browsers ignore control characters and whitespace inside a scheme, so they are removed first.
function schemeOf(url: string): string | null {
  const cleaned = url.replace(/[\u0000-\u0020\u007f-\u00a0]/g, '');
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  return m === null ? null : (m[1] as string).toLowerCase();
}

function schemeAllowed(url: string): boolean {
  const scheme = schemeOf(url);
  if (scheme === null) return !url.trim().startsWith('//');
  return SCHEMES.has(scheme);
}
