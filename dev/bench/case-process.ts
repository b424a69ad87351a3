/**
 * Every case runs in a process of its own: the same fresh start for the add-on and the references
 * (no code warmed up, no garbage left by an earlier case), and a peak memory that is that case's
 * alone. The parent sends the case as an argument and gets its result back over IPC.
 */
import { fork } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { type CaseResult, type CaseSpec, runCase } from './cases';

type ChildMessage = { ok: true; result: CaseResult } | { ok: false; error: string };

export function runInChildProcess(spec: CaseSpec): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [JSON.stringify(spec)], {
      execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
      // Whatever a case prints goes to stderr: stdout carries only the tables.
      stdio: ['ignore', 2, 'inherit', 'ipc'],
    });
    let answer: ChildMessage | undefined;
    child.on('message', (message: ChildMessage) => (answer = message));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (answer?.ok) resolve(answer.result);
      else if (answer) reject(new Error(answer.error));
      else reject(new Error(`The case process exited (code ${code}, signal ${signal}) without a result.`));
    });
  });
}

if (require.main === module) {
  const send = (message: ChildMessage) => process.send!(message, () => process.disconnect());
  runCase(JSON.parse(process.argv[2]!) as CaseSpec).then(
    (result) => send({ ok: true, result }),
    (error: unknown) =>
      send({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
}
