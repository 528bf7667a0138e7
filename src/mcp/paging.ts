/**
 * @module
 * What every paged list shares (SPEC 3.3): the `cursor` and `limit` arguments, the `more` and
 * `nextCursor` fields, and the sentence that tells a model there is more.
 */
import * as z from 'zod';

export const cursorField = z
  .string()
  .max(16_384)
  .optional()
  .describe('The nextCursor of the previous page, unchanged, to read the next one; omit for the first page');

export function limitField(what: string, byDefault: number, most: number) {
  return z
    .number()
    .int()
    .min(1)
    .max(most)
    .optional()
    .describe(`How many ${what} per page (default ${byDefault}, at most ${most})`);
}

/** The fields of a page: whether more follow, and the cursor to read them. */
export function pageFields(what: string) {
  return {
    more: z.boolean().describe(`true when more ${what} follow this page: call again with nextCursor`),
    nextCursor: z.string().optional().describe('Present when more follow: pass it as cursor'),
  };
}

/** The closing line of a page's text: how to read on, or nothing on the last page. */
export function moreText(page: { more: boolean; nextCursor?: string }, what: string): string {
  return page.more && page.nextCursor !== undefined
    ? `\nMore ${what} follow: call again with cursor "${page.nextCursor}".`
    : '';
}
