/**
 * @module
 * `noted-mcp [serve]`: open the vault and serve it to one MCP client over stdio, or to many over
 * Streamable HTTP (`--transport http`, see serve-http.ts).
 */

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import { type StartingVault, startVault } from '../access/open.js';
import { createMcpServer } from '../mcp/server.js';
import { serveStdio } from '../transport/stdio.js';
import { countNoteFiles, DETECT_SAMPLE, mixedFormatAdvice } from '../vault/format-choice.js';
import { parseArgs, USAGE } from './args.js';
import { buildConfig, ConfigError, vaultDirFrom } from './config.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { cliJournalKey } from './journal-args.js';
import { commandLine, launcherFor } from './launcher.js';
import { httpUsageProblems, STOP_WAIT_MS, serveHttp } from './serve-http.js';

export const VERSION: string = packageJson.version;

/** The command a person pastes to connect Claude Code to this very server (or npx's) and vault. */
export function connectCommand(script: string, vaultDir: string): string {
  const launcher = launcherFor({ node: 'node', script, npx: false });
  return `claude mcp add noted -- ${commandLine(launcher, ['--notes-dir', vaultDir])}`;
}

export async function serveCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const args = parseArgs(argv);
  if (args.help) {
    io.stdout(USAGE);
    return 0;
  }
  if (args.version) {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  const problems = [...args.errors, ...httpUsageProblems(args, io.env)];
  if (problems.length > 0) {
    return usageError(io, '', problems);
  }
  const { dir, source, named } = vaultDirFrom(args, io.env);
  // SPEC 1.2: a typo in a named folder must never serve a new empty vault.
  if (named && !args.create && !fs.existsSync(dir)) {
    return usageError(io, '', [
      `there is no folder ${dir} (from ${source}). Check the path, or add --create to make a new, empty vault there`,
    ]);
  }
  let config: ReturnType<typeof buildConfig>;
  try {
    config = buildConfig(args, io.env, path.join(dir, '.noted'), dir, source);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.stderr(`noted-mcp: ${err.message}\n`);
    return 1;
  }

  // Made at the first agent change: a server that only answers reads leaves your configuration alone.
  const journalKey = cliJournalKey(io, { create: 'first use' });
  if (journalKey.key === null && journalKey.firstUse !== true) {
    io.stderr(
      `noted-mcp: warning: ${journalKey.reason}; agent changes are journaled without authentication, so the journal cannot show forged entries (see docs/journal.md).\n`,
    );
  }
  let opened: StartingVault;
  try {
    // The index is built or caught up in the background: the server answers at once (SPEC 14.1).
    opened = await startVault({
      vaultDir: config.vaultDir,
      trashRetentionDays: config.trashRetentionDays,
      parserScript: io.script,
      journalKey,
      journalMaxBytes: config.journalMaxBytes,
    });
  } catch (err) {
    io.stderr(`noted-mcp: cannot open the vault ${config.vaultDir}: ${(err as Error).message}\n`);
    return 1;
  }
  // SPEC 17.7: a folder of mixed notes is said at start-up, with which kind is served.
  const seen = countNoteFiles(opened.vault.root, DETECT_SAMPLE);
  const mixed = mixedFormatAdvice(seen, opened.vault.format, seen.markdown + seen.html >= DETECT_SAMPLE);
  if (mixed !== null) io.stderr(`noted-mcp: ${mixed}\n`);
  if (args.transport === 'http' || args.transport === 'sse') {
    try {
      return await serveHttp({ args, io, opened, version: VERSION });
    } finally {
      await opened.close();
    }
  }
  if (io.isTty) {
    io.stderr(
      [
        `Noted MCP ${VERSION} — a Model Context Protocol server for your Markdown notes.`,
        `Vault: ${opened.vault.root} (from ${config.vaultSource})`,
        'This server talks MCP over stdin/stdout, so it is meant to be started by an AI client. Connect Claude Code with:',
        `  ${connectCommand(io.script, opened.vault.root)}`,
        'Serving on stdio now (the index is brought up to date meanwhile); press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
    opened.ready.then(
      (started) =>
        io.stderr(
          `noted-mcp: indexed ${started.notes} ${started.notes === 1 ? 'note' : 'notes'} (${started.reindexed} read now, ${Math.round(started.ms)} ms).\n`,
        ),
      () => undefined,
    );
  }

  // One journal session for the run, whichever era the client speaks (a probe may make a 2nd server).
  const sessionId = randomUUID();
  const served = serveStdio(
    (era) =>
      createMcpServer(
        opened.access,
        { name: 'noted-mcp', version: VERSION },
        // A 2026-07-28 client hears notifications through subscriptions/listen, at once (live.ts).
        { sessionId, live: era === 'modern' ? 'connected' : 'initialized' },
      ),
    { onerror: (err) => io.stderr(`noted-mcp: stdio: ${err.message}\n`) },
  );
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      // Closing the connection cancels running calls; a move undoes what it did before the index closes.
      await served.stop().catch(() => undefined);
      await opened.access.settled(STOP_WAIT_MS);
      await opened.close();
    })();
    return stopping;
  };
  const onSignal = () => void stop().then(() => process.exit(0));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await served.closed;
  await stop();
  return 0;
}
