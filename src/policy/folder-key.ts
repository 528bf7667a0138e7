/**
 * @module
 * How policy folders and note paths are compared (SPEC 4): `\` is `/`, Unicode NFC, letter case
 * ignored, a trailing `/` ignored, and always on whole path segments, so `inbox` covers
 * `inbox/x.md` but not `inbox2/x.md`.
 */

/**
 * The comparison form of a vault-relative folder or note path.
 *
 * @example
 * folderKey('Private\\Notes/') // 'private/notes'
 */
export function folderKey(path: string): string {
  let key = path.replaceAll('\\', '/');
  while (key.endsWith('/')) key = key.slice(0, -1);
  // NFC again after lower-casing: a few characters lower-case into a decomposed form.
  return key.normalize('NFC').toLowerCase().normalize('NFC');
}

/** True when the folder key `folder` is `path` itself or one of its ancestors, segment-wise. */
export function covers(folder: string, path: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** Number of segments of a key (`''` has none). */
export function depthOf(key: string): number {
  return key === '' ? 0 : key.split('/').length;
}
