/** The command line: the listening line, --demo, bad options, and stopping on SIGTERM and end of stdin. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const MAIN = path.resolve(__dirname, '..', '..', 'dev', 'sample-service', 'main.ts');

function start(...args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', pathToFileURL(require.resolve('tsx')).href, MAIN, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Resolves with the first `count` lines the process writes to stdout; keeps reading the rest. */
function firstLines(child: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const lines = text.split('\n');
      if (lines.length > count) resolve(lines.slice(0, count));
    });
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code} after printing ${JSON.stringify(text)}`)),
    );
  });
}

test('--demo prints the listening line first, then a token that works; SIGTERM stops it cleanly', async () => {
  const child = start('--demo');
  try {
    const [listening, demo] = await firstLines(child, 2);
    const url = /^sample service listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(listening!)?.[1];
    expect(url).toBeDefined();
    const token = /token: ([A-Za-z0-9]{24,})$/.exec(demo!)?.[1];
    expect(token).toBeDefined();
    const response = await fetch(`${url}/v1/equipmenttypes.list`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(await response.json()).toMatchObject({ ok: true, equipmenttypes: expect.any(Array) });
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
  } finally {
    child.kill('SIGKILL');
  }
});

test('with --exit-on-stdin-end it stops when its stdin closes', async () => {
  const child = start('--exit-on-stdin-end');
  try {
    const [listening] = await firstLines(child, 1);
    expect(listening).toMatch(/^sample service listening on http:\/\/127\.0\.0\.1:\d+$/);
    const exited = once(child, 'exit');
    child.stdin!.end();
    expect(await exited).toEqual([0, null]);
  } finally {
    child.kill('SIGKILL');
  }
});

test('an invalid port is refused with exit code 2', async () => {
  const child = start('--port', 'eighty');
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(2);
});
