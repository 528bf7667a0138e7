/**
 * A bench's command line: `options` as node:util parseArgs takes them (with `help`), parsed or the
 * process ended with the usage (exit 2 on a mistake, 0 for --help).
 */
import { parseArgs } from 'node:util';

export function argsOrExit(options, usage) {
  let values;
  try {
    ({ values } = parseArgs({ options }));
  } catch (err) {
    console.error(`${err.message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}
