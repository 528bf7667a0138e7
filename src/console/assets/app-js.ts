/**
 * @module
 * `/app.js`: the console's browser code, put together from its parts in one strict-mode function so
 * nothing leaks into the page's globals. Served as a file because the CSP allows no inline script.
 */
import { APP_ACCESS } from './app-access.js';
import { APP_ACTIVITY } from './app-activity.js';
import { APP_CONNECT } from './app-connect.js';
import { APP_CORE } from './app-core.js';
import { APP_DECISIONS } from './app-decisions.js';
import { APP_DIFF } from './app-diff.js';
import { APP_PENDING } from './app-pending.js';

const SOURCE = `(function () {\n'use strict';\n${[
  APP_CORE,
  APP_DIFF,
  APP_PENDING,
  APP_DECISIONS,
  APP_ACTIVITY,
  APP_ACCESS,
  APP_CONNECT,
].join('\n')}\n})();\n`;

export function appJs(): string {
  return SOURCE;
}
