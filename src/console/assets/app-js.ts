/**
 * @module
 * `/app.js`: the console's browser code, put together from its parts in one strict-mode function so
 * nothing leaks into the page's globals. Served as a file because the CSP allows no inline script.
 */
import { APP_ACCESS } from './app-access.js';
import { APP_ACTIVITY } from './app-activity.js';
import { APP_CONFIRM } from './app-confirm.js';
import { APP_CONNECT } from './app-connect.js';
import { APP_CORE } from './app-core.js';
import { APP_DECISIONS } from './app-decisions.js';
import { APP_DIFF } from './app-diff.js';
import { APP_MARKS } from './app-marks.js';
import { APP_PENDING } from './app-pending.js';
import { APP_PENDING_DECIDE } from './app-pending-decide.js';
import { APP_PENDING_LIST } from './app-pending-list.js';
import { APP_PENDING_REFRESH } from './app-pending-refresh.js';
import { APP_REFUSALS } from './app-refusals.js';
import { APP_REVIEW_KEYS } from './app-review-keys.js';

const SOURCE = `(function () {\n'use strict';\n${[
  APP_CORE,
  APP_MARKS,
  APP_CONFIRM,
  APP_DIFF,
  APP_REFUSALS,
  APP_PENDING_LIST,
  APP_PENDING_DECIDE,
  APP_PENDING,
  APP_PENDING_REFRESH,
  APP_DECISIONS,
  APP_REVIEW_KEYS,
  APP_ACTIVITY,
  APP_ACCESS,
  APP_CONNECT,
].join('\n')}\n})();\n`;

export function appJs(): string {
  return SOURCE;
}
