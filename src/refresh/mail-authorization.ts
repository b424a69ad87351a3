/**
 * Whether the running user has authorised what Safety Sync now asks for. A user who authorised the
 * add-on before a scope was added to its manifest (sending mail, say) has not granted it: Google asks
 * them when they next open a menu item, but their time-driven trigger runs without asking and throws
 * when it calls the service it lacks (AuthorizationStatus.REQUIRED in Google's reference,
 * developers.google.com/apps-script/reference/script/authorization-status). So the scheduled run asks
 * before it sends, and Settings tells the schedule's owner where to authorise.
 */
const SEND_MAIL_SCOPE = 'https://www.googleapis.com/auth/script.send_mail';

export const MAIL_NEEDS_AUTHORIZATION =
  "E-mail needs authorisation again: open Safety Sync → Settings… (Google asks the schedule's owner to allow sending mail)";

type AuthMode = GoogleAppsScript.Script.AuthMode;
type AuthorizationInfo = GoogleAppsScript.Script.AuthorizationInfo;
/**
 * getAuthorizationInfo(authMode, oAuthScopes), which @types/google-apps-script lacks
 * (developers.google.com/apps-script/reference/script/script-app#getAuthorizationInfo(AuthMode,String)).
 */
interface ScriptAppWithScopes extends GoogleAppsScript.Script.ScriptApp {
  getAuthorizationInfo(authMode: AuthMode): AuthorizationInfo;
  getAuthorizationInfo(authMode: AuthMode, oAuthScopes: string[]): AuthorizationInfo;
}

/** Where the running user authorises what they have not yet, or null when nothing is missing. */
export function pendingAuthorizationUrl(): string | null {
  const info = ScriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
  return isRequired(info) ? info.getAuthorizationUrl() : null;
}

/** Whether the running user has not allowed Safety Sync to send mail as them. */
export function mailNeedsAuthorization(): boolean {
  const scriptApp = ScriptApp as ScriptAppWithScopes;
  return isRequired(scriptApp.getAuthorizationInfo(ScriptApp.AuthMode.FULL, [SEND_MAIL_SCOPE]));
}

function isRequired(info: AuthorizationInfo): boolean {
  return info.getAuthorizationStatus() === ScriptApp.AuthorizationStatus.REQUIRED;
}
