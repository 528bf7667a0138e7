/**
 * @module
 * The entry point: reads argv and the environment once, opens the vault and serves it.
 */
import path from 'node:path';
import packageJson from '../../package.json' with { type: 'json' };
import { openVault } from '../access/open.js';
import { isParserThread, runParserThread } from '../index/parser-pool.js';
import { createMcpServer } from '../mcp/server.js';
import { serveStdio } from '../transport/stdio.js';
import { parseArgs, USAGE } from './args.js';
import { buildConfig, ConfigError, vaultDirFrom } from './config.js';

const VERSION: string = packageJson.version;

function fail(message: string, code: number): never {
  process.stderr.write(`noted-mcp: ${message}\n`);
  process.exit(code);
}

/** The command a person pastes to connect Claude Code to this very server and vault. */
function connectCommand(vaultDir: string): string {
  const script = process.argv[1] ? path.resolve(process.argv[1]) : 'noted-mcp';
  const runner = script.endsWith('.ts')
    ? `npx --prefix ${quote(path.resolve(path.dirname(script), '../..'))} tsx`
    : 'node';
  return `claude mcp add noted -- ${runner} ${quote(script)} --notes-dir ${quote(vaultDir)}`;
}

function quote(s: string): string {
  return /^[\w./@:+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  if (args.errors.length > 0) fail(`${args.errors.join('\n')}\n\n${USAGE}`, 2);
  if (args.transport !== undefined && args.transport !== 'stdio') {
    fail(`--transport ${args.transport} is not available yet; only stdio is.`, 2);
  }

  const { dir, source } = vaultDirFrom(args, process.env);
  let config: ReturnType<typeof buildConfig>;
  try {
    config = buildConfig(args, process.env, path.join(dir, '.noted'), dir, source);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message, 1);
    throw err;
  }

  let opened: Awaited<ReturnType<typeof openVault>>;
  try {
    opened = await openVault({
      vaultDir: config.vaultDir,
      trashRetentionDays: config.trashRetentionDays,
      ...(process.argv[1] === undefined ? {} : { parserScript: path.resolve(process.argv[1]) }),
    });
  } catch (err) {
    fail(`cannot open the vault ${config.vaultDir}: ${(err as Error).message}`, 1);
  }
  const { started } = opened;
  if (started.rebuiltBecause)
    process.stderr.write(`noted-mcp: the index was rebuilt (${started.rebuiltBecause}).\n`);
  if (process.stdin.isTTY) {
    process.stderr.write(
      [
        `Noted MCP ${VERSION} — a Model Context Protocol server for your Markdown notes.`,
        `Vault: ${opened.vault.root} (from ${config.vaultSource})`,
        `Indexed ${started.notes} notes (${started.reindexed} read now, ${Math.round(started.ms)} ms).`,
        'This server talks MCP over stdin/stdout, so it is meant to be started by an AI client. Connect Claude Code with:',
        `  ${connectCommand(opened.vault.root)}`,
        'Serving on stdio now; press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
  }

  const server = createMcpServer(opened.access, { name: 'noted-mcp', version: VERSION });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => undefined);
    await opened.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  await serveStdio(server);
  await stop(0);
}

if (isParserThread()) {
  runParserThread();
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`noted-mcp: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
