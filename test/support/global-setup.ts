/**
 * Starts the sample service once for the whole jest run, as a process of its own: the add-on's code
 * blocks its thread on synchronous HTTP, so the server must never share an event loop with a test.
 * Workers find it through SAMPLE_SERVICE_URL (jest workers inherit the environment set here).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where global-teardown finds the process: jest runs both hooks in the same global context. */
export const SAMPLE_SERVICE_PROCESS = Symbol.for('safety-sync.sample-service-process');
export type ProcessSlot = { [SAMPLE_SERVICE_PROCESS]?: ChildProcess };

const STARTUP_TIMEOUT_MS = 15_000;
const LISTENING_LINE = /^sample service listening on (http:\/\/\S+)$/;
const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');

export default async function globalSetup(): Promise<void> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(require.resolve('tsx')).href,
      path.join(REPOSITORY_ROOT, 'dev', 'sample-service', 'main.ts'),
      '--port',
      '0',
      '--exit-on-stdin-end',
    ],
    // stdin stays open for the whole run; if jest dies without teardown, its end stops the server.
    { cwd: REPOSITORY_ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const url = await waitUntilListening(child);
  // From here on the server should be quiet; let anything it still says reach the developer.
  child.stdout!.resume();
  child.stderr!.pipe(process.stderr);
  process.env['SAMPLE_SERVICE_URL'] = url;
  process.env['SAMPLE_SERVICE_PID'] = String(child.pid);
  (globalThis as ProcessSlot)[SAMPLE_SERVICE_PROCESS] = child;
}

function waitUntilListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`The sample service did not start: ${reason}\n--- its stderr ---\n${stderr}`));
    };
    const timer = setTimeout(
      () => fail(`no listening line within ${STARTUP_TIMEOUT_MS} ms`),
      STARTUP_TIMEOUT_MS,
    );
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => fail(error.message));
    // 'close' rather than 'exit': it comes after stderr has been read to the end.
    child.once('close', (code, signal) => fail(`it exited (code ${code}, signal ${signal})`));
    const onStdout = (chunk: string) => {
      stdout += chunk;
      const lineEnd = stdout.indexOf('\n');
      if (lineEnd === -1) return;
      const firstLine = stdout.slice(0, lineEnd).trim();
      const match = LISTENING_LINE.exec(firstLine);
      if (!match) return fail(`unexpected first line ${JSON.stringify(firstLine)}`);
      clearTimeout(timer);
      child.removeAllListeners('close');
      child.removeAllListeners('error');
      child.stdout!.off('data', onStdout);
      child.stderr!.removeAllListeners('data');
      resolve(match[1]!);
    };
    child.stdout!.setEncoding('utf8').on('data', onStdout);
  });
}
