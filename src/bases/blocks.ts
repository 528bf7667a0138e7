/**
 * @module
 * The ` ```base ` blocks of a note: a fenced code block whose info string is `base`, with the line
 * its YAML starts on, so errors in a block name lines of the note.
 */

export interface BaseBlock {
  /** 0-based index among the note's base blocks. */
  readonly index: number;
  /** The YAML inside the fence. */
  readonly source: string;
  /** 1-based line of the note where the YAML starts. */
  readonly firstLine: number;
}

const OPEN = /^ {0,3}(`{3,}|~{3,})\s*base\s*$/;

/** @example baseBlocks('```base\nviews: []\n```')[0]?.source // 'views: []' */
export function baseBlocks(text: string): BaseBlock[] {
  const lines = text.split(/\r?\n/);
  const out: BaseBlock[] = [];
  let fence: string | null = null;
  let isBase = false;
  let start = 0;
  let body: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (fence === null) {
      const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (m === null) continue;
      fence = m[1] as string;
      isBase = OPEN.test(line);
      start = i + 2;
      body = [];
      continue;
    }
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    if (close.test(line)) {
      if (isBase) out.push({ index: out.length, source: body.join('\n'), firstLine: start });
      fence = null;
      continue;
    }
    body.push(line);
  }
  if (fence !== null && isBase) out.push({ index: out.length, source: body.join('\n'), firstLine: start });
  return out;
}
