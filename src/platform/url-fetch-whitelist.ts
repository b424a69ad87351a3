/**
 * The manifest's urlFetchWhitelist, as the build read it: Apps Script gives a script no way to read
 * its own manifest, so dev/build.ts writes the list into the bundle (SAFETY_SYNC_URL_FETCH_WHITELIST)
 * from the appsscript.json it pushes. With a whitelist, Apps Script refuses any fetch outside it;
 * Settings refuses such an address first, and a refusal that happens anyway (a manifest edited after
 * the build) reads the same, saying which manifest entry allows the address.
 */

/** Replaced by the build with the pushed manifest's list, or null when it has none. */
declare const SAFETY_SYNC_URL_FETCH_WHITELIST: readonly string[] | null | undefined;

function whitelist(): readonly string[] | null {
  return typeof SAFETY_SYNC_URL_FETCH_WHITELIST === 'undefined' ? null : SAFETY_SYNC_URL_FETCH_WHITELIST;
}

/**
 * Whether `url` starts with `prefix` as Apps Script matches them: the same scheme and host (a
 * `*.` host matches its subdomains), then the prefix's path.
 */
function matchesWhitelistPrefix(url: string, prefix: string): boolean {
  const [, prefixHost = '', prefixPath = ''] = /^https:\/\/([^/]+)(\/.*)$/i.exec(prefix) ?? [];
  const [, host = '', path = ''] = /^https:\/\/([^/?#]+)(\/[^?#]*)?/i.exec(url) ?? [];
  if (!prefixHost || !host) return false;
  const hostMatches = prefixHost.startsWith('*.')
    ? host.toLowerCase().endsWith(prefixHost.slice(1).toLowerCase())
    : host.toLowerCase() === prefixHost.toLowerCase();
  return hostMatches && (path || '/').startsWith(prefixPath);
}

/**
 * The sentence saying how to allow `url`, or null when the whitelist (given, or the built one) lets
 * the add-on fetch it.
 */
export function whitelistRefusal(url: string, allowed = whitelist()): string | null {
  if (allowed && allowed.some((prefix) => matchesWhitelistPrefix(url, prefix))) return null;
  return allowed ? howToAllow(url, allowed) : null;
}

/** Settings' check of a service address: its API (`{baseUrl}/v1/…`) must be inside the whitelist. */
export function baseUrlRefusal(baseUrl: string): string | null {
  return whitelistRefusal(`${baseUrl.replace(/\/+$/, '')}/v1/`);
}

/**
 * What an UrlFetchApp exception says when Apps Script refused `url` for being outside the
 * whitelist (the manifest was changed after the build, say), or null for any other exception.
 */
export function whitelistRefusalOf(error: unknown, url: string): string | null {
  if (!(error instanceof Error) || !/urlFetchWhitelist|allowlist|whitelist/i.test(error.message)) return null;
  return howToAllow(url, whitelist());
}

function howToAllow(url: string, allowed: readonly string[] | null): string {
  const origin = /^[a-z]+:\/\/[^/?#]+/i.exec(url)?.[0] ?? url;
  const reach = allowed ? `may only reach ${allowed.join(', ')}` : 'may not reach this address';
  return (
    `This copy of Safety Sync ${reach} (urlFetchWhitelist in its appsscript.json). To use ${origin}, ` +
    `ask whoever installs the add-on to add "${origin}/" to urlFetchWhitelist (or to build it with ` +
    `SAFETY_SYNC_SERVICE_URL=${origin}) and push it again.`
  );
}
