/**
 * @module
 * What can still be read of a policy file that cannot be used as a whole (SPEC 4), for the owner to
 * start over from, and a check that an edit opens nothing a policy keeps closed. While the file is
 * invalid, agents can read and change nothing; a replacement must never open by accident what the
 * file meant to close, so everything that is not understood becomes `hidden`:
 * - a folder rule whose access word is unknown becomes `hidden`;
 * - a rule for a folder that cannot be named, an unknown key, a second `default`, a `folders` that is
 *   not a mapping, or text that is not YAML at all could have closed anything, so `default` becomes
 *   `hidden` too (the rules that were understood stay);
 * - otherwise `default` stays as written (or `read-write` when the file does not give one, as it
 *   means).
 * Pure, like policy.ts.
 */
import { isMap, isScalar } from 'yaml';
import { isNotedError } from '../common/errors.js';
import { accessFor } from './access.js';
import { folderKey } from './folder-key.js';
import { ACCESS_LEVELS, type Access, checkFolder, type Policy, policyDocument } from './policy.js';

export interface SalvagedRule {
  readonly folder: string;
  readonly access: Access;
}

export interface Salvaged {
  readonly default: Access;
  readonly folders: readonly SalvagedRule[];
  /** What was not understood and how it was read, one line each, for the owner. */
  readonly notes: readonly string[];
}

/** How much each level lets agents do, for comparing two policies. */
const OPENNESS: Readonly<Record<Access, number>> = { hidden: 0, 'read-only': 1, staged: 2, 'read-write': 3 };

/**
 * The readable part of a policy file's text, with everything else hidden.
 *
 * @example
 * salvagePolicy('default: read-only\nfolders:\n  private: hiden\n')
 * // { default: 'read-only', folders: [{ folder: 'private', access: 'hidden' }], notes: ['line 3: …'] }
 */
export function salvagePolicy(text: string): Salvaged {
  const { doc, lines } = policyDocument(text);
  const nothing = (why: string): Salvaged => ({
    default: 'hidden',
    folders: [],
    notes: [`${why}, so nothing of it could be read: everything is hidden.`],
  });
  if ('tooDeep' in doc) return nothing('the file nests far too deeply');
  if (doc.errors.length > 0) return nothing('the file is not valid YAML');
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === ''))
    return { default: 'read-write', folders: [], notes: [] };
  if (!isMap(root)) return nothing('the file is not a mapping of "default" and "folders"');
  const lineOf = (node: unknown): string => {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    return range ? `line ${lines.linePos(range[0]).line}` : 'a line';
  };
  const notes: string[] = [];
  let closeDefault = false;
  let given: Access | null = null;
  const rules = new Map<string, SalvagedRule>();
  const seen = new Set<string>();
  for (const pair of root.items) {
    const at = lineOf(pair.key);
    const key = scalar(pair.key);
    if (key === null || seen.has(key) || (key !== 'default' && key !== 'folders')) {
      closeDefault = true;
      notes.push(
        `${at}: ${key === null ? 'a key that is not a word' : `"${key}"`} was not understood; left out.`,
      );
      continue;
    }
    seen.add(key);
    if (key === 'default') {
      given = accessOf(pair.value);
      if (given === null) {
        closeDefault = true;
        notes.push(`${at}: default ${describe(pair.value)} is not an access level; read as hidden.`);
      }
      continue;
    }
    const value = pair.value;
    if (value === null || (isScalar(value) && value.value === '')) continue;
    if (!isMap(value)) {
      closeDefault = true;
      notes.push(`${at}: "folders" is not a list of "folder: access" lines; left out.`);
      continue;
    }
    for (const rule of value.items) {
      const ruleAt = lineOf(rule.key);
      const raw = scalar(rule.key);
      let folder: string | null = null;
      try {
        folder = raw === null ? null : checkFolder(raw, 0);
      } catch (err) {
        if (!isNotedError(err)) throw err;
      }
      if (folder === null) {
        closeDefault = true;
        notes.push(`${ruleAt}: the folder ${raw === null ? '' : `"${raw}" `}cannot be used; left out.`);
        continue;
      }
      let access = accessOf(rule.value);
      if (access === null) {
        notes.push(`${ruleAt}: ${folder}: ${describe(rule.value)} is not an access level; read as hidden.`);
        access = 'hidden';
      }
      const k = folderKey(folder);
      const earlier = rules.get(k);
      if (earlier !== undefined) {
        notes.push(`${ruleAt}: ${folder} is named twice; the more closed rule is kept.`);
        if (OPENNESS[access] >= OPENNESS[earlier.access]) continue;
      }
      rules.set(k, { folder, access });
    }
  }
  if (closeDefault) notes.push('Because of that, everywhere no rule names (default) is read as hidden.');
  const def: Access = closeDefault ? 'hidden' : (given ?? 'read-write');
  return { default: def, folders: [...rules.values()], notes };
}

/**
 * Where `after` lets agents do more than `before`, in words (`"private": hidden → read-write`); empty
 * when it opens nothing. Checking the default and every folder either policy names is enough: any
 * other path takes its access from the deepest of those above it, in both policies alike.
 */
export function openings(before: Policy, after: Policy): string[] {
  const out: string[] = [];
  if (OPENNESS[after.default] > OPENNESS[before.default]) {
    out.push(`everywhere else (default): ${before.default} → ${after.default}`);
  }
  const folders = new Map<string, string>();
  for (const rule of [...before.folders, ...after.folders])
    if (!folders.has(rule.key)) folders.set(rule.key, rule.folder);
  for (const folder of folders.values()) {
    const was = accessFor(before, folder);
    const now = accessFor(after, folder);
    if (OPENNESS[now] > OPENNESS[was]) out.push(`"${folder}": ${was} → ${now}`);
  }
  return out;
}

function accessOf(node: unknown): Access | null {
  const word = scalar(node);
  return word !== null && (ACCESS_LEVELS as readonly string[]).includes(word) ? (word as Access) : null;
}

function scalar(node: unknown): string | null {
  return isScalar(node) && typeof node.value === 'string' ? node.value : null;
}

function describe(node: unknown): string {
  const word = scalar(node);
  return word === null ? '(not a word)' : JSON.stringify(word);
}
