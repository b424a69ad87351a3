/**
 * `npm run bench`: what the add-on costs where it counts on Google's side (HTTP requests and
 * Spreadsheet service calls, each a round trip, and the seconds the emulator's cost model prices
 * them at), against the expert and competent reference scripts doing the same import (the sequential
 * and naive ones beside them as context) and against the lower bounds, on the sample service with a
 * fixed latency per request. Prints markdown tables, writes them into docs/performance.md between its
 * markers and the record into bench/results.json, and exits non-zero when a target is missed, so that
 * it can gate.
 *
 * `npm run bench -- --calibration FILE` prices with the figures a calibration run on Google measured
 * (dev/calibration) in place of the published ones.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { build } from '../build';
import {
  calibratedFiguresFromFile,
  type CostFigures,
  type Preset,
  PRESETS,
  presetFigures,
} from '../emulator/runtime/cost-model';
import { DEFAULT_IMPORT_OPTIONS } from '../../src/platform/settings-store';
import { startSampleServiceProcess } from '../sample-service/process';
import { runInChildProcess } from './case-process';
import type { CaseResult, CaseSpec } from './cases';
import { createDataset, datasetUserIds, deleteDataset } from './datasets';
import type { BenchConfig, BuildMeasurement, Measurement } from './measurement';
import { type Environment, renderJson, renderMarkdown, withTables } from './report';
import { checkTargets } from './targets';

/** The published figures, or a calibration's measurements in their place (all three presets). */
function costFigures(calibrationFile: string | null): Record<Preset, CostFigures> {
  return Object.fromEntries(
    PRESETS.map((preset) => [
      preset,
      calibrationFile === null ? presetFigures(preset) : calibratedFiguresFromFile(calibrationFile, preset),
    ]),
  ) as Record<Preset, CostFigures>;
}

function calibrationArgument(argv: readonly string[]): string | null {
  const index = argv.indexOf('--calibration');
  if (index === -1) return null;
  const file = argv[index + 1];
  if (file === undefined)
    throw new Error('--calibration needs a file: the JSON document dev/calibration printed.');
  return path.resolve(file);
}

const CALIBRATION = calibrationArgument(process.argv.slice(2));
const CONFIG: BenchConfig = {
  figures: costFigures(CALIBRATION),
  calibration: CALIBRATION && path.relative(process.cwd(), CALIBRATION),
  latencyMs: 100,
  // The add-on's default "pages at once"; the lower bound uses the same.
  batchSize: DEFAULT_IMPORT_OPTIONS.batchSize,
  seed: 8,
  users: 50,
  sizes: [1_000, 10_000, 100_000],
  // One run on a shared 2-core machine can be off by a fifth either way; the median of five is not.
  timedRuns: 5,
};
/** The naive reference's cost grows linearly with the records; beyond this it only takes time. */
const NAIVE_LARGEST = 10_000;
const REFRESH_NEW_RECORDS = 20;
const EQUIPMENT_TYPES = 300;
/** A formula over a team's worth of records: within what a cell may read in its 30 seconds. */
const CUSTOM_FUNCTION_RECORDS = 10_000;
const RESULTS_FILE = path.resolve(__dirname, '../../bench/results.json');
/** The one file the bench rewrites: the tables between its markers. */
const PERFORMANCE_DOC = path.resolve(__dirname, '../../docs/performance.md');

const progress = (line: string) => process.stderr.write(`${line}\n`);

async function runWithProgress(label: string, spec: CaseSpec): Promise<CaseResult> {
  const startedMs = performance.now();
  progress(`bench: ${label}…`);
  const result = await runInChildProcess(spec);
  progress(`bench: ${label} done in ${((performance.now() - startedMs) / 1000).toFixed(1)} s`);
  return result;
}

async function completionCases(serviceUrl: string, records: number): Promise<Measurement[]> {
  const dataset = await createDataset(serviceUrl, {
    seed: CONFIG.seed,
    users: CONFIG.users,
    completions: records,
    latencyMs: CONFIG.latencyMs,
  });
  try {
    const userIds = await datasetUserIds(dataset);
    const common = {
      dataset,
      records,
      expectedUserRequests: userIds.size,
      costFigures: CONFIG.figures.central,
    };
    const size = records.toLocaleString('en-US');
    const timed = records === Math.max(...CONFIG.sizes);
    const specs: Array<[string, CaseSpec, number]> = [];
    if (records <= NAIVE_LARGEST) {
      specs.push([
        `full import of ${size}, naive reference`,
        { kind: 'reference full import', reference: 'naive', ...common },
        1,
      ]);
    }
    specs.push([
      `full import of ${size}, sequential reference`,
      { kind: 'reference full import', reference: 'sequential', ...common },
      timed ? CONFIG.timedRuns : 1,
    ]);
    // Once each: the add-on is compared with them in Google seconds, which the virtual clock makes
    // the same in every run (the sequential reference's timed runs serve this machine's fetch phase).
    for (const reference of ['competent', 'expert'] as const) {
      specs.push([
        `full import of ${size}, ${reference} reference`,
        { kind: 'reference full import', reference, ...common },
        1,
      ]);
    }
    if (records === CUSTOM_FUNCTION_RECORDS) {
      specs.push([
        `SAFETY_COMPLETIONS over ${size}`,
        { kind: 'custom function', batchSize: CONFIG.batchSize, ...common },
        1,
      ]);
    }
    // Last: the refresh on top of the largest import adds records to the dataset.
    const refresh =
      records === Math.max(...CONFIG.sizes)
        ? { newRecords: REFRESH_NEW_RECORDS, knownUserIds: [...userIds] }
        : undefined;
    const addOn: CaseSpec = { kind: 'add-on full import', batchSize: CONFIG.batchSize, ...common };
    if (refresh) {
      // The refresh changes the data, so the runs before the last import without it.
      if (timed && CONFIG.timedRuns > 1)
        specs.push([`full import of ${size}, add-on`, addOn, CONFIG.timedRuns - 1]);
      specs.push([
        `full import of ${size}, add-on, then a refresh with ${REFRESH_NEW_RECORDS} new`,
        { ...addOn, refresh },
        1,
      ]);
    } else {
      specs.push([`full import of ${size}, add-on`, addOn, timed ? CONFIG.timedRuns : 1]);
    }
    const runs: Measurement[] = [];
    for (const [label, spec, times] of specs) {
      for (let run = 1; run <= times; run++) {
        const suffix = times > 1 ? ` (run ${run} of ${times})` : '';
        runs.push(...measurementsOf(await runWithProgress(`${label}${suffix}`, spec)));
      }
    }
    return medianRuns(runs);
  } finally {
    await deleteDataset(dataset);
  }
}

async function equipmentCase(serviceUrl: string): Promise<Measurement[]> {
  const dataset = await createDataset(serviceUrl, {
    seed: CONFIG.seed,
    completions: 0,
    equipmentTypes: EQUIPMENT_TYPES,
    latencyMs: CONFIG.latencyMs,
  });
  try {
    const spec: CaseSpec = {
      kind: 'equipment import',
      costFigures: CONFIG.figures.central,
      dataset,
      batchSize: CONFIG.batchSize,
      types: EQUIPMENT_TYPES,
    };
    return measurementsOf(await runWithProgress(`equipment import of ${EQUIPMENT_TYPES} types`, spec));
  } finally {
    await deleteDataset(dataset);
  }
}

/** The tables written into docs/performance.md, formatted as `npm run lint` checks it. */
async function writeTablesInto(file: string, tables: string): Promise<void> {
  const document = withTables(fs.readFileSync(file, 'utf8'), tables);
  const options = await prettier.resolveConfig(file);
  fs.writeFileSync(file, await prettier.format(document, { ...options, filepath: file }));
}

/** One measurement per scenario and implementation: the run with the median fetch phase. */
function medianRuns(runs: readonly Measurement[]): Measurement[] {
  const groups = new Map<string, Measurement[]>();
  for (const run of runs) {
    const key = `${run.scenario}|${run.implementation}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => (a.fetchMs ?? a.runMs) - (b.fetchMs ?? b.runMs));
    return sorted[Math.floor((sorted.length - 1) / 2)]!;
  });
}

function measurementsOf(result: CaseResult): Measurement[] {
  if (!('measurements' in result)) throw new Error('A case that imports gave no measurements.');
  return result.measurements;
}

function buildOf(result: CaseResult): BuildMeasurement {
  if (!('build' in result)) throw new Error('The build case gave no build measurement.');
  return result.build;
}

function environment(): Environment {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  let commit: string;
  try {
    commit = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? ' (with uncommitted changes)' : ''}`;
  } catch {
    commit = 'unknown';
  }
  const cpus = os.cpus();
  return { commit, node: process.version, cpu: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}` };
}

async function main(): Promise<number> {
  progress('bench: building dist/…');
  await build();
  const service = await startSampleServiceProcess();
  let results;
  try {
    const measurements: Measurement[] = [];
    for (const records of CONFIG.sizes) measurements.push(...(await completionCases(service.url, records)));
    measurements.push(...(await equipmentCase(service.url)));
    results = {
      config: CONFIG,
      measurements,
      build: buildOf(await runWithProgress('loading dist/Code.js', { kind: 'build' })),
    };
  } finally {
    await service.stop();
  }
  const checks = checkTargets(results);
  const env = environment();
  const tables = renderMarkdown(results, checks, env);
  console.log(tables);
  await writeTablesInto(PERFORMANCE_DOC, tables);
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(RESULTS_FILE, renderJson(results, checks, env));
  const missed = checks.filter((check) => !check.holds);
  progress(
    `bench: tables in ${path.relative(process.cwd(), PERFORMANCE_DOC)}, results in ${path.relative(process.cwd(), RESULTS_FILE)}`,
  );
  progress(missed.length ? `bench: ${missed.length} target(s) missed` : 'bench: every target holds');
  return missed.length ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 2;
  },
);
