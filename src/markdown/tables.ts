/**
 * @module
 * Markdown pipe tables as GFM reads them, and Obsidian with it (SPEC 17.4): a header row, then a
 * delimiter row of `---` cells (colons for alignment) with as many cells as the header; then rows
 * until a blank line or the start of another block. Cells are split at unescaped pipes — also inside
 * `code`, as in GFM and Obsidian, where a pipe in a cell is written `\|` — and trimmed; a leading and
 * a trailing pipe are optional. A row with fewer cells than the header has empty ones; cells past the
 * header's are dropped. Fenced code holds no table (the caller passes lines with `inCode`).
 */

/** A table's cells as written, `\|` read as `|`. */
export function tableCells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !isEscaped(text, text.length - 1)) text = text.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += ch;
    }
  }
  cells.push(cell.trim());
  return cells;
}

function isEscaped(text: string, at: number): boolean {
  let slashes = 0;
  for (let i = at - 1; i >= 0 && text[i] === '\\'; i--) slashes++;
  return slashes % 2 === 1;
}

const DELIMITER_CELL = /^:?-+:?$/;

/** Whether `line` is a delimiter row of `columns` cells (`| --- | :-: |`). */
function isDelimiterRow(line: string, columns: number): boolean {
  // A delimiter row of one column needs a pipe: `---` alone is a thematic break or a setext underline.
  if (!line.includes('|')) return false;
  const cells = tableCells(line);
  return cells.length === columns && cells.every((c) => DELIMITER_CELL.test(c));
}

/** Whether a table starts at `header` (its line) with `delimiter` the next line. */
export function startsTable(header: string, delimiter: string | undefined): boolean {
  if (delimiter === undefined || !header.includes('|') || /^ {4}/.test(header)) return false;
  return isDelimiterRow(delimiter, tableCells(header).length);
}

/**
 * The keys a table's rows are given: each header cell, an empty one as `column N` (1-based) and a
 * repeated one with ` (2)`, ` (3)` after it, so that no cell of a row is lost to another's key.
 */
export function headerKeys(cells: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, i) => {
    const base = cell === '' ? `column ${i + 1}` : cell;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** A body row as an object by header key: missing cells empty, extra cells dropped. */
export function rowObject(keys: readonly string[], line: string): Record<string, string> {
  const cells = tableCells(line);
  // fromEntries defines own properties: a header named __proto__ is a key like any other.
  return Object.fromEntries(keys.map((key, i) => [key, cells[i] ?? '']));
}
