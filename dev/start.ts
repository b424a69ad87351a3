/**
 * `npm start`: the add-on's whole job on this machine, with no Google account and no network but
 * loopback. It builds dist/ (what clasp pushes), starts the sample service, opens a new spreadsheet
 * in the Apps Script emulator, connects it through the add-on's own Settings, runs the menu actions
 * a safety manager would, prints a summary and writes an HTML snapshot of the workbook, and beside it
 * the e-mail digest its scheduled refresh would send.
 *
 *   npm start
 *   SAFETY_SYNC_TOKEN=… npm start -- --base-url https://safety.example.com   (a real service)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from './build';
import { createEmulator, type Emulator, loadDist } from './emulator';
import { renderWorkbookHtml } from './emulator/snapshot';
import { type SampleServiceProcess, startSampleServiceProcess } from './sample-service/process';

const ROOT = path.resolve(__dirname, '..');

const { values: options } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    'time-zone': { type: 'string', default: 'Europe/London' },
    completions: { type: 'string', default: '12000' },
    out: { type: 'string', default: path.join(ROOT, 'out', 'safety-sync-demo.html') },
  },
  strict: true,
});

interface Connection {
  baseUrl: string;
  token: string;
}

/** A dataset of the sample service, or the real service named on the command line. */
async function connectionToUse(service: SampleServiceProcess | null): Promise<Connection> {
  if (!service) {
    const token = process.env['SAFETY_SYNC_TOKEN'];
    if (!token) throw new Error('Set SAFETY_SYNC_TOKEN to the API token when you give --base-url.');
    return { baseUrl: options['base-url']!, token };
  }
  const completions = Number(options.completions);
  if (!Number.isInteger(completions) || completions < 0)
    throw new Error('--completions takes a whole number.');
  const response = await fetch(`${service.url}/_admin/datasets`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ seed: 2026, completions, users: 80, equipmentTypes: 40 }),
  });
  const dataset = (await response.json()) as { tokens: { valid: string } };
  return { baseUrl: service.url, token: dataset.tokens.valid };
}

type Step = { done: boolean; summary: string };

/** What a user does in the import dialog: Import, then the dialog continues until all is in. */
function importCompletions(emulator: Emulator, spreadsheetId: string): string {
  emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Import completed trainings…');
  let step = emulator.callServer(spreadsheetId, 'startCompletionsImport', {}) as Step;
  while (!step.done) step = emulator.callServer(spreadsheetId, 'continueCompletionsImport') as Step;
  return step.summary;
}

function isoDaysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * A manager records the last inspection of a few rolling schedules (some long ago, some recently)
 * and asks for the upcoming inspections again: what the status colours are for.
 */
function recordSomeInspections(emulator: Emulator, spreadsheetId: string): number {
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  const rows = workbook.sheet('Inspection schedules').displayValues();
  const header = rows[0]!;
  const timing = header.indexOf('Timing');
  const frequency = header.indexOf('Frequency (days)');
  const lastInspected = header.indexOf('Last inspected');
  const rolling = rows
    .map((row, index) => ({ row, number: index + 1 }))
    .filter(({ row }) => row[timing] === 'rolling' && Number(row[frequency]) > 0)
    .slice(0, 8);
  rolling.forEach(({ row, number }, index) => {
    const days = Number(row[frequency]) + (index % 2 === 0 ? 10 : -2);
    const cell = `'Inspection schedules'!${String.fromCharCode(65 + lastInspected)}${number}`;
    workbook.typeValues(cell, [[isoDaysAgo(days)]]);
  });
  emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Show upcoming inspections');
  return rolling.length;
}

/**
 * A training manager fills in the Trainings tab for the first few trainings (a name, a validity, a
 * required one, a longer expiring window) and asks for the training status again.
 */
function fillTrainingCatalogue(emulator: Emulator, spreadsheetId: string): number {
  const workbook = emulator.workbooks.get(spreadsheetId)!;
  const rows = workbook.sheet('Trainings').displayValues();
  const header = rows[0]!;
  const name = header.indexOf('Name');
  const typed: Array<[string, number | string, string, number | string]> = [
    ['Forklift operation', 36, 'yes', ''],
    ['First aid', 60, 'yes', 90],
    ['Working at height', 48, 'no', ''],
    ['Fire warden', '', 'yes', ''],
  ];
  const filled = typed.slice(0, rows.length - 1);
  const column = (offset: number) => String.fromCharCode(65 + name + offset);
  filled.forEach((cells, index) => {
    workbook.typeValues(`Trainings!${column(0)}${index + 2}:${column(3)}${index + 2}`, [cells]);
  });
  emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Show training status');
  return filled.length;
}

/**
 * One example of each custom function, typed into a "Formulas" tab as a user would: the inputs on
 * top, then each function with the formula as text beside its live result.
 */
function fillFormulasTab(emulator: Emulator, spreadsheetId: string): void {
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
    ['Anchor date', '2024-01-31'],
    ['Last inspected', '2024-03-02'],
    ['Today', isoDaysAgo(0)],
    ['Training ID', `'${trainingId}`],
    ['As of', '2024-03-01'],
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

/**
 * The e-mail digest the add-on would send: notifications turned on in Settings (daily, to a demo
 * address), a refresh scheduled, and its trigger fired once as Google would. What MailApp recorded is
 * written beside the snapshot, as HTML and as plain text. Returns the paths and the subject.
 */
function previewDigest(
  emulator: Emulator,
  spreadsheetId: string,
  connection: Connection,
): { html: string; text: string; subject: string } | null {
  const saved = emulator.callServer(spreadsheetId, 'saveSettings', {
    ...connection,
    notifyRecipients: 'safety-team@example.com',
    notifyFrequency: 'daily',
  }) as { ok: boolean; message?: string };
  if (!saved.ok) throw new Error(`Settings refused the notifications: ${saved.message}`);
  emulator.callServer(spreadsheetId, 'saveSchedule', { every: 'daily', atHour: 6 });
  const trigger = emulator.triggers().find((each) => each.spreadsheetId === spreadsheetId);
  if (!trigger) throw new Error('Saving the schedule created no trigger.');
  emulator.fireTrigger(trigger.uid);
  const digest = emulator.mail.sent.find((mail) => mail.subject.startsWith('Safety Sync digest'));
  if (!digest) return null;
  const base = options.out.replace(/\.html$/, '');
  const paths = { html: `${base}-digest.html`, text: `${base}-digest.txt` };
  const heading = `To: ${digest.to.join(', ')}\nFrom: ${digest.name ?? ''} <${digest.from}>\nSubject: ${digest.subject}`;
  fs.writeFileSync(paths.text, `${heading}\n\n${digest.body}\n`);
  fs.writeFileSync(paths.html, digest.htmlBody ?? '');
  return { ...paths, subject: digest.subject };
}

function count(values: string[][], column: number, text: string): number {
  return values.filter((row) => row[column] === text).length;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  await build();
  const service = options['base-url'] ? null : await startSampleServiceProcess();
  try {
    const connection = await connectionToUse(service);
    // The demo shows the formulas at work: it takes the reading under which Google lets them read the
    // token lent to them (not documented; under the other they say so in their cells, see
    // docs/google-as-it-is.md).
    const emulator = createEmulator({
      ...loadDist(path.join(ROOT, 'dist')),
      startTime: Date.now(),
      readings: { documentStoresInCustomFunction: true },
    });
    const spreadsheetId = emulator.createSpreadsheet({
      name: 'Safety Sync demo',
      timeZone: options['time-zone'],
    });
    emulator.onOpen(spreadsheetId, { authMode: 'LIMITED' });
    const saved = emulator.callServer(spreadsheetId, 'saveSettings', connection) as {
      ok: boolean;
      message?: string;
    };
    if (!saved.ok) throw new Error(`Settings refused the connection: ${saved.message}`);

    const jobStartedAt = performance.now();
    // Equipment first: its import makes the Overview, whose numbers the completions import then writes.
    emulator.clickMenu(spreadsheetId, 'Safety Sync', 'Import equipment types');
    const completionsSummary = importCompletions(emulator, spreadsheetId);
    const recorded = recordSomeInspections(emulator, spreadsheetId);
    const catalogued = fillTrainingCatalogue(emulator, spreadsheetId);
    const jobSeconds = (performance.now() - jobStartedAt) / 1000;
    if (!options['base-url']) fillFormulasTab(emulator, spreadsheetId);

    const workbook = emulator.workbooks.get(spreadsheetId)!;
    const upcoming = workbook.sheet('Upcoming inspections').displayValues();
    const statusColumn = upcoming[0]!.indexOf('Status');
    const expiring = workbook.sheet('Expiring trainings').displayValues();
    const trainingStatus = expiring[0]!.indexOf('Status');
    const requestsByMethod = new Map<string, number>();
    for (const request of emulator.urlFetch.requests) {
      const method = new URL(request.url).pathname.split('/').pop()!;
      requestsByMethod.set(method, (requestsByMethod.get(method) ?? 0) + 1);
    }

    const lines = [
      `Safety Sync ran in the Apps Script emulator against ${options['base-url'] ? 'the service' : 'the sample service'} at ${connection.baseUrl}`,
      '',
      'Tabs:',
      ...workbook
        .sheets()
        .filter((sheet) => !sheet.hidden)
        .map(
          (sheet) => `  ${sheet.name.padEnd(24)} ${String(Math.max(sheet.lastRow - 1, 0)).padStart(7)} rows`,
        ),
      '',
      `Completed trainings: ${completionsSummary}`,
      `Inspections flagged: ${count(upcoming, statusColumn, 'Expired')} expired, ${count(upcoming, statusColumn, 'Expiring')} expiring` +
        ` (after recording ${recorded} last inspections by hand)`,
      `Trainings flagged: ${count(expiring, trainingStatus, 'Expired')} expired, ${count(expiring, trainingStatus, 'Expiring')} expiring` +
        ` (after filling in ${catalogued} trainings of the catalogue)`,
      `HTTP requests: ${emulator.urlFetch.requests.length} (${[...requestsByMethod].map(([method, n]) => `${n} ${method}`).join(', ')})`,
      `Apps Script service calls: ${emulator.counter.total()}`,
      `Time: ${jobSeconds.toFixed(1)} s for the imports, ${((performance.now() - startedAt) / 1000).toFixed(1)} s in all`,
    ];
    console.log(lines.join('\n'));

    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    const digest = previewDigest(emulator, spreadsheetId, connection);
    fs.writeFileSync(options.out, renderWorkbookHtml(emulator.workbooks, spreadsheetId));
    console.log(`\nSnapshot of the workbook: ${options.out}`);
    console.log(
      digest
        ? `E-mail digest it would send ("${digest.subject}"): ${digest.html} and ${digest.text}`
        : 'E-mail digest: nothing to report, so none would be sent.',
    );
  } finally {
    await service?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
