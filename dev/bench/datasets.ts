/**
 * The sample service's admin API as the bench uses it: datasets with a fixed latency per request,
 * the user ids they hold (to know how many users.info requests an import should send), and new
 * completions on top for the incremental refresh.
 */
import type {
  CreateDatasetRequest,
  CreatedDataset,
  DatasetData,
  MutationsResult,
} from '../sample-service/admin';

/**
 * What a case needs to reach a dataset: the service, the dataset and its valid token, and the latency
 * it answers with, which the emulator also prices on its virtual clock.
 */
export interface DatasetHandle {
  serviceUrl: string;
  id: string;
  token: string;
  latencyMs: number;
}

async function admin<T>(serviceUrl: string, httpMethod: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${serviceUrl}/_admin${path}`, {
    method: httpMethod,
    ...(body === undefined
      ? {}
      : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`Sample service: ${httpMethod} /_admin${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export async function createDataset(
  serviceUrl: string,
  options: CreateDatasetRequest,
): Promise<DatasetHandle> {
  const created = await admin<CreatedDataset>(serviceUrl, 'POST', '/datasets', options);
  return { serviceUrl, id: created.id, token: created.tokens.valid, latencyMs: options.latencyMs ?? 0 };
}

export async function deleteDataset(dataset: DatasetHandle): Promise<void> {
  await admin(dataset.serviceUrl, 'DELETE', `/datasets/${encodeURIComponent(dataset.id)}`);
}

/** Every user and instructor id the completions name: what a full import has to look up. */
export function userIdsOf(completions: DatasetData['completions']): Set<string> {
  return new Set(
    completions.flatMap((completion) => [completion.user_id, completion.instructor_id]).filter(Boolean),
  );
}

/** The dataset's data exactly as the API serves it. */
export function datasetData(dataset: DatasetHandle): Promise<DatasetData> {
  return admin<DatasetData>(dataset.serviceUrl, 'GET', `/datasets/${encodeURIComponent(dataset.id)}/data`);
}

export async function datasetUserIds(dataset: DatasetHandle): Promise<Set<string>> {
  return userIdsOf((await datasetData(dataset)).completions);
}

/** Adds `count` completions dated after every existing one (they come first in the listing). */
export async function addNewestCompletions(
  dataset: DatasetHandle,
  count: number,
): Promise<MutationsResult['added']> {
  const path = `/datasets/${encodeURIComponent(dataset.id)}/mutations`;
  const result = await admin<MutationsResult>(dataset.serviceUrl, 'POST', path, { addCompletions: count });
  return result.added;
}
