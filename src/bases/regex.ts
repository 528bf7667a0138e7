/**
 * @module
 * Regular expression literals (`/abc/gi`), run by RE2 (`re2js`, as search does): linear in the text
 * whatever the pattern, so a catastrophic pattern cannot stall the server. RE2 refuses
 * backreferences and lookaround; the flags are JavaScript's `g`, `i`, `m`, `s` (and `u`, accepted).
 */
import { RE2JS } from 're2js';
import { BasesEvalError } from './limits.js';
import { RegexValue } from './values.js';

const cache = new Map<string, RegexValue>();

export function compileRegex(source: string, flags: string): RegexValue {
  const key = `${flags}/${source}`;
  const known = cache.get(key);
  if (known !== undefined) return known;
  let compiled: RE2JS;
  try {
    const f =
      (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
      (flags.includes('m') ? RE2JS.MULTILINE : 0) |
      (flags.includes('s') ? RE2JS.DOTALL : 0);
    compiled = RE2JS.compile(RE2JS.translateRegExp(source), f);
  } catch (err) {
    throw new BasesEvalError(`The regular expression /${source}/ is not valid: ${(err as Error).message}`);
  }
  const value = new RegexValue(source, flags, compiled);
  if (cache.size > 500) cache.clear();
  cache.set(key, value);
  return value;
}
