/**
 * Session: who runs the script, as far as Apps Script reveals it. Custom functions and simple
 * triggers are anonymous here ('' for both active and effective user: Google reveals the e-mail
 * in a simple trigger only in narrow cases, so code must not depend on it); AuthMode.NONE may
 * not ask at all.
 */
import { createHash } from 'node:crypto';

import type { ServiceEnvironment } from './service-object';
import { expose, requireAuthMode } from './service-object';
import { SCRIPT_ID } from './script-app';

const EMAIL_SCOPE = 'https://www.googleapis.com/auth/userinfo.email';

export function createUser(env: ServiceEnvironment, email: string): GoogleAppsScript.Base.User {
  return expose('User', { getEmail: () => email }, env) as unknown as GoogleAppsScript.Base.User;
}

export function createSession(
  env: ServiceEnvironment,
  scriptTimeZone: string,
  locale: string,
): GoogleAppsScript.Base.Session {
  const sessionUser = (method: string) =>
    createUser(
      env,
      requireAuthMode(env, method, ['LIMITED', 'FULL', 'CUSTOM_FUNCTION'], EMAIL_SCOPE).sessionEmail,
    );
  const session = {
    getActiveUser: () => sessionUser('Session.getActiveUser'),
    getEffectiveUser: () => sessionUser('Session.getEffectiveUser'),
    getScriptTimeZone: () => scriptTimeZone,
    getActiveUserLocale: () => locale,
    /** Stable per user and script, opaque; '' where the user is unknown (custom functions). */
    getTemporaryActiveUserKey() {
      const execution = env.executions.requireCurrent();
      if (execution.context.kind === 'custom-function') return '';
      return createHash('sha256').update(`${SCRIPT_ID}:${execution.user}`).digest('base64url').slice(0, 43);
    },
  };
  return expose('Session', session, env) as unknown as GoogleAppsScript.Base.Session;
}
