/**
 * The admin API under /_admin/: tests create datasets, read their exact data, inject faults, change
 * data between runs and read the request log. Plain REST with JSON; inputs are validated strictly so
 * that a typo in a test is an error, not a silently ignored setting.
 */
import { z } from 'zod';
import type { Completion, EquipmentType, User } from './dataset';
import { DEMO_MIN_PEOPLE } from './demo-dataset';
import { FAULT_KINDS, REDIRECT_STATUSES, type CurrentFaultSettings, type FaultSettings } from './faults';
import { API_METHOD_NAMES, type TokenKind } from './protocol';
import {
  DEFAULT_DATASET_OPTIONS,
  InvalidMutationError,
  checkMutationRules,
  type Dataset,
  type DatasetRegistry,
  type RequestLogEntry,
} from './store';
import type { MutationsResult } from './mutations';

const MAX_LATENCY_MS = 60_000;

const createDatasetSchema = z
  .strictObject({
    seed: z.int32().optional(),
    users: z.int().min(0).max(100_000).optional(),
    trainings: z.int().min(1).max(10_000).optional(),
    completions: z.int().min(0).max(2_000_000).optional(),
    equipmentTypes: z.int().min(0).max(10_000).optional(),
    createdUnit: z.enum(['seconds', 'milliseconds']).optional(),
    anomalies: z.boolean().optional(),
    latencyMs: z.int().min(0).max(MAX_LATENCY_MS).optional(),
    /** The demo data as seen on this day (YYYY-MM-DD); it makes its own trainings, completions and equipment. */
    demoToday: z.iso.date().optional(),
  })
  .check((context) => {
    const request = context.value;
    if (request.demoToday === undefined) return;
    const ownMade = (
      ['trainings', 'completions', 'equipmentTypes', 'createdUnit', 'anomalies'] as const
    ).filter((field) => request[field] !== undefined);
    if (ownMade.length > 0) {
      context.issues.push({
        code: 'custom',
        input: request,
        message: `Leave out ${ownMade.join(', ')}: the demo data (demoToday) makes its own.`,
      });
    }
    if (request.users !== undefined && request.users < DEMO_MIN_PEOPLE) {
      context.issues.push({
        code: 'custom',
        input: request,
        path: ['users'],
        message: `Give the demo data (demoToday) at least ${DEMO_MIN_PEOPLE} users.`,
      });
    }
  });

/** A position of the unfiltered completion list (0 = newest); see Mutations in store.ts. */
const positionSchema = z.int().min(0);

const mutationsSchema = z.strictObject({
  addCompletions: z.int().min(0).max(100_000).optional(),
  addBackdatedCompletions: z
    .strictObject({ count: z.int().min(1).max(10_000), daysBeforeNewest: z.int().min(1).max(3650) })
    .optional(),
  removeCompletions: z.int().min(0).optional(),
  removeCompletionsAt: z.array(positionSchema).optional(),
  insertCompletionsAt: z
    .array(
      z.strictObject({
        position: positionSchema,
        fields: z
          .strictObject({
            user_id: z.string().optional(),
            training_id: z.string().optional(),
            instructor_id: z.string().optional(),
            groupTraining_id: z.string().optional(),
            specialExpirationDateNumber: z.int().optional(),
          })
          .optional(),
      }),
    )
    .optional(),
  duplicateCompletionsAt: z.array(positionSchema).optional(),
  renameEquipmentTypes: z.array(z.strictObject({ id: z.string(), title: z.string() })).optional(),
  removeEquipmentTypes: z.array(z.string()).optional(),
  editSchedules: z
    .array(
      z.strictObject({
        typeId: z.string(),
        scheduleId: z.string(),
        fields: z.strictObject({
          id: z.string().optional(),
          name: z.string().optional(),
          instructions: z.string().optional(),
        }),
      }),
    )
    .optional(),
  editMetafields: z
    .array(
      z.strictObject({
        typeId: z.string(),
        metafieldId: z.string(),
        fields: z.strictObject({
          id: z.string().optional(),
          name: z.string().optional(),
          type: z.string().optional(),
        }),
      }),
    )
    .optional(),
});
const faultSettingsSchema = z.strictObject({
  latencyMs: z.int().min(0).max(MAX_LATENCY_MS).optional(),
  requestBudget: z.int().min(0).nullable().optional(),
  queue: z
    .array(
      z.strictObject({
        fault: z.enum(FAULT_KINDS),
        method: z.enum(API_METHOD_NAMES).optional(),
        times: z.int().min(1).optional(),
      }),
    )
    .optional(),
  redirect: z
    .strictObject({
      status: z.literal(REDIRECT_STATUSES),
      to: z.url({ protocol: /^https?$/ }).refine((url) => {
        const { pathname, search, hash } = new URL(url);
        return pathname === '/' && !search && !hash;
      }, 'an origin only (scheme, host and port)'),
      fromRequest: z.int().min(1).optional(),
    })
    .nullable()
    .optional(),
  insertDuringPaging: z
    .strictObject({ afterRequests: z.int().min(1), count: z.int().min(1).max(100_000) })
    .nullable()
    .optional(),
  insertOnTopAfterPageOne: z
    .strictObject({ count: z.int().min(1).max(100_000) })
    .nullable()
    .optional(),
  mutateAfterRequests: z
    .array(z.strictObject({ afterRequests: z.int().min(1), mutations: mutationsSchema }))
    .optional(),
});

export type CreateDatasetRequest = z.input<typeof createDatasetSchema>;
export type FaultSettingsRequest = z.input<typeof faultSettingsSchema>;
export type MutationsRequest = z.input<typeof mutationsSchema>;
export type { CurrentFaultSettings, FaultSettings, MutationsResult, RequestLogEntry };

export interface CreatedDataset {
  id: string;
  tokens: Record<TokenKind, string>;
}

export interface DatasetData {
  completions: Completion[];
  users: User[];
  equipmenttypes: EquipmentType[];
}

export interface RequestLog {
  requests: RequestLogEntry[];
  /** The most requests of this dataset being served at once since the log was last cleared. */
  maxInFlight: number;
}

export interface AdminResponse {
  status: number;
  body: unknown;
}

class AdminError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const DATASET_PATH = /^\/_admin\/datasets\/([^/]+)(?:\/(data|faults|mutations|requests))?$/;

export function handleAdminRequest(
  registry: DatasetRegistry,
  httpMethod: string,
  pathname: string,
  body: string,
): AdminResponse {
  try {
    return { status: 200, body: route(registry, httpMethod, pathname, body) };
  } catch (error) {
    if (error instanceof AdminError) return { status: error.status, body: { error: error.message } };
    if (error instanceof InvalidMutationError) return { status: 400, body: { error: error.message } };
    throw error;
  }
}

function route(registry: DatasetRegistry, httpMethod: string, pathname: string, body: string): unknown {
  if (pathname === '/_admin/datasets') {
    requireVerb(httpMethod, 'POST');
    return createDataset(registry, parseBody(body, createDatasetSchema));
  }
  const match = DATASET_PATH.exec(pathname);
  if (!match) throw new AdminError(404, `No admin endpoint at ${pathname}`);
  const datasetId = match[1]!;
  const dataset = registry.get(datasetId);
  if (!dataset) throw new AdminError(404, `No dataset ${JSON.stringify(datasetId)}`);

  switch (match[2]) {
    case undefined:
      requireVerb(httpMethod, 'DELETE');
      registry.delete(dataset.id);
      return { deleted: dataset.id };
    case 'data':
      requireVerb(httpMethod, 'GET');
      return datasetData(dataset);
    case 'faults':
      // GET shows what became of scheduled mutations since the PUT.
      if (httpMethod === 'GET') return dataset.faults.current();
      requireVerb(httpMethod, 'PUT');
      return replaceFaults(dataset, parseBody(body, faultSettingsSchema));
    case 'mutations':
      requireVerb(httpMethod, 'POST');
      return dataset.mutate(parseBody(body, mutationsSchema)) satisfies MutationsResult;
    default:
      if (httpMethod === 'DELETE') {
        dataset.clearRequestLog();
        return { cleared: true };
      }
      requireVerb(httpMethod, 'GET');
      return dataset.requestLog() satisfies RequestLog;
  }
}

function createDataset(
  registry: DatasetRegistry,
  request: z.output<typeof createDatasetSchema>,
): CreatedDataset {
  const dataset = registry.create({ ...DEFAULT_DATASET_OPTIONS, ...request });
  return { id: dataset.id, tokens: { ...dataset.tokens } };
}

function datasetData(dataset: Dataset): DatasetData {
  return {
    completions: [...dataset.completions],
    users: [...dataset.users],
    equipmenttypes: [...dataset.equipmentTypes],
  };
}

/**
 * Every field not given goes back to its default: the body describes the whole fault setting.
 * Scheduled mutations that no list could accept are refused now, not skipped when they fall due.
 */
function replaceFaults(
  dataset: Dataset,
  request: z.output<typeof faultSettingsSchema>,
): CurrentFaultSettings {
  const mutateAfterRequests = request.mutateAfterRequests ?? [];
  mutateAfterRequests.forEach((scheduled, index) => {
    try {
      checkMutationRules(scheduled.mutations);
    } catch (error) {
      if (!(error instanceof InvalidMutationError)) throw error;
      throw new AdminError(400, `mutateAfterRequests[${index}]: ${error.message}`);
    }
  });
  dataset.faults.replace({
    latencyMs: request.latencyMs ?? 0,
    requestBudget: request.requestBudget ?? null,
    queue: (request.queue ?? []).map((queued) => ({ ...queued, times: queued.times ?? 1 })),
    redirect: request.redirect
      ? { ...request.redirect, fromRequest: request.redirect.fromRequest ?? 1 }
      : null,
    insertDuringPaging: request.insertDuringPaging ?? null,
    insertOnTopAfterPageOne: request.insertOnTopAfterPageOne ?? null,
    mutateAfterRequests,
  });
  return dataset.faults.current();
}

function requireVerb(actual: string, expected: string): void {
  if (actual !== expected) throw new AdminError(405, `Use ${expected} here, not ${actual}`);
}

function parseBody<Schema extends z.ZodType>(body: string, schema: Schema): z.output<Schema> {
  let value: unknown;
  try {
    value = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw new AdminError(400, 'The body is not valid JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AdminError(400, z.prettifyError(parsed.error));
  return parsed.data;
}
