/**
 * Settings → Test connection: one cheap authenticated call (the first completed training), and its
 * outcome in words a manager can act on, next to the field to correct. Nothing is saved by it.
 */
import { COMPLETIONS_METHOD } from '../api/completions-contract';
import { ServiceError, TransportError } from '../api/errors';
import { completionsPageSchema } from '../api/schemas';
import { type FieldOutcome, refuseField } from '../platform/field-refusal';
import { googleServiceClient } from '../platform/service-client';

export type ConnectionTestResult = FieldOutcome<'baseUrl' | 'token', { message: string }>;

/** What each refusal of the token means, and what to do. */
const TOKEN_REFUSALS: Record<string, string> = {
  token_missing: 'no token reached the service (token_missing). Paste your API token.',
  token_invalid:
    'the service does not recognise this token (token_invalid). Check that you pasted all of it, or create a new one.',
  token_inactive: 'this token has been deactivated (token_inactive). Create a new token in the service.',
  account_inactive:
    'the account behind this token is not active (account_inactive). Ask your administrator to reactivate it.',
  token_permission:
    'the token is valid but may not read completed trainings (token_permission). Ask your administrator for a token with that permission.',
};

function withRequestId(sentence: string, requestId: string | undefined): string {
  return requestId ? `${sentence} Request ID for support: ${requestId}.` : sentence;
}

function hostOf(baseUrl: string): string {
  return baseUrl.replace(/^[a-z]+:\/\//i, '').split('/')[0] ?? baseUrl;
}

export function describeFailedTest(error: unknown, baseUrl: string): ConnectionTestResult {
  if (error instanceof ServiceError) {
    const refusal = TOKEN_REFUSALS[error.identifier];
    if (refusal) return refuseField('token', withRequestId(`Not connected: ${refusal}`, error.requestId));
    if (error.identifier === 'api_method_not_found') {
      return refuseField(
        'baseUrl',
        `Not connected: ${hostOf(baseUrl)} answers, but has no such API there (api_method_not_found). Check the address: it ends before /v1.`,
      );
    }
  }
  if (error instanceof TransportError) {
    const messages: Partial<Record<TransportError['kind'], string>> = {
      unreachable: `Not connected: could not reach ${hostOf(baseUrl)} (unreachable host). Check the address and your network.`,
      http_status: `Not connected: something between Google and the service answered instead of it (an intermediary error page, HTTP ${error.httpStatus ?? 'error'}). Try again in a few minutes; if it persists, check the address.`,
      not_json:
        "Not connected: the answer was not the service's (an intermediary error page, or a cut-off response). Try again in a few minutes; if it persists, check the address.",
      not_envelope: `Not connected: ${hostOf(baseUrl)} answers, but not as this service's API. Check the address.`,
    };
    const message = messages[error.kind];
    if (message) return refuseField('baseUrl', withRequestId(message, error.requestId));
  }
  const message = error instanceof Error ? error.message : String(error);
  return refuseField('baseUrl', `Not connected: ${message}`);
}

/** @param unsaved Whether the token is one typed in the dialog rather than the one saved. */
export function testServiceConnection(
  baseUrl: string,
  token: string,
  unsaved: boolean,
): ConnectionTestResult {
  const client = googleServiceClient({ baseUrl, token }, { maxAttempts: 1 });
  try {
    client.call(COMPLETIONS_METHOD, { limit: 1 }, completionsPageSchema);
    return {
      ok: true,
      message: unsaved
        ? 'Connected: the service accepted this token. Save to keep it.'
        : 'Connected: the service accepted your saved token.',
    };
  } catch (error) {
    return describeFailedTest(error, baseUrl);
  }
}
