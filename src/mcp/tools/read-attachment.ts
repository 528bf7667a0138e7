/**
 * @module
 * read_attachment: one file that is not a note, by its path (SPEC 13.4): an image as image content
 * clients show, a text file as text (in pages when long), anything else as a link to the resource
 * with its size and type.
 */
import * as z from 'zod';
import { noteUri } from '../resources.js';
import { runTool, toolResult } from '../result.js';
import { pagingArguments, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'read_attachment';

export const inputSchema = z.object({
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      'The file\'s vault-relative path, with its extension, e.g. "img/photo.png" (list_attachments gives them)',
    ),
  ...pagingArguments('text file', 'character'),
});

export const outputSchema = withErrors(
  z.object({
    path: z.string(),
    kind: z
      .enum(['image', 'text', 'file'])
      .describe('image: shown as image content; text: in text; file: offered as a resource link'),
    mimeType: z.string(),
    sizeBytes: z.number(),
    modified: z.string().describe('Modification time, ISO 8601'),
    uri: z.string().describe('The resource URI of the file (resources/read)'),
    text: z.string().optional().describe('A text file: its text (or this page of it)'),
    truncated: z.boolean().optional().describe('true when the text continues past this page'),
    offset: z.number().optional(),
    nextOffset: z.number().optional().describe('Where the next page starts'),
    totalChars: z.number().optional().describe('Length of the whole text in characters, for a paged read'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Read an attachment',
      description:
        'Reads a file of the vault that is not a note, by its path: a PNG, JPEG, GIF or WebP image (up to 5 MB) comes back as an image you can see; a text file (txt, csv, json, svg, canvas…) as its text, in pages when long (offset, max_chars); anything else (PDF, audio, office files…) as a link to the resource with its size and type. Use read_note for notes and list_attachments to find paths.',
      inputSchema,
      outputSchema,
      annotations: { title: 'Read an attachment', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const file = access.readAttachment(session, args.path, {
          ...(args.offset === undefined ? {} : { offset: args.offset }),
          ...(args.max_chars === undefined ? {} : { maxChars: args.max_chars }),
        });
        const uri = noteUri(file.path);
        const meta = {
          path: file.path,
          kind: file.kind,
          mimeType: file.mimeType,
          sizeBytes: file.sizeBytes,
          modified: file.modified,
          uri,
        };
        const about = `${file.path} — ${file.mimeType}, ${file.sizeBytes} bytes, modified ${file.modified}`;
        switch (file.kind) {
          case 'image':
            return toolResult(
              `${about}. The image follows.`,
              meta,
              [],
              [{ type: 'image', data: file.bytes.toString('base64'), mimeType: file.mimeType }],
            );
          case 'text': {
            const data = { ...meta, text: file.text, ...file.paging };
            const page =
              file.paging.offset === undefined
                ? ''
                : ` Characters ${file.paging.offset}–${file.paging.offset + file.text.length} of ${file.paging.totalChars}${file.paging.truncated ? ` (continue with offset ${file.paging.nextOffset})` : ''}.`;
            return toolResult(`${about}.${page}\n${file.text}`, data, ['text']);
          }
          case 'file':
            return toolResult(
              `${about}. Its content is not text or an image this tool can show; it is linked as the resource ${uri}.`,
              meta,
              [],
              [
                {
                  type: 'resource_link',
                  uri,
                  name: file.path,
                  mimeType: file.mimeType,
                  size: file.sizeBytes,
                  description: `${file.mimeType}, ${file.sizeBytes} bytes`,
                },
              ],
            );
        }
      }),
  );
}
