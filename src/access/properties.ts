/**
 * @module
 * get_properties through the gate (SPEC 10): a note's frontmatter as typed properties, read from the
 * file itself (never stale). A type the owner assigned in Obsidian (`.obsidian/types.json`, PROP-11)
 * wins over the type inferred from the value.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JsonValue } from '../markdown/frontmatter.js';
import { parseFrontmatter } from '../markdown/frontmatter.js';
import { noteProperties, type PropertyType, type TypeAssignments } from '../markdown/properties.js';
import { relativeToRoot } from '../vault/confine.js';
import type { AccessContext } from './context.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules.js';

export interface NoteProperties {
  readonly name: string;
  readonly properties: Record<string, JsonValue>;
  readonly types: Record<string, PropertyType>;
  /** Why the frontmatter does not parse, when it does not (then there are no properties, PROP-20). */
  readonly frontmatterError?: string;
}

/** Obsidian's property type assignments, relative to the vault root. */
const TYPES_FILE = ['.obsidian', 'types.json'];
/** A types.json larger than this is not Obsidian's. */
const TYPES_MAX_BYTES = 1024 * 1024;

export function getProperties(ctx: AccessContext, rules: Rules, input: string): NoteProperties {
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name);
  if (stored === null) throw notFound(name);
  const fm = parseFrontmatter(stored.text);
  const typed = noteProperties(fm.data, readTypeAssignments(ctx.vault.root));
  return {
    name,
    properties: typed.properties,
    types: typed.types,
    ...(fm.error === undefined ? {} : { frontmatterError: fm.error }),
  };
}

/**
 * The vault's `.obsidian/types.json`, or null when there is none or it cannot be used.
 * Trigger: the file is missing, unreadable, not JSON, not an object, too large, or a link leading
 * out of the vault. Why: it only refines how values are typed, and it belongs to Obsidian, which may
 * be writing it this very moment. Outcome: types are inferred from the values, as without the file.
 */
export function readTypeAssignments(root: string): TypeAssignments | null {
  let text: string;
  try {
    const real = fs.realpathSync(path.join(root, ...TYPES_FILE));
    // Security: follow no link out of the vault.
    if (relativeToRoot(root, real) === null) return null;
    const stat = fs.statSync(real);
    if (!stat.isFile() || stat.size > TYPES_MAX_BYTES) return null;
    text = fs.readFileSync(real, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as TypeAssignments)
      : null;
  } catch {
    return null;
  }
}
