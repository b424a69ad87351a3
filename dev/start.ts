/**
 * `npm start`: the add-on's whole job on this machine, with no Google account and no network but
 * loopback. It builds dist/ (what clasp pushes), starts the sample service with its demo data as of
 * today (demo-dataset.ts: plausible people, trainings and equipment), opens a new spreadsheet in the
 * Apps Script emulator whose clock reads now, connects it through the add-on's own Settings, runs the menu actions
 * a safety manager would, prints a summary and writes an HTML snapshot of the workbook, and beside it
 * the e-mail digest its scheduled refresh would send.
 *
 *   npm start
 *   npm start -- --people 200 --time-zone America/New_York --out out/demo.html
 *   SAFETY_SYNC_TOKEN=… npm start -- --base-url https://safety.example.com   (a real service)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './build';
import { createEmulator, type Emulator, loadDist } from './emulator';
import { renderWorkbookHtml } from './emulator/snapshot';
import type { CreatedDataset, DatasetData } from './sample-service/admin';
import {
  DEMO_DATASET_OPTIONS,
  DEMO_MIN_PEOPLE,
  DEMO_TRAININGS,
  demoLastInspections,
} from './sample-service/demo-dataset';
import { startSampleServiceProcess } from './sample-service/process';
import { fillDemoRoster } from './demo-roster';
import { cellA1, columnTitled } from './workbook-typing';

const ROOT = path.resolve(__dirname, '..');

export interface Connection {
  baseUrl: string;
  token: string;
}

/** The sample service's demo dataset a run reads, and the day it was made for. */
export interface DemoDataset {
  serviceUrl: string;
  datasetId: string;
  /** YYYY-MM-DD. */
  today: string;
}

/** The calendar day (YYYY-MM-DD) of an instant in a time zone: what the add-on calls today. */
export function dayIn(timeZone: string, epochMs: number): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(epochMs);
}

/** Creates the demo data as of `today` in the sample service at `serviceUrl`. */
export async function createDemoDataset(
  serviceUrl: string,
  today: string,
  people: number = DEMO_DATASET_OPTIONS.users,
): Promise<{ connection: Connection; demo: DemoDataset }> {
  const response = await fetch(`${serviceUrl}/_admin/datasets`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ seed: DEMO_DATASET_OPTIONS.seed, users: people, demoToday: today }),
  });
  if (!response.ok) throw new Error(`The sample service refused the demo data: ${await response.text()}`);
  const dataset = (await response.json()) as CreatedDataset;
  return {
    connection: { baseUrl: serviceUrl, token: dataset.tokens.valid },
    demo: { serviceUrl, datasetId: dataset.id, today },
  };
}

type Step = { done: boolean; summary: string };

/** What a user does in the import dialog: Import, then the dialog continues until all is in. */
function importCompletions(emulator: Emulator, spreadsheetId: string): string {
  emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Import completed trainings…');
  let step = emulator.callServer(spreadsheetId, 'startCompletionsImport', {}) as Step;
  while (!step.done) step = emulator.callServer(spreadsheetId, 'continueCompletionsImport') as Step;
  return step.summary;
}

/**
 * The manager records the last inspection of every schedule the demo says was inspected (a few never
 * were) and asks for the upcoming inspections again. Returns how many were recorded.
 */
async function recordInspections(
  emulator: Emulator,
  spreadsheetId: string,
  demo: DemoDataset,
): Promise<number> {
  const response = await fetch(`${demo.serviceUrl}/_admin/datasets/${demo.datasetId}/data`);
  const data = (await response.json()) as DatasetData;
  const lastInspected = demoLastInspections(data.equipmenttypes, {
    seed: DEMO_DATASET_OPTIONS.seed,
    today: demo.today,
  });
  const sheetName = 'Inspection schedules';
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  const [header = [], ...rows] = workbook.sheet(sheetName).displayValues();
  const idColumn = columnTitled(header, 'Schedule ID', sheetName);
  const dateColumn = columnTitled(header, 'Last inspected', sheetName);
  let recorded = 0;
  rows.forEach((row, index) => {
    const date = lastInspected.get(row[idColumn] ?? '');
    if (!date) return;
    workbook.typeValues(cellA1(sheetName, dateColumn, index + 2), [[date]]);
    recorded++;
  });
  emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Show upcoming inspections');
  return recorded;
}

/**
 * The training coordinator fills in the Trainings tab, the catalogue: each training's name, validity
 * and whether it is required (the expiring window stays the setting's), and asks for the training
 * status again. Returns how many trainings were filled in.
 */
function fillTrainingCatalogue(emulator: Emulator, spreadsheetId: string): number {
  const sheetName = 'Trainings';
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  const [header = [], ...rows] = workbook.sheet(sheetName).displayValues();
  const idColumn = columnTitled(header, 'Training ID', sheetName);
  const name = columnTitled(header, 'Name', sheetName);
  const validity = columnTitled(header, 'Validity (months)', sheetName);
  const required = columnTitled(header, 'Required', sheetName);
  let filled = 0;
  rows.forEach((row, index) => {
    const training = DEMO_TRAININGS.find((each) => each.id === row[idColumn]);
    if (!training) return;
    const at = index + 2;
    workbook.typeValues(cellA1(sheetName, name, at), [[training.name]]);
    workbook.typeValues(cellA1(sheetName, validity, at), [[training.validityMonths ?? '']]);
    workbook.typeValues(cellA1(sheetName, required, at), [[training.required ? 'yes' : 'no']]);
    filled++;
  });
  emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Show training status');
  return filled;
}

/**
 * One example of each custom function, typed into a "Formulas" tab as a user would: the inputs on
 * top, then each function with the formula as text beside its live result.
 */
function fillFormulasTab(emulator: Emulator, spreadsheetId: string, today: string): void {
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  const userId = workbook.sheet('Completed trainings').displayValues()[1]![0]!;
  const equipmentTypeId = workbook.sheet('Inspection schedules').displayValues()[1]![0]!;
  const trainingId = workbook.sheet('Trainings').displayValues()[1]![0]!;
  emulator.callServer(spreadsheetId, 'setFormulaAccess', true);
  workbook.addSheet('Formulas', { rows: 400, columns: 30 });
  // A leading apostrophe keeps what follows as text, as in Sheets.
  workbook.typeValues('Formulas!A1:B7', [
    ['Inputs', ''],
    ['User ID', `'${userId}`],
    // A month end as the anchor: months without its day fall on their last day.
    ['Anchor date', `${Number(today.slice(0, 4)) - 1}-01-31`],
    ['Last inspected', daysBefore(today, 20)],
    ['Today', today],
    ['Training ID', `'${trainingId}`],
    ['As of', daysBefore(today, 365)],
  ]);
  const examples: Array<[number, string, string]> = [
    [9, 'Name of the user in B2', '=SAFETY_USER(B2)'],
    [10, 'Next monthly inspection (dom, every 30 days)', '=SAFETY_NEXT_INSPECTION("dom", B3, 30, B4, B5)'],
    [11, 'Status of that due date (14 days expiring)', '=SAFETY_INSPECTION_STATUS(C10, 14, B5)'],
    [12, 'Status of training B6 for the user in B2', '=SAFETY_TRAINING_STATUS(B2, B6)'],
    [13, 'Its status on the day in B7', '=SAFETY_TRAINING_STATUS(B2, B6, B7)'],
    [14, 'When it expires', '=SAFETY_TRAINING_EXPIRY(B2, B6)'],
    [16, `Schedules of equipment type ${equipmentTypeId}`, `=SAFETY_SCHEDULES("${equipmentTypeId}")`],
    [40, 'Every equipment type', '=SAFETY_EQUIPMENT_TYPES()'],
    [90, 'The newest 50 completions of the user in B2', '=SAFETY_COMPLETIONS(B2, , 50)'],
  ];
  workbook.typeValues('Formulas!A8:C8', [['Function', 'Formula', 'Result']]);
  for (const [row, what, formula] of examples) {
    workbook.typeValues(`Formulas!A${row}:C${row}`, [[what, `'${formula}`, formula]]);
  }
  workbook.recalculate();
}

function daysBefore(isoDate: string, days: number): string {
  return new Date(Date.parse(isoDate) - days * 86_400_000).toISOString().slice(0, 10);
}

export interface DemoRunOptions {
  connection: Connection;
  /** The sample service's demo data; null for a real service, whose workbook is left as imported. */
  demo: DemoDataset | null;
  /** The emulator's clock at the start, epoch ms. */
  startTime: number;
  timeZone: string;
}

export interface DemoRun {
  emulator: Emulator;
  spreadsheetId: string;
  completionsSummary: string;
  /** Last inspections recorded by hand, and trainings filled in on the catalogue. */
  recorded: number;
  catalogued: number;
  jobSeconds: number;
}

/**
 * The safety manager's first session, in the emulator on the built add-on (dist/): a new spreadsheet,
 * connected through Settings, equipment types and completed trainings imported; with the demo data,
 * the last inspections and the training catalogue filled in as the demo says, and a "Formulas" tab.
 */
export async function runDemo(options: DemoRunOptions): Promise<DemoRun> {
  // The demo shows the formulas at work: it takes the reading under which Google lets them read the
  // token lent to them (not documented; under the other they say so in their cells, see
  // docs/google-as-it-is.md).
  const emulator = createEmulator({
    ...loadDist(path.join(ROOT, 'dist')),
    startTime: options.startTime,
    readings: { documentStoresInCustomFunction: true },
  });
  const spreadsheetId = emulator.createSpreadsheet({ name: 'Safety Sync demo', timeZone: options.timeZone });
  emulator.onOpen(spreadsheetId, { authMode: 'LIMITED' });
  const saved = emulator.callServer(spreadsheetId, 'saveSettings', options.connection) as {
    ok: boolean;
    message?: string;
  };
  if (!saved.ok) throw new Error(`Settings refused the connection: ${saved.message}`);

  const jobStartedAt = performance.now();
  // Equipment first: its import makes the Overview, whose numbers the completions import then writes.
  emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Import equipment types');
  const completionsSummary = importCompletions(emulator, spreadsheetId);
  const recorded = options.demo ? await recordInspections(emulator, spreadsheetId, options.demo) : 0;
  if (options.demo) fillDemoRoster(emulator.workbooks.get(spreadsheetId)!, options.demo.today);
  const catalogued = options.demo ? fillTrainingCatalogue(emulator, spreadsheetId) : 0;
  const jobSeconds = (performance.now() - jobStartedAt) / 1000;
  if (options.demo) fillFormulasTab(emulator, spreadsheetId, options.demo.today);
  return { emulator, spreadsheetId, completionsSummary, recorded, catalogued, jobSeconds };
}

/** Where the demo's digest goes: the mail the scheduled run sends there is the digest. */
const DIGEST_RECIPIENT = 'safety-team@example.com';

/**
 * The e-mail digest the add-on would send: notifications turned on in Settings (daily, to a demo
 * address), a refresh scheduled, and its trigger fired once as Google would. What MailApp recorded is
 * written beside the snapshot, as HTML and as plain text. Returns the paths and the subject.
 */
export function previewDigest(
  run: DemoRun,
  connection: Connection,
  out: string,
): { html: string; text: string; subject: string } | null {
  const { emulator, spreadsheetId } = run;
  const saved = emulator.callServer(spreadsheetId, 'saveSettings', {
    ...connection,
    notifyRecipients: DIGEST_RECIPIENT,
    notifyFrequency: 'daily',
  }) as { ok: boolean; message?: string };
  if (!saved.ok) throw new Error(`Settings refused the notifications: ${saved.message}`);
  emulator.callServer(spreadsheetId, 'saveSchedule', { every: 'daily', atHour: 6 });
  const trigger = emulator.triggers().find((each) => each.spreadsheetId === spreadsheetId);
  if (!trigger) throw new Error('Saving the schedule created no trigger.');
  const sentBefore = emulator.mail.sent.length;
  emulator.fireTrigger(trigger.uid);
  const digest = emulator.mail.sent.slice(sentBefore).find((mail) => mail.to.includes(DIGEST_RECIPIENT));
  if (!digest) return null;
  const base = out.replace(/\.html$/, '');
  const paths = { html: `${base}-digest.html`, text: `${base}-digest.txt` };
  const heading = `To: ${digest.to.join(', ')}\nFrom: ${digest.name ?? ''} <${digest.from}>\nSubject: ${digest.subject}`;
  fs.writeFileSync(paths.text, `${heading}\n\n${digest.body}\n`);
  fs.writeFileSync(paths.html, digest.htmlBody ?? '');
  return { ...paths, subject: digest.subject };
}

function count(values: string[][], column: number, text: string): number {
  return values.filter((row) => row[column] === text).length;
}

/** What the run did, in lines for the terminal: tabs, flagged items, requests and time. */
export function runSummary(run: DemoRun, serviceDescription: string): string[] {
  const { emulator, spreadsheetId } = run;
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  const upcoming = workbook.sheet('Upcoming inspections').displayValues();
  const statusColumn = upcoming[0]!.indexOf('Status');
  const [scheduleHeader = [], ...schedules] = workbook.sheet('Inspection schedules').displayValues();
  const lastInspected = scheduleHeader.indexOf('Last inspected');
  const neverInspected = schedules.filter((row) => row[lastInspected] === '').length;
  const expiring = workbook.sheet('Expiring trainings').displayValues();
  const trainingStatus = expiring[0]!.indexOf('Status');
  const requestsByMethod = new Map<string, number>();
  for (const request of emulator.urlFetch.requests) {
    const method = new URL(request.url).pathname.split('/').pop()!;
    requestsByMethod.set(method, (requestsByMethod.get(method) ?? 0) + 1);
  }
  return [
    `Safety Sync ran in the Apps Script emulator against ${serviceDescription}`,
    '',
    'Tabs:',
    ...workbook
      .sheets()
      .filter((sheet) => !sheet.hidden)
      .map(
        (sheet) => `  ${sheet.name.padEnd(24)} ${String(Math.max(sheet.lastRow - 1, 0)).padStart(7)} rows`,
      ),
    '',
    `Completed trainings: ${run.completionsSummary}`,
    `Inspections flagged: ${count(upcoming, statusColumn, 'Expired')} expired, ${count(upcoming, statusColumn, 'Expiring')} expiring, ` +
      `${neverInspected} with no inspection recorded (after recording ${run.recorded} last inspections by hand)`,
    `Trainings flagged: ${count(expiring, trainingStatus, 'Expired')} expired, ${count(expiring, trainingStatus, 'Expiring')} expiring` +
      ` (after filling in ${run.catalogued} trainings of the catalogue)`,
    `HTTP requests: ${emulator.urlFetch.requests.length} (${[...requestsByMethod].map(([method, n]) => `${n} ${method}`).join(', ')})`,
    `Apps Script service calls: ${emulator.counter.total()}`,
  ];
}

/** The closing lines: what to open, and what the two counts above mean. */
export function whatToOpen(
  snapshot: string,
  digest: { html: string; text: string; subject: string } | null,
): string[] {
  return [
    `Open ${snapshot} in a browser: it is the workbook as the add-on left it, on the tab that was active.`,
    digest
      ? `Open ${digest.html} (or ${digest.text}) to read the e-mail digest the daily refresh would send, "${digest.subject}".`
      : 'The daily refresh would send no e-mail digest: it had nothing to report.',
    'HTTP requests count the calls the add-on made to the service; Google allows 20,000 a day per user (100,000 with Workspace).',
    'Apps Script service calls count its reads and writes of the spreadsheet and its other calls to Google; they take most of the time of a run, which Google stops after 6 minutes.',
  ];
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({
    options: {
      'base-url': { type: 'string' },
      'time-zone': { type: 'string', default: 'Europe/London' },
      people: { type: 'string', default: String(DEMO_DATASET_OPTIONS.users) },
      out: { type: 'string', default: path.join(ROOT, 'out', 'safety-sync-demo.html') },
    },
    strict: true,
  });
  const people = Number(options.people);
  if (!Number.isInteger(people) || people < DEMO_MIN_PEOPLE) {
    throw new Error(`Give --people a whole number of at least ${DEMO_MIN_PEOPLE}.`);
  }
  const startedAt = performance.now();
  await build();
  const baseUrl = options['base-url'];
  const service = baseUrl ? null : await startSampleServiceProcess();
  try {
    const startTime = Date.now();
    let connection: Connection;
    let demo: DemoDataset | null = null;
    if (service) {
      ({ connection, demo } = await createDemoDataset(
        service.url,
        dayIn(options['time-zone'], startTime),
        people,
      ));
    } else {
      const token = process.env['SAFETY_SYNC_TOKEN'];
      if (!token) throw new Error('Set SAFETY_SYNC_TOKEN to the API token when you give --base-url.');
      connection = { baseUrl: baseUrl!, token };
    }
    const run = await runDemo({ connection, demo, startTime, timeZone: options['time-zone'] });
    const source = demo ? `the sample service's demo data (as of ${demo.today})` : 'the service';
    console.log(
      [
        ...runSummary(run, `${source} at ${connection.baseUrl}`),
        `Time: ${run.jobSeconds.toFixed(1)} s for the imports, ${((performance.now() - startedAt) / 1000).toFixed(1)} s in all`,
      ].join('\n'),
    );
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    const digest = previewDigest(run, connection, options.out);
    fs.writeFileSync(options.out, renderWorkbookHtml(run.emulator.workbooks, run.spreadsheetId));
    console.log(['', ...whatToOpen(options.out, digest)].join('\n'));
  } finally {
    await service?.stop();
  }
}

// Run as `npm start`; imported (by its tests), it only defines the steps above.
if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
