/**
 * A blocking HTTP client for Node, the shape of Apps Script's UrlFetchApp: the calling thread
 * waits (Atomics.wait) while a worker thread performs the requests concurrently. Both the
 * emulator's UrlFetchApp and the Node transport of the service client are built on it, so the
 * same synchronous code that runs on Google's side runs here over real HTTP.
 */
import * as path from 'node:path';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

export interface SyncHttpRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

export interface SyncHttpResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** A request that got no HTTP response at all (refused, unknown host, timeout, reset). */
export interface SyncHttpFailure {
  error: string;
}

export type SyncHttpResult = SyncHttpResponse | SyncHttpFailure;

export function isFailure(result: SyncHttpResult): result is SyncHttpFailure {
  return 'error' in result;
}

const DEFAULT_TIMEOUT_MS = 60_000;

let worker: Worker | undefined;

/**
 * Starts the worker thread now rather than at the first request: a thread takes tens of
 * milliseconds to boot, a cost of this emulation that no UrlFetchApp call on Google's side pays.
 */
export function startSyncHttpWorker(): void {
  sharedWorker();
}

function sharedWorker(): Worker {
  if (!worker) {
    // Plain CommonJS: the worker needs none of the loaders (tsx) the process was started with.
    worker = new Worker(path.join(__dirname, 'sync-http-worker.cjs'), { execArgv: [] });
    // The worker only ever runs while a caller is blocked on it; it must not keep the process alive.
    worker.unref();
  }
  return worker;
}

/** Performs all requests concurrently and returns their results in request order. */
export function requestAllSync(requests: readonly SyncHttpRequest[]): SyncHttpResult[] {
  if (requests.length === 0) return [];
  const signal = new SharedArrayBuffer(4);
  const flag = new Int32Array(signal);
  const { port1, port2 } = new MessageChannel();
  const timeoutMs = Math.max(...requests.map((r) => r.timeoutMs ?? DEFAULT_TIMEOUT_MS));
  sharedWorker().postMessage(
    { requests: requests.map((r) => ({ timeoutMs: DEFAULT_TIMEOUT_MS, ...r })), signal, port: port2 },
    [port2],
  );
  // The worker's own socket timeouts fire first; this bound only guards against a dead worker.
  const outcome = Atomics.wait(flag, 0, 0, timeoutMs + 5_000);
  const message = receiveMessageOnPort(port1);
  port1.close();
  if (outcome === 'timed-out' || !message) {
    throw new Error('The HTTP worker did not answer in time');
  }
  return message.message as SyncHttpResult[];
}
