/**
 * @module bench/lib/note-files
 * The `.md` files of a vault as the server sees them (dot folders skipped), relative, in a fixed order.
 */

import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {string[]} relative paths with `/` separators, sorted */
export function noteFiles(dir) {
  const files = [];
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith('.md')) continue;
    const rel = join(e.parentPath ?? e.path, e.name).slice(dir.length + 1);
    if (rel.split('/').some((s) => s.startsWith('.'))) continue;
    files.push(rel);
  }
  return files.sort();
}
