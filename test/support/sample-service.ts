/**
 * The typed client tests use to drive the sample service that global-setup started: create an
 * isolated dataset, read its exact data, inject faults, change data and read its request log, and
 * call the API itself over HTTP.
 */
import type {
  CreateDatasetRequest,
  CreatedDataset,
  CurrentFaultSettings,
  DatasetData,
  FaultSettings,
  FaultSettingsRequest,
  MutationsRequest,
  MutationsResult,
  RequestLog,
} from '../../dev/sample-service/admin';
import type { QuirksRequest } from '../../dev/sample-service/quirks';

export type {
  CreateDatasetRequest,
  CurrentFaultSettings,
  DatasetData,
  FaultSettings,
  FaultSettingsRequest,
  MutationsRequest,
  MutationsResult,
  QuirksRequest,
  RequestLog,
};
export type { RequestLogEntry } from '../../dev/sample-service/admin';
export type { Completion, EquipmentType, User } from '../../dev/sample-service/dataset';

export function sampleServiceUrl(): string {
  const url = process.env['SAMPLE_SERVICE_URL'];
  if (!url) {
    throw new Error(
      'SAMPLE_SERVICE_URL is not set: run tests through jest, whose globalSetup starts the service.',
    );
  }
  return url;
}

/** A dataset of the sample service: its own data, tokens, faults and request log. */
export class SampleDataset {
  private constructor(
    readonly id: string,
    readonly tokens: CreatedDataset['tokens'],
  ) {}

  static async create(options: CreateDatasetRequest = {}): Promise<SampleDataset> {
    const created = await admin<CreatedDataset>('POST', '/_admin/datasets', options);
    return new SampleDataset(created.id, created.tokens);
  }

  /** The data exactly as the API serves it (completions newest first). */
  data(): Promise<DatasetData> {
    return admin('GET', this.path('data'));
  }

  /** Replaces every fault setting; a field left out goes back to its default (none). */
  setFaults(settings: FaultSettingsRequest): Promise<CurrentFaultSettings> {
    return admin('PUT', this.path('faults'), settings);
  }

  /** The fault settings now, with what became of each scheduled mutation (mutateAfterRequests). */
  faults(): Promise<CurrentFaultSettings> {
    return admin('GET', this.path('faults'));
  }

  /**
   * Replaces every quirk (dev/sample-service/quirks.ts): refused methods, edited completions,
   * records missing from the full list, Retry-After, a page size cap.
   */
  setQuirks(quirks: QuirksRequest): Promise<unknown> {
    return admin('PUT', this.path('quirks'), quirks);
  }

  /** Changes the data; positional mutations name positions of the list as it is before the call. */
  mutate(mutations: MutationsRequest): Promise<MutationsResult> {
    return admin('POST', this.path('mutations'), mutations);
  }

  requestLog(): Promise<RequestLog> {
    return admin('GET', this.path('requests'));
  }

  async clearRequestLog(): Promise<void> {
    await admin('DELETE', this.path('requests'));
  }

  async delete(): Promise<void> {
    await admin('DELETE', this.path());
  }

  private path(suffix?: string): string {
    const base = `/_admin/datasets/${encodeURIComponent(this.id)}`;
    return suffix === undefined ? base : `${base}/${suffix}`;
  }
}

async function admin<T>(httpMethod: string, path: string, body?: unknown): Promise<T> {
  const request = () =>
    fetch(sampleServiceUrl() + path, {
      method: httpMethod,
      ...(body === undefined
        ? {}
        : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
  let response: Response;
  let retried = false;
  try {
    response = await request();
  } catch (error) {
    // Asked once more when the connection dropped before any answer (a kept-alive socket the server
    // closed while the test's thread was blocked, seen on a loaded machine): a read, or a deletion,
    // which the second time finds done (404) if the first did arrive. Any other change is never sent
    // twice.
    if (httpMethod !== 'GET' && httpMethod !== 'DELETE') throw error;
    response = await request();
    retried = true;
  }
  const text = await response.text();
  if (retried && httpMethod === 'DELETE' && response.status === 404) return undefined as T;
  if (!response.ok) throw new Error(`Admin ${httpMethod} ${path} failed with ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The raw body, for responses that are not JSON (injected faults). */
  text: string;
}

/** Calls an API method the way the contract allows: the request object as a POST body or a GET query. */
export async function callApi(
  method: string,
  requestObject: Record<string, unknown>,
  via: 'GET' | 'POST' = 'POST',
): Promise<ApiResponse> {
  const url = `${sampleServiceUrl()}/v1/${method}`;
  const json = JSON.stringify(requestObject);
  const response =
    via === 'GET'
      ? await fetch(`${url}?${encodeURIComponent(json)}`)
      : await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: json });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The parsed envelope of a call that is expected to answer JSON. */
export async function callApiJson<T = Record<string, unknown>>(
  method: string,
  requestObject: Record<string, unknown>,
  via: 'GET' | 'POST' = 'POST',
): Promise<T> {
  return JSON.parse((await callApi(method, requestObject, via)).text) as T;
}
