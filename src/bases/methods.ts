/**
 * @module
 * The methods and fields of each type the Functions page lists (Any, Date, String, Number, List,
 * Link, File, Object, RegExp). A method called on null (a missing property) gives null, except the
 * ones that answer for any value (`isEmpty`, `isTruthy`, `isType`, `toString`).
 */
import type { Expr } from './ast.js';
import { valueText } from './compare.js';
import { startOfDay } from './dates.js';
import { arity, fileOf } from './globals.js';
import type { FileFacts } from './host.js';
import { BasesEvalError, checkList, checkText, MAX_TEXT_LENGTH } from './limits.js';
import { listMethod } from './list-methods.js';
import { ALL_METHODS, didYouMean, FILE_FIELDS, METHODS } from './names.js';
import { propertyValue } from './property-value.js';
import type { ExprEvaluator, RowScope } from './row-scope.js';
import {
  DateValue,
  FileValue,
  isEmptyValue,
  isTruthy,
  LinkValue,
  ObjectValue,
  RegexValue,
  typeOf,
  type Value,
} from './values.js';

export function callMethod(
  ev: ExprEvaluator,
  target: Value,
  name: string,
  argExprs: readonly Expr[],
  row: RowScope,
  locals: ReadonlyMap<string, Value>,
): Value {
  if (Array.isArray(target)) {
    const out = listMethod(ev, target, name, argExprs, row, locals);
    if (out !== undefined) return out;
  }
  const args = argExprs.map((a) => ev.evaluate(a, row, locals));
  switch (name) {
    case 'isTruthy':
      return isTruthy(target);
    case 'isType': {
      arity(name, args, 1, 1);
      const want = valueText(args[0] as Value).toLowerCase();
      return typeOf(target) === want || (want === 'array' && Array.isArray(target));
    }
    case 'toString':
      return valueText(target);
    case 'isEmpty':
      if (target === null || typeof target === 'string' || typeof target === 'number')
        return isEmptyValue(target);
      if (target instanceof DateValue) return false;
      return isEmptyValue(target);
    default:
      break;
  }
  if (target === null) {
    if (!ALL_METHODS.has(name)) throw unknownMethod(name, 'any');
    return null;
  }
  const out =
    typeof target === 'string'
      ? stringMethod(target, name, args)
      : typeof target === 'number'
        ? numberMethod(target, name, args)
        : target instanceof DateValue
          ? dateMethod(ev, target, name, args)
          : target instanceof FileValue
            ? fileMethod(ev, target, name, args, row)
            : target instanceof LinkValue
              ? linkMethod(ev, target, name, args, row)
              : target instanceof ObjectValue
                ? objectMethod(target, name)
                : target instanceof RegexValue
                  ? regexMethod(target, name, args)
                  : undefined;
  if (out === undefined) throw unknownMethod(name, typeOf(target));
  return out;
}

function unknownMethod(name: string, type: string): BasesEvalError {
  const own = [...(METHODS[type] ?? []), ...(METHODS.any ?? [])];
  const hint = didYouMean(name, own);
  return new BasesEvalError(
    ALL_METHODS.has(name)
      ? `"${name}" is not a method of a ${type}.${hint}`
      : `Unknown function "${name}".${hint || didYouMean(name, ALL_METHODS)}`,
  );
}

function text(v: Value | undefined, what: string): string {
  if (typeof v !== 'string') throw new BasesEvalError(`${what} takes text; got a ${typeOf(v ?? null)}.`);
  return v;
}

function integer(v: Value | undefined, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new BasesEvalError(`${what} takes a number.`);
  return Math.trunc(v);
}

function stringMethod(s: string, name: string, args: Value[]): Value | undefined {
  switch (name) {
    case 'contains':
      arity(name, args, 1, 1);
      return s.includes(text(args[0], name));
    case 'containsAll':
      return args.every((a) => s.includes(text(a, name)));
    case 'containsAny':
      return args.some((a) => s.includes(text(a, name)));
    case 'startsWith':
      return s.startsWith(text(args[0], name));
    case 'endsWith':
      return s.endsWith(text(args[0], name));
    case 'lower':
      return s.toLowerCase();
    case 'title':
      return s.replace(/(^|\s)(\S)/gu, (_m, space: string, c: string) => space + c.toUpperCase());
    case 'trim':
      return s.trim();
    case 'reverse':
      return [...s].reverse().join('');
    case 'repeat': {
      const n = integer(args[0], name);
      if (n < 0) throw new BasesEvalError('repeat() takes a count of 0 or more.');
      if (s.length * n > MAX_TEXT_LENGTH) {
        throw new BasesEvalError(
          `repeat(${n}) would build ${s.length * n} characters; at most ${MAX_TEXT_LENGTH} are allowed.`,
        );
      }
      return s.repeat(n);
    }
    case 'slice':
      arity(name, args, 1, 2);
      return s.slice(integer(args[0], name), args[1] === undefined ? undefined : integer(args[1], name));
    case 'replace': {
      arity(name, args, 2, 2);
      const replacement = text(args[1], name);
      const pattern = args[0];
      if (pattern instanceof RegexValue) {
        const m = pattern.compiled.matcher(s);
        return checkText(
          pattern.flags.includes('g') ? m.replaceAll(replacement) : m.replaceFirst(replacement),
        );
      }
      return checkText(s.split(text(pattern, name)).join(replacement));
    }
    case 'split': {
      arity(name, args, 1, 2);
      const sep = args[0];
      let parts: string[];
      if (sep instanceof RegexValue) parts = sep.compiled.split(s, -1);
      else parts = s.split(text(sep, name));
      checkList(parts);
      return args[1] === undefined ? parts : parts.slice(0, integer(args[1], name));
    }
    default:
      return undefined;
  }
}

function numberMethod(n: number, name: string, args: Value[]): Value | undefined {
  switch (name) {
    case 'abs':
      return Math.abs(n);
    case 'ceil':
      return Math.ceil(n);
    case 'floor':
      return Math.floor(n);
    case 'round': {
      if (args[0] === undefined || args[0] === null) return Math.round(n);
      const digits = Math.min(Math.max(integer(args[0], name), 0), 100);
      const f = 10 ** digits;
      return Math.round(n * f) / f;
    }
    case 'toFixed': {
      const digits = integer(args[0] ?? 0, name);
      if (digits < 0 || digits > 100) throw new BasesEvalError('toFixed() takes 0 to 100 decimal places.');
      return n.toFixed(digits);
    }
    default:
      return undefined;
  }
}

function dateMethod(ev: ExprEvaluator, d: DateValue, name: string, args: Value[]): Value | undefined {
  switch (name) {
    case 'date':
      return new DateValue(startOfDay(d.ms), false);
    case 'format':
      arity(name, args, 1, 1);
      return ev.host.moment(d.ms).format(text(args[0], name));
    case 'time':
      return ev.host.moment(d.ms).format('HH:mm:ss');
    case 'relative':
      return ev.host.moment(d.ms).from(ev.host.moment(ev.host.now()));
    default:
      return undefined;
  }
}

function objectMethod(o: ObjectValue, name: string): Value | undefined {
  if (name === 'keys') return [...o.entries.keys()];
  if (name === 'values') return [...o.entries.values()];
  return undefined;
}

function regexMethod(r: RegexValue, name: string, args: Value[]): Value | undefined {
  if (name !== 'matches') return undefined;
  arity(name, args, 1, 1);
  return r.compiled.matcher(text(args[0], name)).find();
}

function linkMethod(
  ev: ExprEvaluator,
  l: LinkValue,
  name: string,
  args: Value[],
  row: RowScope,
): Value | undefined {
  switch (name) {
    case 'asFile':
      return l.resolved === null ? null : new FileValue(l.resolved);
    case 'linksTo': {
      arity(name, args, 1, 1);
      if (l.resolved === null) return false;
      return fileMethod(ev, new FileValue(l.resolved), 'hasLink', args, row) ?? false;
    }
    default:
      // A link also answers the methods of the file it resolves to (`link.hasTag("x")`).
      return l.resolved !== null && (METHODS.file ?? []).includes(name)
        ? fileMethod(ev, new FileValue(l.resolved), name, args, row)
        : undefined;
  }
}

function factsOf(ev: ExprEvaluator, f: FileValue): FileFacts {
  const facts = ev.host.file(f.path);
  if (facts === null) throw new BasesEvalError(`The file "${f.path}" is not in the vault.`);
  return facts;
}

/** Whether `tags` holds `wanted` (without `#`, any case) or a tag nested below it. */
export function tagMatches(tags: readonly string[], wanted: string): boolean {
  const w = wanted.replace(/^#/, '').toLowerCase();
  return tags.some((t) => {
    const tag = t.replace(/^#/, '').toLowerCase();
    return tag === w || tag.startsWith(`${w}/`);
  });
}

function fileMethod(
  ev: ExprEvaluator,
  f: FileValue,
  name: string,
  args: Value[],
  row: RowScope,
): Value | undefined {
  switch (name) {
    case 'asLink': {
      arity(name, args, 0, 1);
      const display = args[0] === undefined || args[0] === null ? null : valueText(args[0]);
      return new LinkValue(f.path, display, f.path);
    }
    case 'hasTag':
      return args.some((a) => tagMatches(factsOf(ev, f).tags(), text(a, name)));
    case 'inFolder': {
      arity(name, args, 1, 1);
      const folder = text(args[0], name).replace(/^\/+|\/+$/g, '');
      return folder === '' || f.path.startsWith(`${folder}/`);
    }
    case 'hasProperty': {
      arity(name, args, 1, 1);
      const key = text(args[0], name).replace(/^note\./, '');
      const props = factsOf(ev, f).properties();
      return Object.keys(props).some((k) => k === key || k.toLowerCase() === key.toLowerCase());
    }
    case 'hasLink': {
      arity(name, args, 1, 1);
      const other = args[0] as Value;
      const target =
        other instanceof FileValue || other instanceof LinkValue || typeof other === 'string'
          ? fileOf(ev, other, row.facts.path)
          : null;
      const links = factsOf(ev, f).links();
      if (target instanceof FileValue) return links.some((l) => l.resolved === target.path);
      // Nothing by that name: a link naming it that resolves to nothing still counts.
      const wanted = other instanceof LinkValue ? other.target : typeof other === 'string' ? other : null;
      return wanted !== null && links.some((l) => l.resolved === null && l.target === wanted);
    }
    default:
      return undefined;
  }
}

/** `file.name`, `file.tags`, … of a file. */
export function fileField(ev: ExprEvaluator, f: FileValue, name: string): Value {
  const facts = ev.host.file(f.path);
  if (!(FILE_FIELDS as readonly string[]).includes(name)) {
    throw new BasesEvalError(`A file has no field "${name}".${didYouMean(name, FILE_FIELDS)}`);
  }
  if (facts === null) return null;
  const path = facts.path;
  const slash = path.lastIndexOf('/');
  const fileName = path.slice(slash + 1);
  const dot = fileName.lastIndexOf('.');
  switch (name) {
    case 'name':
      return fileName;
    case 'basename':
      return dot > 0 ? fileName.slice(0, dot) : fileName;
    case 'path':
      return path;
    case 'folder':
      return slash === -1 ? '/' : path.slice(0, slash);
    case 'ext':
      return dot > 0 ? fileName.slice(dot + 1) : '';
    case 'size':
      return facts.size;
    case 'ctime':
      return new DateValue(facts.ctimeMs, true);
    case 'mtime':
      return new DateValue(facts.mtimeMs, true);
    case 'file':
      return new FileValue(path);
    case 'properties':
      return new ObjectValue(
        new Map(Object.entries(facts.properties()).map(([k, v]) => [k, propertyValue(v, path, ev.host)])),
      );
    case 'tags':
      return checkList(unique(facts.tags().map((t) => `#${t.replace(/^#/, '')}`)));
    case 'links':
      return checkList(
        facts
          .links()
          .filter((l) => !l.embed)
          .map((l) => new LinkValue(l.target, l.display, l.resolved)),
      );
    case 'embeds':
      return checkList(
        facts
          .links()
          .filter((l) => l.embed)
          .map((l) => new LinkValue(l.target, l.display, l.resolved)),
      );
    default:
      // backlinks
      return checkList(ev.host.backlinks(path).map((p) => new LinkValue(p, null, p)));
  }
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
