/**
 * Starts the sample service as a process of its own, for jest's global setup and `npm start`: the
 * add-on's code blocks its thread on synchronous HTTP, so the server must never share its event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const STARTUP_TIMEOUT_MS = 15_000;
const GRACE_PERIOD_MS = 5_000;
const LISTENING_LINE = /^sample service listening on (http:\/\/\S+)$/;

export interface SampleServiceProcess {
  url: string;
  /** Stops the server and waits until it has exited. */
  stop(): Promise<void>;
}

export async function startSampleServiceProcess(): Promise<SampleServiceProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(require.resolve('tsx')).href,
      path.join(__dirname, 'main.ts'),
      '--port',
      '0',
      '--exit-on-stdin-end',
    ],
    // stdin stays open while we run; if we die without stopping it, its end stops the server.
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const url = await waitUntilListening(child);
  // From here on the server should be quiet; let anything it still says reach the developer.
  child.stdout!.resume();
  child.stderr!.pipe(process.stderr);
  return { url, stop: () => stopProcess(child) };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  if (!(await settlesWithin(exited, GRACE_PERIOD_MS))) {
    child.kill('SIGKILL');
    await exited;
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
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
