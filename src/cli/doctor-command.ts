/**
 * @module
 * `noted-mcp doctor`: checks an installation and says for each check ✓ or ✗ with the fix (SPEC 12.4);
 * exits 1 when any check fails. It only looks: it creates no vault, index or file.
 */
import os from 'node:os';
import { openJournalKey } from '../journal/journal-key.js';
import { parseArgs } from './args.js';
import { homeOf, userConfigDir, vaultDirFrom } from './config.js';
import {
  type CheckResult,
  checkClients,
  checkGitExclude,
  checkIndex,
  checkJournal,
  checkNativeModules,
  checkNoteFormats,
  checkOperations,
  checkPolicy,
  checkTokenFile,
  checkVault,
  clientConfigFiles,
} from './doctor-checks.js';
import type { CliIo, ExitCode } from './io.js';

export const DOCTOR_USAGE = `Usage: noted-mcp doctor [--notes-dir DIR]

Checks this installation and the vault, and says for each check what is wrong and how to fix it:
the vault folder, the native modules, the index, the access policy, the journal, the HTTP token file,
git, and which AI clients have Noted configured. Changes nothing. Exits 1 when a check fails.

Options:
  --notes-dir DIR, --vault DIR   the vault (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  -h, --help                     show this help
`;

/** Every check, in order; the vault's own checks only when the vault is there. */
export async function runChecks(
  vault: string,
  env: NodeJS.ProcessEnv,
  platform = os.platform(),
): Promise<CheckResult[]> {
  const results: CheckResult[] = [checkVault(vault), await checkNativeModules()];
  if (results[0]?.status === 'ok') {
    results.push(
      checkIndex(vault),
      checkNoteFormats(vault),
      checkPolicy(vault),
      checkJournal(vault, openJournalKey(userConfigDir(env), { create: false })),
      checkOperations(vault),
      checkTokenFile(vault),
      checkGitExclude(vault),
    );
  }
  results.push(checkClients(vault, clientConfigFiles(homeOf(env), platform, env)));
  return results;
}

export function formatChecks(results: readonly CheckResult[]): string {
  return results
    .map((r) => {
      const mark = r.status === 'ok' ? '✓' : r.status === 'fail' ? '✗' : '·';
      return `${mark} ${r.name}: ${r.detail}${r.fix === undefined ? '' : `\n    fix: ${r.fix}`}`;
    })
    .join('\n');
}

export async function doctorCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const args = parseArgs(argv);
  if (args.help) {
    io.stdout(DOCTOR_USAGE);
    return 0;
  }
  const problems = [
    ...args.errors,
    ...(args.transport !== undefined || args.port !== undefined ? ['doctor takes only --notes-dir'] : []),
  ];
  if (problems.length > 0) {
    io.stderr(`noted-mcp doctor: ${problems.join('\nnoted-mcp doctor: ')}\n\n${DOCTOR_USAGE}`);
    return 2;
  }
  const { dir, source } = vaultDirFrom(args, io.env);
  const results = await runChecks(dir, io.env);
  const failed = results.filter((r) => r.status === 'fail').length;
  io.stdout(
    `Noted MCP doctor — vault ${dir} (from ${source})\n\n${formatChecks(results)}\n\n${failed === 0 ? 'All checks passed.' : `${failed} check${failed === 1 ? '' : 's'} failed.`}\n`,
  );
  return failed === 0 ? 0 : 1;
}
