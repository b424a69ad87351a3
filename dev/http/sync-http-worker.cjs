// Worker side of the blocking HTTP client (see sync-http.ts): performs one batch of requests
// concurrently on its own event loop, then wakes the thread that is blocked waiting for it.
'use strict';
const http = require('node:http');
const https = require('node:https');
const { parentPort } = require('node:worker_threads');

function performOne(request) {
  return new Promise((resolve) => {
    let url;
    try {
      url = new URL(request.url);
    } catch {
      resolve({ error: `Invalid argument: ${request.url}` });
      return;
    }
    const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
    if (!client) {
      resolve({ error: `Invalid argument: unsupported protocol ${url.protocol}` });
      return;
    }
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    const headers = { ...request.headers };
    if (body !== undefined) headers['content-length'] = String(body.length);
    const outgoing = client.request(
      url,
      { method: request.method, headers, timeout: request.timeoutMs },
      (incoming) => {
        const chunks = [];
        incoming.on('data', (chunk) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        incoming.on('error', (err) => resolve({ error: `Connection interrupted: ${err.message}` }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('timed out')));
    outgoing.on('error', (err) => resolve({ error: describeNetworkError(url, err) }));
    if (body !== undefined) outgoing.write(body);
    outgoing.end();
  });
}

function describeNetworkError(url, err) {
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `DNS error: ${url.protocol}//${url.host}`;
  if (err.code === 'ECONNREFUSED') return `Address unavailable: ${url.protocol}//${url.host}`;
  return `Request failed for ${url.protocol}//${url.host}: ${err.message}`;
}

parentPort.on('message', async ({ requests, signal, port }) => {
  const results = await Promise.all(requests.map(performOne));
  port.postMessage(results);
  const flag = new Int32Array(signal);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
