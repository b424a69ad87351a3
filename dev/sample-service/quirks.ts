/**
 * What a real service may do within the contract that the seeded data and the fault queue do not:
 * refuse a method for good (users.info appears in the contract only as an example, so a service may
 * answer it api_method_not_found, parameter_invalid or token_permission), and serve completions
 * whose fields are edge cases (empty or padded ids, "=…" and "'…" strings, an optional date number
 * that is not a date); and, standing for a paging bug, leave records out of the unfiltered list
 * while filtered lists still have them; and ask for a wait with Retry-After when rate limiting; and
 * serve smaller pages than asked for; and quote the token sent in its error descriptions. Set with
 * PUT /_admin/datasets/ID/quirks; the body replaces every quirk.
 */
import { z } from 'zod';
import type { AdminResponse } from './admin';
import {
  API_METHOD_NAMES,
  ApiError,
  type ApiMethodName,
  type ErrorIdentifier,
  EncodedJson,
} from './protocol';
import type { CompletionPaging, MethodQuirks, SuccessEnvelope } from './methods';
import type { Dataset, DatasetRegistry } from './store';

const REFUSALS = ['api_method_not_found', 'parameter_invalid', 'token_permission'] as const;

const quirksSchema = z.strictObject({
  /** Methods that answer this error to every request. */
  refusedMethods: z.partialRecord(z.enum(API_METHOD_NAMES), z.enum(REFUSALS)).optional(),
  /** Fields replaced in the completions at these positions of the unfiltered list (0 = newest). */
  completionFields: z
    .array(z.strictObject({ position: z.int().min(0), fields: z.record(z.string(), z.unknown()) }))
    .optional(),
  /** A Retry-After header (seconds) on every rate_limit_exceeded answer. */
  rateLimitRetryAfterSeconds: z.int().min(0).optional(),
  /** Positions of the unfiltered list (0 = newest) left out of its pages; filtered lists keep them. */
  missingFromFullList: z.array(z.int().min(0)).optional(),
  /**
   * The most completions a completedtrainings.list page holds, whatever `limit` asks: a service
   * may cap page sizes below the contract's 1000. Pages and last_page are counted in pages of
   * min(limit, cap), filtered lists too; a small cap makes paging tests over few records fast.
   */
  pageSizeCap: z.int().min(1).max(1000).optional(),
  /**
   * A careless service: every error it answers the dataset's tokens quotes the token it was sent,
   * three times and in different surroundings, in its description (what an add-on must scrub, every
   * copy, before a user, a cell or a log sees it: a text scrubbed twice on its way, each time of its
   * first copy only, still shows the third).
   */
  quoteTokenInErrors: z.boolean().optional(),
});

export type QuirksRequest = z.input<typeof quirksSchema>;
type Quirks = z.output<typeof quirksSchema>;

const quirksOf = new WeakMap<Dataset, Quirks>();

const QUIRKS_PATH = /^\/_admin\/datasets\/([^/]+)\/quirks$/;

/** The admin request when it is about quirks; null for every other admin request. */
export function handleQuirksRequest(
  registry: DatasetRegistry,
  httpMethod: string,
  pathname: string,
  body: string,
): AdminResponse | null {
  const match = QUIRKS_PATH.exec(pathname);
  if (!match) return null;
  const dataset = registry.get(match[1]!);
  if (!dataset) return { status: 404, body: { error: `No dataset ${JSON.stringify(match[1])}` } };
  if (httpMethod !== 'PUT') return { status: 405, body: { error: `Use PUT here, not ${httpMethod}` } };
  let parsed: ReturnType<typeof quirksSchema.safeParse>;
  try {
    parsed = quirksSchema.safeParse(body.trim() === '' ? {} : JSON.parse(body));
  } catch {
    return { status: 400, body: { error: 'The body is not valid JSON' } };
  }
  if (!parsed.success) return { status: 400, body: { error: z.prettifyError(parsed.error) } };
  quirksOf.set(dataset, parsed.data);
  return { status: 200, body: parsed.data };
}

/**
 * The method's answer as the dataset's quirks change it: refused, paged smaller, or with its
 * completions edited.
 */
export function answerWithQuirks(
  dataset: Dataset,
  apiMethod: ApiMethodName,
  data: Record<string, unknown>,
  answer: (methodQuirks: MethodQuirks) => SuccessEnvelope,
): SuccessEnvelope {
  const quirks = quirksOf.get(dataset);
  const refusal: ErrorIdentifier | undefined = quirks?.refusedMethods?.[apiMethod];
  if (refusal) throw new ApiError(refusal, `${apiMethod} is not available to this token.`);
  const envelope = answer({ pageSizeCap: quirks?.pageSizeCap });
  const edits = quirks?.completionFields ?? [];
  const missing = new Set(quirks?.missingFromFullList ?? []);
  const page = envelope['completedtrainings'];
  const filtered = data['user_id'] !== undefined || data['training_id'] !== undefined;
  if ((edits.length === 0 && missing.size === 0) || !(page instanceof EncodedJson) || filtered)
    return envelope;
  // The page as served, which a page size cap makes smaller than the limit asked for.
  const paging = envelope['paging'] as CompletionPaging;
  const first = (paging.page - 1) * paging.limit;
  const records = JSON.parse(page.json) as Record<string, unknown>[];
  for (const { position, fields } of edits) {
    const record = records[position - first];
    if (record) Object.assign(record, fields);
  }
  const served = records.filter((_, index) => !missing.has(first + index));
  return { ...envelope, completedtrainings: new EncodedJson(JSON.stringify(served)) };
}

/** Headers the dataset's quirks add to an API answer that carries `error` (undefined on success). */
export function quirkHeaders(
  dataset: Dataset | undefined,
  error: string | undefined,
): Record<string, string> {
  const seconds = dataset && quirksOf.get(dataset)?.rateLimitRetryAfterSeconds;
  return error === 'rate_limit_exceeded' && seconds !== undefined ? { 'Retry-After': String(seconds) } : {};
}

/** The error as the dataset's service describes it: with the token sent quoted in it, if that is its quirk. */
export function describedWithQuirks(dataset: Dataset | undefined, error: ApiError, token: unknown): ApiError {
  if (!dataset || !quirksOf.get(dataset)?.quoteTokenInErrors || typeof token !== 'string' || token === '') {
    return error;
  }
  return new ApiError(
    error.identifier,
    `${error.description} Token "${token}" (sent as token=${token}; again:${token}).`,
  );
}
