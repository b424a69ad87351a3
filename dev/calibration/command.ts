/**
 * `npm run calibrate`: what a deployer runs once with their Google account to settle the emulator's
 * readings and measure its cost figures on Google (docs/google-as-it-is.md, "Calibrating").
 *
 *   npm run calibrate [-- --script-id ID]
 *     builds the calibration project, pushes it with clasp to the script bound to the deployer's test
 *     spreadsheet, and runs runCalibration through `clasp run` (the project deployed as API
 *     executable); otherwise says how to run it from the editor and where to put its answer.
 *   npm run calibrate -- --answer FILE [--account consumer|workspace]
 *     checks the answer runCalibration printed, stamps the day and the account kind (asked when not
 *     given) and writes it to dev/calibration/google-answer.json, which the emulator then reads.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline/promises';

import { GOOGLE_ANSWER_FILE, type GoogleAnswer, readingsFromCalibration } from '../emulator/readings';
import { type Calibration, parseCalibration } from '../emulator/runtime/cost-model';
import { buildCalibration } from './build';

const CLASP_PROJECT = path.join(__dirname, '.clasp.json');
const PLACEHOLDER_SCRIPT_ID = 'REPLACE_WITH_YOUR_CALIBRATION_SCRIPT_ID';
const ACCOUNT_KINDS = ['consumer', 'workspace'] as const;
type AccountKind = (typeof ACCOUNT_KINDS)[number];

const SETUP = `One-time setup, with the Google account to calibrate on:
  1. npx clasp login
  2. Turn on the Apps Script API: https://script.google.com/home/usersettings
  3. Create a spreadsheet the calibration may scribble on, open Extensions → Apps Script, copy the
     Script ID from Project Settings, then: npm run calibrate -- --script-id SCRIPT_ID
  (dev/calibration/.clasp.json then holds your script id: do not commit it.)`;

const IN_THE_EDITOR = `Run it from the editor (clasp run needs the project deployed as API executable):
  1. Reload the test spreadsheet once (its onOpen probes developer metadata in AuthMode.LIMITED), then
     Calibration → Probe a dialog's return value (it records what google.script.run returned).
  2. npx clasp open-script (from dev/calibration), choose runCalibration, Run, and grant what it asks.
  3. Copy the JSON document from the execution log (from { to }) into a file, say answer.json.
  4. npm run calibrate -- --answer answer.json --account consumer   (or workspace)`;

export interface AnswerOptions {
  answerFile: string;
  account: AccountKind;
  /** Where the answer goes; default dev/calibration/google-answer.json. */
  outFile?: string;
  /** The day to stamp; default today (UTC). */
  today?: Date;
}

/** Checks the answer, stamps it and writes it; returns what was written. */
export function recordAnswer(options: AnswerOptions): GoogleAnswer {
  const calibration = parseCalibration(fs.readFileSync(options.answerFile, 'utf8'), options.answerFile);
  const answer: GoogleAnswer = {
    ...calibration,
    recordedOn: (options.today ?? new Date()).toISOString().slice(0, 10),
    accountKind: options.account,
  };
  fs.writeFileSync(options.outFile ?? GOOGLE_ANSWER_FILE, `${JSON.stringify(answer, null, 2)}\n`);
  return answer;
}

/** One line per behaviour: what the answer settled, or that the stricter reading stays. */
export function describeSettled(calibration: Calibration): string[] {
  const settled = readingsFromCalibration(calibration);
  const names = Object.keys(settled) as Array<keyof typeof settled>;
  return names.length === 0
    ? ['No behaviour settled: every reading stays the stricter one.']
    : names.map((name) => `${name}: ${String(settled[name])}`);
}

function optionValue(args: readonly string[], name: string): string | undefined {
  const index = args.indexOf(name);
  if (index === -1) return undefined;
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value.`);
  return value;
}

async function accountKind(given: string | undefined): Promise<AccountKind> {
  let answer = given;
  if (answer === undefined) {
    if (!process.stdin.isTTY)
      throw new Error('Say which account it was measured on: --account consumer or --account workspace.');
    const prompt = readline.createInterface({ input: process.stdin, output: process.stdout });
    answer = (
      await prompt.question(
        'Measured on a consumer (gmail.com) or a Workspace account? [consumer/workspace] ',
      )
    ).trim();
    prompt.close();
  }
  if (!(ACCOUNT_KINDS as readonly string[]).includes(answer))
    throw new Error(`The account kind is consumer or workspace, not ${JSON.stringify(answer)}.`);
  return answer as AccountKind;
}

/** The script id .clasp.json holds, after writing the one given; null while it is the placeholder. */
function scriptId(given: string | undefined): string | null {
  if (given !== undefined)
    fs.writeFileSync(CLASP_PROJECT, `${JSON.stringify({ scriptId: given, rootDir: 'build' }, null, 2)}\n`);
  if (!fs.existsSync(CLASP_PROJECT)) return null;
  const { scriptId: id } = JSON.parse(fs.readFileSync(CLASP_PROJECT, 'utf8')) as { scriptId?: string };
  return id && id !== PLACEHOLDER_SCRIPT_ID ? id : null;
}

function clasp(args: string[], capture = false): { ok: boolean; stdout: string } {
  const result = spawnSync('npx', ['clasp', ...args], {
    cwd: __dirname,
    encoding: 'utf8',
    stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit',
  });
  return { ok: result.status === 0, stdout: result.stdout ?? '' };
}

async function pushAndRun(args: readonly string[]): Promise<void> {
  if (scriptId(optionValue(args, '--script-id')) === null) {
    console.log(SETUP);
    process.exitCode = 1;
    return;
  }
  await buildCalibration();
  if (!clasp(['push', '--force']).ok) throw new Error('clasp push failed: see above (npx clasp login?).');
  const run = clasp(['run-function', 'runCalibration', '--json'], true);
  const document = run.ok ? calibrationInClaspOutput(run.stdout) : null;
  if (document === null) {
    console.log(IN_THE_EDITOR);
    return;
  }
  const answerFile = path.join(__dirname, 'build', 'answer.json');
  fs.writeFileSync(answerFile, document);
  report(recordAnswer({ answerFile, account: await accountKind(optionValue(args, '--account')) }));
}

/**
 * The calibration document in what `clasp run-function --json` printed: runCalibration's return value,
 * a JSON string, wherever clasp's answer holds it; null when it holds none (the run failed).
 */
export function calibrationInClaspOutput(stdout: string): string | null {
  const isCalibration = (value: unknown) =>
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'safety-sync-calibration';
  const find = (value: unknown): string | null => {
    if (typeof value === 'string') {
      try {
        return isCalibration(JSON.parse(value)) ? value : null;
      } catch {
        return null;
      }
    }
    if (isCalibration(value)) return JSON.stringify(value);
    if (typeof value !== 'object' || value === null) return null;
    for (const inner of Object.values(value)) {
      const found = find(inner);
      if (found !== null) return found;
    }
    return null;
  };
  // The whole output, else what lies between its first { and its last }.
  for (const json of [stdout.trim(), /\{[\s\S]*\}/.exec(stdout)?.[0]]) {
    try {
      const found = json === undefined ? null : find(JSON.parse(json));
      if (found !== null) return found;
    } catch {
      // Not JSON: try the next reading.
    }
  }
  return null;
}

function report(answer: GoogleAnswer): void {
  console.log([`Recorded ${GOOGLE_ANSWER_FILE}:`, ...describeSettled(answer)].join('\n  '));
}

export async function main(args: readonly string[]): Promise<void> {
  const answerFile = optionValue(args, '--answer');
  if (answerFile === undefined) return pushAndRun(args);
  report(recordAnswer({ answerFile, account: await accountKind(optionValue(args, '--account')) }));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
